"""The analysis worker's speed: a whole chouette game through gnubg at 0, 1 and 2 ply."""

from __future__ import annotations

import asyncio
import json
import random
import time

from bot.analysis.worker import AnalysisWorker, available
from rules.board import legal_plays
from rules.game import shooter
from rules.notation import format_play
from rules.state import TableState, replay
from rules.table import decide
from rules.transcript import parse


def game(seed: int = 21) -> list[str]:
    """A whole game at a table of three (two Team cubes), random legal plays, no double."""
    rng, state, lines = random.Random(seed), TableState(), list[str]()

    def do(data: dict[str, object]) -> None:
        nonlocal state
        state = replay(decide(state, parse(data)), state)
        lines.append(json.dumps(data))

    do({"cmd": "open", "preset": "atlanta", "mode": "play"})
    do({"cmd": "seat", "order": ["ann", "bob", "cy"]})
    do({"cmd": "start", "opening": [[4, 2]]})
    while state.game is not None and state.game.position is not None:
        who, game_now = shooter(state), state.game
        if game_now.dice is None:
            do({"cmd": "roll", "by": who, "dice": [rng.randint(1, 6), rng.randint(1, 6)]})
        elif (plays := legal_plays(game_now.position, game_now.dice)):
            do({"cmd": "move", "by": who, "play": format_play(rng.choice(plays))})
    return lines


async def _measure(plies: tuple[int, ...]) -> list[tuple[int, int, float]]:
    lines, worker = game(), AnalysisWorker()
    try:
        await worker.analyse(lines[:5], 0)  # the worker and gnubg's weights loaded
        rows = []
        for n in plies:
            await worker.analyse(lines[:5], n)  # this depth's engine made
            start = time.perf_counter()
            result = await worker.analyse(lines, n)
            rows.append((n, len(result["decisions"]), time.perf_counter() - start))
        return rows
    finally:
        await worker.close()


def run(plies: tuple[int, ...] = (0, 1, 2)) -> list[tuple[str, str]]:
    """Rows of (measure, value): decisions a second and seconds per game at each depth."""
    if not available():
        return [("analysis", "not installed (pip install -e '.[analysis]')")]
    out = []
    for n, decisions, seconds in asyncio.run(_measure(plies)):
        out.append((f"analysis: {n}-ply, one game ({decisions} decisions)",
                    f"{seconds:.2f} s, {decisions / seconds:,.1f} decisions/s"))
    return out
