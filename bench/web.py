"""The club's pages' speed: a 40-game session's page and a replay step, as aiohttp serves
them from an SQLite store (issue 37: each under 100 ms of the server's time). A page asked
for the first time reads and folds the table's events (cold); asked again, while the table
has no new event, it is kept (warm). Times are the server's CPU time (this process serves
and asks: the client's share, a socket's read and write, is in them too), medians."""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer

from bench.analysis import Played
from bot.app import scenario
from bot.render.drawing import Drawing
from bot.store import EventStore
from bot.web.links import Links
from bot.web.server import Pages
from rules.board import legal_plays
from rules.game import shooter
from rules.notation import format_play

PLAYERS = ["ann", "bob", "cy", "di"]


def session(games: int = 40, rolls: int = 24, seed: int = 7) -> str:
    """A play-mode session of `games` games at a table of four: random legal plays, then,
    after `rolls` rolls, the Box doubles every cube and the Team drops them."""
    rng, table = random.Random(seed), Played()
    table.do({"cmd": "open", "preset": "atlanta", "mode": "play"})
    table.do({"cmd": "seat", "order": PLAYERS})
    for _ in range(games):
        table.do({"cmd": "start", "opening": [[rng.randint(4, 6), rng.randint(1, 3)]]})
        played = 0
        while (now := table.state.game) is not None and now.position is not None:
            who, seating = shooter(table.state), table.state.seating
            assert seating is not None
            if now.dice is None and played >= rolls and who == seating.box:
                table.do({"cmd": "double", "by": who, "cubes": list(seating.team)})
                for player in seating.team:
                    table.do({"cmd": "drop", "by": player})
            elif now.dice is None:
                table.do({"cmd": "roll", "by": who,
                          "dice": [rng.randint(1, 6), rng.randint(1, 6)]})
                played += 1
            elif plays := legal_plays(now.position, now.dice):
                table.do({"cmd": "move", "by": who, "play": format_play(rng.choice(plays))})
    return "\n".join(table.lines)


async def _measure(folder: Path) -> list[tuple[str, str]]:
    text = session()
    db = folder / "web.sqlite3"
    report = await scenario.run_stored(text, db)
    assert not report["rejected"], report["rejected"][:3]
    async with EventStore(db) as store:
        table_id = (await store.events.table_ids(open_only=False))[0]
        events = await store.events.version(table_id)
        path = await Links(store).session(table_id)
        rows = []
        async with TestClient(TestServer(Pages(store, Drawing(0)).app())) as client:
            for name, url in (("session page", path), ("replay step", f"{path}/game/40/5")):
                cold = await _cpu(client, url)
                warm = statistics.median([await _cpu(client, url) for _ in range(20)])
                rows.append((f"web: a 40-game session's {name} ({events} events)",
                             f"{cold:.1f} ms first, {warm:.2f} ms again"))
            await client.get(f"{path}/game/40/5.png")
            board = statistics.median([await _cpu(client, f"{path}/game/40/{n}.png")
                                       for n in range(6, 16)])
            rows.append(("web: a replay step's board, drawn (not kept yet)",
                         f"{board:.1f} ms"))
    return rows


async def _cpu(client: TestClient, url: str) -> float:  # type: ignore[type-arg]
    start = time.process_time()
    answer = await client.get(url)
    await answer.read()
    assert answer.status == 200, url
    return (time.process_time() - start) * 1000


def run() -> list[tuple[str, str]]:
    """Rows of (measure, value)."""
    with tempfile.TemporaryDirectory() as folder:
        return asyncio.run(_measure(Path(folder)))
