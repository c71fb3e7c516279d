"""The SQLite database as a file: created whole, copied safely while in use, and spoken to
as `SqliteDatabase`, the store's embedded backend (`bot/store/postgres.py` is the other),
through one aiosqlite connection (sqlite3 on a thread of aiosqlite's: no wait on the disk or
on another process's lock blocks the loop). `StoreError` is the store's error, here so that every
module of the store raises it."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, cast

import aiosqlite

from bot.store.dialect import Dialects, Migration

Rows = list[tuple[Any, ...]]
Statement = tuple[str, Sequence[Sequence[Any]], bool]  # SQL, its rows of arguments, many


class StoreError(Exception):
    """The database can't be used as it is; the message names the file and what to do."""


class Transaction:
    """The statements of one transaction, kept until it ends or a read inside it needs them
    (which must see them), then sent one after the other; `SqliteDatabase.transaction`
    yields it."""

    dialect = "sqlite"

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.connection = connection
        self.pending: list[Statement] = []
        self.begun = False  # BEGIN sent, neither COMMIT nor ROLLBACK since
        self.failed = False  # rolled back: nothing more is sent (not even the COMMIT)

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> None:
        """One statement, run with the others."""
        self.pending.append((sql, (args,), False))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """One statement for each row of arguments, run with the others."""
        self.pending.append((sql, list(rows), True))

    async def execute_fetchall(self, sql: str, args: Sequence[Any] = ()) -> Rows:
        """Every row of a query, after the statements before it (the transaction begun)."""
        return await self.send(query=(sql, args))

    async def send(self, *, query: tuple[str, Sequence[Any]] | None = None,
                   commit: bool = False) -> Rows:
        """BEGIN IMMEDIATE (the first time), the statements kept, the `query`'s rows, COMMIT
        if `commit`: anything failing (a COMMIT too) rolls the transaction back."""
        if self.failed:
            raise sqlite3.OperationalError("This transaction was rolled back after an error.")
        statements, self.pending = self.pending, []
        connection = self.connection
        try:
            if not self.begun and (statements or query):
                self.begun = True
                if connection.in_transaction:  # its rollback never queued: caller cancelled
                    await connection.rollback()
                await connection.execute("BEGIN IMMEDIATE")
            for sql, rows, many in statements:
                if many:
                    await connection.executemany(sql, rows)
                else:
                    await connection.execute(sql, rows[0])
            found = await connection.execute_fetchall(*query) if query else []
            if commit and self.begun:
                await connection.commit()
                self.begun = False
            return cast(Rows, list(found))  # (no row_factory: sqlite3's rows are tuples)
        except BaseException:
            self.failed = True
            await self.rollback()
            raise

    async def rollback(self) -> None:
        """Roll back what was sent, if anything (once). Queued on aiosqlite's thread before
        this awaits, so it runs even if the caller is cancelled meanwhile."""
        if self.begun:
            self.begun = False
            await self.connection.rollback()


