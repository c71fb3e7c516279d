"""Who is who at a table: the cubes each player plays for, who decides and shoots for each
side, and the seating questions the handlers share.

Questions of the state only (rules/state.py), asked by the handlers and by the Discord side;
the state's types are imported for their annotations only, so the fold can use them too.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from rules import seating as sit
from rules.cube import Cube, Side
from rules.cube_state import CubeState
from rules.errors import RuleError, SeatingError
from rules.seating import Seating

if TYPE_CHECKING:
    from rules.state import Game, TableState


def cube_of(game: Game, player: str) -> Cube | None:
    """A Team player's own cube against the Box (not an extra, and not sold: FIBS)."""
    return next((c for c in game.cubes if c.team_player == player and not c.is_extra
                 and not c.holder), None)


def cube_between(game: Game, team_player: str, box_player: str) -> Cube | None:
    """A Team player's own cube against one Box-side player (the Box, or a Partner with
    cubes of his own: `partner_cubes = "own"`)."""
    return next((c for c in game.cubes if c.team_player == team_player
                 and c.box_player == box_player and not c.is_extra), None)


def cubes_of(game: Game, team_player: str) -> list[Cube]:
    """The cubes a Team player plays for, still in the game: his own against the Box and
    against a Partner with cubes of his own, and the games he bought (FIBS)."""
    return [c for c in game.cubes if c.player(Side.TEAM) == team_player and not c.is_extra
            and c.live]


def box_cubes(game: Game, seating: Seating, boxer: str) -> dict[str, Cube]:
    """Each Team player's own cube against `boxer` (the Box, or a Partner with cubes of his
    own), by Team player in rotation order."""
    return {p: c for p in seating.team if (c := cube_between(game, p, boxer)) is not None}


def box_doublable(game: Game, seating: Seating, boxer: str) -> list[str]:
    """The Team players whose cubes `boxer` may turn now, in rotation order (each cube as
    it stands: whether the rule set allows the double as a whole is `decide`'s to say)."""
    return [p for p, c in box_cubes(game, seating, boxer).items() if c.may_double(Side.BOX)]


def team_doubles(game: Game, seating: Seating, boxer: str) -> list[str]:
    """Team players whose double waits for `boxer`'s answer, in rotation order."""
    return [p for p, c in box_cubes(game, seating, boxer).items()
            if c.state is CubeState.OFFERED and c.offered_by is Side.TEAM]


def own_cubes(state: TableState, player: str) -> bool:
    """Whether `player` holds Box-side cubes of his own: the Box, or a Partner where each
    Team player has a cube against him too (Danish ¶19, euro ¶9)."""
    seating = state.seating
    return seating is not None and (player == seating.box or (
        player == seating.partner and state.rules.partner_cubes == "own"))


def boxer_of(state: TableState, player: str) -> str | None:
    """The Box-side player whose cubes `player` turns and answers, if any: his own where he
    has cubes of his own (the Box; a Partner under `partner_cubes = "own"`); with shared
    cubes the Box's, for whoever decides for the Box side: the Box, or the Partner once he
    holds the side's share (FIBS §2 ¶9, ¶11: the Box is then his slave)."""
    seating = state.seating
    if seating is None:
        return None
    if seating.partner is None or state.rules.partner_cubes == "own":
        return player if own_cubes(state, player) else None
    return seating.box if player == box_decider(state) else None


def box_decider(state: TableState) -> str:
    """Who decides for a Box side with shared cubes: the Box, or the holder of its share."""
    assert state.seating is not None
    return (state.game.box_holder if state.game else "") or state.seating.box


def acting_box(seating: Seating, game: Game) -> str:
    """Who shoots for the Box side: the Box; his Partner once the Box has no cube left in
    the game and the Partner has (the Box side's Acting Captain), or once the Partner has
    bought the Box's share (FIBS §2 ¶9: the Box is his slave)."""
    live = {c.box_player for c in game.cubes if c.live and not c.is_extra}
    partner = seating.partner
    if partner is not None and (game.box_holder == partner
                                or (seating.box not in live and partner in live)):
        return partner
    return seating.box


def acting_captain(seating: Seating, cubes: tuple[Cube, ...]) -> str | None:
    """The Team's shooter: the first Team player in rotation order whose cube is alive (a
    game bought by a teammate counts for him; one bought by an outsider, for its seat)."""
    live = {c.player(Side.TEAM) if c.player(Side.TEAM) in seating.team else c.team_player
            for c in cubes if c.live and not c.is_extra}
    return next((p for p in seating.team if p in live), None)


def without(seating: Seating, leavers: Iterable[str]) -> Seating | None:
    """The seating once `leavers` have gone; None when too few are left to seat."""
    current: Seating | None = seating
    for player in leavers:
        if current is None or player not in current.players:
            continue
        try:
            current = sit.leave(current, player)
        except SeatingError:
            current = None
    return current


def take_partner(state: TableState, seating: Seating, player: str) -> Seating:
    rules = state.rules
    if rules.partner == "never":
        raise SeatingError(code="no_partner")
    return sit.take_partner(seating, player, keep_place=rules.rotation == "atlanta",
                                 partner_min_players=rules.partner_min_players)


def between_games(state: TableState) -> Seating:
    if state.game is not None:
        raise RuleError(code="between_games")
    if state.seating is None:
        raise SeatingError(code="seat_first")
    return state.seating
