"""The Discord side of a table (`discord_tables`): its server, category, four channels and
board message, found by the table or by any of its channels.

A table's channels are read on every click, so they are kept in memory once read, the
latest `CACHED` tables' (`database.keep`), and `find` by the table answers from there: they
are written only by the process serving the table (`save`, which keeps them too), and
another process reads them only for the table's server, which never changes."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.database import Database, Part, keep

COLUMNS = ("table_id", "guild_id", "category_id", "board_id", "kibitz_id", "team_id",
           "box_id", "message_id", "origin_id")  # discord_tables' columns, in order


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


class ChannelStore(Part):
    """Where each table lives on Discord."""

    def __init__(self, database: Database) -> None:
        super().__init__(database)
        self._channels: dict[str, Channels] = {}

    async def save(self, channels: Channels) -> None:
        """Remember where a table lives on Discord (replacing what was there)."""
        async with self.database.write:
            await self.db.execute(
                f"INSERT INTO discord_tables ({', '.join(COLUMNS)}) VALUES "
                f"({', '.join('?' * len(COLUMNS))}) ON CONFLICT (table_id) DO UPDATE SET "
                + ", ".join(f"{c} = excluded.{c}" for c in COLUMNS[1:]),
                (channels.table_id, channels.guild_id, channels.category_id,
                 channels.board_id, channels.kibitz_id, channels.team_id, channels.box_id,
                 channels.message_id, channels.origin_id))
            keep(self._channels, channels.table_id, channels)

    async def find(self, *, table_id: str | None = None,
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
        return keep(self._channels, rows[0][0], Channels(*rows[0]))

    async def of_guild(self, guild_id: int, *, open_only: bool = True) -> list[Channels]:
        """The channels of every table opened on the server `guild_id` (only those still
        open, by default), oldest first."""
        rows = await self.db.execute_fetchall(
            "SELECT d.* FROM tables t JOIN discord_tables d ON d.table_id = t.id "
            "WHERE d.guild_id = ?" + (" AND t.closed = 0" if open_only else "")
            + " ORDER BY t.rowid", (guild_id,))
        return [Channels(*row) for row in rows]

    async def ended(self) -> list[tuple[Channels, int | None]]:
        """Every ended table's channels, with when its session ended (Unix seconds)."""
        rows = await self.db.execute_fetchall(
            "SELECT d.*, (SELECT MAX(at) FROM events e WHERE e.table_id = t.id) FROM tables t "
            "JOIN discord_tables d ON d.table_id = t.id WHERE t.closed = 1 ORDER BY t.rowid")
        return [(Channels(*row[:-1]), row[-1]) for row in rows]
