"""Event store and service speed: command latency with 200 active tables, cold start; on
SQLite and on PostgreSQL 16 (a server started here by pgserver, default settings: every
commit flushed to disk)."""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from bot.app.service import TableService
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


async def _latency(db: Path | str, tables: int = 200, games: int = 3) -> list[float]:
    """200 tables at once, each player acting about once a second (a very busy club)."""
    latencies: list[float] = []
    async with EventStore(db) as store:
        service = TableService(store)
        await asyncio.gather(*(_table(service, f"t{n}", games, latencies, 1.0, n)
                               for n in range(tables)))
    return latencies


async def _fill(db: Path | str, tables: int = 10, games: int = 100) -> None:
    async with EventStore(db) as store:
        service = TableService(store)
        for n in range(tables):
            await _table(service, f"t{n}", games, [])


async def _cold(db: Path | str) -> tuple[float, int]:
    t0 = time.perf_counter()
    async with EventStore(db) as store:
        ids = await TableService(store).resume()
    return time.perf_counter() - t0, len(ids)


def _measure(name: str, latency: Path | str, cold: Path | str | None) -> list[tuple[str, str]]:
    lat = asyncio.run(_latency(latency))
    lat.sort()
    p99 = lat[int(len(lat) * 0.99) - 1]
    rows = [
        (f"{name}: commands (200 tables at once)", f"{len(lat)}"),
        (f"{name}: command latency median", f"{statistics.median(lat) * 1e3:.2f} ms"),
        (f"{name}: command latency p99", f"{p99 * 1e3:.2f} ms"),
    ]
    if cold is not None:
        asyncio.run(_fill(cold))
        seconds, tables = asyncio.run(_cold(cold))
        rows.append((f"{name}: cold start, 1,000 finished games",
                     f"{seconds:.2f} s ({tables} tables resumed)"))
    return rows


def run() -> list[tuple[str, str]]:
    """Rows of (measure, value) for the store and the service, on both backends."""
    with tempfile.TemporaryDirectory() as tmp:
        rows = _measure("store", Path(tmp, "latency.sqlite3"), Path(tmp, "cold.sqlite3"))
    with tempfile.TemporaryDirectory() as tmp:
        import pgserver

        started = time.perf_counter()
        server = pgserver.get_server(tmp, cleanup_mode="stop")
        rows.append(("store on PostgreSQL: server start (pgserver)",
                     f"{time.perf_counter() - started:.1f} s"))
        try:
            server.psql("CREATE DATABASE latency; CREATE DATABASE cold; CREATE DATABASE "
                        "latency_async;")
            rows += _measure("store on PostgreSQL", server.get_uri("latency"),
                             server.get_uri("cold"))
            # SQLite's durability (WAL, synchronous=NORMAL: a crash of the machine, not of
            # the bot, may lose the last commits), through the URL: no flush per commit.
            rows += _measure("store on PostgreSQL, synchronous_commit=off",
                             f"{server.get_uri('latency_async')}&synchronous_commit=off", None)
        finally:
            server.cleanup()
    return rows
