"""The game at a chouette table: start, dice, checker plays, the result and the rotation.

Handlers register with `rules.state.handles`; each checks a command against the state and
the rule set and returns events. The cube actions are `rules/doubling.py`. The Team's shooter
is the first Team player in rotation order whose cube is still alive (the Captain, else the
Acting Captain, Atlanta 6.2); the Box acts for his side (a Partner consults, Atlanta 3.3).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import Any

from rules import rotation
from rules import seating as sit
from rules.authority import check_runs_table
from rules.board import GameKind, Position, legal_plays
from rules.cite import citation
from rules.commands import BadCommand, Command, Move, Reveal, Roll, Start, handles, need
from rules.cube import Cube, CubeState, Side
from rules.errors import NotYourTurn, RuleError, SeatingError
from rules.events import (
    CubeTurned,
    DiceRevealed,
    Event,
    GameEnded,
    GameStarted,
    Moved,
    PlayerOut,
    PointsPaid,
    Rolled,
    Seated,
)
from rules.ledger import SplitMode, Transfer, leavers_settlement, net, split_game
from rules.notation import format_play, parse_play
from rules.proxies import may_act_for
from rules.roles import acting_box, acting_captain, between_games, cube_of, take_partner, without
from rules.rotation import GameSummary
from rules.seating import Seating
from rules.state import Game, TableState, replay

# -- questions about the game ----------------------------------------------------------------


def shooter(state: TableState) -> str | None:
    """Who rolls and plays for the side on roll now (None outside a played game)."""
    game, seating = state.game, state.seating
    if game is None or seating is None or game.on_roll is None:
        return None
    if game.on_roll is Side.BOX:
        return acting_box(seating, game)
    return acting_captain(seating, game.cubes)


def waiting_for(state: TableState) -> list[tuple[str, Cube]]:
    """Every pending cube decision: (the player who must answer, the cube)."""
    game = state.game
    if game is None:
        return []
    return [(c.player(c.to_act), c) for c in game.cubes if c.to_act is not None]


def in_game(state: TableState) -> tuple[Game, Seating]:
    if state.game is None or state.seating is None:
        if state.games_played and not state.ended:  # its last cube was dropped, say
            raise RuleError(f"No game is in progress: game {state.games_played} is over, "
                            "with no cube left in play. Start the next one first.")
        raise RuleError("No game is in progress: start one first.")
    return state.game, state.seating


def no_pending(state: TableState, doing: str,
               but: Callable[[Cube], bool] = lambda cube: False) -> None:
    """Refuse `doing` while a cube decision is pending (other than those `but` allows)."""
    pending = [(p, c) for p, c in waiting_for(state) if not but(c)]
    if pending:
        who = ", ".join(sorted({p for p, _ in pending}))
        raise NotYourTurn(f"Before {doing}, the cube decisions must be made: waiting for {who}.")
    if state.game is not None and state.game.resignations:
        who = ", ".join(p for p, _, _ in state.game.resignations)
        raise NotYourTurn(f"Before {doing}, the resignations on {who}'s cubes must be "
                          "accepted or rejected.")


# -- start -----------------------------------------------------------------------------------


@handles(Start)
def _start(state: TableState, cmd: Start) -> tuple[Event, ...]:
    check_runs_table(state, cmd, "start a game")
    seating = between_games(state)
    rules = state.rules
    events: list[Event] = []
    gone = [p for p in seating.players if (m := state.member(p)) and m.disconnected]
    rest = without(seating, gone) if rules.disconnected_loses_place else None
    if gone and rest is not None and len(rest.players) >= rules.min_players:
        seating = rest  # FIBS §6 ¶1: not back by the start (with too few left he stays)
        events += [*(PlayerOut(p) for p in gone), Seated(
            seating, f"{', '.join(gone)} lost his place: still disconnected (FIBS §6)")]
    if len(seating.players) < rules.min_players:
        raise SeatingError(f"A chouette needs at least {rules.min_players} players; "
                           f"{len(seating.players)} are seated.")
    rolled = _newcomers_by_rolls(state, seating, cmd)
    if rolled is not None:
        seating = rolled
        events.append(Seated(seating, "the newcomers' order by their rolls (Atlanta 6.5)"))
    if (rules.partner == "required" and seating.partner is None
            and len(seating.players) >= rules.partner_min_players):
        candidate = sit.partner_candidates(seating, partner_from=rules.partner_from)[0]
        seating = take_partner(state, seating, candidate)
        events.append(Seated(seating, f"{candidate} partners the Box (a Partner is required)"))
    if state.mode == "play":
        opening = need(cmd, "opening", cmd.opening)
        pairs = [_dice(p, "opening roll") for p in opening]
        if not pairs or pairs[-1][0] == pairs[-1][1] or any(a != b for a, b in pairs[:-1]):
            raise BadCommand("opening lists the opening rolls as [Box die, Team die] pairs: "
                             "ties first, the last pair unequal.")
        ties = len(pairs) - 1
    else:
        ties = cmd.ties
        if ties < 0:
            raise BadCommand("ties counts the opening ties: 0 or more.")
    autos = _automatic_doubles(state, seating, cmd, ties)
    carry = state.carry[1] if state.carry and state.carry[0] == seating.box else 0
    if carry:  # Danish ¶15: the double the Box carried over, if he is still the Box
        autos = {p: autos.get(p, 0) + carry for p in seating.team}
    limit = rules.automatic_double_limit
    carried_over = int(bool(rules.automatic_carry_over and limit and ties > limit and autos
                            and cmd.carry))
    cubes = []
    across = [seating.box]  # Danish ¶19, euro ¶9: a cube against the Partner too
    if seating.partner is not None and rules.partner_cubes == "own":
        across.append(seating.partner)
    for box_player in across:
        for player in seating.team:
            member = state.member(player)
            cube = Cube(player, box_player, stake=member.stake if member else 1)
            for _ in range(autos.get(player, 0)):
                cube = cube.auto_double()
            cubes.append(cube)
    started = GameStarted(state.games_played + 1, tuple(cubes), max(autos.values(), default=0),
                          carried_over=carried_over)
    if state.mode == "play":
        box_die, team_die = pairs[-1]
        side = Side.BOX if box_die > team_die else Side.TEAM
        dice = (box_die, team_die) if side is Side.BOX else (team_die, box_die)
        commitment = cmd.commitment
        if commitment and not re.fullmatch(r"[0-9a-f]{64}", commitment):
            raise BadCommand("commitment is the SHA-256 of the dice seed: 64 hexadecimal "
                             "digits.")
        started = replace(started, position=Position.initial(), on_roll=side, dice=dice,
                          opening=tuple(pairs), commitment=commitment)
    return (*events, started)


@handles(Reveal)
def _reveal(state: TableState, cmd: Reveal) -> tuple[Event, ...]:
    """The bot reveals a finished game's dice seed; it must hash to the game's commitment."""
    number, seed = cmd.game, cmd.seed
    found = next((c for c in state.commitments if c[0] == number), None)
    if found is None:
        raise BadCommand(f"Game {number} has no dice commitment to reveal.")
    if found[2]:
        raise RuleError(f"Game {number}'s dice seed is already revealed.")
    if number in state.unfinished:
        raise RuleError(f"Game {number} is still being played (or on hold): its seed stays "
                        "secret until it ends.")
    try:
        digest = hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    except ValueError:
        raise BadCommand("seed is written in hexadecimal digits.") from None
    if digest != found[1]:
        raise RuleError(f"That seed does not hash to game {number}'s commitment {found[1]}.")
    return (DiceRevealed(number, seed),)


def _newcomers_by_rolls(state: TableState, seating: Seating, cmd: Start) -> Seating | None:
    """Atlanta 6.5: players who joined at the same game roll two dice for their order at
    the end of the Team (`newcomer_rolls` {player: [d1, d2]}, `newcomer_rerolls` for ties).
    None when there is nothing to order, or no rolls were sent (they keep the joining order)."""
    newcomers = [p for p in seating.team if p in seating.newcomers]
    if (state.rules.newcomer_order != "rolls" or len(newcomers) < 2
            or cmd.newcomer_rolls is None):
        return None
    levels = [cmd.newcomer_rolls, *cmd.newcomer_rerolls]
    if not all(isinstance(level, dict) and all(isinstance(d, list | tuple) for d in
                                               level.values()) for level in levels):
        raise BadCommand('newcomer_rolls maps each newcomer to his two dice, like '
                         '{"ann": [6, 2]}.')
    rolls, *rerolls = [{p: tuple(d) for p, d in level.items()} for level in levels]
    if set(rolls) != set(newcomers):
        raise BadCommand(f"newcomer_rolls holds one roll for each newcomer: "
                         f"{', '.join(newcomers)}.")
    order = sit.order_by_rolls(rolls, rerolls)
    if isinstance(order, sit.Reroll):
        tied = "; ".join(" and ".join(group) for group in order.groups)
        raise SeatingError(f"Tied rolls: {tied} roll again (newcomer_rerolls).")
    places = iter(order)
    return replace(seating, team=tuple(next(places) if p in newcomers else p
                                       for p in seating.team))


def _automatic_doubles(state: TableState, seating: Seating, cmd: Start,
                       ties: int) -> dict[str, int]:
    """How many automatic doubles each Team player's cube takes for `ties` opening ties."""
    rules = state.rules
    limit = rules.automatic_double_limit or ties
    count = min(ties, limit)
    if rules.automatic_doubles == "none" or count == 0:
        return {}
    if rules.automatic_doubles == "box_option" and not cmd.automatic:
        return {}
    agreed = seating.team
    if rules.automatic_doubles == "by_agreement":
        agreed = cmd.automatic_with
        strangers = [p for p in agreed if p not in seating.team]
        if strangers:
            raise BadCommand(f"Automatic doubles are agreed with Team players only, not "
                             f"{', '.join(map(str, strangers))}.")
    return {p: count for p in agreed}


