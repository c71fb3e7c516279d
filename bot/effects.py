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

from bot.markdown import escape, shown
from rules import messages
from rules.corrections import MODERATOR, describe_correction
from rules.cube import CubeState, Side
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
    Seated,
    SessionEnded,
    StakeChanged,
    TableOpened,
)
from rules.game import box_consults_fully, waiting_for
from rules.messages import Phrase
from rules.proxies import stand_in
from rules.state import TableState


@dataclass(frozen=True)
class Announce:
    """A line for the table's public log in #board (the board message is redrawn with it),
    or for the Box side in #box."""

    text: str
    channel: str = "board"
    record: bool = True  # also a line of #board's public record (not a roll or a play)


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


@dataclass(frozen=True)
class PostSheet:
    """Post the score sheet (after a game, a score correction, and at the end with the
    breakdown)."""

    final: bool = False
    correction: int = 0  # the correction it follows, if any


Effect = Announce | Prompt | PostSheet


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


def event_line(event: Event, n: Callable[[str], str] = str) -> str | None:
    """The public log line for `event` (None for bookkeeping events), the players named
    by `n` (their names at the table; the keys themselves by default)."""
    match event:
        case TableOpened(preset, mode, _, basic, _):
            stake = f", basic stake {escape(basic)}" if basic else ""
            return f"A table is open under the {preset} rules ({mode} mode{stake})."
        case Blinded(player, True, _):
            return (f"A moderator blinds {n(player)}: {n(player)} no longer sees this "
                    "table's channels.")
        case Blinded(player, False, _):
            return f"A moderator gives {n(player)} sight of this table again."
        case PlayerJoined(player, stake, waiting, display):
            when = " after this game" if waiting else ""
            name = escape(display) if display else n(player)
            return f"{name} joins{when}" + (f" at {stake}x stakes." if stake > 1 else ".")
        case JoinRequested(player, stake, display):
            at = f" at {stake}x stakes" if stake > 1 else ""
            name = escape(display) if display else n(player)
            return f"{name} asks to join{at}: the table decides."
        case JoinAnswered(player, by, admitted):
            return f"{n(by)} {'admits' if admitted else 'objects to'} {n(player)}."
        case PlayerLeft(player, after_game, payments):
            paid = "".join(f" {t.phrase(n)}." for t in payments)
            return f"{n(player)} leaves" + (" after this game." if after_game else ".") + paid
        case PartnerDeclined(player):
            return f"{n(player)} declines to be Partner."
        case StakeChanged(player, stake):
            return f"{n(player)} now plays at {stake}x stakes."
        case PlayerAway(player, away, disconnected):
            return (f"{n(player)} is "
                    f"{'disconnected' if disconnected else 'away' if away else 'back'}.")
        case ProxyAppointed(player, proxy):
            return (f"{n(proxy)} acts for {n(player)}." if proxy
                    else f"{n(player)} acts for themselves again.")
        case Seated(seating, reason, rolls) if seating is not None:
            partner = f", Partner {n(seating.partner)}" if seating.partner else ""
            why = reason.text(n) if isinstance(reason, Phrase) else reason
            thrown = " Then ".join(", ".join(f"{n(p)} {'-'.join(map(str, dice))}"
                                             for p, dice in round_) for round_ in rolls)
            return ((f"The dice for seats: {thrown}. " if thrown else "")
                    + f"Seats ({why}): Box {n(seating.box)}{partner}; Team "
                    f"{', '.join(map(n, seating.team))} (Captain {n(seating.captain)}).")
        case GameStarted(number, _, autos, _, on_roll, dice, _, committed):
            auto = f", {autos} automatic double(s)" if autos else ""
            first = (f"; {'the Box' if on_roll is Side.BOX else 'the Team'} starts with "
                     f"{dice[0]}-{dice[1]}" if dice and on_roll else "")
            pledge = (f" The dice come from a secret seed whose SHA-256 is `{committed}`; it "
                      "is revealed when the game ends." if committed else "")
            return f"Game {number} begins{auto}{first}.{pledge}"
        case CorrectionProposed(number, _, by, reason, _, needs):
            who = ", ".join("a second moderator" if p == MODERATOR else n(p) for p in needs)
            wait = f" It is made once {who} agree{'s' if len(needs) == 1 else ''}." if needs else ""
            return (f"{n(by)} proposes correction {number}: {describe_correction(event, n)} "
                    f"(reason: {reason}).{wait}")
        case CorrectionAnswered(number, player, approved):
            who = "A second moderator" if player == MODERATOR else n(player)
            return f"{who} {'agrees to' if approved else 'refuses'} correction {number}."
        case Corrected(number):
            return f"Correction {number} is made."
        case DiceRevealed(number, seed):
            return (f"Game {number}'s dice seed was `{seed}`: `/chouette verify game:{number}` "
                    "(or `python -m bot verify`) recomputes every roll from it.")
        case CubeTurned(cube, action, by):
            return (f"{n(by)}: {action} ({n(cube.team_player)} v {n(cube.box_player)}, "
                    f"cube {cube.face}).")
        case PointsPaid(t):
            return f"{t.phrase(n)}."
        case Rolled(side, dice, passed):
            who = "Box" if side is Side.BOX else "Team"
            return f"{who} rolls {dice[0]}-{dice[1]}" + (": no legal play." if passed else ".")
        case Moved(side, play, _):
            return f"{'Box' if side is Side.BOX else 'Team'} plays {play}."
        case GameEnded(winner, kind, _, _, choices, paid):
            settled = (" Paid at the table to settle those who leave (Atlanta 10.2): "
                       + "; ".join(t.phrase(n) for t in paid) + ".") if paid else ""
            offers = settled + "".join(
                f" {n(player)} may captain instead of staying Partner (Atlanta 6.4)."
                if choice == "captain" else f" {n(player)} may play without a Partner (6.3)."
                for choice, player in choices)
            return f"{'The Box' if winner is Side.BOX else 'The Team'} wins ({kind}).{offers}"
        case OddHalfRolled(dice):
            if len(dice) != 2:
                return ("No roll came for the odd half point: it goes to the shooter "
                        "(FIBS §2 ¶2, as on an even roll).")
            goes = "the shooter" if sum(dice) % 2 == 0 else "the Partner"
            return (f"The odd half point goes by the roll {dice[0]}-{dice[1]}: to {goes} "
                    "(FIBS §2 ¶2).")
        case HalfAnswered(player, action):
            return f"{n(player)} answers for their half: {action} (FIBS §2 ¶11)."
        case PartnershipSettled(holder, True):
            return (f"{n(holder)} plays on alone for their half; the other dropped theirs (FIBS "
                    "§2 ¶11).")
        case GameHeldOver(player):
            return (f"{n(player)} is gone: the game is put on hold, to be played out when he "
                    "is back (FIBS §6). The table goes on as if the other side had won.")
        case GameResumed(number):
            return f"Game {number} is played out now; then the table sits as it was."
        case ResultProposed(winner, kind, by, side, _, waiting):
            other = (", ".join(map(n, waiting)) + " agree too" if waiting else  # FIBS §4 ¶1c
                     f"{'the Captain' if side is Side.BOX else 'the Box side'} confirms it")
            return (f"{n(by)} gives the result: {'the Box' if winner is Side.BOX else 'the Team'}"
                    f" wins ({kind}). The game ends when {other} (Confirm the "
                    "result, or the same `/chouette result`).")
        case GameAbandoned():
            return ("A moderator ends the session during the game: its points paid so far "
                    "stand, the cubes still in it are void.")
        case SessionEnded(payments):
            owed = "; ".join(t.phrase(n) for t in payments)
            return "The session is over. " + (owed or "Nobody owes anything.")
        case RollHeld(player, held):
            return f"{n(player)} {'holds' if held else 'releases'} the roll."
        case ResignationOffered(player, side, kind):
            who = "The Box" if side is Side.BOX else n(player)
            return f"{who} offers to resign a {kind} on {n(player)}'s cube."
        case ResignationAnswered(player, accepted):
            answer = "accepted" if accepted else "rejected"
            return f"The resignation on {n(player)}'s cube is {answer}."
    return None


