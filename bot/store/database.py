"""The store's one database, which every part of it shares: an SQLite file (WAL, on a thread
of its own: the embedded default) or a PostgreSQL database (asyncpg: several processes on
one database), opened, migrated and closed here; and what a part is (`Part`)."""

from __future__ import annotations

import asyncio
import importlib.util
from contextlib import AbstractAsyncContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, Union

from bot.store.codec import CodecError, loads
from bot.store.dialect import is_url, shown
from bot.store.migrations import MIGRATIONS
from bot.store.sqlite import SqliteDatabase, explain, open_sqlite
from bot.store.sqlite import StoreError as StoreError  # raised by both; imported from here

if TYPE_CHECKING:
    from bot.store.postgres import PostgresDatabase

Backend = Union[SqliteDatabase, "PostgresDatabase"]
K = TypeVar("K")
V = TypeVar("V")
CACHED = 4096  # the latest tables (games: dice seeds) whose channels, seeds, existence are kept


def need_postgres() -> None:
    """A StoreError saying what to install if asyncpg (the `postgres` extra) is missing."""
    if importlib.util.find_spec("asyncpg") is None:
        raise StoreError("CHOUETTE_DATABASE_URL needs the PostgreSQL driver, not installed "
                         "here: .venv/bin/pip install -e '.[postgres]' (README: PostgreSQL).")


class Database:
    """One SQLite file or one PostgreSQL database: `db` while it is open, the turn its writes
    take (`write`), what its errors mean (`errors`, `explain`) and its stored JSON read back
    (`decode`)."""

    def __init__(self, target: Path | str, busy_timeout: float = 5.0) -> None:
        """`target`: an SQLite file's path, or a `postgresql://` URL."""
        self.url = target if isinstance(target, str) and is_url(target) else None
        self.path = Path(target)  # the file (for a URL, unused: `name` is what messages say)
        self.name = shown(self.url) if self.url else str(self.path)
        self.busy_timeout = busy_timeout  # seconds to wait for another process's write
        self._db: Backend | None = None
        self.errors: tuple[type[BaseException], ...] = SqliteDatabase.errors
        # On SQLite one connection serves every table, a statement or a transaction at a
        # time (`SqliteDatabase.turn`), and writes take turns here too (the few that read
        # what they wrote with them). On PostgreSQL each write has a connection of the pool
        # to itself, and taking turns made a command wait for every other table's commit
        # (bench: 590 ms).
        self.write: AbstractAsyncContextManager[Any] = (
            asyncio.Lock() if self.url is None else nullcontext())
        self.backed_up: Path | None = None  # the copy made before a migration at open

    async def open(self) -> None:
        """Open (creating an SQLite file and its folder if needed), back up (SQLite) and
        migrate the database, and check that it can be written: a StoreError now, rather
        than at the first command."""
        try:
            if self.url is not None:
                need_postgres()
                from bot.store import postgres

                self.errors = postgres.PostgresDatabase.errors
                self._db = await postgres.open_postgres(self.url, max(self.busy_timeout, 10.0))
            else:
                self._db = await open_sqlite(self.path, self.busy_timeout)
            self.backed_up = await self._db.migrate(MIGRATIONS)
            await self._db.check_writable(len(MIGRATIONS))
        except self.errors as exc:
            await self.close()
            raise self.explain(exc) from exc
        except BaseException:
            await self.close()  # a refused schema, a cancellation: never leave it open
            raise

    async def close(self) -> None:
        """Close the connection (safe to call twice, even at once: it is handed over before
        it is closed)."""
        db, self._db = self._db, None
        if db is not None:
            await db.close()

    @property
    def is_open(self) -> bool:
        return self._db is not None

    @property
    def db(self) -> Backend:
        """The open database: `execute`, `executemany`, `execute_fetchall` (`?` placeholders,
        rows as tuples) and `transaction()`, the same on both backends."""
        if self._db is None:
            raise StoreError(f"The event store {self.name} is not open.")
        return self._db

    async def answers(self) -> None:
        """A read the database must answer (the heartbeat's: `health.beat`)."""
        await self.db.execute_fetchall("SELECT COUNT(*) FROM meta")

    def explain(self, exc: BaseException) -> StoreError:
        """What a database error means for the operator, and what to do."""
        if self.url is not None:
            from bot.store import postgres

            return postgres.explain(self.name, exc)
        return explain(self.path, exc)

    def decode(self, text: str) -> Any:
        """Stored JSON read back (`codec.loads`); a StoreError naming the database if it
        can't be."""
        try:
            return loads(text)
        except CodecError as exc:
            raise StoreError(f"{self.name}: {exc}") from exc


class Part:
    """One concern's SQL over the store's database (`EventStore` makes one of each)."""

    def __init__(self, database: Database) -> None:
        self.database = database

    @property
    def db(self) -> Backend:
        return self.database.db


def keep(cache: dict[K, V], key: K, value: V) -> V:
    """Keep `value` under `key`, and only the latest `CACHED` keys (the oldest goes)."""
    cache[key] = value
    if len(cache) > CACHED:
        del cache[next(iter(cache))]
    return value