class SqliteDatabase:
    """One aiosqlite connection as the store's backend: `?` placeholders, rows as tuples,
    `transaction()` as BEGIN IMMEDIATE (so a second process waits for the first's write).

    A transaction spans several hops to aiosqlite's thread, and any statement sent meanwhile
    on the connection would be inside it: so a transaction, or a statement on its own, has
    the connection to itself (`turn`) until it is done."""

    dialect = "sqlite"
    errors: tuple[type[BaseException], ...] = (sqlite3.Error, OSError)
    integrity: tuple[type[BaseException], ...] = (sqlite3.IntegrityError,)

    def __init__(self, connection: aiosqlite.Connection, path: Path) -> None:
        self.connection = connection
        self.path = path
        self.name = str(path)
        self.closed = False
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None  # the task whose transaction is open

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[aiosqlite.Connection]:
        """The open connection, for this task alone until the block ends (for an aiosqlite
        call of its own: the methods here take their turn themselves)."""
        if self._owner is not None and self._owner is asyncio.current_task():
            raise RuntimeError("A statement on the database inside this task's transaction "
                               "would wait for its end: send it with the transaction's.")
        async with self._lock:
            if self.closed:
                raise sqlite3.ProgrammingError("Cannot operate on a closed database.")
            yield self.connection

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> None:
        """Run one statement on its own."""
        async with self.turn() as connection:
            await connection.execute(sql, args)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for each row of arguments."""
        async with self.turn() as connection:
            await connection.executemany(sql, rows)

    async def execute_fetchall(self, sql: str, args: Sequence[Any] = ()) -> Rows:
        """Every row of a query, as tuples."""
        async with self.turn() as connection:
            return cast(Rows, list(await connection.execute_fetchall(sql, args)))

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """Statements on the yielded transaction are one transaction: committed at the end
        of the block, rolled back if it raises (or is cancelled) or a statement fails."""
        async with self.turn() as connection:
            transaction = Transaction(connection)
            self._owner = asyncio.current_task()
            try:
                yield transaction
                await transaction.send(commit=True)
            except BaseException:
                await transaction.rollback()  # (a no-op if its failed send rolled it back)
                raise
            finally:
                self._owner = None

    async def migrate(self, migrations: Sequence[Migration]) -> Path | None:
        """Apply the migrations the file lacks (its number is PRAGMA user_version), each in
        its own transaction, after a copy of the file if it had a schema; returns the copy."""
        rows = await self.execute_fetchall("PRAGMA user_version")
        current = rows[0][0] if rows else 0
        if current > len(migrations):
            raise StoreError(f"{self.path} was written by a newer chouette-bot (schema "
                             f"{current}, this one knows {len(migrations)}): upgrade the bot.")
        copy = None
        if 0 < current < len(migrations) and str(self.path) != ":memory:":
            stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
            copy = self.path.with_name(f"{self.path.name}.schema{current}-{stamp}.bak")
            await asyncio.to_thread(backup, self.path, copy)
        for number in range(current, len(migrations)):
            migration = migrations[number]
            text = migration.sqlite if isinstance(migration, Dialects) else migration
            async with self.transaction() as transaction:
                for statement in text.split(";"):
                    if statement.strip():
                        await transaction.execute(statement)
                await transaction.execute(f"PRAGMA user_version = {number + 1}")
        return copy

    async def check_writable(self, version: int) -> None:
        """Write to the file and take it back: a read-only file or folder fails here."""
        async with self.turn() as connection:
            transaction = Transaction(connection)
            await transaction.execute(f"PRAGMA user_version = {version}")
            try:
                await transaction.send()
            finally:
                await transaction.rollback()

    async def close(self) -> None:
        """Close the connection once the transaction or statement under way is done (safe to
        call twice)."""
        async with self._lock:
            if not self.closed:
                self.closed = True
                await self.connection.close()

    def explain(self, exc: BaseException) -> StoreError:
        """What an SQLite error means for the operator, and what to do."""
        return explain(self.path, exc)


def explain(path: Path, exc: BaseException) -> StoreError:
    """What an SQLite error with the file `path` means for the operator, and what to do."""
    text = str(exc)
    if path.is_dir():
        return StoreError(f"The database {path} is a folder, not a file: set "
                          "CHOUETTE_DB to a file's path (it is created if need be).")
    if "unable to open" in text and not os.access(path.parent, os.W_OK):
        return StoreError(f"The database {path} can't be created or opened: give "
                          f"this user write access to {path.parent}, or set CHOUETTE_DB.")
    if "locked" in text or "busy" in text:
        return StoreError(f"The database {path} is locked by another process: stop "
                          "the other bot using it, or set CHOUETTE_DB to another file.")
    if "readonly" in text or "read-only" in text or isinstance(exc, PermissionError):
        return StoreError(f"The database {path} can't be written: give this user "
                          "write access to it and its folder, or set CHOUETTE_DB.")
    if "not a database" in text or "malformed" in text:
        return StoreError(f"{path} is not a readable chouette database (damaged or "
                          "another file): restore it from a backup, or move it away to "
                          "start afresh.")
    return StoreError(f"The database {path} can't be used: {text}.")


async def open_sqlite(path: Path, busy_timeout: float, *,
                      read_only: bool = False) -> SqliteDatabase:
    """The SQLite file at `path` (created if need be, unless `read_only`), in WAL mode, as
    a backend; a file damaged anywhere fails here (`PRAGMA quick_check`: 0.2 s for a
    127 MB store), not at the first command that reads the damage."""
    target = f"{path.resolve().as_uri()}?mode=ro" if read_only else str(path)
    if str(path) != ":memory:":
        if path.is_file() and path.stat().st_size == 0:
            raise StoreError(empty(path))
        if not path.exists() and not read_only:
            await asyncio.to_thread(create, path)
        # aiosqlite, failing to connect, ends its thread without waiting, and the thread
        # then fails on the closed loop ("Event loop is closed", omnilib/aiosqlite#241):
        # a file that can't be opened fails here first, with no thread to leave behind.
        await asyncio.to_thread(_try_open, target, read_only)
    connection = await aiosqlite.connect(target, timeout=busy_timeout, isolation_level=None,
                                         uri=read_only)
    db = SqliteDatabase(connection, path)
    try:
        await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
        await db.execute_fetchall("PRAGMA journal_mode = WAL")
        await db.execute("PRAGMA synchronous = NORMAL")
        found = await db.execute_fetchall("PRAGMA quick_check(1)")
        if found != [("ok",)]:
            raise sqlite3.DatabaseError(f"database disk image is malformed: {found}")
    except BaseException:
        await db.close()
        raise
    return db


def _try_open(target: str, uri: bool) -> None:
    """Open and close the database `target`: sqlite3's error if it can't be opened."""
    sqlite3.connect(target, uri=uri).close()


def backup(source: Path | str, target: Path | str) -> Path:
    """Copy the database `source` to `target` with SQLite's online backup API: a consistent
    copy (the WAL included) even while the bot writes. The copy is written beside `target`
    and renamed into place once checked, so `target` is never half a database."""
    source, target = Path(source), Path(target)
    if not source.is_file():
        raise StoreError(f"There is no database at {source}.")
    if source.stat().st_size == 0:
        raise StoreError(empty(source))
    part = target.with_name(target.name + ".part")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        part.unlink(missing_ok=True)
        src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True, timeout=5)
        try:
            dst = sqlite3.connect(part)
            try:
                src.backup(dst)
                if dst.execute("PRAGMA quick_check").fetchone() != ("ok",):
                    raise StoreError(f"The copy of {source} failed its check: {source} may be "
                                     "damaged; keep it and an older backup.")
            finally:
                dst.close()
        finally:
            src.close()
        os.replace(part, target)
    except sqlite3.Error as exc:
        part.unlink(missing_ok=True)
        raise StoreError(f"Can't back up {source} to {target}: {exc}.") from exc
    except OSError as exc:
        part.unlink(missing_ok=True)
        raise StoreError(f"Can't write the backup {target}: {exc.strerror}.") from exc
    return target


def create(path: Path) -> None:
    """A new, empty database in WAL mode, made beside `path` and renamed into place: a file
    at `path` is never 0 bytes by our doing (a crash before the first write would leave one,
    which is refused as a copy that failed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.name + ".new")
    part.unlink(missing_ok=True)
    db = sqlite3.connect(part)
    try:
        db.execute("PRAGMA journal_mode = WAL")  # writes the header: 1 page
    finally:
        db.close()
    os.replace(part, path)


def empty(path: Path) -> str:
    return (f"The database {path} is empty (0 bytes), not a chouette database: a copy or "
            "a disk that failed? Restore it from a backup, or delete it to start afresh.")