def _dice(value: Any, what: str) -> tuple[int, int]:
    if (not isinstance(value, list | tuple) or len(value) != 2
            or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6
                       for d in value)):
        raise BadCommand(f"A {what} is two dice from 1 to 6, like [3, 1]: got {value!r}.")
    return value[0], value[1]


# -- dice and checkers -----------------------------------------------------------------------


def _shooting(state: TableState, cmd: Command) -> tuple[Game, Seating, Position]:
    game, seating = in_game(state)
    if state.mode != "play" or game.position is None or game.on_roll is None:
        raise RuleError("This table keeps score only: enter the game's result instead.")
    who = shooter(state)
    member = state.member(who) if who else None
    stand_in = member is not None and member.away and may_act_for(state, cmd.by, member.name)
    if who is None or (cmd.by != who and not stand_in):  # his stand-in while away (7.1)
        side = "the Box" if game.on_roll is Side.BOX else "the Team"
        raise NotYourTurn(f"{who} rolls and plays for {side} now.")
    return game, seating, game.position


@handles(Roll)
def _roll(state: TableState, cmd: Roll) -> tuple[Event, ...]:
    game, _, position = _shooting(state, cmd)
    if game.dice is not None:
        raise NotYourTurn(f"The dice are rolled ({game.dice[0]}-{game.dice[1]}): play them.")
    # Atlanta 8.6: a roll made before the other side has answered this side's doubles
    # stands, and they answer knowing it; where it is void (Danish ¶9), it is refused.
    stands = state.rules.premature_roll == "stands"
    no_pending(state, "the roll", but=lambda c: stands and c.state is CubeState.OFFERED
               and c.offered_by is game.on_roll)
    if game.holds:
        rule = citation(state, "Atlanta 5.9", fibs="FIBS §1 ¶11", villages="Villages 11",
                        danish="Danish ¶9", euro="euro ¶4")
        raise NotYourTurn(f"{', '.join(game.holds)} asked to hold the roll ({rule}): "
                          "wait until they double or release it.")
    dice = _dice(cmd.dice, "roll")
    if cmd.die is not None and cmd.die != game.dice_used:
        raise NotYourTurn("Those dice were drawn for an earlier roll: roll again.")
    passed = not legal_plays(position, dice)[0].moves
    assert game.on_roll is not None
    return (Rolled(game.on_roll, dice, passed),)


