"""How the events of a game in progress fold into it (`evolve_game`, called by `evolve`).

The game's cubes, payments, dice and checker plays; the game's start, end and hold are
the table's (rules/state.py). Like `evolve`, never raises for an event a handler produced.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rules.board import Position
from rules.cube import Side
from rules.cube_state import CubeState
from rules.events import (
    AnswersInOrder,
    CorrectionProposed,
    CubeTurned,
    DoublesAnswered,
    Event,
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
)
from rules.roles import acting_captain

if TYPE_CHECKING:
    from rules.seating import Seating
    from rules.state import Game, TableState


def evolve_game(state: TableState, event: Event) -> TableState:
    """Fold one in-game event; never raises for an event the handlers produced."""
    seating = state.seating
    if state.game is None or seating is None:
        return state
    game = state.game
    match event:
        case CubeTurned():
            game = _cube_turned(game, seating, event)
        case AnswersInOrder():
            game = replace(game, in_order=True)
        case ResultProposed():
            game = replace(game, offer=event)
        case PointsPaid(transfer, own):
            paid = (*game.own_paid, len(game.transfers)) if own else game.own_paid
            game = replace(game, transfers=(*game.transfers, transfer), own_paid=paid)
        case PartnershipSettled(holder, half):
            game = replace(game, shared_until=len(game.transfers), box_holder=holder,
                           half_share=half)
        case HalfAnswered(_, action):
            game = replace(game, half_answer=action)
        case DoublesAnswered():
            game = replace(game, answered=True)
        case RollHeld(player, held):
            rest = tuple(p for p in game.holds if p != player)
            game = replace(game, holds=(*rest, player) if held else rest)
        case ResignationOffered(player, side, kind):
            game = replace(game, resignations=(*game.resignations, (player, side, kind)))
        case ResignationAnswered(player):
            game = replace(game, resignations=tuple(
                r for r in game.resignations if r[0] != player))
        case OddHalfRolled(dice):
            count = len(game.transfers)
            rolls = tuple(r for r in game.next_rolls if r[0] != count)
            game = replace(game, next_rolls=(*rolls, (count, sum(dice))))
        case Rolled(_, dice, passed):
            count = len(game.transfers)
            firsts = game.next_rolls
            if not firsts or firsts[-1][0] != count:
                firsts = (*firsts, (count, sum(dice)))
            game = replace(game, dice=dice, dice_used=game.dice_used + 2, next_rolls=firsts)
            if passed:
                game = _next_turn(game, game.position)
        case Moved(_, _, position):
            game = replace(_next_turn(game, position), before=replace(game, before=None))
            state = replace(state, proposals=no_undo(state.proposals))
    board = state.board
    if game.position is not None and game.on_roll is not None:
        board = (game.position, game.on_roll)
    return replace(state, game=game, board=board)


def _cube_turned(game: Game, seating: Seating, event: CubeTurned) -> Game:
    """The game once a cube turned: the cube in place of its former self (or added: an
    extra, a penalty cube), the Box's and the Team's rounds of doubles, the shooters, the
    holds."""
    cube, action, by = event.cube, event.action, event.by
    key = (cube.team_player, cube.box_player, cube.is_extra, cube.penalty)
    cubes = tuple(cube if (c.team_player, c.box_player, c.is_extra, c.penalty) == key
                  else c for c in game.cubes)
    if key not in {(c.team_player, c.box_player, c.is_extra, c.penalty)
                   for c in game.cubes}:
        cubes = (*cubes, cube)
    box_round, in_order = game.box_round, game.in_order
    if action == "double" and by == seating.box:
        in_order = False
        still = any(c.state is CubeState.OFFERED and c.offered_by is Side.BOX
                    and c.box_player == by for c in game.cubes)
        box_round = (*box_round, cube.team_player) if still else (cube.team_player,)
    # The Team's shooter changes only once every answer is in: a Captain who drops
    # hands the dice to the next player still in when play goes on (Atlanta 6.2);
    # resignations still unanswered are answers not in (the order of the Team's
    # accepts never makes an Acting Captain).
    shooters = game.shooters
    acting = acting_captain(seating, cubes)
    settled = not any(c.pending for c in cubes) and not game.resignations
    if settled and acting is not None and acting not in shooters:
        shooters = (*shooters, acting)  # once each: one back in by a bought game
        # shoots again without a second turn as Acting Captain in the rotation
    holds = tuple(p for p in game.holds if not (action == "double" and p == by))
    team_round = game.team_round
    if (action == "double" and cube.offered_by is Side.TEAM
            and cube.team_player not in team_round):  # by seat (a game sold)
        team_round = (*team_round, cube.team_player)
    half_answer = game.half_answer
    if not any(c.state is CubeState.OFFERED and c.offered_by is Side.TEAM
               for c in cubes):
        team_round, half_answer = (), ""
    return replace(game, cubes=cubes, box_round=box_round, shooters=shooters,
                   holds=holds, in_order=in_order, team_round=team_round,
                   half_answer=half_answer)


def _next_turn(game: Game, position: Position | None) -> Game:
    assert position is not None and game.on_roll is not None
    return replace(game, position=position.swap(), on_roll=game.on_roll.other, dice=None,
                   answered=False, holds=())


def no_undo(proposals: tuple[tuple[CorrectionProposed, tuple[str, ...]], ...]
             ) -> tuple[tuple[CorrectionProposed, tuple[str, ...]], ...]:
    """Pending proposals less the undos: an undo lapses once the board moves on."""
    return tuple(p for p in proposals if p[0].kind != "undo")
