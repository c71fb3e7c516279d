"""`python -m bot move-to URL`: an SQLite store copied to PostgreSQL, checked, and refused
when the target already has rows."""

import asyncio
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.analysis.queue import AnalysisStore
from bot.analysis.text import Analysed
from bot.app.effects import Announce, Outcome
from bot.app.service import TableService
from bot.store import Channels, EventStore
from rules.commands import Join
from rules.table_events import PlayerJoined
from tests.bot.conftest import new_schema
from tests.bot.test_store import in_memory, run_session


async def filled(path: Path) -> None:
    """A store with three tables (one ended), channels, a seed, meta, an undelivered
    effect and a game's verdict with its totals: every kind of row the bot keeps."""
    async with EventStore(path, snapshot_every=3) as store:
        service = TableService(store, outbox=True)
        for table in ("t3", "t1", "t2"):  # not in alphabetical order: kept as opened
            await run_session(service, table)
        await store.channels.save(Channels("t1", 2**62, 2, 3, 4, 5, 6, 7, 8))
        await store.events.game_seed("t1", 1, b"seed")
        await store.meta.set("commands", "global")
        await store.events.append("t4", 0, (PlayerJoined("ann"),), "a", Outcome(True),
                                  effects=(Announce("Ann joins."),))
        await store.db.execute("UPDATE tables SET closed = 1 WHERE id = 't2'")
        await AnalysisStore(store).save("t1", 1, 2, {"decisions": [  # losses as floats go
            {"player": "ann", "kind": "take", "loss": 0.0312345678901},
            {"player": "ann", "kind": "move", "loss": 0.1, "details": {}}]})


async def test_move_to_copies_every_row_and_every_table_loads_the_same(
        tmp_path: Path, postgres: Any, worker_id: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "c.db"
    await filled(path)
    url = new_schema(postgres, worker_id)
    assert await asyncio.to_thread(main, ["move-to", url, "--db", str(path)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"checked it \(3 tables, 1 events|, \d+ events, ", out), out
    assert "CHOUETTE_DATABASE_URL" in out
    assert await asyncio.to_thread(main, ["stats", "--db", url]) == 0  # the tools read it too
    on_postgres = json.loads(capsys.readouterr().out)
    assert await asyncio.to_thread(main, ["stats", "--db", str(path)]) == 0
    assert on_postgres == json.loads(capsys.readouterr().out) != {}
    async with EventStore(path) as old, EventStore(url) as new:
        assert await new.events.table_ids() == await old.events.table_ids() == ["t3", "t1", "t4"]
        assert await new.events.table_ids(open_only=False) == ["t3", "t1", "t2", "t4"]
        assert (await new.events.load("t1")).state == in_memory()
        assert await new.channels.find(table_id="t1") == await old.channels.find(table_id="t1")
        assert await new.events.game_seed("t1", 1) == b"seed"
        assert await new.meta.get("commands") == "global"
        assert await new.outbox.undelivered("t4") == [(1, (Announce("Ann joins."),))]
        assert await AnalysisStore(new).analysed("ann", 2**62) == await AnalysisStore(
            old).analysed("ann", 2**62) != Analysed()
        assert await new.events.keys("t2") == await old.events.keys("t2")
        # The moved store goes on: the next command is stored after the copied ones.
        before = (await new.events.load("t1")).version
        outcome = await TableService(new).handle("t1", Join(by="zed"), "z")
        assert outcome.accepted, outcome.reason
        assert (await new.events.load("t1")).version > before


async def test_move_to_refuses_a_target_with_rows_and_what_is_not_a_url(
        tmp_path: Path, postgres: Any, worker_id: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "c.db"
    await filled(path)
    url = new_schema(postgres, worker_id)
    async with EventStore(url) as store:
        await store.meta.set("something", "here")
    assert await asyncio.to_thread(main, ["move-to", url, "--db", str(path)]) == 2
    assert "is not empty (meta have rows)" in capsys.readouterr().err
    assert await asyncio.to_thread(main, ["move-to", "mysql://x/y", "--db", str(path)]) == 2
    assert "not a PostgreSQL URL" in capsys.readouterr().err
    assert await asyncio.to_thread(main, ["move-to", new_schema(postgres, worker_id), "--db",
                 str(tmp_path / "none.db")]) == 2
    assert "There is no database" in capsys.readouterr().err


async def test_move_to_never_prints_the_password(tmp_path: Path, postgres: Any, worker_id: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Neither in the URL's user part nor in its query string, copied or refused."""
    path = tmp_path / "c.db"
    await filled(path)
    url = new_schema(postgres, worker_id) + "&password=s3cret"  # (the server trusts anyone)
    assert await asyncio.to_thread(main, ["move-to", url, "--db", str(path)]) == 0
    out = capsys.readouterr().out
    assert "&password=***" in out and "s3cret" not in out
    for wrong in ("mysql://bot:s3cret@db/chouette", "bot:s3cret@db/chouette"):
        assert await asyncio.to_thread(main, ["move-to", wrong, "--db", str(path)]) == 2
        err = capsys.readouterr().err
        assert "not a PostgreSQL URL" in err and "s3cret" not in err and "bot:***@" in err


def test_the_store_runs_on_sqlite_without_the_postgres_driver() -> None:
    """asyncpg is the `postgres` extra's: only a PostgreSQL URL loads it."""
    code = ("import sys, asyncio; from bot.store import EventStore\n"
            "async def go():\n"
            "    async with EventStore(':memory:') as s: await s.meta.set('k', 'v')\n"
            "asyncio.run(go()); assert 'asyncpg' not in sys.modules, 'asyncpg loaded'")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[2])


def test_a_transcript_through_postgresql_reports_as_in_memory_and_applies_nothing_twice(
        postgres: Any, worker_id: str) -> None:
    """Contract 2 with `--db` a PostgreSQL URL, run as the operator would: as a process."""
    transcript = Path(__file__).parents[1] / "scenarios" / "atlanta_play.jsonl"
    url = new_schema(postgres, worker_id)

    def report(*db: str) -> Any:
        return json.loads(subprocess.run(
            [sys.executable, "-m", "bot", "scenario", str(transcript), *db], check=True,
            capture_output=True, text=True, cwd=Path(__file__).parents[2]).stdout)

    expected = report()  # in memory
    assert expected["scores"] and expected["rejected"]
    assert report("--db", url) == expected
    assert report("--db", url) == expected  # again: every line found stored, none applied