@handles(Move)
def _move(state: TableState, cmd: Move) -> tuple[Event, ...]:
    game, _, position = _shooting(state, cmd)
    if game.dice is None:
        raise NotYourTurn("Roll first.")
    no_pending(state, "the play")  # after a premature roll (Atlanta 8.6)
    play = parse_play(cmd.play, position, game.dice)
    assert game.on_roll is not None
    moved = Moved(game.on_roll, format_play(play), play.position)
    outcome = play.position.outcome()
    if outcome is None:
        return (moved,)
    winner = game.on_roll if outcome.player_won else game.on_roll.other
    after = replay([moved], state)
    return (moved, game_over(after, winner, outcome.kind))


# -- the end of a game -----------------------------------------------------------------------


def finish(state: TableState, events: list[Event]) -> tuple[Event, ...]:
    """`events`, and the game's end if they leave no cube alive."""
    after = replay(events, state)
    game = after.game
    if game is None or any(c.live and not c.penalty for c in game.cubes):
        return tuple(events)
    # The side that won the last cube: by a drop, or by the points of a settlement or an
    # accepted resignation (a wash counts for the Box, as a zero settlement keeps 6.1).
    last = next(e.cube for e in reversed(events) if isinstance(e, CubeTurned))
    paid = next((e.transfer for e in reversed(events) if isinstance(e, PointsPaid)), None)
    winner = last.winner or (Side.TEAM if paid is not None
                             and paid.payee == last.player(Side.TEAM) else Side.BOX)
    return (*events, game_over(after, winner, GameKind.SINGLE))


