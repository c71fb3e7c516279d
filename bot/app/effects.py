"""Effects: what the Discord layer must do after a command, as plain data.

`TableService` returns them with every accepted command (and the store keeps them in its
outbox until they are shown); the Discord client executes them (announce, which redraws
the board message and adds to the public record; send a prompt; post the sheet) and tests
assert on them without Discord. `effects_for` derives them from the events and from the
state before and after, so a cog never decides whom to prompt. Who sees and speaks in
which channel is not an effect: it is a function of the state (`bot.discord.channels`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial

from bot.store.codec import stored
from bot.words.i18n import tr, translate
from bot.words.markdown import escape, shown
from rules import messages
from rules.corrections import MODERATOR
from rules.cube import Cube, CubeState, Side
from rules.errors import RuleError
from rules.events import (
    Blinded,
    Corrected,
    CorrectionAnswered,
    CorrectionProposed,
    CubeTurned,
    DiceRevealed,
    Event,
    GameAbandoned,
    GameEnded,
    GameHeldOver,
    GameResumed,
    GameStarted,
    HalfAnswered,
    JoinAnswered,
    JoinRequested,
    Moved,
    OddHalfRolled,
    PartnerDeclined,
    PartnerInvited,
    PartnershipSettled,
    PlayerAway,
    PlayerJoined,
    PlayerLeft,
    PointsPaid,
    ProxyAppointed,
    ResignationAnswered,
    ResignationOffered,
    ResultProposed,
    Rolled,
    RollHeld,
    SaleOffered,
    Seated,
    SessionEnded,
    StakeChanged,
    TableOpened,
    TurnAsked,
)
from rules.game import box_consults_fully, waiting_for
from rules.ledger import Transfer
from rules.messages import Phrase
from rules.proxies import stand_in
from rules.state import TableState


@stored
@dataclass(frozen=True)
class Announce:
    """A line for the table's public log in #board (the board message is redrawn with it),
    or for the Box side in #box."""

    text: str
    channel: str = "board"
    record: bool = True  # also a line of #board's public record (not a roll or a play)


@stored
@dataclass(frozen=True)
class Prompt:
    """Ask `player` to answer the cube he holds against `across`; `private`: in a DM."""

    player: str
    across: str
    face: int
    actions: tuple[str, ...]
    private: bool
    about: str = ""  # what is asked, when not a double ("resigns a gammon")
    to: str = ""  # who is asked, when someone answers for `player` (his proxy, the Captain)


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


