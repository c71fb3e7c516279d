"""The store on both backends: two writers of one table, the Discord side and the outbox,
migrations written later; PostgreSQL's own: its schema number, its errors, its SQL."""

import asyncio
import logging
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.app.effects import Announce, Outcome
from bot.app.service import TableService
from bot.store import Channels, ConcurrentWrite, EventStore, StoreError
from bot.store import database as store_module
from bot.store.codec import command_dumps, command_loads
from bot.store.dialect import placeholders, postgres_ddl, shown
from bot.store.migrations import MIGRATIONS
from bot.store.outbox import DELIVERED_WITHIN
from rules.commands import Join, Open, Take
from rules.table_events import PlayerJoined
from tests.bot.conftest import new_schema

BIG = 1_234_567_890_123_456_789  # Discord ids need 64 bits


async def test_two_stores_writing_one_table_at_one_version_one_fails_loudly(
        target: Path | str) -> None:
    """Two connections, as two bot processes would have, append at version 0 at once."""
    async with EventStore(target) as first, EventStore(target) as second:
        results = await asyncio.gather(
            first.events.append("t", 0, (PlayerJoined("ann"),), "a", Outcome(True)),
            second.events.append("t", 0, (PlayerJoined("bo"),), "b", Outcome(True)),
            return_exceptions=True)
        assert [r for r in results if not isinstance(r, BaseException)] == [1]
        lost = [r for r in results if isinstance(r, BaseException)]
        assert len(lost) == 1 and isinstance(lost[0], ConcurrentWrite)
        winner, loser = ("a", "b") if results[0] == 1 else ("b", "a")
        for store in (first, second):
            loaded = await store.events.load("t")
            assert loaded.version == 1
            assert [m.player for m in loaded.state.members] == [
                "ann" if winner == "a" else "bo"]
            assert await store.events.keys("t") == {winner}  # nothing of the loser's write
        assert await first.events.outcome("t", loser) is None


async def test_a_service_behind_another_process_fails_loudly_then_retries_on_the_new_state(
        target: Path | str) -> None:
    async with EventStore(target) as one, EventStore(target) as two:
        here, there = TableService(one), TableService(two)
        opened = Open(preset="atlanta", mode="scorekeeper")
        assert (await here.handle("t", opened, "open")).accepted
        await there.state("t")  # the other process has the table loaded
        assert (await here.handle("t", Join(by="ann"), "k1")).accepted
        with pytest.raises(ConcurrentWrite):
            await there.handle("t", Join(by="bo"), "k2")  # its state was stale
        retried = await there.handle("t", Join(by="bo"), "k2")  # reloaded
        assert retried.accepted
        state = (await one.events.load("t")).state
        assert [m.player for m in state.members] == ["ann", "bo"]


async def test_channels_and_the_outbox_are_kept(target: Path | str) -> None:
    async with EventStore(target) as store:
        first = Channels("t1", BIG, BIG + 1, BIG + 2, BIG + 3, BIG + 4, BIG + 5)
        await store.channels.save(first)
        moved = Channels("t1", BIG, BIG + 1, BIG + 2, BIG + 3, BIG + 4, BIG + 5, BIG + 6, 7)
        await store.channels.save(moved)  # replaced: the board message is known now
        await store.channels.save(Channels("t2", 5, 10, 11, 12, 13, 14))
        await store.events.append("t1", 0, (PlayerJoined("ann"),), "a", Outcome(True),
                                  effects=(Announce("Ann joins."),))
        await store.events.append("t2", 0, (PlayerJoined("bo"),), "b", Outcome(True))
        assert await store.channels.find(table_id="t1") == moved
        assert await store.channels.find(channel_id=BIG + 4) == moved
        assert await store.channels.find(channel_id=99) is None
        assert await store.channels.of_guild(BIG) == [moved]
        assert await store.outbox.undelivered("t1") == [(1, (Announce("Ann joins."),))]
        await store.outbox.delivered("t1", 1)
        assert await store.outbox.undelivered("t1") == []
        for version, name in enumerate(("cy", "di", "ed"), 1):  # shown together: out at once
            await store.events.append("t1", version, (PlayerJoined(name),), name, Outcome(True),
                                      effects=(Announce(f"{name} joins."),))
        await store.outbox.delivered("t1", 2, 4)
        assert [v for v, _ in await store.outbox.undelivered("t1")] == [3]
        rows = "SELECT version FROM outbox WHERE table_id = 't1' ORDER BY version"
        assert await store.db.execute_fetchall(rows) == [(1,), (2,), (3,), (4,)]  # not yet
        await asyncio.sleep(DELIVERED_WITHIN + 0.3)
        assert await store.db.execute_fetchall(rows) == [(3,)]  # together, a moment later
        await store.outbox.delivered("t1", 3)
    async with EventStore(target) as store:  # closing wrote what was delivered
        assert await store.outbox.undelivered("t1") == []
        assert await store.db.execute_fetchall(rows) == []
        await store.db.execute("UPDATE tables SET closed = 1 WHERE id = ?", ("t2",))
        ended = await store.channels.ended()
        assert [(c.table_id, isinstance(at, int)) for c, at in ended] == [("t2", True)]
        assert await store.events.table_ids() == ["t1"]
        assert await store.events.table_ids(open_only=False) == ["t1", "t2"]


