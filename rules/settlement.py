"""Settlements and penalties at a chouette table: cubes ended or changed by agreement or ruling.

`settle`: two players end the cube between them for an agreed number of points (Atlanta
4.4-4.5; a FIBS buy-out is the Box paying half a point). The command is the agreement: the
Discord layer asks the other player to confirm before it sends it. Zero points is a wash.
`penalty`: a ruling on a player who consulted out of turn (Atlanta 3.6: the Box takes his
cube at its starting value, or washes it; euro: the cube is frozen, takes only).
"""

from __future__ import annotations

from fractions import Fraction

from rules.cube import Side
from rules.errors import CubeNotAvailable, NotYourTurn, RuleError
from rules.events import CubeTurned, Event, PointsPaid
from rules.game import finish, in_game
from rules.state import BadCommand, Command, TableState, cube_of, handles, sender


@handles("settle")
def _settle(state: TableState, cmd: Command) -> tuple[Event, ...]:
    game, seating = in_game(state)
    by = sender(cmd)
    other = cmd.arg("with", str)
    points = _points(cmd.args.get("points"))
    rule = state.rules.settlements
    if rule == "never":
        raise CubeNotAvailable("There are no settlements at this table.")
    cube = next((c for c in game.cubes if {c.team_player, c.box_player} == {by, other}), None)
    if cube is None and seating.box in (by, other):  # the Box settles a Team player's cube
        cube = cube_of(game, other if by == seating.box else by)
    if cube is None or not cube.live:
        raise CubeNotAvailable(f"{by} and {other} have no cube in play between them.")
    if cube.pending:
        raise NotYourTurn("Answer the cube first; settle after.")
    if rule == "after_initial" and cube.owner is None:
        raise CubeNotAvailable("No settlements on the initial cube (FIBS).")
    payer_side = Side.BOX if by == seating.box or by == cube.box_player else Side.TEAM
    if points < 0:
        points, payer_side = -points, payer_side.other
    settled, transfers = cube.settle(points, payer_side)
    events: list[Event] = [CubeTurned(settled, f"settle {points}", by)]
    events += [PointsPaid(t) for t in transfers]
    return finish(state, events)


def _points(value: object) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise BadCommand("settle needs points: a number, halves allowed (1.5 or \"3/2\").")
    try:
        amount = Fraction(value).limit_denominator(64)
    except (ValueError, ZeroDivisionError) as exc:
        raise BadCommand(f"settle: {value!r} is not a number of points.") from exc
    return amount


@handles("penalty")
def _penalty(state: TableState, cmd: Command) -> tuple[Event, ...]:
    game, seating = in_game(state)
    by = sender(cmd)
    offender = cmd.arg("player", str)
    action = cmd.arg("action", str)
    rule = state.rules.consultation_penalty
    allowed = {"ownership_or_wash": ("award", "wash"), "frozen_cube": ("freeze",)}.get(rule, ())
    if action not in allowed:
        raise RuleError("This rule set's penalty for consulting out of turn is "
                        + (" or ".join(allowed) if allowed else "not set") + ".")
    if by != seating.box and action != "freeze":
        raise NotYourTurn(f"The Box ({seating.box}) chooses the penalty (Atlanta 3.6).")
    cube = cube_of(game, offender)
    if cube is None or not cube.live:
        raise CubeNotAvailable(f"{offender} has no cube in play to penalise.")
    if action == "freeze":
        return (CubeTurned(cube.freeze(Side.TEAM), "frozen (penalty)", by),)
    if action == "award":
        return (CubeTurned(cube.award(Side.BOX), "taken by the Box (penalty)", by),)
    washed, _ = cube.settle(0, Side.BOX)
    return finish(state, [CubeTurned(washed, "washed (penalty)", by)])
