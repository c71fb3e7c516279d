"""The SQLite database as a file: created whole, copied safely while in use, connected to
without leaving aiosqlite's worker thread behind, and spoken to as `SqliteDatabase`, the
store's embedded backend (`bot/pgdb.py` is the other). `StoreError` is the store's error,
here so that every module of the store raises it."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.dialect import Dialects, Migration


class StoreError(Exception):
    """The database can't be used as it is; the message names the file and what to do."""


class SqliteDatabase:
    """One aiosqlite connection as the store's backend: `?` placeholders, rows as tuples,
    `transaction()` as BEGIN IMMEDIATE (so a second process waits for the first's write)."""

    dialect = "sqlite"
    errors: tuple[type[BaseException], ...] = (sqlite3.Error, OSError)
    integrity: tuple[type[BaseException], ...] = (sqlite3.IntegrityError,)

    def __init__(self, connection: aiosqlite.Connection, path: Path) -> None:
        self.connection = connection
        self.path = path
        self.name = str(path)

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> None:
        """Run one statement (in the open transaction, if any; else on its own)."""
        await self.connection.execute(sql, args)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for each row of arguments."""
        await self.connection.executemany(sql, rows)

    async def execute_fetchall(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Every row of a query, as tuples."""
        return [tuple(row) for row in await self.connection.execute_fetchall(sql, args)]

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteDatabase]:
        """Statements on the yielded database are one transaction: committed at the end of
        the block, rolled back if it raises. Callers hold the store's write lock."""
        await self.connection.execute("BEGIN IMMEDIATE")
        try:
            yield self
            await self.connection.execute("COMMIT")  # a failed commit is rolled back too
        except BaseException:
            await self.connection.execute("ROLLBACK")
            raise

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
            async with self.transaction():
                for statement in text.split(";"):
                    if statement.strip():
                        await self.execute(statement)
                await self.execute(f"PRAGMA user_version = {number + 1}")
        return copy

    async def check_writable(self, version: int) -> None:
        """Write to the file and take it back: a read-only file or folder fails here."""
        await self.connection.execute("BEGIN IMMEDIATE")
        try:
            await self.connection.execute(f"PRAGMA user_version = {version}")
        finally:
            await self.connection.execute("ROLLBACK")

    async def close(self) -> None:
        """Close the connection."""
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


async def open_sqlite(path: Path, busy_timeout: float) -> SqliteDatabase:
    """The SQLite file at `path` (created if need be), in WAL mode, as a backend."""
    if str(path) != ":memory:":
        if path.is_file() and path.stat().st_size == 0:
            raise StoreError(empty(path))
        if not path.exists():
            await asyncio.to_thread(create, path)
    db = SqliteDatabase(await connect(path, busy_timeout), path)
    try:
        await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
        await db.execute_fetchall("PRAGMA journal_mode = WAL")
        await db.execute("PRAGMA synchronous = NORMAL")
    except BaseException:
        await db.close()
        raise
    return db


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


async def connect(path: Path, timeout: float) -> aiosqlite.Connection:
    """aiosqlite's connection, or its error once its worker thread has stopped: on a failed
    connect aiosqlite stops the thread without waiting, and a thread that outlives the event
    loop dies with "Event loop is closed" after the bot's own one-line error."""
    connection = aiosqlite.connect(path, timeout=timeout, isolation_level=None)
    try:
        return await connection
    except BaseException:
        worker = getattr(connection, "_thread", None)
        if worker is not None and worker.is_alive():
            await asyncio.to_thread(worker.join, 5)
        raise


def empty(path: Path) -> str:
    return (f"The database {path} is empty (0 bytes), not a chouette database: a copy or "
            "a disk that failed? Restore it from a backup, or delete it to start afresh.")
