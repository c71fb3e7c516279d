"""Every table's events, append-only, with the snapshots that make loading fast, each
command's outcome under its idempotency key, and the games' secret dice seeds.

Events are keyed by (table, version), so a second writer that read the same version fails
loudly instead of forking the table. A command's events and its outcome (keyed by the
command's idempotency key) are written in one transaction: a command is either wholly
applied and remembered, or not at all. Snapshots of the state every `snapshot_every` events
make loading fast; each is stamped with the rules' version (`rules.RULES_VERSION`), and a
snapshot made under other rules is ignored: the table is replayed from its events, so a fix
to the rules reaches tables snapshotted before it.

Kept in memory, as they are read on every click: the games' dice seeds (they never change
once stored) and which tables are already in `tables`, the latest `CACHED` of each
(`database.keep`); `game_seed` and `append` use them, unseen."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.store.codec import dumps
from bot.store.database import Database, Part, StoreError, keep
from bot.store.meta import SET, Meta
from rules import RULES_VERSION
from rules.events import Event
from rules.state import TableState, replay


class ConcurrentWrite(StoreError):
    """Another writer appended to the same table first; reload the table and retry."""


@dataclass(frozen=True)
class Loaded:
    """A table as stored: its state and the version of its last event."""

    state: TableState
    version: int


@dataclass(frozen=True)
class StoredEvent:
    """One stored event: its version in the table, when it was stored (Unix seconds; None
    for events stored before times were kept) and the event."""

    version: int
    at: int | None
    event: Event


class Events(Part):
    """The tables' events, snapshots, commands' outcomes and dice seeds."""

    def __init__(self, database: Database, meta: Meta, snapshot_every: int = 50) -> None:
        super().__init__(database)
        self.meta = meta  # told the values a command's transaction writes (`append`)
        self.snapshot_every = snapshot_every
        self._known: dict[str, None] = {}  # tables already in the `tables` table
        self._seeds: dict[tuple[str, int], bytes] = {}

    # -- reading -----------------------------------------------------------------------------

    async def table_ids(self, *, open_only: bool = True) -> list[str]:
        """Every table in the store (only those not closed, by default)."""
        sql = "SELECT id FROM tables" + (" WHERE closed = 0" if open_only else "")
        return [row[0] for row in await self.db.execute_fetchall(sql + " ORDER BY rowid")]

    async def version(self, table_id: str) -> int:
        """The version of the table's last event (0 for none)."""
        rows = list(await self.db.execute_fetchall(
            "SELECT MAX(version) FROM events WHERE table_id = ?", (table_id,)))
        return int(rows[0][0] or 0) if rows else 0

    async def span(self, table_id: str) -> tuple[int | None, int | None]:
        """When the table's first and last events were stored (Unix seconds; None where
        the store kept no times)."""
        rows = list(await self.db.execute_fetchall(
            "SELECT MIN(at), MAX(at) FROM events WHERE table_id = ?", (table_id,)))
        first, last = rows[0] if rows else (None, None)
        return (None if first is None else int(first)), (None if last is None else int(last))

    async def keys(self, table_id: str) -> set[str]:
        """The idempotency keys of every command stored for the table."""
        rows = await self.db.execute_fetchall(
            "SELECT key FROM commands WHERE table_id = ?", (table_id,))
        return {row[0] for row in rows}

    async def outcome(self, table_id: str, key: str) -> Any | None:
        """The stored outcome of the command with idempotency `key`, if it was applied."""
        rows = list(await self.db.execute_fetchall(
            "SELECT outcome FROM commands WHERE table_id = ? AND key = ?", (table_id, key)))
        return self.database.decode(rows[0][0]) if rows else None

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
        except self.database.errors as exc:
            raise self.database.explain(exc) from exc
        state = self.database.decode(snapshot[0][1]) if snapshot else TableState()
        state = replay([self.database.decode(data) for _, data in rows], state)
        return Loaded(state, rows[-1][0] if rows else start)

    async def stored(self, table_id: str, skip: Sequence[str] = ()) -> list[StoredEvent]:
        """Every event of the table in order, with its version and when it was stored, but
        those whose type is named in `skip` (never decoded: the statistics skip the board's
        many rolls and moves)."""
        rows = await self._rows(table_id, "version, at, data", skip)
        return [StoredEvent(version, at, self.database.decode(data))
                for version, at, data in rows]

    async def data(self, table_id: str, only: Sequence[str] = ()) -> list[str]:
        """Every event of the table in order as stored (JSON), not decoded (`decoded` does,
        off the event loop: the analysis reads a whole session); given `only`, those of
        these types alone."""
        return [row[0] for row in await self._rows(table_id, "data", only=only)]

    async def _rows(self, table_id: str, columns: str, skip: Sequence[str] = (),
                    only: Sequence[str] = ()) -> list[tuple[Any, ...]]:
        which = f" AND type NOT IN ({', '.join('?' * len(skip))})" if skip else ""
        which += f" AND type IN ({', '.join('?' * len(only))})" if only else ""
        try:
            return list(await self.db.execute_fetchall(
                f"SELECT {columns} FROM events WHERE table_id = ?{which} ORDER BY version",
                (table_id, *skip, *only)))
        except self.database.errors as exc:
            raise self.database.explain(exc) from exc

    async def versioned(self, table_id: str, skip: Sequence[str] = (), first: int = 0,
                        last: int | None = None) -> list[tuple[int, int | None, str]]:
        """(version, when stored, data as stored) of the table's events from version `first`
        to `last` (all, by default) in order, but those whose type is named in `skip`; not
        decoded (`stored_of` does, off the event loop)."""
        which = f" AND type NOT IN ({', '.join('?' * len(skip))})" if skip else ""
        which += " AND version <= ?" if last is not None else ""
        try:
            return [(int(v), at, d) for v, at, d in await self.db.execute_fetchall(
                "SELECT version, at, data FROM events WHERE table_id = ? AND version >= ?"
                f"{which} ORDER BY version",
                (table_id, first, *skip, *(() if last is None else (last,))))]
        except self.database.errors as exc:
            raise self.database.explain(exc) from exc

    def stored_of(self, rows: Sequence[tuple[int, int | None, str]]) -> list[StoredEvent]:
        """`versioned`'s rows decoded (no I/O: safe in a worker thread)."""
        return [StoredEvent(version, at, self.database.decode(data))
                for version, at, data in rows]

    def decoded(self, data: Sequence[str]) -> list[Event]:
        """Events as `data` read them, decoded (no I/O: safe in a worker thread)."""
        return [self.database.decode(text) for text in data]

    # -- writing -----------------------------------------------------------------------------

    async def append(self, table_id: str, version: int, events: Sequence[Event],
                     key: str | None, outcome: Any, state: TableState | None = None,
                     effects: Sequence[Any] | None = None,
                     meta: Mapping[str, str] | None = None) -> int:
        """Store `events` after `version` and the command's `outcome`, in one transaction,
        with the `effects` Discord must show for them in the outbox (until
        `Outbox.delivered`) and the `meta` values they start (the deadlines of their timers:
        `Meta.set`).

        `state` (after the events) is kept as a snapshot when a multiple of `snapshot_every`
        is crossed. Returns the new version. `ConcurrentWrite` if the table moved on.
        """
        async with self.database.write:
            new = await self._append(table_id, version, events, key, outcome, state,
                                     effects, meta or {})
        self.meta.written(meta or {})
        return new

    async def _append(self, table_id: str, version: int, events: Sequence[Event],
                      key: str | None, outcome: Any, state: TableState | None,
                      effects: Sequence[Any] | None, meta: Mapping[str, str]) -> int:
        new, now = version + len(events), int(time.time())
        try:
            async with self.db.transaction() as db:
                if table_id not in self._known:
                    await db.execute("INSERT INTO tables (id) VALUES (?) ON CONFLICT DO NOTHING",
                                     (table_id,))
                await db.executemany(
                    "INSERT INTO events (table_id, version, type, data, at) "
                    "VALUES (?, ?, ?, ?, ?)",
                    [(table_id, version + i + 1, type(e).__name__, dumps(e), now)
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
                        "INSERT INTO snapshots (table_id, version, state, rules_version) "
                        "VALUES (?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE SET "
                        "version = excluded.version, state = excluded.state, "
                        "rules_version = excluded.rules_version",
                        (table_id, new, dumps(state), RULES_VERSION))
                if state is not None and state.ended:
                    await db.execute("UPDATE tables SET closed = 1 WHERE id = ?", (table_id,))
                if meta:
                    await db.executemany(SET, list(meta.items()))
            keep(self._known, table_id, None)
        except self.db.integrity as exc:
            raise ConcurrentWrite(f"Table {table_id} moved on past version {version} (or "
                                  f"command {key} was applied): reload and retry.") from exc
        except self.database.errors as exc:
            raise self.database.explain(exc) from exc
        return new

    async def game_seed(self, table_id: str, game: int,
                        fresh: bytes | None = None) -> bytes | None:
        """The secret dice seed of the table's game number `game`: the one stored first,
        else `fresh`, stored now (a retried start or a restart keeps its dice)."""
        if (table_id, game) in self._seeds:
            return self._seeds[table_id, game]
        if fresh is not None:
            async with self.database.write:
                await self.db.execute(
                    "INSERT INTO dice_seeds (table_id, game, seed) VALUES (?, ?, ?) "
                    "ON CONFLICT DO NOTHING",
                    (table_id, game, fresh.hex()))
        rows = list(await self.db.execute_fetchall(
            "SELECT seed FROM dice_seeds WHERE table_id = ? AND game = ?", (table_id, game)))
        if not rows:
            return None
        return keep(self._seeds, (table_id, game), bytes.fromhex(rows[0][0]))
