"""Player statistics speed: every player's record over 300 finished play-mode sessions."""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from pathlib import Path

from bot.records.stats import Cache, read_stats
from bot.store import EventStore
from rules.board import legal_plays
from rules.cube import Side
from rules.events import Event
from rules.game import shooter
from rules.notation import format_play
from rules.state import TableState, replay
from rules.table import decide
from rules.transcript import build

PLAYERS = ["ann", "bo", "cy", "di"]


def session(rng: random.Random, games: int = 8) -> tuple[list[Event], TableState]:
    """A play-mode session: random legal plays, the Box doubles the Captain once a game."""
    state, events = TableState(), list[Event]()

    def do(name: str, by: str = "", **args: object) -> None:
        nonlocal state
        new = decide(state, build(name, by, **args))
        state = replay(new, state)
        events.extend(new)

    do("open", preset="atlanta", mode="play")
    do("seat", order=PLAYERS)
    for _ in range(games):
        do("start", opening=[rng.sample(range(1, 7), 2)])
        doubled = False
        while (game := state.game) is not None and state.seating is not None:
            who = shooter(state) or ""
            if game.dice is None and not doubled and game.on_roll is Side.BOX:
                doubled = True
                do("double", who, cubes=[state.seating.captain])
                do("take", state.seating.captain)
            elif game.dice is None:
                do("roll", who, dice=[rng.randint(1, 6), rng.randint(1, 6)])
            else:
                assert game.position is not None
                play = rng.choice(legal_plays(game.position, game.dice))
                do("move", who, play=format_play(play))
    do("end_session")
    return events, state


async def _fill(db: Path, tables: int) -> int:
    """`tables` finished sessions (one random session stored again under each id)."""
    events, state = session(random.Random(7))
    async with EventStore(db) as store:
        for n in range(tables):
            await store.events.append(f"t{n}", 0, events, None, None, state)
    return len(events)


async def _read(db: Path) -> tuple[float, float, float]:
    async with EventStore(db) as store:
        t0 = time.perf_counter()
        await read_stats(store, player="ann")
        t1 = time.perf_counter()
        cache: Cache = {}
        everyone = await read_stats(store, cache=cache)
        t2 = time.perf_counter()
        await read_stats(store, cache=cache)
        t3 = time.perf_counter()
    assert everyone["ann"].sessions > 0
    return t1 - t0, t2 - t1, t3 - t2


def run(tables: int = 300) -> list[tuple[str, str]]:
    """Rows of (measure, value) for the statistics."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp, "stats.sqlite3")
        per_session = asyncio.run(_fill(db, tables))
        one, everyone, cached = asyncio.run(_read(db))
    return [
        ("stats: sessions (play mode, 8 games each)",
         f"{tables} ({tables * per_session:,} events)"),
        ("stats: one player, cold", f"{one:.2f} s"),
        ("stats: every player, cold", f"{everyone:.2f} s"),
        ("stats: every player, closed tables cached", f"{cached * 1e3:.1f} ms"),
    ]

