"""The record's words: each event's line in #board, a cube's turn, a payment, a notice to
the Box side. They are written when they are shown (the outbox keeps what happened, not
words), in the language of that moment, the players named as the table names them (`namer`).

`event_line` finds an event's line among the subjects below (`LINES`, each registered for its
event types by `_lines`); `announced` says whether an event has one without writing it, for
the application to decide what a command announces.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from bot.words.i18n import tr, translate, trn
from bot.words.markdown import escape
from bot.words.phrases import cube_line, mode_words, paid_line
from rules.corrections import MODERATOR
from rules.cube import Side
from rules.events import (
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
    Moved,
    OddHalfRolled,
    PartnershipSettled,
    PointsPaid,
    ResignationAnswered,
    ResignationOffered,
    ResultProposed,
    Rolled,
    RollHeld,
    SaleOffered,
    TurnAsked,
)
from rules.game import odd_half
from rules.messages import Phrase
from rules.table_events import (
    Blinded,
    JoinAnswered,
    JoinRequested,
    PartnerDeclined,
    PartnerInvited,
    PlayerAway,
    PlayerJoined,
    PlayerLeft,
    ProxyAppointed,
    Seated,
    SessionEnded,
    StakeChanged,
    TableOpened,
)

Namer = Callable[[str], str]
Line = Callable[[Any, Namer, object], "str | None"]
LINES: dict[type, Line] = {}  # an event type -> the subject that writes its line


def _lines(*kinds: type) -> Callable[[Line], Line]:
    """Registers a subject's function as the writer of `kinds`' lines."""
    def register(write: Line) -> Line:
        LINES.update(dict.fromkeys(kinds, write))
        return write
    return register


def event_line(event: Event, n: Namer = str, locale: object = None) -> str | None:
    """The public log line for `event` (None for bookkeeping events), the players named
    by `n` (their names at the table; the keys themselves by default), in `locale`'s
    language (the table's: everyone reads it)."""
    write = LINES.get(type(event))
    return write(event, n, locale) if write is not None else None


def announced(event: Event) -> bool:
    """Whether `event` has a line in the record (`event_line` is not None), without writing
    it: every event of a subject's types, but seats for too few players and a partnership
    settled without a half alone."""
    match event:
        case Seated(seating=None) | PartnershipSettled(half=False):
            return False
    return type(event) in LINES


@_lines(TableOpened, Blinded, StakeChanged, PlayerAway, ProxyAppointed)
def _table(event: Event, n: Namer, locale: object) -> str | None:
    """The table itself: opened, a player blinded, staked, away or acting through a proxy."""
    match event:
        case TableOpened(preset, mode, _, basic, _, _):
            if basic:
                return tr("A table is open under the {preset} rules ({mode}, basic stake "
                          "{basic}).", locale, preset=preset, mode=mode_words(mode, locale),
                          basic=escape(basic))
            return tr("A table is open under the {preset} rules ({mode}).", locale,
                      preset=preset, mode=mode_words(mode, locale))
        case Blinded(player, True, _):
            return tr("A moderator blinds {player}: {player} no longer sees this table's "
                      "channels.", locale, player=n(player))
        case Blinded(player, False, _):
            return tr("A moderator gives {player} sight of this table again.", locale,
                      player=n(player))
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
    return None


@_lines(PlayerJoined, JoinRequested, JoinAnswered, PlayerLeft, PartnerInvited, PartnerDeclined)
def _joining(event: Event, n: Namer, locale: object) -> str | None:
    """Players coming and going, and the Partner's invitation."""
    match event:
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
    return None


@_lines(Seated)
def _seats(event: Event, n: Namer, locale: object) -> str | None:
    """The seats drawn for a game, with the dice thrown for them."""
    match event:
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
    return None


@_lines(GameStarted)
def _game_begins(event: Event, n: Namer, locale: object) -> str | None:
    """A game's start: its automatic doubles, who starts, the dice's commitment."""
    match event:
        case GameStarted(number, _, autos, _, on_roll, dice, _, committed):
            line = tr("Game {number} begins", locale, number=number)
            if autos:
                line += trn(", {count} automatic double", ", {count} automatic doubles", autos,
                            locale, count=autos)
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
    return None


@_lines(CorrectionProposed, CorrectionAnswered, Corrected, DiceRevealed)
def _corrections(event: Event, n: Namer, locale: object) -> str | None:
    """Corrections proposed, answered and made, and a game's dice seed revealed."""
    match event:
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
    return None


@_lines(CubeTurned, PointsPaid, Rolled, Moved, RollHeld, TurnAsked, SaleOffered,
        ResignationOffered, ResignationAnswered)
def _play(event: Event, n: Namer, locale: object) -> str | None:
    """The game's moves: rolls, plays, cubes, payments, asks, sales and resignations."""
    match event:
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
        case RollHeld(player, held):
            return (tr("{player} holds the roll.", locale, player=n(player)) if held
                    else tr("{player} releases the roll.", locale, player=n(player)))
        case TurnAsked("raccoon", player, across):
            return tr("{player} asks {other} to agree to a raccoon.", locale, player=n(player),
                      other=n(across))
        case TurnAsked(_, player, across):
            return tr("{player} asks {other} to agree to an aardvark.", locale, player=n(player),
                      other=n(across))
        case SaleOffered(seller, buyer):
            return tr("{seller} offers their game to {buyer}.", locale, seller=n(seller),
                      buyer=n(buyer))
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


@_lines(GameEnded, GameAbandoned, SessionEnded, GameHeldOver, GameResumed)
def _game_ends(event: Event, n: Namer, locale: object) -> str | None:
    """A game's or the session's end, a game put on hold and resumed."""
    match event:
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
        case GameAbandoned():
            return translate("A moderator ends the session during the game: its points paid "
                             "so far stand, the cubes still in it are void.", locale)
        case SessionEnded(payments):
            owed = "; ".join(paid_line(t, n, locale) for t in payments)
            return (translate("The session is over.", locale) + " "
                    + (owed or translate("Nobody owes anything.", locale)))
        case GameHeldOver(player):
            return tr("{player} is gone: the game is put on hold, to be played out when "
                      "{player} is back (FIBS §6). The table goes on as if the other side had "
                      "won.", locale, player=n(player))
        case GameResumed(number):
            return tr("Game {number} is played out now; then the table sits as it was.",
                      locale, number=number)
    return None


@_lines(ResultProposed)
def _result(event: Event, n: Namer, locale: object) -> str | None:
    """A result given by hand (scorekeeper mode), and who must confirm it."""
    match event:
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
    return None


@_lines(OddHalfRolled, HalfAnswered, PartnershipSettled)
def _fibs(event: Event, n: Namer, locale: object) -> str | None:
    """FIBS's partnership: the odd half point and a half answered alone."""
    match event:
        case OddHalfRolled(dice):
            if len(dice) != 2:
                return translate("No roll came for the odd half point: it goes to the shooter "
                                 "(FIBS §2 ¶2, as on an even roll).", locale)
            roll = f"{dice[0]}-{dice[1]}"
            if odd_half(sum(dice)) == "box_gets_odd_half":
                return tr("The odd half point goes by the roll {dice}: to the shooter (FIBS "
                          "§2 ¶2).", locale, dice=roll)
            return tr("The odd half point goes by the roll {dice}: to the Partner (FIBS §2 "
                      "¶2).", locale, dice=roll)
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
    return None
