"""The game at a chouette table: dice, checker plays, the result and the rotation.

Handlers register with `rules.commands.handles`; each checks a command against the state and
the rule set and returns events. The cube actions are `rules/doubling.py`. The Team's shooter
is the first Team player in rotation order whose cube is still alive (the Captain, else the
Acting Captain, Atlanta 6.2); the Box acts for his side (a Partner consults, Atlanta 3.3).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import Any

from rules import rotation
from rules import seating as sit
from rules.board import GameKind, Position, legal_plays
from rules.cite import citation
from rules.commands import BadCommand, Command, Hold, Move, Release, Roll, handles, sender
from rules.cube import Cube, Side
from rules.cube_state import CubeState
from rules.errors import NotYourTurn, RuleError
from rules.events import (
    CubeTurned,
    Event,
    GameEnded,
    Moved,
    PointsPaid,
    Rolled,
    RollHeld,
)
from rules.ledger import SplitMode, Transfer, leavers_settlement, net, split_game
from rules.messages import Phrase, Player, Players
from rules.notation import format_play, parse_play
from rules.proxies import may_act_for
from rules.roles import acting_box, acting_captain, cube_of, cubes_of, without
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
            raise RuleError(code="game_over", game=state.games_played)
        raise RuleError(code="no_game")
    return state.game, state.seating


def no_pending(state: TableState, doing: Phrase,
               but: Callable[[Cube], bool] = lambda cube: False) -> None:
    """Refuse `doing` while a cube decision is pending (other than those `but` allows)."""
    pending = [(p, c) for p, c in waiting_for(state) if not but(c)]
    if pending:
        raise NotYourTurn(code="decisions_first", doing=doing,
                          who=Players(sorted({p for p, _ in pending})))
    if state.game is not None and state.game.resignations:
        raise NotYourTurn(code="resignations_first", doing=doing,
                          who=Players(p for p, _, _ in state.game.resignations))


def dice_pair(value: Any, what: Phrase) -> tuple[int, int]:
    if (not isinstance(value, list | tuple) or len(value) != 2
            or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6
                       for d in value)):
        raise BadCommand(code="two_dice", what=what, value=repr(value))
    return value[0], value[1]


# -- dice and checkers -----------------------------------------------------------------------


def _shooting(state: TableState, cmd: Command) -> tuple[Game, Seating, Position]:
    game, seating = in_game(state)
    if state.mode != "play" or game.position is None or game.on_roll is None:
        raise RuleError(code="scorekeeper_only")
    who = shooter(state)
    member = state.member(who) if who else None
    stand_in = member is not None and member.away and may_act_for(state, cmd.by, member.player)
    if who is None or (cmd.by != who and not stand_in):  # his stand-in while away (7.1)
        raise NotYourTurn(code="box_shoots" if game.on_roll is Side.BOX else "team_shoots",
                          player=Player(str(who)))
    return game, seating, game.position


@handles(Roll)
def _roll(state: TableState, cmd: Roll) -> tuple[Event, ...]:
    game, _, position = _shooting(state, cmd)
    if game.dice is not None:
        raise NotYourTurn(code="play_them", dice=f"{game.dice[0]}-{game.dice[1]}")
    # Atlanta 8.6: a roll made before the other side has answered this side's doubles
    # stands, and they answer knowing it; where it is void (Danish ¶9), it is refused.
    stands = state.rules.premature_roll == "stands"
    no_pending(state, Phrase("doing_roll"), but=lambda c: stands and c.state is CubeState.OFFERED
               and c.offered_by is game.on_roll)
    if game.holds:
        rule = citation(state, "Atlanta 5.9", fibs="FIBS §1 ¶11", villages="Villages 11",
                        danish="Danish ¶9", euro="euro ¶4")
        raise NotYourTurn(code="roll_held", players=Players(game.holds), rule=rule)
    dice = dice_pair(cmd.dice, Phrase("what_roll"))
    if cmd.die is not None and cmd.die != game.dice_used:
        raise NotYourTurn(code="stale_dice")
    passed = not legal_plays(position, dice)[0].moves
    assert game.on_roll is not None
    return (Rolled(game.on_roll, dice, passed),)


@handles(Move)
def _move(state: TableState, cmd: Move) -> tuple[Event, ...]:
    game, _, position = _shooting(state, cmd)
    if game.dice is None:
        raise NotYourTurn(code="roll_first")
    no_pending(state, Phrase("doing_play"))  # after a premature roll (Atlanta 8.6)
    play = parse_play(cmd.play, position, game.dice)
    assert game.on_roll is not None
    moved = Moved(game.on_roll, format_play(play), play.position)
    outcome = play.position.outcome()
    if outcome is None:
        return (moved,)
    winner = game.on_roll if outcome.player_won else game.on_roll.other
    after = replay([moved], state)
    return (moved, game_over(after, winner, outcome.kind))


@handles(Hold, Release)
def _hold(state: TableState, cmd: Hold | Release) -> tuple[Event, ...]:
    """A Team player who may double asks the Captain to hold his roll (Atlanta 5.9, FIBS
    "he should say so", Villages 11 "wait"), or lets it go."""
    game, seating = in_game(state)
    by = sender(cmd)
    if isinstance(cmd, Release):
        if by not in game.holds:
            raise NotYourTurn(code="not_holding")
        return (RollHeld(by, False),)
    if by not in seating.team or not any(c.may_double(Side.TEAM) for c in cubes_of(game, by)):
        raise NotYourTurn(code="holders")
    if game.on_roll is not Side.TEAM or game.dice is not None:
        raise NotYourTurn(code="hold_when")
    if game.answered:
        raise NotYourTurn(code="hold_answered")
    if by in game.holds:
        raise NotYourTurn(code="holding_already")
    return (RollHeld(by, True),)


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
    leavers = [m.player for m in state.members if m.leaving]  # Atlanta 10.2, once the game ends
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
            mode = odd_half(roll)
    return (*split_game(shared, seating.box, seating.partner, mode),
            *later, *(transfers[i] for i in game.own_paid))


def odd_half(roll: int) -> SplitMode:
    """Who takes the odd half point the Box and his Partner share, by the total of the next
    roll (FIBS §2 ¶2): even, the shooter (the Box); odd, the Partner."""
    return "box_gets_odd_half" if roll % 2 == 0 else "partner_gets_odd_half"


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
        away=frozenset(m.player for m in state.members if m.away))


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
    leavers = [m.player for m in state.members if m.leaving]
    joiners = [m.player for m in state.members if m.waiting and not m.leaving]
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