def _box_side_notices(before: TableState, after: TableState,
                      events: tuple[Event, ...]) -> list[Effect]:
    """What the Box and his Partner may discuss, told in #box (Atlanta 3.3, 3.4)."""
    seating, rules = after.seating, after.rules
    if seating is None or seating.partner is None or after.game is None:
        return []
    notes: list[Effect] = []
    if any(isinstance(e, GameStarted) for e in events):
        cubes = ("You may always discuss cube decisions here (Atlanta 3.4)"
                 if rules.box_cube_consult else "No discussion of cube decisions")
        plays = ("and checker plays too" if box_consults_fully(after) else
                 f"checker plays once {rules.box_consult_after_cubes} cubes are turned (3.3)")
        notes.append(Announce(f"{cubes}; {plays}.", channel="box"))
    elif box_consults_fully(after) and not box_consults_fully(before):
        notes.append(Announce(f"{rules.box_consult_after_cubes} cube(s) turned: Box and "
                              "Partner may now discuss checker plays too.", channel="box"))
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
    """The effects of a command that turned `before` into `after` through `events`."""
    out: list[Effect] = [
        Announce(text, record=not isinstance(e, Rolled | Moved))
        for e in events if (text := event_line(e, lambda p: shown(after, p)))]
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
                              private=side is Side.BOX, about=f"resigns a {kind}"))
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
