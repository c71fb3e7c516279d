"""The event store as the operator sees it: backups, the rules' stamp on snapshots, files
that can't be used (empty, read-only) refused at open with what to do. Tests taking `target`
run on both backends (SQLite and PostgreSQL: tests/bot/conftest.py)."""

import asyncio
import contextlib
import sqlite3
from functools import partial
from pathlib import Path

import pytest

from bot.app.service import TableService
from bot.store import EventStore, StoreError, sqlite
from bot.store import database as store_module
from bot.store import events as events_module
from bot.store.codec import dumps
from bot.store.dialect import Dialects
from bot.store.migrations import MIGRATIONS
from bot.store.sqlite import SqliteDatabase, backup
from rules import RULES_VERSION
from rules.state import TableState
from tests.bot.test_store import in_memory, run_session


def schema_3_database(path: Path) -> None:
    """A database as the bot before the rules' stamp left it, with one table."""
    db = sqlite3.connect(path, isolation_level=None)
    for script in MIGRATIONS[:3]:
        db.executescript(script.sqlite if isinstance(script, Dialects) else script)
    db.execute("PRAGMA user_version = 3")
    db.execute("INSERT INTO tables (id) VALUES ('t0')")
    db.close()


async def test_snapshots_carry_the_rules_version(target: Path | str) -> None:
    async with EventStore(target, snapshot_every=3) as store:
        await run_session(TableService(store))
        rows = await store.db.execute_fetchall("SELECT rules_version FROM snapshots")
    assert [row[0] for row in rows] == [RULES_VERSION]


async def test_a_snapshot_of_other_rules_is_ignored_and_the_events_replayed(
        target: Path | str, monkeypatch: pytest.MonkeyPatch) -> None:
    async with EventStore(target, snapshot_every=3) as store:
        await run_session(TableService(store))
        # The snapshot says something the events don't: which one a load believes shows.
        wrong = dumps(TableState())
        await store.db.execute("UPDATE snapshots SET state = ?", (wrong,))
        assert (await store.events.load("t1")).state != in_memory()  # same rules: the snapshot
        monkeypatch.setattr(events_module, "RULES_VERSION", RULES_VERSION + 1)  # a fix
        loaded = await store.events.load("t1")
        stored = await store.db.execute_fetchall(
            "SELECT version FROM events WHERE table_id = 't1'")
    assert loaded.state == in_memory()
    assert loaded.version == len(stored)


async def test_a_snapshot_from_before_the_stamp_is_replayed_after_the_migration(
        target: Path | str) -> None:
    async with EventStore(target, snapshot_every=3) as store:
        await run_session(TableService(store))
        await store.db.execute("UPDATE snapshots SET rules_version = NULL, state = 'garbage'")
        assert (await store.events.load("t1")).state == in_memory()


