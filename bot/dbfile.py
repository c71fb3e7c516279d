"""The database as a file: created whole, copied safely while in use, connected to without
leaving aiosqlite's worker thread behind. `StoreError` is the store's error, here so that
both modules raise it."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from pathlib import Path

import aiosqlite


class StoreError(Exception):
    """The database can't be used as it is; the message names the file and what to do."""


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