def game_over(state: TableState, winner: Side, kind: GameKind) -> GameEnded:
    """The end of the game: final results of every live cube, the sheet entry, next seats."""
    game, _ = in_game(state)
    finals = [c.result(kind, winner, jacoby=state.rules.jacoby) for c in game.cubes if c.live]
    transfers = booked(state, (*game.transfers, *finals))
    seats, choices = next_seats(state, summarize(state, winner, transfers))
    leavers = [m.name for m in state.members if m.leaving]  # Atlanta 10.2, once the game ends
    paid = leavers_settlement(state.sheet.add_game(transfers).owed(), leavers)
    return GameEnded(winner, kind.name.lower(), transfers, seats, choices, paid)


def booked(state: TableState, transfers: tuple[Transfer, ...]) -> tuple[Transfer, ...]:
    """The game's `transfers` as they go on the sheet: the Box side's shared with a Partner
    until they settled (Atlanta 4.2, 4.5)."""
    game, seating = in_game(state)
    rules = state.rules
    if seating.partner is None or rules.partner_cubes == "own":
        return transfers
    upto = len(transfers) if game.shared_until is None else game.shared_until
    shared = [t for i, t in enumerate(transfers[:upto]) if i not in game.own_paid]
    later = [_to_holder(t, seating.box, game.box_holder, game.half_share)
             for i, t in enumerate(transfers) if i >= upto and i not in game.own_paid]
    mode: SplitMode = "box_gets_odd" if rules.odd_point == "box" else "halves"
    if rules.odd_point == "next_roll":  # FIBS §2 ¶2: the roll after the half point was paid
        halves = [i for i, t in enumerate(transfers[:upto]) if seating.box in (t.payer, t.payee)
                  and i not in game.own_paid and t.points.denominator == 2]
        roll = next((total for paid, total in game.next_rolls if halves and paid > halves[-1]),
                    None)
        if roll is not None:
            mode = "box_gets_odd_half" if roll % 2 == 0 else "partner_gets_odd_half"
    return (*split_game(shared, seating.box, seating.partner, mode),
            *later, *(transfers[i] for i in game.own_paid))


def summarize(state: TableState, winner: Side, transfers: tuple[Transfer, ...]) -> GameSummary:
    """What the rotation reads of the game ending with `transfers` (as booked)."""
    game, seating = in_game(state)
    rules = state.rules
    own = rules.partner_cubes == "own"
    box_side = (seating.box,) if own else (seating.box, seating.partner)
    # Who dropped, was doubled out or settled, in the order their cubes ended (the order of
    # the points paid; an extra's premium is between Team players and tells nothing).
    ended = [t.payer if t.payee == seating.box else t.payee for t in game.transfers
             if seating.box in (t.payer, t.payee)]
    cubes = {p: c for p in dict.fromkeys(ended) if (c := cube_of(game, p)) is not None}
    dropped = tuple(p for p, c in cubes.items() if c.state is CubeState.DROPPED
                    and c.winner is Side.BOX)
    doubled_out = tuple(p for p, c in cubes.items() if c.state is CubeState.DROPPED
                        and c.winner is Side.TEAM)
    settled = {p: net(t for t in game.transfers if {t.payer, t.payee} == {p, seating.box}
                      ).get(p, Fraction(0))
               for p in seating.team if (c := cube_of(game, p)) and c.state is CubeState.SETTLED}
    counted = (transfers if rules.profit_counts_penalties  # euro ¶18: "penalties not counted"
               else [t for t in transfers if not t.reason.startswith("penalty")])
    # Atlanta 3.6 with 6.1: a Partner pays his consulting penalty alone, so it is no part of
    # the Box's result, which alone decides whether he keeps the box
    counted = [t for t in counted if not (t.payer == seating.partner and t.reason.startswith(
        "penalty"))]
    result = net(counted)
    return GameSummary(
        winner="box" if winner is Side.BOX else "team",
        box_net=sum((result.get(p, Fraction(0)) for p in box_side if p), Fraction(0)),
        dropped=dropped, doubled_out=doubled_out, settled=settled,
        acting_captains=game.shooters[1:],
        away=frozenset(m.name for m in state.members if m.away))


