"""What goes out and what comes in: the outbox (the effects Discord must show for a
command's events, written with them by `Events.append`, until they are shown) and the
inbox (commands for a table another process serves, issue 23).

Deliveries are noted in memory and their outbox rows deleted a moment later, every table's
in one transaction (`Outbox.delivered`); `undelivered` leaves out those noted meanwhile."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from bot.store.database import Database, Part

INBOX = "chouette_inbox"  # PostgreSQL's channel for the inbox's NOTIFY
DELIVERED_WITHIN = 0.5  # seconds from a delivery to its outbox rows' deletion
log = logging.getLogger(__name__)


class Outbox(Part):
    """The effects stored with a table's events and not yet shown on Discord."""

    def __init__(self, database: Database) -> None:
        super().__init__(database)
        # outbox rows delivered and not yet deleted: written together a moment later
        # (`delivered`), so that an action's delivery costs no transaction of its own
        self._delivered: dict[str, set[int]] = {}
        self._deleting: asyncio.Task[None] | None = None

    async def undelivered(self, table_id: str) -> list[tuple[int, tuple[Any, ...]]]:
        """The effects stored for the table and not yet delivered: (version, effects),
        oldest first."""
        rows = await self.db.execute_fetchall(
            "SELECT version, effects FROM outbox WHERE table_id = ? ORDER BY version",
            (table_id,))
        done = self._delivered.get(table_id, set())
        return [(version, tuple(self.database.decode(data))) for version, data in rows
                if version not in done]

    async def tables(self) -> list[str]:
        """Every table with effects not yet delivered (an ended one's too: its final sheet
        may be waiting after a crash)."""
        rows = await self.db.execute_fetchall("SELECT DISTINCT table_id FROM outbox")
        return [row[0] for row in rows]

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
        async with self.database.write:
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

    async def close(self) -> None:
        """Before the database closes: the deliveries noted written (a pending flush stopped
        first; if they can't be, they are shown again at the next start)."""
        if self._deleting is not None:  # stopped (its flush rolled back or done) first
            self._deleting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._deleting
        if self.database.is_open and self._delivered:
            with contextlib.suppress(*self.database.errors):
                await self.flush()


class Inbox(Part):
    """Commands left for the process serving a table, until it applied them."""

    async def post(self, table_id: str, key: str, command: str, reply: str) -> None:
        """Leave a command (`codec.command_dumps`) for the process serving the table, once per
        `key`, with `reply` (JSON: where its outcome is shown); on PostgreSQL that process is
        woken (NOTIFY `INBOX`, sent at commit)."""
        async with self.database.write, self.db.transaction() as db:
            await db.execute(
                "INSERT INTO inbox (table_id, key, command, reply, at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT DO NOTHING", (table_id, key, command, reply, time.time_ns() // 1000))
            if self.database.url is not None:
                await db.execute(f"SELECT pg_notify('{INBOX}', ?)", (table_id,))

    async def pending(self) -> list[tuple[str, str, str, str, int | None, int]]:
        """The commands not yet applied nor set aside, oldest first: (table, key, command,
        reply, the table's server, how often applying it failed)."""
        return list(await self.db.execute_fetchall(
            "SELECT i.table_id, i.key, i.command, i.reply, d.guild_id, i.tries FROM inbox i "
            "LEFT JOIN discord_tables d ON d.table_id = i.table_id WHERE i.done = 0 "
            "ORDER BY i.at, i.key"))

    async def applied(self, table_id: str, key: str) -> None:
        """The inbox's command `key` is applied and shown: done (kept, as the commands are)."""
        async with self.database.write:
            await self.db.execute("UPDATE inbox SET done = 1 WHERE table_id = ? AND key = ?",
                                  (table_id, key))

    async def tried(self, table_id: str, key: str, why: str, *, set_aside: bool = False) -> None:
        """Applying the inbox's command `key` failed (`why`): counted, and the row left for
        the next round, or with `set_aside` done without being applied (`failed` = 1, kept
        for an operator: `set_aside`)."""
        async with self.database.write:
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
        if self.database.url is None:
            return False
        from bot.store import postgres

        assert isinstance(self.db, postgres.PostgresDatabase)
        await self.db.listen(INBOX, wake)
        return True
