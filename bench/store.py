"""Event store and service speed: command latency with 200 active tables, cold start."""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from bot.service import TableService
from bot.store import EventStore
from rules.commands import Answer, Command, Double, Open, Result, Seat, Start

PLAYERS = ["ann", "bo", "cy", "di"]


def _game(box: str, team: list[str]) -> list[Command]:
    """One game: the Captain doubles, the Box takes, the Team wins."""
    return [Start(), Double(by=team[0]), Answer(by=box, take=(team[0],)),
            Result(winner="team")]


async def _table(service: TableService, table: str, games: int, latencies: list[float],
                 think: float = 0.0, seed: int = 0) -> None:
    """Open a table and play `games` games, pausing `think` seconds (mean) between commands."""
    rng = random.Random(seed)

    async def timed(cmd: Command, key: str) -> None:
        if think:
            await asyncio.sleep(rng.expovariate(1 / think))
        t0 = time.perf_counter()
        await service.handle(table, cmd, key)
        latencies.append(time.perf_counter() - t0)

    await timed(Open(preset="atlanta", mode="scorekeeper"), "open")
    await timed(Seat(order=PLAYERS), "seat")
    for g in range(games):
        state = await service.state(table)
        assert state.seating is not None
        for i, cmd in enumerate(_game(state.seating.box, list(state.seating.team))):
            await timed(cmd, f"g{g}:{i}")


async def _latency(db: Path, tables: int = 200, games: int = 3) -> list[float]:
    """200 tables at once, each player acting about once a second (a very busy club)."""
    latencies: list[float] = []
    async with EventStore(db) as store:
        service = TableService(store)
        await asyncio.gather(*(_table(service, f"t{n}", games, latencies, 1.0, n)
                               for n in range(tables)))
    return latencies


async def _fill(db: Path, tables: int = 10, games: int = 100) -> None:
    async with EventStore(db) as store:
        service = TableService(store)
        for n in range(tables):
            await _table(service, f"t{n}", games, [])


async def _cold(db: Path) -> tuple[float, int]:
    t0 = time.perf_counter()
    async with EventStore(db) as store:
        ids = await TableService(store).resume()
    return time.perf_counter() - t0, len(ids)


def run() -> list[tuple[str, str]]:
    """Rows of (measure, value) for the store and the service."""
    with tempfile.TemporaryDirectory() as tmp:
        lat = asyncio.run(_latency(Path(tmp, "latency.sqlite3")))
        asyncio.run(_fill(Path(tmp, "cold.sqlite3")))
        cold, tables = asyncio.run(_cold(Path(tmp, "cold.sqlite3")))
    lat.sort()
    p99 = lat[int(len(lat) * 0.99) - 1]
    return [
        ("store: commands (200 tables at once)", f"{len(lat)}"),
        ("store: command latency median", f"{statistics.median(lat) * 1e3:.2f} ms"),
        ("store: command latency p99", f"{p99 * 1e3:.2f} ms"),
        ("store: cold start, 1,000 finished games", f"{cold:.2f} s ({tables} tables resumed)"),
    ]
