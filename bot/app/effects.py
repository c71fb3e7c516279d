"""Effects: what the Discord layer must do after a command, as plain data.

`TableService` returns them with every accepted command (and the store keeps them in its
outbox until they are shown); the Discord client executes them (announce, which redraws
the board message and adds to the public record; send a prompt; post the sheet) and tests
assert on them without Discord. `effects_for` derives them from the events and from the
state before and after, so a cog never decides whom to prompt. They hold what happened, not
words: the words are written when they are shown (`Announce.words`, `bot.words.lines`), in
the language of that moment. Who sees and speaks in which channel is not an effect: it is a
function of the state (`bot.discord.channels`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from bot.store.codec import stored
from bot.words.lines import announced, event_line
from bot.words.markdown import namer
from bot.words.phrases import notice_line, resigns
from rules import messages
from rules.answers import answered_as_a_set
from rules.cube import Side
from rules.cube_state import CubeState
from rules.errors import RuleError
from rules.events import (
    Corrected,
    CorrectionProposed,
    Event,
    GameEnded,
    GameHeldOver,
    GameStarted,
    Moved,
    Rolled,
)
from rules.game import box_consults_fully, waiting_for
from rules.proxies import answerer
from rules.state import TableState
from rules.table_events import PlayerAway, SessionEnded


@stored
@dataclass(frozen=True)
class Announce:
    """A line for the table's public log in #board (the board message is redrawn with it),
    or for the Box side in #box: what happened (`event`) or a notice (`notice`, its code,
    with its `fields`), put in words when it is shown (`words`). `text`: the words of a line
    stored before they were written then, shown as they are."""

    text: str = ""
    channel: str = "board"
    record: bool = True  # also a line of #board's public record (not a roll or a play)
    event: Event | None = None
    notice: str = ""
    fields: Mapping[str, object] = field(default_factory=dict)

    def words(self, state: TableState, locale: object) -> str:
        """What it says, in `locale`'s language, the players named as `state` names them."""
        if self.event is not None:
            return event_line(self.event, namer(state), locale) or ""
        if self.notice:
            return notice_line(self.notice, self.fields, locale)
        return self.text


@stored
@dataclass(frozen=True)
class Prompt:
    """Ask `player` to answer the cube he holds against `across`; `private`: in a DM."""

    player: str
    across: str
    face: int
    actions: tuple[str, ...]
    private: bool
    about: str = ""  # stored before `resigns`: what was asked, in words
    to: str = ""  # who is asked, when someone answers for `player` (his proxy, the Captain)
    resigns: str = ""  # asked about a resignation of this kind ("gammon"), not a double

    @property
    def is_resignation(self) -> bool:
        """Whether it asks about a resignation, not a double."""
        return bool(self.resigns or self.about)

    def resignation(self, locale: object) -> str:
        """What is asked about a resignation ("resigns a gammon"), in `locale`'s language;
        "" for a double."""
        return resigns(self.resigns, locale) if self.resigns else self.about


@stored
@dataclass(frozen=True)
class PostSheet:
    """Post the score sheet (after a game, a score correction, and at the end with the
    breakdown)."""

    final: bool = False
    correction: int = 0  # the correction it follows, if any


Effect = Announce | Prompt | PostSheet


@stored
@dataclass(frozen=True)
class Outcome:
    """What a command did: accepted with its effects, or refused with a reason. The events
    themselves are in the store; this is what the same command key returns again."""

    accepted: bool
    reason: str = ""  # a refusal's words, with the players' keys (`str` of the RuleError)
    effects: tuple[Effect, ...] = ()
    version: int = 0  # the table's version after it: its effects are delivered up to there
    code: str = ""  # a refusal's code in rules/messages.py ("": its words are `reason`)
    params: Mapping[str, object] = field(default_factory=dict)

    def text(self, name: Callable[[str], str] = str, words: messages.Words = str) -> str:
        """The refusal in words, each player named `name(key)` (see `RuleError.text`)."""
        return messages.text(self.code, self.params, name, words) if self.code else self.reason


