"""Shared givens for the table tests: open and seat a table, start a game, read scores."""

from fractions import Fraction
from typing import Any

from rules.ledger import net
from rules.roles import cube_of
from rules.state import TableState, replay
from rules.table import decide
from rules.transcript import build


def do(state: TableState, name: str, by: str = "", **args: Any) -> TableState:
    return replay(decide(state, build(name, by, **args)), state)


def table(*players: str, preset: str = "atlanta", mode: str = "scorekeeper",
          **options: Any) -> TableState:
    """Given: a table of `preset` seated in the order given (Box, Captain, rest)."""
    state = do(TableState(), "open", preset=preset, mode=mode, options=options)
    return do(state, "seat", order=list(players or ("ann", "bo", "cy", "di")))


def game(*players: str, **kw: Any) -> TableState:
    """Given: a seated table whose first game has started (scorekeeper mode)."""
    return do(table(*players, **kw), "start")


def scores(state: TableState) -> dict[str, Fraction]:
    """Totals so far, with the points already paid in the game in progress (drops)."""
    total = dict(state.sheet.totals())
    for name, points in net(state.game.transfers if state.game else ()).items():
        total[name] = total.get(name, Fraction(0)) + points
    return total


def cube(state: TableState, player: str) -> Any:
    assert state.game is not None
    return cube_of(state.game, player)
