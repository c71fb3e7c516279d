"""Render speed and size: the mid-game board with a full strip of seven cubes (with names in
seven scripts too), and the sheets (a short one, and eight players over 35 games)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from bot.render import text
from bot.render.board import DEFAULT_WIDTH
from bot.render.samples import long_sheet, sample_board, sample_sheet, world
from bot.render.sheet import render_sheet


def _median_ms(fn: Callable[[], bytes], runs: int) -> tuple[float, int]:
    times, size = [], 0
    for _ in range(runs):
        t0 = time.perf_counter()
        size = len(fn())
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3, size


def run(runs: int = 50) -> list[tuple[str, str]]:
    """Rows of (measure, value): median render time and PNG size (the static board is drawn
    once before timing, as it is in a running bot; the texts' masks too, but for the row
    that forgets them before each board)."""
    sample_board()
    board_ms, board_size = _median_ms(sample_board, runs)
    names_ms, _ = _median_ms(lambda: sample_board(shown=world), runs)

    def cold() -> bytes:  # every text drawn anew: a table's first board
        text.forget()
        return sample_board(shown=world)

    cold_ms, _ = _median_ms(cold, runs)
    sheet, order, roles = sample_sheet()
    sheet_ms, sheet_size = _median_ms(lambda: render_sheet(sheet, order, roles=roles), runs)
    long, long_order, long_roles = long_sheet()
    long_ms, long_size = _median_ms(lambda: render_sheet(long, long_order, roles=long_roles,
                                                         shown=world), max(runs // 5, 1))
    return [
        (f"render: board + 7 cubes, {DEFAULT_WIDTH} px, median", f"{board_ms:.1f} ms"),
        ("render: board + 7 cubes, PNG size", f"{board_size / 1024:.0f} KB"),
        ("render: the same, names in 7 scripts, median", f"{names_ms:.1f} ms"),
        ("render: the same, no text drawn before, median", f"{cold_ms:.1f} ms"),
        ("render: score sheet (5 players, 4 games), median", f"{sheet_ms:.1f} ms"),
        ("render: score sheet, PNG size", f"{sheet_size / 1024:.0f} KB"),
        ("render: score sheet (8 players, 35 games), median", f"{long_ms:.1f} ms"),
        ("render: score sheet (8 players, 35 games), PNG size", f"{long_size / 1024:.0f} KB"),
    ]
