"""GNU Backgammon's verdicts (issue 21: bot/analysis/queue.py): each game's, as the worker
answered (JSON), each player's figures in it (`analysis_totals`), whether it is posted in
#board, and whether a session's figures are. The figures are plain tuples (`PlayerTotals`):
the store imports nothing of the analysis."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Union

from bot.store.database import Part
from bot.store.sqlite import SqliteDatabase, Transaction

if TYPE_CHECKING:
    from bot.store.postgres import PostgresDatabase, PostgresTransaction

Writer = Union[SqliteDatabase, "PostgresDatabase", Transaction, "PostgresTransaction"]

# One player's figures in one verdict (`analysis_totals`' columns after the key): player,
# checker decisions, errors, summed loss, cube decisions, errors, summed loss
PlayerTotals = tuple[str, int, int, float, int, int, float]


class Analyses(Part):
    """The verdicts kept, and each player's figures in them."""

    async def kept(self, table_id: str) -> list[tuple[int, int, str, bool]]:
        """Every verdict kept for the table, by game: (game, depth, the worker's answer as
        JSON, posted in #board)."""
        rows = await self.db.execute_fetchall(
            "SELECT game, plies, result, posted FROM analyses WHERE table_id = ? "
            "ORDER BY game", (table_id,))
        return [(int(game), int(plies), result, bool(posted))
                for game, plies, result, posted in rows]

    async def count(self, table_id: str) -> int:
        """How many of the table's games have a verdict kept."""
        rows = list(await self.db.execute_fetchall(
            "SELECT COUNT(*) FROM analyses WHERE table_id = ?", (table_id,)))
        return int(rows[0][0])

    async def save(self, table_id: str, game: int, plies: int, result: str,
                   totals: Sequence[PlayerTotals]) -> bool:
        """Keep a game's verdict (`result`, JSON) and, in the same transaction, each player's
        figures in it (`analysis_totals`); the first kept stands: False if one was."""
        async with self.database.write, self.db.transaction() as db:
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
        async with self.database.write, self.db.transaction() as db:
            await _total(db, table_id, game, plies, totals)

    async def sums(self, guild_id: int | None = None, player: str | None = None
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

    async def sessions(self, guild_id: int | None, player: str
                       ) -> list[tuple[str, int | None, int, PlayerTotals]]:
        """`player`'s figures summed by session (a table; on the server `guild_id`'s tables,
        if given), oldest first: (table, when it was opened in Unix seconds or None,
        analysed games, summed figures). Each game's figures as
        stored (`analysis_totals`: a verdict totalled before the bot counted as gnubg does
        keeps its older counting)."""
        rows = await self.db.execute_fetchall(
            "SELECT t.table_id, COALESCE(MAX(tb.created), 0) AS opened, COUNT(*), "
            "SUM(t.checker_decisions), SUM(t.checker_errors), SUM(t.checker_loss), "
            "SUM(t.cube_decisions), SUM(t.cube_errors), SUM(t.cube_loss) "
            "FROM analysis_totals t LEFT JOIN tables tb ON tb.id = t.table_id "
            + ("JOIN discord_tables d ON d.table_id = t.table_id WHERE d.guild_id = ? AND "
               if guild_id is not None else "WHERE ")
            + "t.player = ? GROUP BY t.table_id ORDER BY opened, t.table_id",
            (player,) if guild_id is None else (guild_id, player))
        return [(table, int(opened) or None, int(games),  # PostgreSQL's SUMs: Decimals
                 (player, int(s[0]), int(s[1]), float(s[2]), int(s[3]), int(s[4]),
                  float(s[5]))) for table, opened, games, *s in rows]

    async def posted(self, table_id: str, game: int) -> None:
        """The game's verdict is in #board."""
        async with self.database.write:
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
        async with self.database.write:
            await self.db.execute("UPDATE tables SET figures_posted = 1 WHERE id = ?",
                                  (table_id,))

    async def due(self, since: int) -> list[str]:
        """The tables with a game ended since `since` (Unix seconds) or a verdict not
        posted."""
        rows = await self.db.execute_fetchall(
            "SELECT DISTINCT table_id FROM events WHERE type = 'GameEnded' AND at >= ? "
            "UNION SELECT table_id FROM analyses WHERE posted = 0", (since,))
        return [row[0] for row in rows]


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
