"""The store: the event store and its parts (`sqlite`, `postgres`, `dialect`, `migrations`,
`codec`, `move`).

The event store: every table's events, append-only, in SQLite (WAL, on a thread of
its own: the embedded default) or PostgreSQL (asyncpg: several processes on one database).

Events are keyed by (table, version), so a second writer that read the same version fails
loudly instead of forking the table. A command's events and its outcome (keyed by the
command's idempotency key) are written in one transaction: a command is either wholly
applied and remembered, or not at all. Snapshots of the state every `snapshot_every` events
make loading fast; each is stamped with the rules' version (`rules.RULES_VERSION`), and a
snapshot made under other rules is ignored: the table is replayed from its events, so a fix
to the rules reaches tables snapshotted before it. Schema changes are numbered migrations
(`bot/store/migrations.py`) applied at open (on SQLite after a backup of the file:
`dbfile.backup`).

The SQL is written once, for both backends: `?` placeholders, `INSERT ... ON CONFLICT`, times
passed in from Python, `rowid` only on `tables`. `bot/store/postgres.py` says what it rewrites.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, Union

from bot.store.codec import CodecError, dumps, loads
from bot.store.dialect import is_url, shown
from bot.store.migrations import MIGRATIONS
from bot.store.sqlite import SqliteDatabase, Transaction, explain, open_sqlite
from bot.store.sqlite import StoreError as StoreError  # raised by both; imported from here
from rules import RULES_VERSION
from rules.events import Event
from rules.state import TableState, replay

if TYPE_CHECKING:
    from bot.store.postgres import PostgresDatabase, PostgresTransaction

Database = Union[SqliteDatabase, "PostgresDatabase"]
K = TypeVar("K")
V = TypeVar("V")
Writer = Union[Database, Transaction, "PostgresTransaction"]  # what `_total` writes with


def need_postgres() -> None:
    """A StoreError saying what to install if asyncpg (the `postgres` extra) is missing."""
    if importlib.util.find_spec("asyncpg") is None:
        raise StoreError("CHOUETTE_DATABASE_URL needs the PostgreSQL driver, not installed "
                         "here: .venv/bin/pip install -e '.[postgres]' (README: PostgreSQL).")


_CHANNELS = ("table_id", "guild_id", "category_id", "board_id", "kibitz_id", "team_id",
             "box_id", "message_id", "origin_id")  # discord_tables' columns, in order


INBOX = "chouette_inbox"  # PostgreSQL's channel for the inbox's NOTIFY
_SET_META = ("INSERT INTO meta (key, value) VALUES (?, ?) "
             "ON CONFLICT (key) DO UPDATE SET value = excluded.value")
CACHED = 4096  # the latest tables (games: dice seeds) whose channels, seeds, existence are kept
DELIVERED_WITHIN = 0.5  # seconds from a delivery to its outbox rows' deletion
log = logging.getLogger(__name__)

# One player's figures in one verdict (`analysis_totals`' columns after the key): player,
# checker decisions, errors, summed loss, cube decisions, errors, summed loss
PlayerTotals = tuple[str, int, int, float, int, int, float]


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
    """Append-only events per table, in one SQLite file or one PostgreSQL database."""

    def __init__(self, target: Path | str, *, snapshot_every: int = 50,
                 busy_timeout: float = 5.0) -> None:
        """`target`: an SQLite file's path, or a `postgresql://` URL."""
        self.url = target if isinstance(target, str) and is_url(target) else None
        self.path = Path(target)  # the file (for a URL, unused: `name` is what messages say)
        self.name = shown(self.url) if self.url else str(self.path)
        self.snapshot_every = snapshot_every
        self.busy_timeout = busy_timeout  # seconds to wait for another process's write
        self._db: Database | None = None
        self._errors: tuple[type[BaseException], ...] = SqliteDatabase.errors
        # On SQLite one connection serves every table, a statement or a transaction at a
        # time (`SqliteDatabase.turn`), and writes take turns here too (the few that read
        # what they wrote with them). On PostgreSQL each write has a connection of the pool
        # to itself, and taking turns made a command wait for every other table's commit
        # (bench: 590 ms).
        self._write: AbstractAsyncContextManager[Any] = (
            asyncio.Lock() if self.url is None else nullcontext())
        self._known: dict[str, None] = {}  # tables already in the `tables` table
        # meta as read or written here: read before a board is shown (the synced command
        # ids, the timers' deadlines), so kept in memory; each key is written by the process
        # that reads it (a table's by the process serving it; the command ids are alike in all)
        self._meta: dict[str, str | None] = {}
        # kept once read, read on every click: a table's channels, written only by the
        # process serving it (`save_channels`, which keeps them here too; another process
        # reads them only for the table's server, which never changes), and the games' dice
        # seeds, which never change once stored. These, and `_known`, keep the latest
        # `CACHED` (a bot up for months served far more tables than it serves at once).
        self._channels: dict[str, Channels] = {}
        self._seeds: dict[tuple[str, int], bytes] = {}
        self.backed_up: Path | None = None  # the copy made before a migration at open
        # outbox rows delivered and not yet deleted: written together a moment later
        # (`delivered`), so that an action's delivery costs no transaction of its own
        self._delivered: dict[str, set[int]] = {}
        self._deleting: asyncio.Task[None] | None = None

    async def open(self) -> EventStore:
        """Open (creating an SQLite file and its folder if needed), back up (SQLite) and
        migrate the database, and check that it can be written: a StoreError now, rather
        than at the first command."""
        try:
            if self.url is not None:
                need_postgres()
                from bot.store import postgres

                self._errors = postgres.PostgresDatabase.errors
                self._db = await postgres.open_postgres(self.url, max(self.busy_timeout, 10.0))
            else:
                self._db = await open_sqlite(self.path, self.busy_timeout)
            self.backed_up = await self._db.migrate(MIGRATIONS)
            await self._db.check_writable(len(MIGRATIONS))
        except self._errors as exc:
            await self.close()
            raise self._explain(exc) from exc
        except BaseException:
            await self.close()  # a refused schema, a cancellation: never leave it open
            raise
        return self

    async def close(self) -> None:
        """Close the connection, the outbox's deliveries written first (safe to call twice,
        even at once: the connection is handed over before it is closed)."""
        if self._deleting is not None:  # stopped (its flush rolled back or done) first
            self._deleting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._deleting
        if self._db is not None and self._delivered:
            with contextlib.suppress(*self._errors):  # else shown again at the next start
                await self.flush()
        db, self._db = self._db, None
        if db is not None:
            await db.close()

    async def __aenter__(self) -> EventStore:
        return await self.open()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def db(self) -> Database:
        """The open database: `execute`, `executemany`, `execute_fetchall` (`?` placeholders,
        rows as tuples) and `transaction()`, the same on both backends."""
        if self._db is None:
            raise StoreError(f"The event store {self.name} is not open.")
        return self._db

    def _explain(self, exc: BaseException) -> StoreError:
        if self.url is not None:
            from bot.store import postgres

            return postgres.explain(self.name, exc)
        return explain(self.path, exc)

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
        except self._errors as exc:
            raise self._explain(exc) from exc
        state = self._decode(snapshot[0][1]) if snapshot else TableState()
        state = replay([self._decode(data) for _, data in rows], state)
        return Loaded(state, rows[-1][0] if rows else start)

    async def events(self, table_id: str, skip: Sequence[str] = ()) -> list[StoredEvent]:
        """Every event of the table in order, with its version and when it was stored, but
        those whose type is named in `skip` (never decoded: the statistics skip the board's
        many rolls and moves)."""
        rows = await self._event_rows(table_id, "version, at, data", skip)
        return [StoredEvent(version, at, self._decode(data)) for version, at, data in rows]

    async def event_data(self, table_id: str, only: Sequence[str] = ()) -> list[str]:
        """Every event of the table in order as stored (JSON), not decoded (`decoded` does,
        off the event loop: the analysis reads a whole session); given `only`, those of
        these types alone."""
        return [row[0] for row in await self._event_rows(table_id, "data", only=only)]

    async def _event_rows(self, table_id: str, columns: str, skip: Sequence[str] = (),
                          only: Sequence[str] = ()) -> list[tuple[Any, ...]]:
        which = f" AND type NOT IN ({', '.join('?' * len(skip))})" if skip else ""
        which += f" AND type IN ({', '.join('?' * len(only))})" if only else ""
        try:
            return list(await self.db.execute_fetchall(
                f"SELECT {columns} FROM events WHERE table_id = ?{which} ORDER BY version",
                (table_id, *skip, *only)))
        except self._errors as exc:
            raise self._explain(exc) from exc

    def decoded(self, data: Sequence[str]) -> list[Event]:
        """Events as `event_data` read them, decoded (no I/O: safe in a worker thread)."""
        return [self._decode(text) for text in data]

    def _decode(self, text: str) -> Any:
        try:
            return loads(text)
        except CodecError as exc:
            raise StoreError(f"{self.name}: {exc}") from exc

    # -- writing -----------------------------------------------------------------------------

    async def append(self, table_id: str, version: int, events: Sequence[Event],
                     key: str | None, outcome: Any, state: TableState | None = None,
                     effects: Sequence[Any] | None = None,
                     meta: Mapping[str, str] | None = None) -> int:
        """Store `events` after `version` and the command's `outcome`, in one transaction,
        with the `effects` Discord must show for them in the outbox (until `delivered`)
        and the `meta` values they start (the deadlines of their timers: `set_meta`).

        `state` (after the events) is kept as a snapshot when a multiple of `snapshot_every`
        is crossed. Returns the new version. `ConcurrentWrite` if the table moved on.
        """
        async with self._write:
            new = await self._append(table_id, version, events, key, outcome, state,
                                     effects, meta or {})
        self._meta.update(meta or {})
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
                    await db.executemany(_SET_META, list(meta.items()))
            _cache(self._known, table_id, None)
        except self.db.integrity as exc:
            raise ConcurrentWrite(f"Table {table_id} moved on past version {version} (or "
                                  f"command {key} was applied): reload and retry.") from exc
        except self._errors as exc:
            raise self._explain(exc) from exc
        return new

    async def undelivered(self, table_id: str) -> list[tuple[int, tuple[Any, ...]]]:
        """The effects stored for the table and not yet delivered: (version, effects),
        oldest first."""
        rows = await self.db.execute_fetchall(
            "SELECT version, effects FROM outbox WHERE table_id = ? ORDER BY version",
            (table_id,))
        done = self._delivered.get(table_id, set())
        return [(version, tuple(self._decode(data))) for version, data in rows
                if version not in done]

    async def delivered(self, table_id: str, *versions: int) -> None:
        """The table's effects of `versions` are on Discord: out of the outbox (together:
        actions shown together leave it at once). The rows are deleted a moment later
        (`DELIVERED_WITHIN`), every table's in one transaction: an action's delivery costs
        none of its own. A crash meanwhile shows them again at the next start, as one
        before the mark would: each message under its nonce, which Discord keeps for
        minutes, so none is posted twice."""
        if not versions:
            return
        self._delivered.setdefault(table_id, set()).update(versions)
        if self._deleting is None or self._deleting.done():
            self._deleting = asyncio.ensure_future(self._flush_soon())

    async def _flush_soon(self) -> None:
        while self._delivered:  # (those noted during a flush too)
            await asyncio.sleep(DELIVERED_WITHIN)
            try:
                await self.flush()
            except Exception:  # kept: the next `delivered`, or `close`, tries again
                log.warning("the outbox's deliveries could not be written yet", exc_info=True)
                return

    async def flush(self) -> None:
        """Delete the outbox rows of the deliveries noted by `delivered`. They are noted
        until the deletion is committed, so `undelivered` leaves them out meanwhile too."""
        async with self._write:
            done = {table_id: set(versions) for table_id, versions in self._delivered.items()}
            await self.db.executemany(
                "DELETE FROM outbox WHERE table_id = ? AND version = ?",
                [(table_id, version) for table_id, versions in done.items()
                 for version in versions])
            for table_id, versions in done.items():
                if left := self._delivered.get(table_id, set()) - versions:
                    self._delivered[table_id] = left
                else:
                    self._delivered.pop(table_id, None)

    async def game_seed(self, table_id: str, game: int,
                        fresh: bytes | None = None) -> bytes | None:
        """The secret dice seed of the table's game number `game`: the one stored first,
        else `fresh`, stored now (a retried start or a restart keeps its dice)."""
        if (table_id, game) in self._seeds:
            return self._seeds[table_id, game]
        if fresh is not None:
            async with self._write:
                await self.db.execute(
                    "INSERT INTO dice_seeds (table_id, game, seed) VALUES (?, ?, ?) "
                    "ON CONFLICT DO NOTHING",
                    (table_id, game, fresh.hex()))
        rows = list(await self.db.execute_fetchall(
            "SELECT seed FROM dice_seeds WHERE table_id = ? AND game = ?", (table_id, game)))
        if not rows:
            return None
        return _cache(self._seeds, (table_id, game), bytes.fromhex(rows[0][0]))

    async def meta(self, key: str, *, cached: bool = False) -> str | None:
        """A value the bot keeps about itself (not about a table), or None; `cached`: as
        this process last read or wrote it, without asking the database."""
        if cached and key in self._meta:
            return self._meta[key]
        rows = list(await self.db.execute_fetchall("SELECT value FROM meta WHERE key = ?",
                                                   (key,)))
        self._meta[key] = str(rows[0][0]) if rows else None
        return self._meta[key]

    async def set_meta(self, key: str, value: str | None) -> None:
        """Keep `value` under `key` (None forgets it)."""
        async with self._write:
            if value is None:
                await self.db.execute("DELETE FROM meta WHERE key = ?", (key,))
            else:
                await self.db.execute(_SET_META, (key, value))
            self._meta[key] = value

    def cached_meta(self, key: str) -> str | None:
        """`meta(key)` as this process last read or wrote it (None: not since it started)."""
        return self._meta.get(key)

    async def forget_meta(self, prefix: str) -> None:
        """Forget every value kept under a key starting with `prefix` (a table's deadlines)."""
        async with self._write:
            await self.db.execute("DELETE FROM meta WHERE substr(key, 1, ?) = ?",
                                  (len(prefix), prefix))
            for key in [k for k in self._meta if k.startswith(prefix)]:
                del self._meta[key]  # (kept as None they would pile up, table after table)

    # -- the Discord side of a table -----------------------------------------------------------

    async def save_channels(self, channels: Channels) -> None:
        """Remember where a table lives on Discord (replacing what was there)."""
        async with self._write:
            await self.db.execute(
                f"INSERT INTO discord_tables ({', '.join(_CHANNELS)}) VALUES "
                f"({', '.join('?' * len(_CHANNELS))}) ON CONFLICT (table_id) DO UPDATE SET "
                + ", ".join(f"{c} = excluded.{c}" for c in _CHANNELS[1:]),
                (channels.table_id, channels.guild_id, channels.category_id,
                 channels.board_id, channels.kibitz_id, channels.team_id, channels.box_id,
                 channels.message_id, channels.origin_id))
            _cache(self._channels, channels.table_id, channels)

    async def channels(self, *, table_id: str | None = None,
                       channel_id: int | None = None) -> Channels | None:
        """A table's channels, found by the table or by any of its channels."""
        if table_id in self._channels:
            return self._channels[table_id]
        if table_id is not None:
            sql, args = "SELECT * FROM discord_tables WHERE table_id = ?", (table_id,)
        else:
            sql = ("SELECT * FROM discord_tables WHERE ? IN "
                   "(category_id, board_id, kibitz_id, team_id, box_id)")
            args = (channel_id,)  # type: ignore[assignment]
        rows = list(await self.db.execute_fetchall(sql, args))
        if not rows:
            return None
        return _cache(self._channels, rows[0][0], Channels(*rows[0]))

    async def guild_tables(self, guild_id: int, *, open_only: bool = True) -> list[Channels]:
        """The channels of every table opened on the server `guild_id` (only those still
        open, by default), oldest first."""
        rows = await self.db.execute_fetchall(
            "SELECT d.* FROM tables t JOIN discord_tables d ON d.table_id = t.id "
            "WHERE d.guild_id = ?" + (" AND t.closed = 0" if open_only else "")
            + " ORDER BY t.rowid", (guild_id,))
        return [Channels(*row) for row in rows]

    # -- the inbox: commands for a table another process serves (issue 23) ----------------------

    async def post(self, table_id: str, key: str, command: str, reply: str) -> None:
        """Leave a command (`codec.command_dumps`) for the process serving the table, once per
        `key`, with `reply` (JSON: where its outcome is shown); on PostgreSQL that process is
        woken (NOTIFY `INBOX`, sent at commit)."""
        async with self._write, self.db.transaction() as db:
            await db.execute(
                "INSERT INTO inbox (table_id, key, command, reply, at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT DO NOTHING", (table_id, key, command, reply, time.time_ns() // 1000))
            if self.url is not None:
                await db.execute(f"SELECT pg_notify('{INBOX}', ?)", (table_id,))

    async def inbox(self) -> list[tuple[str, str, str, str, int | None, int]]:
        """The commands not yet applied nor set aside, oldest first: (table, key, command,
        reply, the table's server, how often applying it failed)."""
        return list(await self.db.execute_fetchall(
            "SELECT i.table_id, i.key, i.command, i.reply, d.guild_id, i.tries FROM inbox i "
            "LEFT JOIN discord_tables d ON d.table_id = i.table_id WHERE i.done = 0 "
            "ORDER BY i.at, i.key"))

    async def applied(self, table_id: str, key: str) -> None:
        """The inbox's command `key` is applied and shown: done (kept, as the commands are)."""
        async with self._write:
            await self.db.execute("UPDATE inbox SET done = 1 WHERE table_id = ? AND key = ?",
                                  (table_id, key))

    async def tried(self, table_id: str, key: str, why: str, *, set_aside: bool = False) -> None:
        """Applying the inbox's command `key` failed (`why`): counted, and the row left for
        the next round, or with `set_aside` done without being applied (`failed` = 1, kept
        for an operator: `set_aside`)."""
        async with self._write:
            await self.db.execute(
                "UPDATE inbox SET tries = tries + 1, why = ?, failed = ?, done = ? "
                "WHERE table_id = ? AND key = ?",
                (why, int(set_aside), int(set_aside), table_id, key))

    async def set_aside(self) -> list[tuple[str, str, str, int, str | None]]:
        """The inbox's commands set aside, never applied, oldest first: (table, key, command,
        tries, why)."""
        return list(await self.db.execute_fetchall(
            "SELECT table_id, key, command, tries, why FROM inbox WHERE failed = 1 "
            "ORDER BY at, key"))

    async def listen(self, wake: Callable[[], None]) -> bool:
        """Call `wake` whenever a command is posted to the inbox, from any process: True on
        PostgreSQL (LISTEN on a connection of its own), False on SQLite (nothing to hear)."""
        if self.url is None:
            return False
        from bot.store import postgres

        assert isinstance(self.db, postgres.PostgresDatabase)
        await self.db.listen(INBOX, wake)
        return True

    async def ended_tables(self) -> list[tuple[Channels, int | None]]:
        """Every ended table's channels, with when its session ended (Unix seconds)."""
        rows = await self.db.execute_fetchall(
            "SELECT d.*, (SELECT MAX(at) FROM events e WHERE e.table_id = t.id) FROM tables t "
            "JOIN discord_tables d ON d.table_id = t.id WHERE t.closed = 1 ORDER BY t.rowid")
        return [(Channels(*row[:-1]), row[-1]) for row in rows]


    # -- GNU Backgammon's verdicts (issue 21: bot/analysis/queue.py) ---------------------------

    async def analyses(self, table_id: str) -> list[tuple[int, int, str, bool]]:
        """Every verdict kept for the table, by game: (game, depth, the worker's answer as
        JSON, posted in #board)."""
        rows = await self.db.execute_fetchall(
            "SELECT game, plies, result, posted FROM analyses WHERE table_id = ? "
            "ORDER BY game", (table_id,))
        return [(int(game), int(plies), result, bool(posted))
                for game, plies, result, posted in rows]

    async def save_analysis(self, table_id: str, game: int, plies: int, result: str,
                            totals: Sequence[PlayerTotals]) -> bool:
        """Keep a game's verdict (`result`, JSON) and, in the same transaction, each player's
        figures in it (`analysis_totals`); the first kept stands: False if one was."""
        async with self._write, self.db.transaction() as db:
            if await db.execute_fetchall(
                    "SELECT 1 FROM analyses WHERE table_id = ? AND game = ?", (table_id, game)):
                return False
            await db.execute(
                "INSERT OR IGNORE INTO analyses (table_id, game, plies, result) "
                "VALUES (?, ?, ?, ?)", (table_id, game, plies, result))
            await _total(db, table_id, game, plies, totals)
        return True

    async def untotalled(self) -> list[tuple[str, int, int, str]]:
        """The verdicts stored before their figures were (migration 8): (table, game, depth,
        result)."""
        return [(t, int(g), int(p), r) for t, g, p, r in await self.db.execute_fetchall(
            "SELECT table_id, game, plies, result FROM analyses WHERE totalled = 0")]

    async def total(self, table_id: str, game: int, plies: int,
                    totals: Sequence[PlayerTotals]) -> None:
        """Keep the figures of a verdict stored before them, and mark it totalled."""
        async with self._write, self.db.transaction() as db:
            await _total(db, table_id, game, plies, totals)

    async def analysis_sums(self, guild_id: int | None = None, player: str | None = None
                            ) -> list[tuple[str, int, int, PlayerTotals]]:
        """Every player's figures summed by depth (on the server `guild_id`'s tables, if
        given; only `player`'s, if given): (player, depth, games, summed figures)."""
        where = (["d.guild_id = ?"] if guild_id is not None else []) + (
            ["t.player = ?"] if player is not None else [])
        rows = await self.db.execute_fetchall(
            "SELECT t.player, t.plies, COUNT(*), SUM(t.checker_decisions), "
            "SUM(t.checker_errors), SUM(t.checker_loss), SUM(t.cube_decisions), "
            "SUM(t.cube_errors), SUM(t.cube_loss) FROM analysis_totals t "
            + ("JOIN discord_tables d ON d.table_id = t.table_id " if guild_id is not None
               else "")
            + (f"WHERE {' AND '.join(where)} " if where else "")
            + "GROUP BY t.player, t.plies ORDER BY t.player, t.plies",
            tuple(x for x in (guild_id, player) if x is not None))
        return [(key, int(plies), int(games),  # PostgreSQL's SUM of integers is a Decimal
                 (key, int(s[0]), int(s[1]), float(s[2]), int(s[3]), int(s[4]), float(s[5])))
                for key, plies, games, *s in rows]

    async def analysis_posted(self, table_id: str, game: int) -> None:
        """The game's verdict is in #board."""
        async with self._write:
            await self.db.execute(
                "UPDATE analyses SET posted = 1 WHERE table_id = ? AND game = ?",
                (table_id, game))

    async def session_figures(self, table_id: str) -> bool:
        """Whether the session's figures were posted beside the final sheet."""
        rows = list(await self.db.execute_fetchall(
            "SELECT figures_posted FROM tables WHERE id = ?", (table_id,)))
        return bool(rows and rows[0][0])

    async def session_figures_posted(self, table_id: str) -> None:
        """The session's figures are in #board (`tables.figures_posted`, migration 10)."""
        async with self._write:
            await self.db.execute("UPDATE tables SET figures_posted = 1 WHERE id = ?",
                                  (table_id,))

    async def analysis_due(self, since: int) -> list[str]:
        """The tables with a game ended since `since` (Unix seconds) or a verdict not
        posted."""
        rows = await self.db.execute_fetchall(
            "SELECT DISTINCT table_id FROM events WHERE type = 'GameEnded' AND at >= ? "
            "UNION SELECT table_id FROM analyses WHERE posted = 0", (since,))
        return [row[0] for row in rows]

    # -- the whole store, for `python -m bot move-to` (bot/store/move.py) --------------------------

    async def layout(self) -> dict[str, tuple[list[str], bool]]:
        """An SQLite store's tables in the order they were made (those referenced first),
        each with its columns and whether it has a rowid (the order its rows were written)."""
        tables = await self.db.execute_fetchall(
            "SELECT name, sql NOT LIKE '%WITHOUT ROWID%' FROM sqlite_master WHERE type = "
            "'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid")
        return {name: ([row[1] for row in await self.db.execute_fetchall(
            f"PRAGMA table_info({name})")], bool(rowid)) for name, rowid in tables}

    async def rows(self, table: str, columns: Sequence[str],
                   in_order: bool = False) -> list[tuple[Any, ...]]:
        """Every row of one of the store's tables (`layout`'s), as `columns`; `in_order`: in
        the order they were written (a table with a rowid)."""
        sql = f"SELECT {', '.join(columns)} FROM {table}"
        return [tuple(row) for row in await self.db.execute_fetchall(
            sql + (" ORDER BY rowid" if in_order else ""))]

    async def filled(self, tables: Sequence[str]) -> list[str]:
        """Those of `tables` that hold rows."""
        return [t for t in tables
                if (await self.db.execute_fetchall(f"SELECT COUNT(*) FROM {t}"))[0][0]]

    async def copy_from(self, source: EventStore, layout: Mapping[str, tuple[list[str], bool]]
                        ) -> dict[str, int]:
        """Write every row of `source`'s tables (its `layout`, in that order) into this
        store, in one transaction, a table at a time; the rows copied, by table."""
        copied = {}
        async with self._write, self.db.transaction() as db:
            for table, (columns, rowid) in layout.items():
                rows = await source.rows(table, columns, in_order=rowid)
                await db.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
                                     f"({', '.join('?' * len(columns))})", rows)
                copied[table] = len(rows)
        return copied


def _cache(cache: dict[K, V], key: K, value: V) -> V:
    """Keep `value` under `key`, and only the latest `CACHED` keys (the oldest goes)."""
    cache[key] = value
    if len(cache) > CACHED:
        del cache[next(iter(cache))]
    return value


async def _total(db: Writer, table_id: str, game: int, plies: int,
                 totals: Sequence[PlayerTotals]) -> None:
    """Keep each player's figures in one game's verdict and mark the verdict totalled."""
    if totals:
        await db.executemany(
            "INSERT OR IGNORE INTO analysis_totals (table_id, game, player, plies, "
            "checker_decisions, checker_errors, checker_loss, cube_decisions, cube_errors, "
            "cube_loss) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(table_id, game, player, plies, *figures)
             for player, *figures in totals])
    await db.execute("UPDATE analyses SET totalled = 1 WHERE table_id = ? AND game = ?",
                     (table_id, game))
