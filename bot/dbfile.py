"""The SQLite database as a file: created whole, copied safely while in use, and spoken to
as `SqliteDatabase`, the store's embedded backend (`bot/pgdb.py` is the other), through a
connection on a thread of its own (`Connection`). `StoreError` is the store's error, here
so that every module of the store raises it."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from queue import SimpleQueue
from typing import Any, TypeVar

from bot.dialect import Dialects, Migration

T = TypeVar("T")
Rows = list[tuple[Any, ...]]
Statement = tuple[str, Sequence[Sequence[Any]], bool]  # SQL, its rows of arguments, many


class StoreError(Exception):
    """The database can't be used as it is; the message names the file and what to do."""


class Connection:
    """One sqlite3 connection on a thread of its own: the event loop hands it a function
    (`run`) and awaits the answer, so no wait on the disk or on another process's lock
    blocks the loop. A hop to the thread and back costs the loop more than a statement, so
    a transaction's statements go together (`SqliteDatabase.transaction`)."""

    def __init__(self) -> None:
        self._jobs: SimpleQueue[tuple[asyncio.Future[Any], Callable[[], Any]] | None] = (
            SimpleQueue())
        self._thread = threading.Thread(target=self._work, name="sqlite", daemon=True)
        self._db: sqlite3.Connection | None = None
        self._ending = False  # no function is taken once the thread is told to end

    @classmethod
    async def open(cls, path: Path | str, timeout: float, *, uri: bool = False) -> Connection:
        """The database at `path`, in autocommit mode (transactions are BEGIN ... COMMIT);
        on an error the thread has ended when it is raised."""
        connection = cls()
        connection._thread.start()
        try:
            connection._db = await connection.run(partial(
                sqlite3.connect, path, timeout=timeout, isolation_level=None,
                check_same_thread=False, uri=uri))
        except BaseException:
            await connection.close()
            raise
        return connection

    @property
    def db(self) -> sqlite3.Connection:
        """The sqlite3 connection, for functions run on the thread (`run`) only."""
        if self._db is None:
            raise sqlite3.ProgrammingError("Cannot operate on a closed database.")
        return self._db

    def _work(self) -> None:
        while (job := self._jobs.get()) is not None:
            future, function = job
            try:
                result = function()
            except BaseException as exc:  # the awaiting task raises it
                future.get_loop().call_soon_threadsafe(_settle, future, None, exc)
            else:
                future.get_loop().call_soon_threadsafe(_settle, future, result, None)

    async def run(self, function: Callable[[], T]) -> T:
        """`function()` on the connection's thread, after the functions handed it before."""
        if self._ending or not self._thread.is_alive():
            raise sqlite3.ProgrammingError("Cannot operate on a closed database.")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._jobs.put((future, function))
        return await future

    async def close(self) -> None:
        """Close the connection and end its thread (safe to call twice)."""
        if self._ending or not self._thread.is_alive():
            return
        db, self._db = self._db, None
        if db is not None:
            await self.run(db.close)
        self._ending = True
        self._jobs.put(None)
        await asyncio.to_thread(self._thread.join)


def _settle(future: asyncio.Future[Any], result: Any, exc: BaseException | None) -> None:
    if future.cancelled():
        return
    if exc is not None:
        future.set_exception(exc)
    else:
        future.set_result(result)


def _apply(db: sqlite3.Connection, statements: Sequence[Statement], *, begin: bool = False,
           query: tuple[str, Sequence[Any]] | None = None, commit: bool = False,
           owned: bool = False) -> Rows:
    """On the connection's thread: BEGIN IMMEDIATE if `begin`, the `statements`, the
    `query`'s rows, COMMIT if `commit`. Anything failing in a transaction's own call
    (`owned`) rolls it back; a statement on its own never rolls back another's."""
    try:
        if begin:
            if db.in_transaction:  # one whose rollback never ran (its caller was cancelled
                db.rollback()      # while it waited): transactions take turns (the store's
            db.execute("BEGIN IMMEDIATE")  # write lock), so none other is under way
        for sql, rows, many in statements:
            if many:
                db.executemany(sql, rows)
            else:
                db.execute(sql, rows[0])
        found = [tuple(row) for row in db.execute(*query).fetchall()] if query else []
        if commit:
            db.execute("COMMIT")  # a failed commit is rolled back too
        return found
    except BaseException:
        if owned and db.in_transaction:
            db.execute("ROLLBACK")
        raise


def _rollback(db: sqlite3.Connection) -> None:
    if db.in_transaction:
        db.execute("ROLLBACK")


class Transaction:
    """The statements of one transaction, sent to the connection's thread together: at
    its end, or with a read (which must see them); `SqliteDatabase.transaction` yields it."""

    dialect = "sqlite"

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.pending: list[Statement] = []
        self.begun = False
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
        if self.failed:
            raise sqlite3.OperationalError("This transaction was rolled back after an error.")
        statements, self.pending = self.pending, []
        begin, self.begun = not self.begun, True
        try:
            return await self.connection.run(partial(
                _apply, self.connection.db, statements, begin=begin, query=query,
                commit=commit, owned=True))
        except BaseException:
            self.failed = True
            raise


class SqliteDatabase:
    """One SQLite connection as the store's backend: `?` placeholders, rows as tuples,
    `transaction()` as BEGIN IMMEDIATE (so a second process waits for the first's write)."""

    dialect = "sqlite"
    errors: tuple[type[BaseException], ...] = (sqlite3.Error, OSError)
    integrity: tuple[type[BaseException], ...] = (sqlite3.IntegrityError,)

    def __init__(self, connection: Connection, path: Path) -> None:
        self.connection = connection
        self.path = path
        self.name = str(path)

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> None:
        """Run one statement on its own."""
        await self.connection.run(partial(_apply, self.connection.db, [(sql, (args,), False)]))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for each row of arguments."""
        statement = (sql, list(rows), True)
        await self.connection.run(partial(_apply, self.connection.db, [statement]))

    async def execute_fetchall(self, sql: str, args: Sequence[Any] = ()) -> Rows:
        """Every row of a query, as tuples."""
        return await self.connection.run(partial(_apply, self.connection.db, (),
                                                 query=(sql, args)))

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """Statements on the yielded transaction are one transaction: committed at the end
        of the block, rolled back if it raises. Callers hold the store's write lock."""
        transaction = Transaction(self.connection)
        try:
            yield transaction
        except BaseException:
            if transaction.begun:  # (a no-op if its failed call rolled it back already)
                await self.connection.run(partial(_rollback, self.connection.db))
            raise
        await transaction.send(commit=True)

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
        write = [(f"PRAGMA user_version = {version}", ((),), False)]
        try:
            await self.connection.run(partial(_apply, self.connection.db, write, begin=True,
                                              owned=True))
        finally:
            await self.connection.run(partial(_rollback, self.connection.db))

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
    db = SqliteDatabase(await Connection.open(path, busy_timeout), path)
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


def empty(path: Path) -> str:
    return (f"The database {path} is empty (0 bytes), not a chouette database: a copy or "
            "a disk that failed? Restore it from a backup, or delete it to start afresh.")
