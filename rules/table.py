"""The chouette table: commands in, events out (`decide`), between games and around them.

`decide(state, command)` checks a command against the rule set and returns the events it
causes, or raises a `RuleError` whose message says what is allowed instead. This module
handles the table's life between games (open, leave, seat, partner, end of session);
joining it is `rules/joining.py`, the game itself (cubes, dice, checker plays, results,
rotation) `rules/game.py`. The state and how events fold into it are `rules/state.py`.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import replace
from typing import Any

# Each rules module registers the handlers of its commands (`handles`) when imported.
import rules.absence
import rules.authority
import rules.consents
import rules.corrections
import rules.doubling
import rules.extras
import rules.game
import rules.holdover
import rules.joining
import rules.results
import rules.settlement
import rules.start  # noqa: F401
from rules import seating as sit
from rules.authority import check_runs_table, is_moderator
from rules.cite import citation
from rules.commands import (
    HANDLERS,
    Alone,
    BadCommand,
    Captain,
    Command,
    Decline,
    EndSession,
    InvitePartner,
    Leave,
    Open,
    Partner,
    PassBox,
    Reveal,
    Seat,
    Stake,
    Start,
    handles,
    need,
    sender,
)
from rules.errors import NotYourTurn, RuleError, SeatingError
from rules.events import Event, GameAbandoned
from rules.game import booked
from rules.joining import unopposed
from rules.ledger import leavers_settlement
from rules.messages import Phrase, Phrases, Player, Players, Ties
from rules.preset import load_preset
from rules.proxies import on_behalf
from rules.roles import between_games, take_partner, without
from rules.ruleset import RuleSet
from rules.seating import Seating
from rules.state import MODES, TableState, replay
from rules.table_events import (
    PartnerDeclined,
    PartnerInvited,
    PlayerJoined,
    PlayerLeft,
    Seated,
    SessionEnded,
    StakeChanged,
    TableOpened,
)


def decide(state: TableState, command: Command) -> tuple[Event, ...]:
    """The events `command` causes in `state`; a RuleError says why it is refused."""
    handler = HANDLERS[type(command)]
    if not isinstance(command, Open):
        if not state.opened:
            raise RuleError(code="no_table")
        if state.ended and not isinstance(command, Reveal):
            raise RuleError(code="session_ended")
    if isinstance(command, Start) and state.game is None and (joined := unopposed(state)):
        return (*joined, *handler(replay(joined, state), on_behalf(state, command)))
    return handler(state, on_behalf(state, command))


@handles(Open)
def _open(state: TableState, cmd: Open) -> tuple[Event, ...]:
    if state.opened:
        raise RuleError(code="table_open", preset=state.preset, mode=Phrase(
            "mode_play" if state.mode == "play" else "mode_scorekeeper"))
    mode = cmd.mode
    if mode not in MODES:
        raise BadCommand(code="mode", mode=mode)
    preset = cmd.preset
    rules = load_preset(preset, dict(cmd.options))
    basic = cmd.basic.strip()
    if len(basic) > 40:
        raise BadCommand(code="basic_stake")
    if cmd.language and not re.fullmatch(r"[a-z]{2,3}(_[A-Z]{2}|_[0-9]{3})?", cmd.language):
        raise BadCommand(code="language_form", language=cmd.language)
    return (TableOpened(preset, mode, _options(rules), basic, cmd.by, cmd.language),)


def _options(rules: RuleSet) -> dict[str, Any]:
    return {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)}


@handles(Leave)
def _leave(state: TableState, cmd: Leave) -> tuple[Event, ...]:
    player = sender(cmd)
    member = state.member(player)
    if member is None:
        raise SeatingError(code="not_at_table", player=Player(player))
    if member.leaving:
        raise SeatingError(code="leaves_already", player=Player(player))
    if state.game is not None:
        return (PlayerLeft(player, after_game=True),)
    payments = leavers_settlement(state.sheet.owed(), [player])  # Atlanta 10.2
    events: list[Event] = [PlayerLeft(player, payments=payments)]
    if state.seating is not None and player in state.seating.players:
        seats = without(state.seating, [player])
        if seats is not None and state.rules.rotation == "fibs":  # FIBS §1 ¶3
            won = bool(state.game_roles) and state.game_roles[-1][0] == seats.box
            seats = sit.fibs_shrunk(seats, just_won=won,
                                    partner_min_players=state.rules.partner_min_players)
        events.append(Seated(seats, Phrase("seated_leaves", player=Player(player))))
    return tuple(events)


@handles(Seat)
def _seat(state: TableState, cmd: Seat) -> tuple[Event, ...]:
    check_runs_table(state, cmd, Phrase("doing_seats"))
    if state.game is not None or state.seating is not None:
        raise SeatingError(code="seats_drawn")
    events: list[Event] = []
    thrown: tuple[tuple[tuple[str, tuple[int, ...]], ...], ...] = ()
    if cmd.rolls is not None:
        count = state.rules.seat_roll_dice
        rolls = _rolls(cmd.rolls, count)
        rerolls = [_rolls(r, count) for r in cmd.rerolls]
        thrown = tuple(tuple(r.items()) for r in (rolls, *rerolls))
        seated = sit.seat_by_rolls(rolls, rerolls)
        if isinstance(seated, sit.Reroll):
            raise SeatingError(code="seats_tied", tied=Ties(map(Players, seated.groups)))
        seating = seated
    else:
        order = need(cmd, "order", cmd.order)
        if len(order) < 2 or not all(isinstance(p, str) for p in order):
            raise BadCommand(code="seat_order")
        seating = Seating(order[0], None, tuple(order[1:]))
    for player in seating.players:
        if not state.member(player):  # a transcript may seat players without joining them
            if len(state.members) + len(events) >= state.rules.max_players:
                raise SeatingError(code="table_takes_at_most", players=state.rules.max_players)
            events.append(PlayerJoined(player))
    missing = [p for p in state.present if p not in seating.players]
    if missing:
        raise SeatingError(code="seat_for_everyone", missing=Players(missing))
    partner = cmd.partner
    if partner is not None:
        seating = take_partner(state, seating, partner)
    return (*events, Seated(seating, "seats drawn", thrown))


def _rolls(value: Any, count: int) -> dict[str, tuple[int, ...]]:
    """Seat rolls {player: [dice]}, each `count` dice from 1 to 6."""
    if not isinstance(value, dict):
        raise BadCommand(code="seat_rolls")
    for player, dice in value.items():
        if (not isinstance(dice, list | tuple) or len(dice) != count
                or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6
                           for d in dice)):
            raise BadCommand(code="seat_roll_dice", count=count, player=Player(player),
                             dice=dice)
    return {p: tuple(d) for p, d in value.items()}


def partner_invitees(state: TableState) -> tuple[str, ...]:
    """Who is still to be asked to be the Box's Partner, in the order the rule set asks them
    (Atlanta 6.5: the bottom of the rotation first), less those who declined since the last
    game; empty when no Partner can be taken."""
    seating, rules = state.seating, state.rules
    if (state.game is not None or seating is None or seating.partner is not None
            or rules.partner == "never"
            or len(seating.players) < rules.partner_min_players):
        return ()
    return tuple(p for p in sit.partner_candidates(seating, partner_from=rules.partner_from)
                 if p not in state.declined)


_FROM = {"bottom": "the bottom of the rotation first, Atlanta 1.3",
         "after_captain": "the player after the Captain first, FIBS §1 ¶6",
         "captain": "the Captain first, euro ¶9"}


@handles(Decline)
def _decline(state: TableState, cmd: Decline) -> tuple[Event, ...]:
    """An invited player declines to be Partner, where the rule set lets him (FIBS: not)."""
    player = sender(cmd)
    if player not in partner_invitees(state):
        raise SeatingError(code="decline_invitees")
    if not state.rules.may_decline_partner:
        raise SeatingError(code="decline_refused")
    return (PartnerDeclined(player),)


@handles(InvitePartner)
def _invite_partner(state: TableState, cmd: InvitePartner) -> tuple[Event, ...]:
    """The Box invites a Team player to be his Partner, in the order the rule set asks them
    (Atlanta 6.5); the player then accepts (`partner`) or declines (`decline`)."""
    seating = between_games(state)
    if sender(cmd) != seating.box:
        raise NotYourTurn(code="partner_box_invites", box=Player(seating.box),
                          rule=citation(state, "Atlanta 1.2"))
    player = cmd.player
    take_partner(state, seating, player)  # refused here as the acceptance would be
    _in_order(state, player)
    if player in state.declined:
        raise SeatingError(code="declined_partner", player=Player(player))
    return (PartnerInvited(player),)


@handles(Partner)
def _partner(state: TableState, cmd: Partner) -> tuple[Event, ...]:
    """A player becomes the Box's Partner: the Box names him (his choice, the player's
    answer recorded with it), or he accepts himself; where the Box chooses his Partner
    (`partner_invited`, Atlanta 1.2) only once the Box has invited him."""
    seating = between_games(state)
    player = cmd.by if cmd.player is None else cmd.player
    if cmd.by not in (player, seating.box):
        raise NotYourTurn(code="box_invites", box=Player(seating.box))
    if player in state.declined and cmd.by != player:
        raise SeatingError(code="declined_partner", player=Player(player))
    _in_order(state, player)
    seated = take_partner(state, seating, player)
    if state.rules.partner_invited and cmd.by != seating.box and player not in state.invited:
        raise NotYourTurn(code="partner_not_invited", box=Player(seating.box),
                          rule=citation(state, "Atlanta 1.2"))
    return (Seated(seated, Phrase("seated_partner", player=Player(player))),)


def _in_order(state: TableState, player: str) -> None:
    """Refuse `player` as Partner while someone before him is still to be asked."""
    asked = partner_invitees(state)
    if player in asked and player != asked[0]:
        raise SeatingError(code="partner_asked_first", first=Player(asked[0]),
                           order=_FROM[state.rules.partner_from], player=Player(player))


def open_choices(state: TableState) -> tuple[tuple[str, str], ...]:
    """The seating choices after the last game that can still be made (see `_choose`)."""
    seating = state.seating
    if state.game is not None or seating is None or seating.partner is None:
        return ()
    return tuple((c, p) for c, p in state.choices
                 if p == (seating.partner if c == "captain" else seating.box))


@handles(Captain, Alone)
def _choose(state: TableState, cmd: Captain | Alone) -> tuple[Event, ...]:
    """Seating choices after a game (Atlanta 6.3, 6.4), made before the next one starts:
    the Partner whose turn to captain came captains instead of staying Partner at the
    bottom (`captain`); a new Box plays without the losing Box as Partner (`alone`)."""
    seating = between_games(state)
    by = sender(cmd)
    partner = seating.partner
    if (cmd.verb, by) not in open_choices(state) or partner is None:
        choices = Phrases(Phrase("open_choice", player=Player(p), choice=c)
                          for c, p in open_choices(state))
        raise NotYourTurn(code="not_your_choice" if choices else "not_your_choice_none",
                          choices=choices, captain=citation(state, "Atlanta 6.4"),
                          alone=citation(state, "Atlanta 6.3"))
    if isinstance(cmd, Captain):
        moved = replace(seating, partner=None, team=(by, *seating.team), partner_place=None)
        return (Seated(moved, Phrase("seated_captains", player=Player(by))),)
    moved = replace(seating, partner=None, team=(*seating.team, partner), partner_place=None)
    return (Seated(moved, Phrase("seated_alone", player=Player(by), partner=Player(partner))),)


@handles(PassBox)
def _pass_box(state: TableState, cmd: PassBox) -> tuple[Event, ...]:
    """The Box gives up the box between games (Villages 15); FIBS forbids it."""
    seating = between_games(state)
    if cmd.by != seating.box:
        raise NotYourTurn(code="box_passes", box=Player(seating.box))
    moved = sit.resign_box(seating, allowed=state.rules.may_pass_box)
    return (Seated(moved, Phrase("seated_passes", player=Player(cmd.by))),)


@handles(Stake)
def _stake(state: TableState, cmd: Stake) -> tuple[Event, ...]:
    """A player's stake multiple changes between games (Atlanta 2.3: only if the opponent
    agrees): the Box sends it, naming the `player` who asked (on Discord, by the button the
    player's request sends him); the Box's own stake does not change (`box_stake`)."""
    by = sender(cmd)
    player = by if cmd.player is None else cmd.player
    if state.member(player) is None:  # said first: he can't draw the seats (Atlanta 6.5)
        raise SeatingError(code="not_at_table_join", player=Player(player))
    seating = between_games(state)
    stake = cmd.stake
    if by != seating.box:
        raise NotYourTurn(code="stake_box_agrees", box=Player(seating.box),
                          rule=citation(state, "Atlanta 2.3"))
    if player == seating.box:
        raise SeatingError(code="box_stake")
    if stake not in state.rules.stake_multiples:
        raise SeatingError(code="stake_not_played", stake=stake,
                           stakes=", ".join(map(str, state.rules.stake_multiples)))
    return (StakeChanged(player, stake),)


@handles(EndSession)
def _end_session(state: TableState, cmd: EndSession) -> tuple[Event, ...]:
    """The session ends: the breakdown of who pays whom. With a game in progress only a
    moderator ends it (no rule set provides for it): its points paid so far stand, and the
    cubes still in it are void."""
    check_runs_table(state, cmd, Phrase("doing_end"))
    events: list[Event] = []
    if state.game is not None:
        if cmd.monitor or not cmd.by or not is_moderator(cmd):
            raise RuleError(code="end_in_game")
        events.append(GameAbandoned(booked(state, state.game.transfers)))
    sheet = replay(events, state).sheet
    return (*events, SessionEnded(tuple(sheet.breakdown(state.rules.payoff))))


