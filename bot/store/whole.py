"""The whole store, table by table, for `python -m bot move-to` (`bot/store/move.py`): an
SQLite store's layout and rows, read, and written into another store in one transaction."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.store.database import Part


class Whole(Part):
    """Every table of the store and its rows."""

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

    async def copy_from(self, source: Whole, layout: Mapping[str, tuple[list[str], bool]]
                        ) -> dict[str, int]:
        """Write every row of `source`'s tables (its `layout`, in that order) into this
        store, in one transaction, a table at a time; the rows copied, by table."""
        copied = {}
        async with self.database.write, self.db.transaction() as db:
            for table, (columns, rowid) in layout.items():
                rows = await source.rows(table, columns, in_order=rowid)
                await db.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
                                     f"({', '.join('?' * len(columns))})", rows)
                copied[table] = len(rows)
        return copied
