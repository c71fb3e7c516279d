"""The event store: every table's events, append-only in SQLite (aiosqlite, WAL).

Events are keyed by (table, version), so a second writer that read the same version fails
loudly instead of forking the table. A command's events and its outcome (keyed by the
command's idempotency key) are written in one transaction: a command is either wholly
applied and remembered, or not at all. Snapshots of the state every `snapshot_every` events
make loading fast; each is stamped with the rules' version (`rules.RULES_VERSION`), and a
snapshot made under other rules is ignored: the table is replayed from its events, so a fix
to the rules reaches tables snapshotted before it. Schema changes are numbered migrations
applied at open, after a backup of the file (`backup`, SQLite's online backup API).
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from bot.codec import CodecError, dumps, loads
from bot.dbfile import StoreError as StoreError  # raised by both; imported from here
from bot.dbfile import backup, connect, create, empty
from rules import RULES_VERSION
from rules.events import Event
from rules.state import TableState, replay

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE tables (
        id TEXT PRIMARY KEY,
        created INTEGER NOT NULL DEFAULT (strftime('%s', 'now')),
        closed INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE events (
        table_id TEXT NOT NULL REFERENCES tables(id),
        version INTEGER NOT NULL,
        type TEXT NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (table_id, version)
    ) WITHOUT ROWID;
    CREATE TABLE commands (
        table_id TEXT NOT NULL,
        key TEXT NOT NULL,
        outcome TEXT NOT NULL,
        PRIMARY KEY (table_id, key)
    ) WITHOUT ROWID;
    CREATE TABLE snapshots (
        table_id TEXT PRIMARY KEY REFERENCES tables(id),
        version INTEGER NOT NULL,
        state TEXT NOT NULL
    );
    """,
    """
    CREATE TABLE discord_tables (
        table_id TEXT PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        category_id INTEGER NOT NULL,
        board_id INTEGER NOT NULL,
        kibitz_id INTEGER NOT NULL,
        team_id INTEGER NOT NULL,
        box_id INTEGER NOT NULL,
        message_id INTEGER
    );
    """,
    """
    ALTER TABLE events ADD COLUMN at INTEGER;
    CREATE TABLE dice_seeds (
        table_id TEXT NOT NULL,
        game INTEGER NOT NULL,
        seed TEXT NOT NULL,
        PRIMARY KEY (table_id, game)
    ) WITHOUT ROWID;
    """,
    """
    ALTER TABLE discord_tables ADD COLUMN origin_id INTEGER;
    """,
    """
    CREATE TABLE outbox (
        table_id TEXT NOT NULL,
        version INTEGER NOT NULL,
        effects TEXT NOT NULL,
        PRIMARY KEY (table_id, version)
    ) WITHOUT ROWID;
    """,
    """
    ALTER TABLE snapshots ADD COLUMN rules_version INTEGER;
    CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    ) WITHOUT ROWID;
    """,
    """
    CREATE TABLE analyses (
        table_id TEXT NOT NULL,
        game INTEGER NOT NULL,
        plies INTEGER NOT NULL,
        result TEXT NOT NULL,
        posted INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (table_id, game)
    ) WITHOUT ROWID;
    """,  # issue 21: GNU Backgammon's verdict on each game (bot/analysis_queue.py)
)


class ConcurrentWrite(StoreError):
    """Another writer appended to the same table first; reload the table and retry."""


@dataclass(frozen=True)
class Loaded:
    """A table as stored: its state and the version of its last event."""

    state: TableState
    version: int


@dataclass(frozen=True)
class Channels:
    """Where a table lives on Discord: its category, four channels and the board message."""

    table_id: str
    guild_id: int
    category_id: int
    board_id: int
    kibitz_id: int
    team_id: int
    box_id: int
    message_id: int | None = None
    origin_id: int | None = None  # the channel where the table was opened

    @property
    def all(self) -> tuple[int, ...]:
        """The four channel ids."""
        return (self.board_id, self.kibitz_id, self.team_id, self.box_id)


@dataclass(frozen=True)
class StoredEvent:
    """One stored event: its version in the table, when it was stored (Unix seconds; None
    for events stored before times were kept) and the event."""

    version: int
    at: int | None
    event: Event