def _box_side_notices(before: TableState, after: TableState,
                      events: tuple[Event, ...]) -> list[Effect]:
    """What the Box and the Partner may discuss, told in #box (Atlanta 3.3, 3.4): notices by
    their codes (`bot.words.phrases.notice_line` writes them)."""
    seating, rules = after.seating, after.rules
    if seating is None or seating.partner is None or after.game is None:
        return []
    cubes = {"cubes": rules.box_consult_after_cubes}
    if any(isinstance(e, GameStarted) for e in events):
        fully = box_consults_fully(after)
        if rules.box_cube_consult:
            notice = "consult_all" if fully else "consult_cubes"
        else:
            notice = "no_cube_talk_all" if fully else "no_cube_talk"
        return [Announce(notice=notice, fields=cubes, channel="box")]
    if box_consults_fully(after) and not box_consults_fully(before):
        return [Announce(notice="consult_now", fields=cubes, channel="box")]
    return []


Refusal = RuleError | Outcome  # what a player is told he may not do, in words when shown


def effects_for(before: TableState, after: TableState,
                events: tuple[Event, ...]) -> tuple[Effect, ...]:
    """The effects of a command that turned `before` into `after` through `events`: what
    happened, without words (they are written when it is shown)."""
    out: list[Effect] = [Announce(event=e, record=not isinstance(e, Rolled | Moved))
                         for e in events if announced(e)]
    old = {(p, c.team_player, c.box_player, c.state) for p, c in waiting_for(before)}
    gone = {e.player for e in events if isinstance(e, PlayerAway) and e.away}
    for player, cube in waiting_for(after):
        if ((player, cube.team_player, cube.box_player, cube.state) in old
                and player not in gone
                and answerer(before, player) == answerer(after, player)):
            continue  # asked already, of the same player or stand-in
        side = cube.side_of(player)
        if answered_as_a_set(player, cube):
            continue  # the Box answers the Team's doubles as a set, from the board
        actions: tuple[str, ...] = ("take", "drop")
        if cube.state is CubeState.OFFERED and after.rules.beavers:
            actions += ("beaver",)
        elif cube.state is CubeState.BEAVERED and after.rules.raccoons != "never":
            actions += ("raccoon",)
        elif cube.state is CubeState.RACCOONED and after.rules.aardvarks != "never":
            actions += ("aardvark",)
        if cube.is_extra and cube.state is CubeState.OFFERED:
            actions += ("retract",)  # Atlanta 5.7: drop the Box's double after all
        by = answerer(after, player)  # an away player's decision goes to his stand-in
        out.append(Prompt(player, cube.player(side.other), cube.face, actions,
                          private=side is Side.TEAM, to="" if by in (player, None) else by))
    offered = {(p, side) for p, side, _ in before.game.resignations} if before.game else set()
    if after.game is not None and after.seating is not None:
        for player, side, kind in after.game.resignations:
            if (player, side) in offered:
                continue
            face = next((c.face for c in after.game.cubes if c.team_player == player), 1)
            who, across = ((player, after.seating.box) if side is Side.BOX
                           else (after.seating.box, player))
            out.append(Prompt(who, across, face, ("accept", "reject"),
                              private=side is Side.BOX, resigns=kind))
    out += _box_side_notices(before, after, events)
    proposed = {e.number: e for e in events if isinstance(e, CorrectionProposed)}
    proposed.update({p.number: p for p, _ in before.proposals})
    rescored = [e.number for e in events
                if isinstance(e, Corrected) and proposed[e.number].transfer]
    if any(isinstance(e, GameEnded | GameHeldOver) for e in events):
        out.append(PostSheet())
    elif rescored:
        out.append(PostSheet(correction=rescored[-1]))
    if any(isinstance(e, SessionEnded) for e in events):
        out.append(PostSheet(final=True))
    return tuple(out)