def event_line(event: Event, n: Callable[[str], str] = str, locale: object = None) -> str | None:
    """The public log line for `event` (None for bookkeeping events), the players named
    by `n` (their names at the table; the keys themselves by default), in `locale`'s
    language (the table's: everyone reads it)."""
    match event:
        case TableOpened(preset, mode, _, basic, _, _):
            if basic:
                return tr("A table is open under the {preset} rules ({mode} mode, basic stake "
                          "{basic}).", locale, preset=preset, mode=mode, basic=escape(basic))
            return tr("A table is open under the {preset} rules ({mode} mode).", locale,
                      preset=preset, mode=mode)
        case Blinded(player, True, _):
            return tr("A moderator blinds {player}: {player} no longer sees this table's "
                      "channels.", locale, player=n(player))
        case Blinded(player, False, _):
            return tr("A moderator gives {player} sight of this table again.", locale,
                      player=n(player))
        case PlayerJoined(player, stake, waiting, display):
            name = escape(display) if display else n(player)
            if stake > 1:
                return (tr("{player} joins after this game at {stake}x stakes.", locale,
                           player=name, stake=stake) if waiting else
                        tr("{player} joins at {stake}x stakes.", locale, player=name,
                           stake=stake))
            return (tr("{player} joins after this game.", locale, player=name) if waiting
                    else tr("{player} joins.", locale, player=name))
        case JoinRequested(player, stake, display):
            name = escape(display) if display else n(player)
            if stake > 1:
                return tr("{player} asks to join at {stake}x stakes: the table decides.",
                          locale, player=name, stake=stake)
            return tr("{player} asks to join: the table decides.", locale, player=name)
        case JoinAnswered(player, by, admitted):
            return (tr("{by} admits {player}.", locale, by=n(by), player=n(player)) if admitted
                    else tr("{by} objects to {player}.", locale, by=n(by), player=n(player)))
        case PlayerLeft(player, after_game, payments):
            paid = "".join(f" {paid_line(t, n, locale)}." for t in payments)
            return (tr("{player} leaves after this game.", locale, player=n(player))
                    if after_game else tr("{player} leaves.", locale, player=n(player))) + paid
        case PartnerInvited(player):
            return tr("The Box invites {player} to be Partner.", locale, player=n(player))
        case PartnerDeclined(player):
            return tr("{player} declines to be Partner.", locale, player=n(player))
        case TurnAsked("raccoon", player, across):
            return tr("{player} asks {other} to agree to a raccoon.", locale, player=n(player),
                      other=n(across))
        case TurnAsked(_, player, across):
            return tr("{player} asks {other} to agree to an aardvark.", locale, player=n(player),
                      other=n(across))
        case SaleOffered(seller, buyer):
            return tr("{seller} offers their game to {buyer}.", locale, seller=n(seller),
                      buyer=n(buyer))
        case StakeChanged(player, stake):
            return tr("{player} now plays at {stake}x stakes.", locale, player=n(player),
                      stake=stake)
        case PlayerAway(player, away, disconnected):
            if disconnected:
                return tr("{player} is disconnected.", locale, player=n(player))
            return (tr("{player} is away.", locale, player=n(player)) if away
                    else tr("{player} is back.", locale, player=n(player)))
        case ProxyAppointed(player, proxy):
            return (tr("{proxy} acts for {player}.", locale, proxy=n(proxy), player=n(player))
                    if proxy else
                    tr("{player} acts for themselves again.", locale, player=n(player)))
        case Seated(seating, reason, rolls) if seating is not None:
            why = (reason.text(n, partial(translate, locale=locale))
                   if isinstance(reason, Phrase) else reason)  # stored before: as it is
            then = translate("Then", locale)
            thrown = f" {then} ".join(", ".join(f"{n(p)} {'-'.join(map(str, dice))}"
                                         for p, dice in round_) for round_ in rolls)
            dice = tr("The dice for seats: {rolls}.", locale, rolls=thrown) + " " if thrown else ""
            team = ", ".join(map(n, seating.team))
            if seating.partner:
                return dice + tr("Seats ({why}): Box {box}, Partner {partner}; Team {team} "
                                 "(Captain {captain}).", locale, why=why, box=n(seating.box),
                                 partner=n(seating.partner), team=team,
                                 captain=n(seating.captain))
            return dice + tr("Seats ({why}): Box {box}; Team {team} (Captain {captain}).",
                             locale, why=why, box=n(seating.box), team=team,
                             captain=n(seating.captain))
        case GameStarted(number, _, autos, _, on_roll, dice, _, committed):
            line = tr("Game {number} begins", locale, number=number)
            if autos:
                line += tr(", {count} automatic double(s)", locale, count=autos)
            if dice and on_roll:
                roll = f"{dice[0]}-{dice[1]}"
                line += (tr("; the Box starts with {dice}", locale, dice=roll)
                         if on_roll is Side.BOX else
                         tr("; the Team starts with {dice}", locale, dice=roll))
            if committed:
                line += ". " + tr("The dice come from a secret seed whose SHA-256 is "
                                  "`{commitment}`; it is revealed when the game ends.", locale,
                                  commitment=committed)
                return line
            return line + "."
        case CorrectionProposed(number, _, by, reason, transfer, needs):
            who = ", ".join(translate("a second moderator", locale) if p == MODERATOR else n(p)
                            for p in needs)
            what = (paid_line(transfer, n, locale) if transfer is not None
                    else translate("take back the last checker play and what followed it",
                                   locale))
            line = tr("{by} proposes correction {number}: {what} (reason: {reason}).", locale,
                      by=n(by), number=number, what=what, reason=reason)
            if not needs:
                return line
            return line + " " + (tr("It is made once {who} agrees.", locale, who=who)
                                 if len(needs) == 1 else
                                 tr("It is made once {who} agree.", locale, who=who))
        case CorrectionAnswered(number, player, approved):
            who = (translate("A second moderator", locale) if player == MODERATOR
                   else n(player))
            return (tr("{who} agrees to correction {number}.", locale, who=who, number=number)
                    if approved else
                    tr("{who} refuses correction {number}.", locale, who=who, number=number))
        case Corrected(number):
            return tr("Correction {number} is made.", locale, number=number)
        case DiceRevealed(number, seed):
            return tr("Game {number}'s dice seed was `{seed}`: `/chouette verify "
                      "game:{number}` (or `python -m bot verify`) recomputes every roll from "
                      "it.", locale, number=number, seed=seed)
        case CubeTurned(cube, action, by, why):
            return cube_line(cube, action, by, n, locale, why)
        case PointsPaid(t):
            return f"{paid_line(t, n, locale)}."
        case Rolled(side, dice, passed):
            roll = f"{dice[0]}-{dice[1]}"
            if side is Side.BOX:
                return (tr("Box rolls {dice}: no legal play.", locale, dice=roll) if passed
                        else tr("Box rolls {dice}.", locale, dice=roll))
            return (tr("Team rolls {dice}: no legal play.", locale, dice=roll) if passed
                    else tr("Team rolls {dice}.", locale, dice=roll))
        case Moved(side, play, _):
            return (tr("Box plays {play}.", locale, play=play) if side is Side.BOX
                    else tr("Team plays {play}.", locale, play=play))
        case GameEnded(winner, kind, _, _, choices, paid):
            line = (tr("The Box wins ({kind}).", locale, kind=translate(kind, locale))
                    if winner is Side.BOX else
                    tr("The Team wins ({kind}).", locale, kind=translate(kind, locale)))
            if paid:
                line += " " + tr("Paid at the table to settle those who leave (Atlanta 10.2): "
                                 "{payments}.", locale,
                                 payments="; ".join(paid_line(t, n, locale) for t in paid))
            for choice, player in choices:
                line += " " + (tr("{player} may captain instead of staying Partner (Atlanta "
                                  "6.4).", locale, player=n(player)) if choice == "captain"
                               else tr("{player} may play without a Partner (6.3).", locale,
                                       player=n(player)))
            return line
        case OddHalfRolled(dice):
            if len(dice) != 2:
                return translate("No roll came for the odd half point: it goes to the shooter "
                                 "(FIBS §2 ¶2, as on an even roll).", locale)
            roll = f"{dice[0]}-{dice[1]}"
            return (tr("The odd half point goes by the roll {dice}: to the shooter (FIBS §2 "
                       "¶2).", locale, dice=roll) if sum(dice) % 2 == 0 else
                    tr("The odd half point goes by the roll {dice}: to the Partner (FIBS §2 "
                       "¶2).", locale, dice=roll))
        case HalfAnswered(player, action):
            if action == "take":
                return tr("{player} answers for their half: take (FIBS §2 ¶11).", locale,
                          player=n(player))
            if action == "drop":
                return tr("{player} answers for their half: drop (FIBS §2 ¶11).", locale,
                          player=n(player))
            return f"{n(player)} answers for their half: {action} (FIBS §2 ¶11)."
        case PartnershipSettled(holder, True):
            return tr("{player} plays on alone for their half; the other dropped theirs (FIBS "
                      "§2 ¶11).", locale, player=n(holder))
        case GameHeldOver(player):
            return tr("{player} is gone: the game is put on hold, to be played out when "
                      "{player} is back (FIBS §6). The table goes on as if the other side had "
                      "won.", locale, player=n(player))
        case GameResumed(number):
            return tr("Game {number} is played out now; then the table sits as it was.",
                      locale, number=number)
        case ResultProposed(winner, kind, by, side, _, waiting):
            said = (tr("{by} gives the result: the Box wins ({kind}).", locale, by=n(by),
                       kind=translate(kind, locale)) if winner is Side.BOX else
                    tr("{by} gives the result: the Team wins ({kind}).", locale, by=n(by),
                       kind=translate(kind, locale)))
            button = translate("Confirm the result", locale)  # the board's button
            if waiting:  # FIBS §4 ¶1c
                ends = tr("The game ends when {players} agree too ({button}, or the same "
                          "`/chouette result`).", locale,
                          players=", ".join(map(n, waiting)), button=button)
            elif side is Side.BOX:
                ends = tr("The game ends when the Captain confirms it ({button}, or the same "
                          "`/chouette result`).", locale, button=button)
            else:
                ends = tr("The game ends when the Box side confirms it ({button}, or the same "
                          "`/chouette result`).", locale, button=button)
            return f"{said} {ends}"
        case GameAbandoned():
            return translate("A moderator ends the session during the game: its points paid "
                             "so far stand, the cubes still in it are void.", locale)
        case SessionEnded(payments):
            owed = "; ".join(paid_line(t, n, locale) for t in payments)
            return (translate("The session is over.", locale) + " "
                    + (owed or translate("Nobody owes anything.", locale)))
        case RollHeld(player, held):
            return (tr("{player} holds the roll.", locale, player=n(player)) if held
                    else tr("{player} releases the roll.", locale, player=n(player)))
        case ResignationOffered(player, side, kind):
            if side is Side.BOX:
                return tr("The Box offers to resign a {kind} on {player}'s cube.", locale,
                          kind=translate(kind, locale), player=n(player))
            return tr("{player} offers to resign a {kind} on {player}'s cube.", locale,
                      kind=translate(kind, locale), player=n(player))
        case ResignationAnswered(player, accepted):
            return (tr("The resignation on {player}'s cube is accepted.", locale,
                       player=n(player)) if accepted else
                    tr("The resignation on {player}'s cube is rejected.", locale,
                       player=n(player)))
    return None


