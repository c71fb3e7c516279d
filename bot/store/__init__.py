"""The store: every table's events, append-only, and what the bot keeps beside them, in one
SQLite file (the embedded default) or one PostgreSQL database (several processes on one
database).

`EventStore` opens and closes the database (`database`) and holds one part per concern,
each over that one database:

- `events` (`events.py`): the tables' events, snapshots, commands' outcomes, dice seeds;
- `outbox`, `inbox` (`outbox.py`): the effects to show on Discord, the commands left for
  the process serving a table;
- `channels` (`channels.py`): where each table lives on Discord;
- `meta` (`meta.py`): the values the bot keeps about itself (command ids, deadlines);
- `analyses` (`analyses.py`): GNU Backgammon's verdicts and the players' figures;
- `whole` (`whole.py`): every table's rows, for `move-to` (`move.py`).

Schema changes are numbered migrations (`migrations.py`) applied at open (on SQLite after
a backup of the file: `sqlite.backup`). The SQL is written once, for both backends (`sqlite`,
`postgres`, `dialect`): `?` placeholders, `INSERT ... ON CONFLICT`, times passed in from
Python, `rowid` only on `tables`; `postgres.py` says what it rewrites. What is stored is
JSON (`codec`)."""

from __future__ import annotations

from pathlib import Path

from bot.store.analyses import Analyses, PlayerTotals
from bot.store.channels import Channels, ChannelStore
from bot.store.database import Backend, Database, StoreError
from bot.store.events import ConcurrentWrite, Events, Loaded, StoredEvent
from bot.store.meta import Meta
from bot.store.outbox import Inbox, Outbox
from bot.store.whole import Whole

__all__ = ["Channels", "ConcurrentWrite", "EventStore", "Loaded", "PlayerTotals",
           "StoreError", "StoredEvent"]


class EventStore:
    """The store's one database and its parts, opened and closed together."""

    def __init__(self, target: Path | str, *, snapshot_every: int = 50,
                 busy_timeout: float = 5.0) -> None:
        """`target`: an SQLite file's path, or a `postgresql://` URL."""
        self.database = Database(target, busy_timeout)
        self.meta = Meta(self.database)
        self.events = Events(self.database, self.meta, snapshot_every)
        self.outbox = Outbox(self.database)
        self.inbox = Inbox(self.database)
        self.channels = ChannelStore(self.database)
        self.analyses = Analyses(self.database)
        self.whole = Whole(self.database)

    async def open(self) -> EventStore:
        """Open, back up (SQLite) and migrate the database (`Database.open`)."""
        await self.database.open()
        return self

    async def close(self) -> None:
        """Close the database, the outbox's deliveries written first (safe to call twice,
        even at once)."""
        await self.outbox.close()
        await self.database.close()

    async def __aenter__(self) -> EventStore:
        return await self.open()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def db(self) -> Backend:
        """The open database (`Database.db`)."""
        return self.database.db

    @property
    def name(self) -> str:
        """The file, or the URL without its password: what messages name."""
        return self.database.name

    @property
    def path(self) -> Path:
        return self.database.path

    @property
    def backed_up(self) -> Path | None:
        """The copy of the SQLite file made before a migration at open, if one was."""
        return self.database.backed_up