async def test_a_tables_kept_values_are_forgotten_by_their_prefix(target: Path | str) -> None:
    async with EventStore(target) as store:
        for key in ("deadline:t1:shooter:", "deadline:t1:decision:9", "deadline:t10:hold:9",
                    "deadline:t2:shooter:"):
            await store.meta.set(key, "what 1")
        await store.meta.forget("deadline:t1:")
        assert [await store.meta.get(k) for k in ("deadline:t1:shooter:",
                                                  "deadline:t1:decision:9")] == [None] * 2
        async with EventStore(target) as other:  # as the database has it
            assert [await other.meta.get(k) for k in ("deadline:t1:shooter:",
                                                      "deadline:t1:decision:9",
                                                      "deadline:t10:hold:9", "deadline:t2:shooter:")
                    ] == [None, None, "what 1", "what 1"]


async def test_the_inbox_hands_a_command_to_another_process_once(target: Path | str) -> None:
    """Shard 0's process posts a DM answer for a table shard 1's serves: the other store (as
    the other process) hears it (PostgreSQL: NOTIFY), reads it once, applies it once."""
    async with EventStore(target) as here, EventStore(target) as there:
        heard = asyncio.Event()
        listening = await there.inbox.listen(heard.set)
        assert listening == (there.database.url is not None)  # SQLite: one process, nothing to hear
        await there.channels.save(Channels("t1", BIG, 1, 2, 3, 4, 5))
        service = TableService(there)
        assert (await service.handle("t1", Open(preset="atlanta", mode="scorekeeper"),
                                     "open")).accepted
        take = Take(by="ann", cubes=("bo",), face=2, moderator=True)
        assert command_loads(command_dumps(take)) == take
        await here.inbox.post("t1", "111", command_dumps(Join(by="ann")), '{"user": "1"}')
        await here.inbox.post("t1", "111", command_dumps(Join(by="ann")), '{"user": "1"}')  # again
        await here.inbox.post("t0", "112", command_dumps(Join(by="bo")), "{}")  # not on Discord
        if listening:
            await asyncio.wait_for(heard.wait(), 5)
        rows = await there.inbox.pending()
        assert [(t, k, g, n) for t, k, _, _, g, n in rows] == [("t1", "111", BIG, 0),
                                                            ("t0", "112", None, 0)]
        assert command_loads(rows[0][2]) == Join(by="ann") and rows[0][3] == '{"user": "1"}'
        for _ in range(2):  # picked up twice (a crash before `applied`): applied once
            assert (await service.handle("t1", command_loads(rows[0][2]), rows[0][1])).accepted
        await there.inbox.applied("t1", "111")
        assert [r[1] for r in await here.inbox.pending()] == ["112"]
        assert [m.player for m in (await here.events.load("t1")).state.members] == ["ann"]


LATER = """
    CREATE TABLE reviews (
        table_id TEXT NOT NULL,
        game INTEGER NOT NULL,
        report TEXT NOT NULL,
        made INTEGER NOT NULL DEFAULT (strftime('%s', 'now')),
        PRIMARY KEY (table_id, game)
    ) WITHOUT ROWID;
    """


async def test_a_migration_and_statements_written_for_sqlite_work_on_both(
        target: Path | str, monkeypatch: pytest.MonkeyPatch) -> None:
    """What someone adding a table later writes, as the store's SQL was: SQLite's words;
    applied to a store of today's schema, as an upgrade would."""
    async with EventStore(target) as today:
        await today.events.append("t", 0, (PlayerJoined("ann"),), "a", Outcome(True))
    monkeypatch.setattr(store_module, "MIGRATIONS", (*MIGRATIONS, LATER))
    async with EventStore(target) as store:
        assert (await store.events.load("t")).version == 1
        db = store.db
        await db.execute("INSERT OR REPLACE INTO reviews (table_id, game, report) "
                         "VALUES (?, ?, ?)", ("t", BIG, "first"))
        await db.execute("INSERT OR REPLACE INTO reviews (table_id, game, report) "
                         "VALUES (?, ?, ?)", ("t", BIG, "second"))
        await db.execute("INSERT OR IGNORE INTO reviews (table_id, game, report) "
                         "VALUES (?, ?, ?)", ("t", BIG, "third"))
        rows = await db.execute_fetchall("SELECT game, report, made > 0 FROM reviews")
        assert rows == [(BIG, "second", True)]
    async with EventStore(target) as again:  # applied once, numbered after the others
        rows = await again.db.execute_fetchall("SELECT report FROM reviews")
        assert rows == [("second",)]