def paid_line(t: Transfer, n: Callable[[str], str] = str, locale: object = None) -> str:
    """A transfer in words, "Ann pays Bob 2½" (`Transfer.phrase`), in `locale`'s language."""
    return t.phrase(n, words=partial(translate, locale=locale))


KINDS = ("single", "gammon", "backgammon")  # a game's result, translated in the record

TURNED = {  # what a cube's turn is called in the record (CubeTurned.action as stored)
    "double": "{by}: double ({team} v {box}, cube {face}).",
    "take": "{by}: take ({team} v {box}, cube {face}).",
    "drop": "{by}: drop ({team} v {box}, cube {face}).",
    "beaver": "{by}: beaver ({team} v {box}, cube {face}).",
    "raccoon": "{by}: raccoon ({team} v {box}, cube {face}).",
    "aardvark": "{by}: aardvark ({team} v {box}, cube {face}).",
    "extra": "{by}: extra ({team} v {box}, cube {face}).",
    "drop after all": "{by}: drop after all ({team} v {box}, cube {face}).",
    "extra lapses": "{by}: extra lapses ({team} v {box}, cube {face}).",
    "double withdrawn": "{by}: double withdrawn ({team} v {box}, cube {face}).",
    "frozen (penalty)": "{by}: frozen (penalty) ({team} v {box}, cube {face}).",
    "washed (penalty)": "{by}: washed (penalty) ({team} v {box}, cube {face}).",
    "taken by the Box (penalty)": "{by}: taken by the Box (penalty) ({team} v {box}, cube "
                                  "{face}).",
    "taken against him (penalty)": "{by}: taken against the offender (penalty) ({team} v "
                                   "{box}, cube {face}).",  # as stored before
    "taken against the offender (penalty)": "{by}: taken against the offender (penalty) "
                                            "({team} v {box}, cube {face}).",
    "beaver (lone taker, Villages 8)": "{by}: beaver (lone taker, Villages 8) ({team} v {box}, "
                                       "cube {face}).",
}