async def test_a_migration_backs_the_file_up_first(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    schema_3_database(path)
    async with EventStore(path) as store:
        assert store.backed_up is not None
        assert store.backed_up.name.startswith("c.db.schema3-")
        assert await store.events.table_ids() == ["t0"]
    copy = sqlite3.connect(store.backed_up)
    assert copy.execute("PRAGMA user_version").fetchone() == (3,)
    assert copy.execute("SELECT id FROM tables").fetchall() == [("t0",)]
    copy.close()
    async with EventStore(path) as again:  # up to date: no second copy
        assert again.backed_up is None
    assert len(list(tmp_path.glob("*.bak"))) == 1


async def test_a_new_database_is_not_backed_up(tmp_path: Path) -> None:
    async with EventStore(tmp_path / "new.db") as store:
        assert store.backed_up is None
    assert not list(tmp_path.glob("*.bak"))


async def test_backup_copies_a_database_in_use_with_its_wal(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    async with EventStore(path) as store:
        await run_session(TableService(store))
        assert (tmp_path / "c.db-wal").stat().st_size > 0  # not yet checkpointed
        copy = backup(path, tmp_path / "saved" / "copy.sqlite3")
        assert not list(tmp_path.glob("saved/*.part"))
    async with EventStore(copy) as restored:
        assert (await restored.events.load("t1")).state == in_memory()


def test_backup_refuses_a_missing_or_empty_source(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="There is no database"):
        backup(tmp_path / "none.db", tmp_path / "out.db")
    (tmp_path / "empty.db").touch()
    with pytest.raises(StoreError, match=r"empty \(0 bytes\)"):
        backup(tmp_path / "empty.db", tmp_path / "out.db")
    assert not (tmp_path / "out.db").exists()


async def test_an_empty_file_is_refused_not_taken_for_a_new_database(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    path.touch()
    with pytest.raises(StoreError, match=r"is empty \(0 bytes\).*backup.*delete it"):
        await EventStore(path).open()
    assert path.stat().st_size == 0


async def test_a_database_that_cant_be_written_is_refused_at_open(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before, a read-only file opened fine and every command failed (tests/e2e has the
    real thing: a file of another user)."""
    path = tmp_path / "c.db"
    async with EventStore(path):
        pass
    monkeypatch.setattr(store_module, "open_sqlite",
                        partial(sqlite.open_sqlite, read_only=True))
    store = EventStore(path)
    with pytest.raises(StoreError, match=rf"{path.name} can't be written"):
        await store.open()
    assert store.database._db is None


async def test_meta_values_are_kept(target: Path | str) -> None:
    async with EventStore(target) as store:
        assert await store.meta.get("k") is None
        await store.meta.set("k", "v")
        await store.meta.set("k", "v")  # again: replaced, not a second row
    async with EventStore(target) as store:
        assert await store.meta.get("k") == "v"
        await store.meta.set("k", None)
        assert await store.meta.get("k") is None


async def test_a_transaction_is_whole_on_both_backends(target: Path | str) -> None:
    """A transaction's statements are sent together (SQLite: at its end, or with a read
    inside it, which sees them): a read inside sees what was written before it, and a
    statement failing at the end, or an error raised in the block, leaves nothing."""
    async with EventStore(target) as store:
        db = store.db
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO meta (key, value) VALUES (?, ?)", ("a", "1"))
            assert await tx.execute_fetchall("SELECT value FROM meta WHERE key = ?",
                                             ("a",)) == [("1",)]
            await tx.execute("INSERT INTO meta (key, value) VALUES (?, ?)", ("b", "2"))
        with pytest.raises(db.integrity):
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO meta (key, value) VALUES (?, ?)", ("c", "3"))
                await tx.execute("INSERT INTO meta (key, value) VALUES (?, ?)", ("a", "9"))
        with pytest.raises(RuntimeError):
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO meta (key, value) VALUES (?, ?)", ("d", "4"))
                await tx.execute_fetchall("SELECT 1")
                raise RuntimeError("the block fails after a read")
        rows = await db.execute_fetchall("SELECT key, value FROM meta WHERE key IN "
                                         "('a', 'b', 'c', 'd') ORDER BY key")
        assert rows == [("a", "1"), ("b", "2")]


async def test_a_statement_on_its_own_waits_for_an_open_transaction(tmp_path: Path) -> None:
    """SQLite: one connection. A statement on its own, sent while another coroutine's
    transaction is open, waits for its end (sent at once it would be inside it) and its
    failure leaves that one alone; a transaction whose read failed sends nothing more (not
    even a COMMIT); a statement on its own inside its own task's transaction is refused
    (it would wait for itself)."""
    async with EventStore(tmp_path / "c.db") as store:
        db = store.db
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO meta (key, value) VALUES (?, ?)", ("a", "1"))
            await tx.execute_fetchall("SELECT 1")  # begun
            alone = asyncio.ensure_future(db.execute_fetchall("SELECT key FROM meta"))
            failing = asyncio.ensure_future(db.execute_fetchall("SELECT * FROM no_such_table"))
            for _ in range(20):
                await asyncio.sleep(0)
            assert not alone.done() and not failing.done()
            await tx.execute("INSERT INTO meta (key, value) VALUES (?, ?)", ("b", "2"))
        assert await alone == [("a",), ("b",)]
        with pytest.raises(sqlite3.OperationalError):
            await failing
        with pytest.raises(sqlite3.OperationalError, match="rolled back"):
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO meta (key, value) VALUES (?, ?)", ("c", "3"))
                with pytest.raises(sqlite3.OperationalError):
                    await tx.execute_fetchall("SELECT * FROM no_such_table")
                await tx.execute("INSERT INTO meta (key, value) VALUES (?, ?)", ("d", "4"))
        assert await db.execute_fetchall("SELECT key FROM meta WHERE key IN ('c', 'd')") == []
        with pytest.raises(RuntimeError, match="inside this task's transaction"):
            async with db.transaction() as tx:
                await db.execute_fetchall("SELECT 1")


async def test_a_transaction_left_open_does_not_block_the_next_one(tmp_path: Path) -> None:
    """A transaction left open on the connection (none is, by the store: this one is begun
    by hand) would make every later BEGIN fail: the next transaction rolls it back first."""
    async with EventStore(tmp_path / "c.db") as store:
        db = store.db
        assert isinstance(db, SqliteDatabase)
        async with db.turn() as connection:
            await connection.execute("BEGIN IMMEDIATE")
            await connection.execute("INSERT INTO meta (key, value) VALUES ('stale', '0')")
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO meta (key, value) VALUES (?, ?)", ("e", "5"))
        assert await db.execute_fetchall("SELECT key FROM meta WHERE key IN ('stale', 'e')"
                                         ) == [("e",)]


async def test_a_cancelled_writer_leaves_no_transaction_open(tmp_path: Path) -> None:
    """A writer cancelled at any await of its transaction (waiting for its turn, for BEGIN,
    a statement, a read, the COMMIT) leaves its writes whole or absent, and the database
    free: the next write goes through, here and from another process."""
    path = tmp_path / "c.db"
    async with EventStore(path, busy_timeout=0.5) as store:
        db = store.db
        assert isinstance(db, SqliteDatabase)

        async def write(n: int) -> None:
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (f"a{n}", "1"))
                await tx.execute_fetchall("SELECT 1")
                await tx.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (f"b{n}", "2"))

        for n in range(60):  # (the later the cancel, the further it got: here, up to done)
            blocker = asyncio.ensure_future(db.execute_fetchall("SELECT 1"))  # a turn to wait
            task = asyncio.ensure_future(write(n))
            for _ in range(n // 2):
                await asyncio.sleep(0)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            await blocker
            await db.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (f"c{n}", "3"))
            rows = await db.execute_fetchall("SELECT key FROM meta WHERE key IN (?, ?)",
                                             (f"a{n}", f"b{n}"))
            assert rows in ([], [(f"a{n}",), (f"b{n}",)])
            assert not db.connection.in_transaction
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")
    finally:
        other.close()


async def test_a_failed_commit_is_rolled_back(target: Path | str) -> None:
    """A COMMIT refused (here a deferred foreign key still dangling) takes the transaction's
    writes back and leaves the database free for the next."""
    async with EventStore(target) as store:
        db = store.db
        if db.dialect == "sqlite":
            await db.execute("PRAGMA foreign_keys = ON")
        await db.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
        await db.execute("CREATE TABLE child (parent INTEGER REFERENCES parent (id) "
                         "DEFERRABLE INITIALLY DEFERRED)")
        with pytest.raises(db.errors):
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO meta (key, value) VALUES (?, ?)", ("f", "6"))
                await tx.execute("INSERT INTO child (parent) VALUES (?)", (1,))
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO meta (key, value) VALUES (?, ?)", ("g", "7"))
        assert await db.execute_fetchall("SELECT key FROM meta WHERE key IN ('f', 'g')"
                                         ) == [("g",)]
