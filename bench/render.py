"""Render speed and size: the mid-game board with a full strip of seven cubes (with names in
seven scripts too), a game's boards one after another, and the sheets (a short one, and eight
players over 35 games). Times are CPU time (the process's), the median of the runs."""

from __future__ import annotations

import asyncio
import functools
import random
import statistics
import time
from collections.abc import Callable

from bot.render import board, text
from bot.render.board import board_png, sample_board
from bot.render.drawing import Drawing
from bot.render.picture import DEFAULT_WIDTH, Picture, picture
from bot.render.samples import LAST, ROLES, full_strip, long_sheet, sample_sheet, world
from bot.render.sheet import render_sheet
from rules.board import Position, legal_plays
from rules.cube import Side


def _median_ms(fn: Callable[[], bytes], runs: int) -> tuple[float, int]:
    times, sizes = [], []
    for _ in range(runs):
        t0 = time.process_time()
        sizes.append(len(fn()))
        times.append(time.process_time() - t0)
    return statistics.median(times) * 1e3, round(statistics.median(sizes))


def game(seed: int = 7, turns: int = 40) -> list[Callable[[], bytes]]:
    """A game's boards as the bot draws them, two a turn: rolled (the dice on the board) and
    played (the new position, the last play marked), with the full cube strip."""
    return [functools.partial(board_png, p) for p in game_pictures(seed, turns)]


def game_pictures(seed: int = 7, turns: int = 40) -> list[Picture]:
    """What `game` draws: the pictures, as the bot sends them to its drawing process."""
    rng, position, side = random.Random(seed), Position.initial(), Side.TEAM
    boards: list[Picture] = []

    def draw(pos: Position, on_roll: Side, dice: tuple[int, int] | None) -> Picture:
        return picture(pos, on_roll=on_roll, dice=dice, cubes=full_strip(), roles=ROLES,
                       last=LAST)

    for _ in range(turns):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        boards.append(draw(position, side, dice))
        after = rng.choice(legal_plays(position, dice)).position
        if after.outcome():
            break
        position, side = after.swap(), side.other
        boards.append(draw(position, side, None))
    return boards


def run(runs: int = 50) -> list[tuple[str, str]]:
    """Rows of (measure, value): render time and PNG size. A running bot keeps the static
    board, sprites, palette and texts' masks, and each band of a board it drew (so an action
    redraws only what it changed); the rows say what each one starts without."""
    board.forget()
    t0 = time.process_time()
    sample_board()
    first_ms = (time.process_time() - t0) * 1e3

    def fresh(shown: Callable[[str], str] = str) -> Callable[[], bytes]:
        def draw() -> bytes:  # every band new: a board no earlier one shares a band with
            board.forget(drawings=False)
            return sample_board(shown=shown)
        return draw

    def cold() -> bytes:  # every band and text drawn anew: a table's first board
        text.forget()
        return fresh(world)()

    board_ms, board_size = _median_ms(fresh(), runs)
    names_ms, _ = _median_ms(fresh(world), runs)
    cold_ms, _ = _median_ms(cold, runs)
    same_ms, _ = _median_ms(sample_board, runs)
    boards = game()
    for draw in boards:  # the pieces (checkers, dice) as a running bot has them
        draw()
    board.forget(drawings=False)
    moves = iter(boards * (runs // len(boards) + 1))
    game_ms, game_size = _median_ms(lambda: next(moves)(), len(boards))
    process_ms, wall_ms = asyncio.run(_through_a_process(game_pictures()))
    sheet, order, roles = sample_sheet()
    sheet_ms, sheet_size = _median_ms(lambda: render_sheet(sheet, order, roles=roles), runs)
    long, long_order, long_roles = long_sheet()
    long_ms, long_size = _median_ms(lambda: render_sheet(long, long_order, roles=long_roles,
                                                         shown=world), max(runs // 5, 1))
    return [
        (f"render: board + 7 cubes, {DEFAULT_WIDTH} px, every band new, median",
         f"{board_ms:.1f} ms"),
        ("render: board + 7 cubes, PNG size", f"{board_size / 1024:.0f} KB"),
        ("render: the same, names in 7 scripts, median", f"{names_ms:.1f} ms"),
        ("render: the same, no text drawn before, median", f"{cold_ms:.1f} ms"),
        ("render: the same board again, median", f"{same_ms:.2f} ms"),
        (f"render: a game's boards ({len(boards)}: rolled, played), median",
         f"{game_ms:.1f} ms"),
        ("render: a game's boards, PNG size, median", f"{game_size / 1024:.0f} KB"),
        ("render: the same through the drawing process, the bot's CPU a board",
         f"{process_ms:.2f} ms"),
        ("render: the same through the drawing process, wall a board", f"{wall_ms:.1f} ms"),
        ("render: a process's first board (palette, static board)", f"{first_ms:.0f} ms"),
        ("render: score sheet (5 players, 4 games), median", f"{sheet_ms:.1f} ms"),
        ("render: score sheet, PNG size", f"{sheet_size / 1024:.0f} KB"),
        ("render: score sheet (8 players, 35 games), median", f"{long_ms:.1f} ms"),
        ("render: score sheet (8 players, 35 games), PNG size", f"{long_size / 1024:.0f} KB"),
    ]


async def _through_a_process(pictures: list[Picture]) -> tuple[float, float]:
    """A game's boards drawn by the bot's drawing process (`bot.render.drawing`), one after another,
    after another game's (its pieces and glyphs kept as a running bot has them): what each
    costs the bot's own process (sending the picture, receiving the PNG), and how long it
    takes."""
    drawing = Drawing(1)
    try:
        for pic in game_pictures(seed=8):
            await drawing.run(board_png, pic)
        cpu0, wall0 = time.process_time(), time.perf_counter()
        for pic in pictures:
            await drawing.run(board_png, pic)
        n = len(pictures)
        return ((time.process_time() - cpu0) / n * 1e3, (time.perf_counter() - wall0) / n * 1e3)
    finally:
        await drawing.close()