# a cube's turn with figures of its own: `action` a Phrase of the rules' catalogue
WITH_FIGURES = "{by}: {action} ({team} v {box}, cube {face})."


def cube_line(cube: Cube, action: str | Phrase, by: str, n: Callable[[str], str],
              locale: object, why: str = "") -> str:
    """A cube's turn in the record: "Bo: double (Ann v Bo, cube 2)."; an action with
    figures of its own (a settlement, a sale, a roll-off) is a `Phrase` of the rules'
    catalogue, written with its players named; `why` says who answered for `by` ("Bo
    (timed out)"). An action stored before it was data is shown in its words, as then."""
    words = partial(translate, locale=locale)
    who = (messages.text(why, {"player": messages.Player(by)}, n, words)
           if why in messages.MESSAGES else n(by))
    fields: dict[str, object] = {"by": who, "team": n(cube.team_player),
                                 "box": n(cube.box_player), "face": cube.face}
    if isinstance(action, Phrase):
        return tr(WITH_FIGURES, locale, action=action.text(n, words), **fields)
    template = TURNED.get(action)
    if template is not None:
        return tr(template, locale, **fields)
    return WITH_FIGURES.format(action=action, **fields)  # stored before: as it is


def _box_side_notices(before: TableState, after: TableState,
                      events: tuple[Event, ...]) -> list[Effect]:
    """What the Box and the Partner may discuss, told in #box (Atlanta 3.3, 3.4), in the
    table's language."""
    seating, rules, locale = after.seating, after.rules, after.language
    if seating is None or seating.partner is None or after.game is None:
        return []
    notes: list[Effect] = []
    cubes = rules.box_consult_after_cubes
    if any(isinstance(e, GameStarted) for e in events):
        fully = box_consults_fully(after)
        if rules.box_cube_consult:
            text = (translate("You may always discuss cube decisions here (Atlanta 3.4); and "
                              "checker plays too.", locale) if fully else
                    tr("You may always discuss cube decisions here (Atlanta 3.4); checker "
                       "plays once {cubes} cubes are turned (3.3).", locale, cubes=cubes))
        else:
            text = (translate("No discussion of cube decisions; and checker plays too.", locale)
                    if fully else
                    tr("No discussion of cube decisions; checker plays once {cubes} cubes are "
                       "turned (3.3).", locale, cubes=cubes))
        notes.append(Announce(text, channel="box"))
    elif box_consults_fully(after) and not box_consults_fully(before):
        notes.append(Announce(tr("{cubes} cube(s) turned: Box and Partner may now discuss "
                                 "checker plays too.", locale, cubes=cubes), channel="box"))
    return notes


