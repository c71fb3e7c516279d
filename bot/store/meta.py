"""The values the bot keeps about itself, not about a table (`meta`): where the slash
commands went and their ids, the timers' deadlines.

They are read before a board is shown, so each is kept in memory once this process has
read or written it, and `get` answers from memory after that: each key is written only by
the process that reads it (a table's deadlines by the process serving the table; the
command ids are alike in all). A key is read from the database the first time, and again
after `forget`. The club's web links are shared between processes (the bot writes them, a
web process reads them): `shared` and `first` always ask the database."""

from __future__ import annotations

from collections.abc import Mapping

from bot.store.database import Database, Part

SET = ("INSERT INTO meta (key, value) VALUES (?, ?) "
       "ON CONFLICT (key) DO UPDATE SET value = excluded.value")
FIRST = "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING"


class Meta(Part):
    """The `meta` table: a value under each key."""

    def __init__(self, database: Database) -> None:
        super().__init__(database)
        self._kept: dict[str, str | None] = {}  # as this process last read or wrote them

    async def get(self, key: str) -> str | None:
        """The value kept under `key`, or None."""
        if key in self._kept:
            return self._kept[key]
        rows = list(await self.db.execute_fetchall("SELECT value FROM meta WHERE key = ?",
                                                   (key,)))
        self._kept[key] = str(rows[0][0]) if rows else None
        return self._kept[key]

    async def shared(self, key: str) -> str | None:
        """The value under `key` as the database has it now (another process may write it)."""
        rows = list(await self.db.execute_fetchall("SELECT value FROM meta WHERE key = ?",
                                                   (key,)))
        return str(rows[0][0]) if rows else None

    async def first(self, key: str, value: str) -> str:
        """`value` kept under `key` unless a value is there already (another process's):
        the value kept."""
        async with self.database.write:
            await self.db.execute(FIRST, (key, value))
        kept = await self.shared(key)
        assert kept is not None
        return kept

    async def set(self, key: str, value: str | None) -> None:
        """Keep `value` under `key` (None forgets it)."""
        async with self.database.write:
            if value is None:
                await self.db.execute("DELETE FROM meta WHERE key = ?", (key,))
            else:
                await self.db.execute(SET, (key, value))
            self._kept[key] = value

    async def forget(self, prefix: str) -> None:
        """Forget every value kept under a key starting with `prefix` (a table's deadlines)."""
        async with self.database.write:
            await self.db.execute("DELETE FROM meta WHERE substr(key, 1, ?) = ?",
                                  (len(prefix), prefix))
            for key in [k for k in self._kept if k.startswith(prefix)]:
                del self._kept[key]  # (kept as None they would pile up, table after table)

    def written(self, values: Mapping[str, str]) -> None:
        """`values` were written with a command's events (`Events.append`): kept as `set`
        keeps them."""
        self._kept.update(values)
