"""The lone taker of the Box's double to every cube (Villages 8: "If the Box doubles the
Captain and all his Crew and only one team member decides to take, then that player must
Beaver the cube"; Atlanta 5.7's extras go to him where the rule set gives them).
"""

from __future__ import annotations

import dataclasses

from rules.cube import Side
from rules.cube_state import CubeState
from rules.events import CubeTurned, Event
from rules.roles import cube_of
from rules.seating import Seating
from rules.state import Game, TableState, replay


def round_is_everyone(game: Game, seating: Seating) -> bool:
    """The Box's latest double went to every Team player still in the game."""
    return len(game.box_round) >= 2 and all(
        p in game.box_round or not (c := cube_of(game, p)) or not c.live for p in seating.team)


def lone_taker(state: TableState, game: Game, seating: Seating, player: str) -> bool:
    """Whether `player`'s plain take would leave him the lone taker of the Box's double to
    everyone, where he must beaver instead."""
    if not state.rules.lone_taker_must_beaver or player not in game.box_round:
        return False
    others = [cube_of(game, p) for p in game.box_round if p != player]
    return round_is_everyone(game, seating) and all(
        c is not None and c.state is CubeState.DROPPED for c in others)


def lone_taker_beavers(state: TableState, seating: Seating,
                       events: list[Event]) -> list[Event]:
    """After the last drop of the Box's double to everyone, a lone plain take is beavered."""
    after = replay(events, state).game
    if after is None or not state.rules.lone_taker_must_beaver:
        return []
    if not round_is_everyone(after, seating):
        return []
    round_cubes = [c for p in after.box_round if (c := cube_of(after, p)) is not None]
    takers = [c for c in round_cubes if c.state is CubeState.TAKEN]
    if any(c.pending for c in round_cubes) or len(takers) != 1:
        return []
    lone = takers[0]
    beavered = dataclasses.replace(lone, value=lone.value * 2, state=CubeState.BEAVERED,
                                   offered_by=Side.BOX)
    return [CubeTurned(beavered, "beaver (lone taker, Villages 8)", lone.player(Side.TEAM))]