def test_postgres_reads_the_store_sql_as_written() -> None:
    assert placeholders("SELECT '?', x FROM t WHERE a = ? AND b IN (?, ?)") == (
        "SELECT '?', x FROM t WHERE a = $1 AND b IN ($2, $3)")
    assert " ".join(postgres_ddl(LATER).split()) == (
        "CREATE TABLE reviews ( table_id TEXT NOT NULL, game BIGINT NOT NULL, report TEXT "
        "NOT NULL, made BIGINT NOT NULL DEFAULT (CAST(EXTRACT(EPOCH FROM now()) AS BIGINT)), "
        "PRIMARY KEY (table_id, game) );")
    assert shown("postgresql://bot:s3cret@db:5432/chouette") == (
        "postgresql://bot:***@db:5432/chouette")


async def test_postgres_keeps_its_schema_number_in_a_table_and_refuses_a_newer(
        postgres: Any, worker_id: str) -> None:
    url = new_schema(postgres, worker_id)
    async with EventStore(url) as store:
        assert store.backed_up is None  # pg_dump is the operator's copy
        assert await store.db.execute_fetchall("SELECT version FROM chouette_schema") == [
            (len(MIGRATIONS),)]
        await store.db.execute("UPDATE chouette_schema SET version = 99")
    with pytest.raises(StoreError, match=r"newer chouette-bot \(schema 99.*upgrade"):
        await EventStore(url).open()


async def test_two_processes_starting_at_once_on_a_new_database_migrate_it_once(
        postgres: Any, worker_id: str) -> None:
    url = new_schema(postgres, worker_id)
    stores = [EventStore(url) for _ in range(3)]
    await asyncio.gather(*(s.open() for s in stores))
    try:
        rows = await stores[0].db.execute_fetchall("SELECT version FROM chouette_schema")
        assert rows == [(len(MIGRATIONS),)]
    finally:
        for s in stores:
            await s.close()


async def test_postgres_out_of_reach_or_without_its_database_says_what_to_do(
        postgres: Any, tmp_path: Path) -> None:
    with pytest.raises(StoreError, match=r"Can't reach PostgreSQL at .*:\*\*\*@.*"
                                         r"CHOUETTE_DATABASE_URL"):
        await EventStore(f"postgresql://bot:pw@/chouette?host={tmp_path}").open()
    missing = str(postgres.get_uri("no_such_database"))
    with pytest.raises(StoreError, match="does not exist: create it"):
        await EventStore(missing).open()


def test_the_bot_on_a_postgresql_out_of_reach_stops_with_one_line_before_discord(
        tmp_path: Path) -> None:
    """`python -m bot run` opens the store before it calls Discord (a closed port here)."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONDONTWRITEBYTECODE": "1",
           "CHOUETTE_ENV_FILE": str(tmp_path / "none.env"), "DISCORD_TOKEN": "some-token",
           "CHOUETTE_DATABASE_URL": f"postgresql://bot:secret@/chouette?host={tmp_path}"}
    done = subprocess.run([sys.executable, "-m", "bot", "run"], env=env, capture_output=True,
                          text=True, timeout=120, cwd=Path(__file__).parents[2])
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("chouette-bot: Can't reach PostgreSQL at postgresql://bot:***@")
    assert len(done.stderr.splitlines()) == 1 and "secret" not in done.stderr



async def test_the_inbox_hears_again_after_postgresql_drops_the_listening_connection(
        postgres: Any, worker_id: str, caplog: pytest.LogCaptureFixture) -> None:
    """The server ends the LISTEN connection (pg_terminate_backend, as a restart or an idle
    timeout would): it is opened again at once, the process woken then (for what was posted
    meanwhile), said once in the log, and a NOTIFY after that wakes it, well within the
    inbox's 5 s read."""
    url = new_schema(postgres, worker_id)
    listening = ("SELECT pid FROM pg_stat_activity WHERE query LIKE 'LISTEN%' "
                 "AND datname = current_database()")
    async with EventStore(url) as here, EventStore(url) as there:
        heard = asyncio.Event()
        assert await there.inbox.listen(heard.set)
        before = {row[0] for row in await here.db.execute_fetchall(listening)}
        assert before
        with caplog.at_level(logging.INFO, logger="bot.store.postgres"):
            await here.db.execute_fetchall(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE "
                "'LISTEN%' AND datname = current_database()")
            for _ in range(60):  # back within 3 s
                await asyncio.sleep(0.05)
                now = {row[0] for row in await here.db.execute_fetchall(listening)}
                if now - before and heard.is_set():
                    break
            assert now - before and heard.is_set()
            heard.clear()
            await here.inbox.post("t1", "121", command_dumps(Join(by="ann")), "{}")
            await asyncio.wait_for(heard.wait(), 1)
        said = [r.getMessage() for r in caplog.records if r.name == "bot.store.postgres"]
        assert len(said) == 2 and "lost" in said[0] and "again" in said[1]