Refusal = RuleError | Outcome  # what a player is told he may not do, in words when shown


def namer(state: TableState, users: Mapping[str, str] | None = None) -> Callable[[str], str]:
    """How a message written now names a player by his key: his name at the table (players
    who left too), else the name of a user the interaction names (by id), else the key."""
    def name(key: str) -> str:
        return shown(state, key) if state.shown(key) != key else (users or {}).get(key, key)
    return name


def answerer(state: TableState, player: str) -> str | None:
    """Who is asked for `player`'s decision: his stand-in while he is away (None if nobody
    stands in), else he."""
    member = state.member(player)
    return stand_in(state, player) if member is not None and member.away else player


def effects_for(before: TableState, after: TableState,
                events: tuple[Event, ...]) -> tuple[Effect, ...]:
    """The effects of a command that turned `before` into `after` through `events`; what
    they say is in the table's language (`TableState.language`, English where unset)."""
    locale = after.language
    out: list[Effect] = [
        Announce(text, record=not isinstance(e, Rolled | Moved))
        for e in events if (text := event_line(e, lambda p: shown(after, p), locale))]
    old = {(p, c.team_player, c.box_player, c.state) for p, c in waiting_for(before)}
    gone = {e.player for e in events if isinstance(e, PlayerAway) and e.away}
    for player, cube in waiting_for(after):
        if ((player, cube.team_player, cube.box_player, cube.state) in old
                and player not in gone
                and answerer(before, player) == answerer(after, player)):
            continue  # asked already, of the same player or stand-in
        side = cube.side_of(player)
        if side is Side.BOX and cube.state is CubeState.OFFERED and not cube.is_extra:
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
                              private=side is Side.BOX,
                              about=tr("resigns a {kind}", locale, kind=translate(kind, locale))))
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
