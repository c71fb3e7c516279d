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


class Played:
    """A table played in memory through the rules, each command kept as its transcript
    line (contract 2): what the benchmarks feed the worker and the store."""

    def __init__(self) -> None:
        self.state, self.lines = TableState(), list[str]()

    def do(self, data: dict[str, object]) -> None:
        self.state = replay(decide(self.state, parse(data)), self.state)
        self.lines.append(json.dumps(data))


def game(seed: int = 21) -> list[str]:
    """A whole game at a table of three (two Team cubes), random legal plays, no double."""
    rng, table = random.Random(seed), Played()
    table.do({"cmd": "open", "preset": "atlanta", "mode": "play"})
    table.do({"cmd": "seat", "order": ["ann", "bob", "cy"]})
    table.do({"cmd": "start", "opening": [[4, 2]]})
    while (now := table.state.game) is not None and now.position is not None:
        who = shooter(table.state)
        if now.dice is None:
            table.do({"cmd": "roll", "by": who, "dice": [rng.randint(1, 6), rng.randint(1, 6)]})
        elif (plays := legal_plays(now.position, now.dice)):
            table.do({"cmd": "move", "by": who, "play": format_play(rng.choice(plays))})
    return table.lines


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