class EventStore:
    """Append-only events per table in one SQLite file."""

    def __init__(self, path: Path | str, *, snapshot_every: int = 50,
                 busy_timeout: float = 5.0) -> None:
        self.path = Path(path)
        self.snapshot_every = snapshot_every
        self.busy_timeout = busy_timeout  # seconds to wait for another process's write
        self._db: aiosqlite.Connection | None = None
        # One connection serves every table: a transaction spans several awaits, so writes
        # take turns (reads need not: each table's own lock keeps them off its writes).
        self._write = asyncio.Lock()
        self._known: set[str] = set()  # tables already in the `tables` table
        self.backed_up: Path | None = None  # the copy made before a migration at open

    async def open(self) -> EventStore:
        """Open (creating it and its folder if needed), back up and migrate the database, and
        check that it can be written: a StoreError now, rather than at the first command."""
        try:
            if str(self.path) != ":memory:":
                if self.path.is_file() and self.path.stat().st_size == 0:
                    raise StoreError(empty(self.path))
                if not self.path.exists():
                    await asyncio.to_thread(create, self.path)
            self._db = await connect(self.path, self.busy_timeout)
            await self._db.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")
            await self._db.execute_fetchall("PRAGMA journal_mode = WAL")
            await self._db.execute("PRAGMA synchronous = NORMAL")
            await self._migrate()
            await self._check_writable()
        except (sqlite3.Error, OSError) as exc:
            await self.close()
            raise self._explain(exc) from exc
        except BaseException:
            await self.close()  # a refused schema, a cancellation: never leave it open
            raise
        return self

    async def close(self) -> None:
        """Close the connection (safe to call twice, even at once: a second aiosqlite close
        of the same connection would wait forever)."""
        db, self._db = self._db, None
        if db is not None:
            await db.close()

    async def __aenter__(self) -> EventStore:
        return await self.open()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def db(self) -> aiosqlite.Connection:
        """The open connection."""
        if self._db is None:
            raise StoreError(f"The event store {self.path} is not open.")
        return self._db

    async def _migrate(self) -> None:
        rows = list(await self.db.execute_fetchall("PRAGMA user_version"))
        current = rows[0][0] if rows else 0
        if current > len(MIGRATIONS):
            raise StoreError(f"{self.path} was written by a newer chouette-bot (schema "
                             f"{current}, this one knows {len(MIGRATIONS)}): upgrade the bot.")
        if 0 < current < len(MIGRATIONS) and str(self.path) != ":memory:":
            stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
            copy = self.path.with_name(f"{self.path.name}.schema{current}-{stamp}.bak")
            await asyncio.to_thread(backup, self.path, copy)
            self.backed_up = copy
        for number in range(current, len(MIGRATIONS)):
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                for statement in MIGRATIONS[number].split(";"):
                    if statement.strip():
                        await self.db.execute(statement)
                await self.db.execute(f"PRAGMA user_version = {number + 1}")
                await self.db.execute("COMMIT")
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise

    async def _check_writable(self) -> None:
        """Write to the file and take it back: a read-only file or folder fails here."""
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            await self.db.execute(f"PRAGMA user_version = {len(MIGRATIONS)}")
        finally:
            await self.db.execute("ROLLBACK")

    def _explain(self, exc: BaseException) -> StoreError:
        text = str(exc)
        if self.path.is_dir():
            return StoreError(f"The database {self.path} is a folder, not a file: set "
                              "CHOUETTE_DB to a file's path (it is created if need be).")
        if "unable to open" in text and not os.access(self.path.parent, os.W_OK):
            return StoreError(f"The database {self.path} can't be created or opened: give "
                              f"this user write access to {self.path.parent}, or set "
                              "CHOUETTE_DB.")
        if "locked" in text or "busy" in text:
            return StoreError(f"The database {self.path} is locked by another process: stop "
                              "the other bot using it, or set CHOUETTE_DB to another file.")
        if "readonly" in text or "read-only" in text or isinstance(exc, PermissionError):
            return StoreError(f"The database {self.path} can't be written: give this user "
                              "write access to it and its folder, or set CHOUETTE_DB.")
        if "not a database" in text or "malformed" in text:
            return StoreError(f"{self.path} is not a readable chouette database (damaged or "
                              "another file): restore it from a backup, or move it away to "
                              "start afresh.")
        return StoreError(f"The database {self.path} can't be used: {text}.")

    # -- reading -----------------------------------------------------------------------------

    async def table_ids(self, *, open_only: bool = True) -> list[str]:
        """Every table in the store (only those not closed, by default)."""
        sql = "SELECT id FROM tables" + (" WHERE closed = 0" if open_only else "")
        return [row[0] for row in await self.db.execute_fetchall(sql + " ORDER BY rowid")]

    async def keys(self, table_id: str) -> set[str]:
        """The idempotency keys of every command stored for the table."""
        rows = await self.db.execute_fetchall(
            "SELECT key FROM commands WHERE table_id = ?", (table_id,))
        return {row[0] for row in rows}

    async def outcome(self, table_id: str, key: str) -> Any | None:
        """The stored outcome of the command with idempotency `key`, if it was applied."""
        rows = list(await self.db.execute_fetchall(
            "SELECT outcome FROM commands WHERE table_id = ? AND key = ?", (table_id, key)))
        return self._decode(rows[0][0]) if rows else None

    async def load(self, table_id: str) -> Loaded:
        """The table's state: its latest snapshot and every event after it."""
        try:
            snapshot = [row for row in await self.db.execute_fetchall(
                "SELECT version, state, rules_version FROM snapshots WHERE table_id = ?",
                (table_id,)) if row[2] == RULES_VERSION]  # other rules: replay every event
            start = snapshot[0][0] if snapshot else 0
            rows = list(await self.db.execute_fetchall(
                "SELECT version, data FROM events WHERE table_id = ? AND version > ? "
                "ORDER BY version", (table_id, start)))
        except sqlite3.Error as exc:
            raise self._explain(exc) from exc
        state = self._decode(snapshot[0][1]) if snapshot else TableState()
        state = replay([self._decode(data) for _, data in rows], state)
        return Loaded(state, rows[-1][0] if rows else start)

    async def events(self, table_id: str, skip: Sequence[str] = ()) -> list[StoredEvent]:
        """Every event of the table in order, with its version and when it was stored, but
        those whose type is named in `skip` (never decoded: the statistics skip the board's
        many rolls and moves)."""
        try:
            rows = await self.db.execute_fetchall(
                "SELECT version, at, data FROM events WHERE table_id = ? AND type NOT IN "
                f"({', '.join('?' * len(skip))}) ORDER BY version", (table_id, *skip))
        except sqlite3.Error as exc:
            raise self._explain(exc) from exc
        return [StoredEvent(version, at, self._decode(data)) for version, at, data in rows]

    def _decode(self, text: str) -> Any:
        try:
            return loads(text)
        except CodecError as exc:
            raise StoreError(f"{self.path}: {exc}") from exc

    # -- writing -----------------------------------------------------------------------------

    async def append(self, table_id: str, version: int, events: Sequence[Event],
                     key: str | None, outcome: Any, state: TableState | None = None,
                     effects: Sequence[Any] | None = None) -> int:
        """Store `events` after `version` and the command's `outcome`, in one transaction,
        with the `effects` Discord must show for them in the outbox (until `delivered`).

        `state` (after the events) is kept as a snapshot when a multiple of `snapshot_every`
        is crossed. Returns the new version. `ConcurrentWrite` if the table moved on.
        """
        async with self._write:
            return await self._append(table_id, version, events, key, outcome, state,
                                      effects)

    async def _append(self, table_id: str, version: int, events: Sequence[Event],
                      key: str | None, outcome: Any, state: TableState | None,
                      effects: Sequence[Any] | None) -> int:
        db = self.db
        new = version + len(events)
        try:
            await db.execute("BEGIN IMMEDIATE")
            try:
                if table_id not in self._known:
                    await db.execute("INSERT OR IGNORE INTO tables (id) VALUES (?)",
                                     (table_id,))
                await db.executemany(
                    "INSERT INTO events (table_id, version, type, data, at) "
                    "VALUES (?, ?, ?, ?, strftime('%s', 'now'))",
                    [(table_id, version + i + 1, type(e).__name__, dumps(e))
                     for i, e in enumerate(events)])
                if key is not None:
                    await db.execute(
                        "INSERT INTO commands (table_id, key, outcome) VALUES (?, ?, ?)",
                        (table_id, key, dumps(outcome)))
                if effects is not None and events:
                    await db.execute(
                        "INSERT INTO outbox (table_id, version, effects) VALUES (?, ?, ?)",
                        (table_id, new, dumps(tuple(effects))))
                if state is not None and events and (
                        new // self.snapshot_every > version // self.snapshot_every):
                    await db.execute(
                        "INSERT OR REPLACE INTO snapshots (table_id, version, state, "
                        "rules_version) VALUES (?, ?, ?, ?)",
                        (table_id, new, dumps(state), RULES_VERSION))
                if state is not None and state.ended:
                    await db.execute("UPDATE tables SET closed = 1 WHERE id = ?", (table_id,))
                await db.execute("COMMIT")
            except BaseException:
                await db.execute("ROLLBACK")
                raise
            self._known.add(table_id)
        except sqlite3.IntegrityError as exc:
            raise ConcurrentWrite(f"Table {table_id} moved on past version {version} (or "
                                  f"command {key} was applied): reload and retry.") from exc
        except sqlite3.Error as exc:
            raise self._explain(exc) from exc
        return new

    async def undelivered(self, table_id: str) -> list[tuple[int, tuple[Any, ...]]]:
        """The effects stored for the table and not yet delivered: (version, effects),
        oldest first."""
        rows = await self.db.execute_fetchall(
            "SELECT version, effects FROM outbox WHERE table_id = ? ORDER BY version",
            (table_id,))
        return [(version, tuple(self._decode(data))) for version, data in rows]

    async def delivered(self, table_id: str, version: int) -> None:
        """The table's effects of `version` are on Discord: out of the outbox."""
        async with self._write:
            await self.db.execute("DELETE FROM outbox WHERE table_id = ? AND version = ?",
                                  (table_id, version))

    async def game_seed(self, table_id: str, game: int,
                        fresh: bytes | None = None) -> bytes | None:
        """The secret dice seed of the table's game number `game`: the one stored first,
        else `fresh`, stored now (a retried start or a restart keeps its dice)."""
        if fresh is not None:
            async with self._write:
                await self.db.execute(
                    "INSERT OR IGNORE INTO dice_seeds (table_id, game, seed) VALUES (?, ?, ?)",
                    (table_id, game, fresh.hex()))
        rows = list(await self.db.execute_fetchall(
            "SELECT seed FROM dice_seeds WHERE table_id = ? AND game = ?", (table_id, game)))
        return bytes.fromhex(rows[0][0]) if rows else None

    @property
    def writing(self) -> asyncio.Lock:
        """The lock every write takes (for a module with tables of its own: issue 21)."""
        return self._write

    async def meta(self, key: str) -> str | None:
        """A value the bot keeps about itself (not about a table), or None."""
        rows = list(await self.db.execute_fetchall("SELECT value FROM meta WHERE key = ?",
                                                   (key,)))
        return str(rows[0][0]) if rows else None

    async def set_meta(self, key: str, value: str | None) -> None:
        """Keep `value` under `key` (None forgets it)."""
        async with self._write:
            if value is None:
                await self.db.execute("DELETE FROM meta WHERE key = ?", (key,))
            else:
                await self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    # -- the Discord side of a table -----------------------------------------------------------

    async def save_channels(self, channels: Channels) -> None:
        """Remember where a table lives on Discord (replacing what was there)."""
        async with self._write:
            await self.db.execute(
                "INSERT OR REPLACE INTO discord_tables VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (channels.table_id, channels.guild_id, channels.category_id,
                 channels.board_id, channels.kibitz_id, channels.team_id, channels.box_id,
                 channels.message_id, channels.origin_id))

    async def channels(self, *, table_id: str | None = None,
                       channel_id: int | None = None) -> Channels | None:
        """A table's channels, found by the table or by any of its channels."""
        if table_id is not None:
            sql, args = "SELECT * FROM discord_tables WHERE table_id = ?", (table_id,)
        else:
            sql = ("SELECT * FROM discord_tables WHERE ? IN "
                   "(category_id, board_id, kibitz_id, team_id, box_id)")
            args = (channel_id,)  # type: ignore[assignment]
        rows = list(await self.db.execute_fetchall(sql, args))
        return Channels(*rows[0]) if rows else None

    async def guild_tables(self, guild_id: int, *, open_only: bool = True) -> list[Channels]:
        """The channels of every table opened on the server `guild_id` (only those still
        open, by default), oldest first."""
        rows = await self.db.execute_fetchall(
            "SELECT d.* FROM tables t JOIN discord_tables d ON d.table_id = t.id "
            "WHERE d.guild_id = ?" + (" AND t.closed = 0" if open_only else "")
            + " ORDER BY t.rowid", (guild_id,))
        return [Channels(*row) for row in rows]

    async def ended_tables(self) -> list[tuple[Channels, int | None]]:
        """Every ended table's channels, with when its session ended (Unix seconds)."""
        rows = await self.db.execute_fetchall(
            "SELECT d.*, (SELECT MAX(at) FROM events e WHERE e.table_id = t.id) FROM tables t "
            "JOIN discord_tables d ON d.table_id = t.id WHERE t.closed = 1 ORDER BY t.rowid")
        return [(Channels(*row[:-1]), row[-1]) for row in rows]
