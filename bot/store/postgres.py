"""The store's PostgreSQL backend (asyncpg), for several bot processes on one database.

It speaks the store's SQL as written for SQLite: `?` placeholders become `$1, $2, ...`;
`INSERT OR IGNORE` becomes `ON CONFLICT DO NOTHING` and `INSERT OR REPLACE` an upsert on the
table's primary key (`_insert_or`); a migration's SQLite-only words are rewritten
(`dialect.postgres_ddl`: INTEGER is BIGINT, no WITHOUT ROWID, `strftime('%s', 'now')` is the
epoch), and a migration that needs more is written for each (`dialect.Dialects`). Imported
only for a PostgreSQL URL: asyncpg is the `postgres` extra's. The schema's number is the
one row of `chouette_schema` (SQLite's is PRAGMA user_version); migrations run in one
transaction under an advisory lock, so two processes starting at once migrate once. There is
no copy before a migration: back PostgreSQL up with `pg_dump` (README).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import AsyncExitStack, asynccontextmanager, suppress
from typing import Any

import asyncpg

from bot.store.dialect import Migration, placeholders, postgres_ddl, shown
from bot.store.sqlite import StoreError

MIGRATION_LOCK = 0x63686F75  # pg_advisory_xact_lock key while migrating ("chou")
LISTENING = "chouette-bot listen"  # the LISTEN connection's application_name
RELISTEN_WAITS = (0.0, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)  # s before each reconnect, the last kept
log = logging.getLogger(__name__)

_INSERT_OR = re.compile(r"^\s*INSERT\s+OR\s+(IGNORE|REPLACE)\s+INTO\s+(\w+)\s*(\(([^)]*)\))?",
                        re.IGNORECASE)
_WRITES = re.compile(r"^\s*(?:(?P<insert>INSERT)(?:\s+OR\s+\w+)?\s+INTO|UPDATE|DELETE\s+FROM)"
                     r"\s+(?P<table>\w+)", re.IGNORECASE)
_NO_TABLE = re.compile(r"^\s*SELECT\b(?!.*\bFROM\b)", re.IGNORECASE | re.DOTALL)
_ONE_ROW = re.compile(r"\bVALUES\s*(\([^()]*\))", re.IGNORECASE)
_UPSERT = re.compile(r"\bDO\s+UPDATE\b", re.IGNORECASE)
JOINED_ROWS = 16  # at most this many rows of one INSERT go as one statement's VALUES
Pending = list[tuple[str, list[Sequence[Any]]]]  # statements (SQLite's text) and their rows


class PostgresDatabase:
    """A pool of asyncpg connections as the store's backend (same methods as
    `sqlite.SqliteDatabase`); `transaction()` keeps its statements until it must send them."""

    dialect = "postgres"
    errors: tuple[type[BaseException], ...] = (asyncpg.PostgresError, asyncpg.InterfaceError,
                                               OSError, TimeoutError)
    integrity: tuple[type[BaseException], ...] = (asyncpg.UniqueViolationError,)

    def __init__(self, pool: asyncpg.Pool, url: str,
                 connection: asyncpg.Connection | None = None,
                 sql: dict[str, str] | None = None,
                 joins: dict[tuple[tuple[str, int], ...], str | None] | None = None) -> None:
        self.pool = pool
        self.url = url
        self.name = shown(url)
        self._on: asyncpg.Pool | asyncpg.Connection = connection or pool
        self._sql = {} if sql is None else sql  # SQLite's text -> PostgreSQL's, shared
        self._joins = {} if joins is None else joins  # a transaction's statements as one
        self._listening: asyncpg.Connection | None = None
        self._listeners: dict[str, Callable[[], None]] = {}  # channel -> wake
        self._relistening: asyncio.Task[None] | None = None

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> None:
        """Run one statement (in this transaction, or on its own)."""
        await self._on.execute(await self._translate(sql), *args)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for each row of arguments (one row as one statement: asyncpg's
        `executemany` spent a quarter more of the bot's CPU on it than `execute`)."""
        rows = list(rows)
        if len(rows) == 1:
            await self._on.execute(await self._translate(sql), *rows[0])
        else:
            await self._on.executemany(await self._translate(sql), rows)

    async def execute_fetchall(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Every row of a query, as tuples."""
        return [tuple(row) for row in await self._on.fetch(await self._translate(sql), *args)]

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PostgresTransaction]:
        """Statements on the yielded transaction are one transaction: kept until its end
        and sent as one statement when it only wrote (`PostgresTransaction`)."""
        async with AsyncExitStack() as held:
            transaction = PostgresTransaction(self, held)
            yield transaction
            await transaction.commit()

    @asynccontextmanager
    async def _held(self) -> AsyncIterator[PostgresDatabase]:
        """A connection of the pool for the block, in a transaction."""
        async with self.pool.acquire() as connection, connection.transaction():
            yield PostgresDatabase(self.pool, self.url, connection, self._sql, self._joins)

    async def _translate(self, sql: str) -> str:
        known = self._sql.get(sql)
        if known is None:
            known = self._sql[sql] = await self._insert_or(placeholders(sql))
        return known

    async def _insert_or(self, sql: str) -> str:
        """SQLite's INSERT OR IGNORE / OR REPLACE as PostgreSQL's ON CONFLICT."""
        match = _INSERT_OR.match(sql)
        if match is None:
            return sql
        how, table, listed = match.group(1).upper(), match.group(2), match.group(4)
        keys = [row[0] for row in await self._on.fetch(
            "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid "
            "AND a.attnum = ANY(i.indkey) WHERE i.indrelid = to_regclass($1) "
            "AND i.indisprimary", table)]
        columns = ([c.strip() for c in listed.split(",")] if listed else
                   [row[0] for row in await self._on.fetch(
                       "SELECT column_name FROM information_schema.columns WHERE table_name "
                       "= $1 AND table_schema = current_schema() ORDER BY ordinal_position",
                       table)])
        head = f"INSERT INTO {table} ({', '.join(columns)})"
        rest = sql[match.end():]
        others = [c for c in columns if c not in keys]
        if how == "IGNORE" or not others:
            return f"{head}{rest} ON CONFLICT DO NOTHING"
        if not keys:
            raise StoreError(f"INSERT OR REPLACE INTO {table}: the table has no primary key "
                             "to replace on.")
        updates = ", ".join(f"{c} = excluded.{c}" for c in others)
        return f"{head}{rest} ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {updates}"

    async def joined(self, pending: Pending) -> str | None:
        """The statements of a transaction that only writes as one PostgreSQL statement
        (None if they can't be): the last as the statement, those before it in its WITH.
        PostgreSQL runs a WITH's writes once each, in one snapshot, so none sees another's
        rows: a table written by two of them, an UPDATE or DELETE of several rows, or a
        last statement reading a table (a SELECT can only call a function, as pg_notify)
        goes as a transaction. An INSERT's rows are one VALUES list (up to `JOINED_ROWS`,
        and one row only for an upsert, whose rows could meet one key twice)."""
        key = tuple((sql, len(rows)) for sql, rows in pending)
        if key not in self._joins:
            self._joins[key] = await self._join(key)
        return self._joins[key]

    async def _join(self, statements: tuple[tuple[str, int], ...]) -> str | None:
        parts, written = [], set()
        for n, (sql, rows) in enumerate(statements):
            target = _WRITES.match(sql)
            if target is None and (n < len(statements) - 1 or not _NO_TABLE.match(sql)):
                return None
            if target is not None:
                if target["table"].lower() in written:
                    return None
                written.add(target["table"].lower())
            if rows > 1:
                one = _ONE_ROW.search(sql)
                if (one is None or target is None or not target["insert"]
                        or rows > JOINED_ROWS or _UPSERT.search(sql)):
                    return None
                sql = sql[:one.start(1)] + ", ".join([one.group(1)] * rows) + sql[one.end(1):]
            parts.append(await self._insert_or(sql))
        *first, last = parts
        head = ", ".join(f"w{n} AS ({part})" for n, part in enumerate(first))
        return placeholders(f"WITH {head} {last}" if first else last)

    async def schema_version(self) -> int:
        """The number of migrations applied (0 for a new database)."""
        rows = await self._on.fetch(
            "SELECT version FROM chouette_schema") if await self._on.fetchval(
            "SELECT to_regclass('chouette_schema') IS NOT NULL") else []
        return int(rows[0][0]) if rows else 0

    async def migrate(self, migrations: Sequence[Migration]) -> None:
        """Apply the migrations the database lacks, all in one transaction, under an advisory
        lock (another process starting now waits, then finds them applied)."""
        async with self._held() as tx:
            connection = tx._on
            await connection.execute(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
            current = await tx.schema_version()
            if current > len(migrations):
                raise StoreError(f"{self.name} was written by a newer chouette-bot (schema "
                                 f"{current}, this one knows {len(migrations)}): upgrade "
                                 "the bot.")
            if current == len(migrations):
                return
            if current == 0:
                await connection.execute(
                    "CREATE TABLE IF NOT EXISTS chouette_schema (version INTEGER NOT NULL)")
            for migration in migrations[current:]:
                await connection.execute(postgres_ddl(migration))
            await connection.execute("DELETE FROM chouette_schema")
            await connection.execute("INSERT INTO chouette_schema VALUES ($1)",
                                     len(migrations))

    async def check_writable(self, version: int) -> None:
        """Write and take it back: a read-only role or a standby fails here."""
        try:
            async with self._held() as tx:
                await tx._on.execute("UPDATE chouette_schema SET version = $1", version)
                raise _RolledBack
        except _RolledBack:
            pass

    async def listen(self, channel: str, wake: Callable[[], None]) -> None:
        """Call `wake` at each NOTIFY on `channel` (LISTEN on a connection of its own, kept
        until `close`). A listening connection the server drops is opened again (`_dropped`)
        and `wake` called once then, for what was posted meanwhile."""
        self._listeners[channel] = wake
        if self._relistening is not None and not self._relistening.done():
            return  # the connection opened again LISTENs on it
        if self._listening is None:
            self._listening = await self._listen_anew()
        else:
            await self._listening.add_listener(channel, _heard(wake))

    async def _listen_anew(self) -> asyncpg.Connection:
        """A connection of its own that LISTENs on every channel listened to."""
        connection = await asyncpg.connect(self.url, timeout=10,
                                           server_settings={"application_name": LISTENING})
        try:
            for channel, wake in self._listeners.items():
                await connection.add_listener(channel, _heard(wake))
        except BaseException:
            await connection.close()
            raise
        connection.add_termination_listener(self._dropped)
        return connection

    def _dropped(self, connection: asyncpg.Connection) -> None:
        """The listening connection is closed: by `close` (nothing to do), or by the server
        or the network (reopened, and said once per outage: NOTIFYs are missed until then,
        the inbox's 5 s read is all there is)."""
        if connection is not self._listening:
            return
        self._listening = None
        log.warning("the LISTEN connection to %s was lost: opening it again", self.name)
        self._relistening = asyncio.get_running_loop().create_task(self._relisten())

    async def _relisten(self) -> None:
        """Open the listening connection again, waiting longer after each failure
        (`RELISTEN_WAITS`); then wake every listener once."""
        tries = 0
        while True:
            await asyncio.sleep(RELISTEN_WAITS[min(tries, len(RELISTEN_WAITS) - 1)])
            tries += 1
            try:
                connection = await self._listen_anew()
            except Exception as exc:  # the server still away: logged when back
                log.debug("LISTEN on %s: try %s failed: %s", self.name, tries, exc)
                continue
            self._listening = connection
            log.warning("the LISTEN connection to %s is open again (after %s tries)",
                        self.name, tries)
            for wake in self._listeners.values():
                wake()
            return

    async def close(self) -> None:
        """Close every connection of the pool (and the listening one)."""
        relistening, self._relistening = self._relistening, None
        if relistening is not None:
            relistening.cancel()
            with suppress(asyncio.CancelledError):
                await relistening
        listening, self._listening = self._listening, None
        if listening is not None:
            await listening.close()
        await self.pool.close()

    def explain(self, exc: BaseException) -> StoreError:
        """What a PostgreSQL error means for the operator, and what to do."""
        return explain(self.name, exc)


class PostgresTransaction:
    """A transaction's statements, kept until they must be sent. One that only writes goes
    at its end as one statement (`PostgresDatabase.joined`): one round trip, where BEGIN,
    each statement and COMMIT were one each (an action's append was six). A read inside it
    (which must see the writes before it), or statements that can't be one, hold a
    connection in a transaction from then to the end."""

    dialect = "postgres"

    def __init__(self, db: PostgresDatabase, stack: AsyncExitStack) -> None:
        self.db = db
        self.pending: Pending = []
        self._stack = stack  # the block's: a held connection's transaction ends with it
        self._held: PostgresDatabase | None = None

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> None:
        """One statement, sent with the others."""
        self.pending.append((sql, [args]))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """One statement for each row of arguments, sent with the others."""
        if rows := list(rows):
            self.pending.append((sql, rows))

    async def execute_fetchall(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Every row of a query, after the statements before it."""
        return await (await self._send()).execute_fetchall(sql, args)

    async def commit(self) -> None:
        """Send what is kept: as one statement if it can be, else in the held transaction
        (committed as the block ends)."""
        if self._held is None and self.pending:
            text = await self.db.joined(self.pending)
            if text is not None:
                await self.db.pool.execute(text, *(value for _, rows in self.pending
                                                   for row in rows for value in row))
                self.pending = []
        if self.pending:
            await self._send()

    async def _send(self) -> PostgresDatabase:
        if self._held is None:
            self._held = await self._stack.enter_async_context(self.db._held())
        pending, self.pending = self.pending, []
        for sql, rows in pending:
            await self._held.executemany(sql, rows)
        return self._held


def _heard(wake: Callable[[], None]) -> Callable[..., None]:
    """An asyncpg notification listener calling `wake` (the payload unread)."""
    return lambda *_: wake()


class _RolledBack(Exception):
    """Leaves a transaction that only tried a write."""


def explain(name: str, exc: BaseException) -> StoreError:
    """What an error with the PostgreSQL database `name` means, and what to do."""
    if isinstance(exc, OSError | TimeoutError):
        return StoreError(f"Can't reach PostgreSQL at {name} ({exc}): is the server running, "
                          "and is CHOUETTE_DATABASE_URL right?")
    if isinstance(exc, asyncpg.InvalidCatalogNameError):
        return StoreError(f"The database of {name} does not exist: create it (createdb, or "
                          "CREATE DATABASE) or fix CHOUETTE_DATABASE_URL.")
    if isinstance(exc, asyncpg.InvalidAuthorizationSpecificationError
                  | asyncpg.InvalidPasswordError):
        return StoreError(f"PostgreSQL refused the login of {name}: fix the user or password "
                          "in CHOUETTE_DATABASE_URL.")
    if isinstance(exc, asyncpg.InsufficientPrivilegeError
                  | asyncpg.ReadOnlySQLTransactionError):
        return StoreError(f"The database {name} can't be written ({exc}): grant this user "
                          "its tables, or point CHOUETTE_DATABASE_URL at the primary server.")
    return StoreError(f"The database {name} can't be used: {exc}.")


async def open_postgres(url: str, timeout: float = 10.0) -> PostgresDatabase:
    """A pool of connections to the PostgreSQL database at `url`."""
    pool = await asyncpg.create_pool(url, min_size=1, max_size=10, timeout=timeout,
                                     reset=_nothing_left)
    return PostgresDatabase(pool, url)


async def _nothing_left(connection: asyncpg.Connection) -> None:
    """A pooled connection goes back as the store left it: its transactions set nothing
    that outlives them (the migrations' advisory lock is the transaction's; LISTEN has a
    connection of its own). asyncpg's default reset query (advisory locks, cursors,
    LISTENs, settings) was a round trip to the server at every transaction's end; asyncpg
    still ends an open transaction and drops the connection's listeners itself."""