def next_seats(state: TableState, summary: GameSummary
               ) -> tuple[Seating | None, tuple[tuple[str, str], ...]]:
    """The seating for the next game and the seating choices left open (Atlanta 6.3, 6.4):
    the rotation's, or after a game resumed (FIBS §6 ¶2) the seating it interrupted; then
    the leavers go and the newcomers sit down at the end."""
    _, seating = in_game(state)
    rules = state.rules

    def rotate(summary: GameSummary) -> Seating:
        return rotation.ROTATIONS[rules.rotation](
            seating, summary, box_retention=rules.box_retention,
            partner_min_players=rules.partner_min_players)

    seats = state.resumed_from or rotate(summary)
    choices = []
    if state.resumed_from is None and seats.partner is not None:
        if rotate(replace(summary, partner_stays=False)) != seats:
            choices.append(("captain", seats.partner))  # 6.4: he stays, unless he captains
        if rotate(replace(summary, new_box_plays_alone=True)) != seats:
            choices.append(("alone", seats.box))  # 6.3: the losing Box partners, unless...
    leavers = [m.name for m in state.members if m.leaving]
    joiners = [m.name for m in state.members if m.waiting and not m.leaving]
    nxt = without(seats, leavers)
    if nxt is not None and rules.rotation == "fibs":  # §1 ¶3: a partnership that just won
        nxt = sit.fibs_shrunk(nxt, just_won=(nxt.box, nxt.partner) == (
            seating.box, seating.partner), partner_min_players=rules.partner_min_players)
    if nxt is not None and joiners:
        nxt = sit.join(nxt, joiners)
    return nxt, tuple(c for c in choices if nxt is not None and c[1] in nxt.players)


def _to_holder(t: Transfer, box: str, holder: str, half: bool = False) -> Transfer:
    """A Box-side transfer paid to or by whoever holds the Box side's share now; only half
    of it where the other dropped his half of a double (FIBS §2 ¶11)."""
    holder = holder or box
    if box not in (t.payer, t.payee) or (holder in (t.payer, t.payee) and holder != box):
        return t
    return replace(t, payer=holder if t.payer == box else t.payer,
                   payee=holder if t.payee == box else t.payee,
                   points=t.points / 2 if half else t.points)


def team_voices(state: TableState) -> frozenset[str]:
    """The Team players who may talk in the Team's channel now (Atlanta 3.2: those with a
    cube in the game, and the Captain or Acting Captain asking them even without his own;
    Danish: those still in the game; FIBS: all once the cube is turned).
    Between games nobody's cube is in play, so the channel is open to the whole Team."""
    game, seating = state.game, state.seating
    if seating is None:
        return frozenset()
    if game is None:
        return frozenset(seating.team)
    rule = state.rules.team_consultation
    mains = [c for c in game.cubes if not c.is_extra and c.team_player in seating.team]
    if rule == "in_game":
        return frozenset(c.player(Side.TEAM) for c in mains if c.live)
    if rule == "cube_in_game":  # and the one who plays asks them (Atlanta 3.2, euro ¶11)
        voices = {c.player(Side.TEAM) for c in mains if c.in_game}
        shooter = acting_captain(seating, game.cubes)
        return frozenset(voices | ({shooter} if voices and shooter else set()))
    if rule == "cube_turned" and any(c.turned for c in mains):
        return frozenset(c.player(Side.TEAM) for c in mains if c.live)
    return frozenset()


def box_consults_fully(state: TableState) -> bool:
    """Whether the Box and his Partner may discuss checker plays (Atlanta 3.3: once two cubes
    have been turned, taken or not; cube decisions they may always discuss, 3.4)."""
    game = state.game
    turned = sum(c.turned for c in game.cubes) if game else 0
    return turned >= state.rules.box_consult_after_cubes