async def test_a_postgresql_connection_goes_back_to_the_pool_without_a_reset_query(
        postgres: Any, worker_id: str) -> None:
    """asyncpg's pool sends `pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET ALL`
    at each release by default: a round trip a transaction for state the store never
    leaves on a pooled connection (its LISTEN has a connection of its own). Its
    transactions still work, one after the other, on the same connection."""
    from bot.store.postgres import open_postgres

    db = await open_postgres(new_schema(postgres, worker_id))
    seen: list[str] = []
    try:
        async with db.pool.acquire() as connection:
            connection.add_query_logger(lambda record: seen.append(record.query))
            await connection.execute("CREATE TABLE kept (n integer)")
        for n in (1, 2):
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO kept VALUES (?)", (n,))
        assert await db.execute_fetchall("SELECT n FROM kept ORDER BY n") == [(1,), (2,)]
    finally:
        await db.close()
    assert sum("INSERT INTO kept" in query for query in seen) == 2, seen  # (this connection)
    assert not any("RESET" in query or "UNLISTEN" in query for query in seen), seen


async def test_a_postgresql_append_is_one_statement_and_still_whole(
        postgres: Any, worker_id: str) -> None:
    """An action's append (its events, command, outbox row and deadline) reaches the server
    as one statement, where BEGIN, four statements and COMMIT were six round trips; a
    command applied twice still fails all of it."""
    async with EventStore(new_schema(postgres, worker_id)) as store:
        await store.events.append("t", 0, (PlayerJoined("ann"),), "a", Outcome(True))
        seen: list[str] = []
        async with store.db.pool.acquire() as connection:  # the pool's one connection
            connection.add_query_logger(lambda record: seen.append(record.query))
        await store.events.append("t", 1, (PlayerJoined("bo"), PlayerJoined("cy")), "b",
                                  Outcome(True), effects=(Announce("Bo and Cy join."),),
                                  meta={"deadline:t": "5"})
        assert len(seen) == 1 and seen[0].startswith("WITH "), seen
        with pytest.raises(ConcurrentWrite):
            await store.events.append("t", 3, (PlayerJoined("di"),), "b", Outcome(True),
                                      effects=(Announce("Di joins."),), meta={"deadline:t": "9"})
        assert (await store.events.load("t")).version == 3
        assert [v for v, _ in await store.outbox.undelivered("t")] == [3]
        assert await store.db.execute_fetchall("SELECT value FROM meta") == [("5",)]


async def test_postgresql_joins_only_statements_that_need_not_see_each_other(
        postgres: Any, worker_id: str) -> None:
    """PostgreSQL runs a WITH's writes in one snapshot: a transaction whose statements
    must see each other's rows goes as a transaction, and its result is the same."""
    async with EventStore(new_schema(postgres, worker_id)) as store:
        db = store.db
        joined = db.joined  # type: ignore[union-attr]
        meta = "INSERT INTO meta (key, value) VALUES (?, ?)"
        notify = "SELECT pg_notify('x', ?)"
        assert await joined([(meta, [("a", "1"), ("b", "2")]), (notify, [("t",)])]) == (
            "WITH w0 AS (INSERT INTO meta (key, value) VALUES ($1, $2), ($3, $4)) "
            "SELECT pg_notify('x', $5)")
        update = "UPDATE meta SET value = ? WHERE key = ?"
        upsert = f"{meta} ON CONFLICT (key) DO UPDATE SET value = excluded.value"
        for cannot in ([(meta, [("a", "1")]), (update, [("2", "a")])],  # one table twice
                       [(update, [("2", "a"), ("3", "b")])],  # an UPDATE of several rows
                       [(upsert, [("a", "1"), ("a", "2")])],  # an upsert meeting a key twice
                       [(meta, [("a", "1")] * 17)],  # more rows than JOINED_ROWS
                       [(notify, [("t",)]), (meta, [("a", "1")])],  # a SELECT not last
                       [(meta, [("a", "1")]), ("SELECT count(*) FROM meta", [()])]):
            assert await joined(cannot) is None, cannot
        async with db.transaction() as tx:
            await tx.execute(meta, ("a", "1"))
            await tx.execute(update, ("2", "a"))
            await tx.executemany(upsert, [("b", "1"), ("b", "3")])
        assert await db.execute_fetchall("SELECT key, value FROM meta ORDER BY key") == [
            ("a", "2"), ("b", "3")]
