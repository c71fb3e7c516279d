"""GNU Backgammon's verdict on every game, once it is over: queued, kept, posted once.

What is wanted is derived from the store, never held in memory: a game that ended (its
`GameEnded` event) and has no row in `analyses` is still to analyse; a row not `posted` is
still to post in #board. So a crash loses nothing: at start-up `resume` queues every table
with a game ended in the last `RESUME_HOURS` or a verdict not posted, and the same steps run
again (the post carries a nonce, so a message sent just before a kill -9 is posted once).

One worker process (`bot.analysis_client.AnalysisWorker`) for the bot, one game at a time,
at `plies` (`CHOUETTE_ANALYSIS_PLIES`, default `POST_GAME_PLIES`): the engine's CPU is in
that process, the event loop only waits on its pipe. Without the analysis extra nothing is
queued (one log line at start-up) and the bot runs as before.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.analysis_client import AnalysisError, AnalysisWorker, available
from bot.analysis_text import Analysed, Figures, post_game, session, totals
from bot.analysis_transcript import ended_games, game_transcript
from bot.i18n import table_language
from bot.markdown import escape
from bot.store import Database, EventStore
from bot.tasks import spawn
from rules.state import TableState

log = logging.getLogger(__name__)

RESUME_HOURS = 24  # at start-up, games ended longer ago than this are not analysed afresh
Post = Callable[[str, int, str], Awaitable[None]]  # (table, game, text): into #board
States = Callable[[str], Awaitable[TableState]]
Locale = Callable[[str, TableState], Awaitable[object]]  # (table, state): what #board reads in


async def _table_language(table_id: str, state: TableState) -> object:
    """A table's language without its server (`i18n.table_language`; the bot passes the
    presenter's, which asks the server too)."""
    return table_language(state.language, None)


@dataclass(frozen=True)
class Stored:
    """A game's verdict as stored: the depth it was made at and contract 5's object (or
    {"error": ...} when the worker could not analyse it)."""

    game: int
    plies: int
    result: dict[str, Any]
    posted: bool

    @property
    def failed(self) -> str | None:
        """Why the worker could not analyse the game, or None."""
        error = self.result.get("error")
        return None if error is None else str(error)


def _names(state: TableState) -> Callable[[str], str]:
    """Player key -> name as a message writes it."""
    return lambda player: escape(state.shown(player))


class AnalysisStore:
    """The `analyses` table (migration 7): one row per (table, game) analysed."""

    def __init__(self, store: EventStore) -> None:
        self.store = store

    async def games(self, table_id: str) -> dict[int, Stored]:
        """Every verdict stored for the table, by game number (game 0 is the session's
        message, not a game: left out)."""
        rows = await self.store.db.execute_fetchall(
            "SELECT game, plies, result, posted FROM analyses WHERE table_id = ? "
            "AND game > 0 ORDER BY game", (table_id,))
        return {g: Stored(g, p, json.loads(r), bool(posted)) for g, p, r, posted in rows}

    async def save(self, table_id: str, game: int, plies: int, result: dict[str, Any]) -> None:
        """Keep a game's verdict (the first kept stands) and, in the same transaction, each
        player's figures in it (`analysis_totals`, migration 8)."""
        async with self.store.writing, self.store.db.transaction() as db:
            if await db.execute_fetchall("SELECT 1 FROM analyses WHERE table_id = ? AND "
                                         "game = ?", (table_id, game)):
                return
            await db.execute(
                "INSERT OR IGNORE INTO analyses (table_id, game, plies, result) "
                "VALUES (?, ?, ?, ?)", (table_id, game, plies, json.dumps(result)))
            await _total(db, table_id, game, plies, totals(result))

    async def backfill(self) -> int:
        """Total the verdicts stored before migration 8 (each once: it is then marked
        `totalled`); returns how many. Each is decoded in a worker thread."""
        rows = await self.store.db.execute_fetchall(
            "SELECT table_id, game, plies, result FROM analyses WHERE totalled = 0 "
            "AND game > 0")
        for table_id, game, plies, text in rows:
            found = await asyncio.to_thread(_decoded_totals, text)
            async with self.store.writing, self.store.db.transaction() as db:
                await _total(db, table_id, game, plies, found)
        return len(rows)

    async def analysed(self, player: str, guild_id: int | None = None) -> Analysed:
        """`player`'s figures over every game analysed (on the server `guild_id`'s tables,
        if given), verdicts stored before migration 8 totalled first."""
        return (await self.players(guild_id, player)).get(player, Analysed())

    async def players(self, guild_id: int | None = None,
                      player: str | None = None) -> dict[str, Analysed]:
        """Every player's figures over every game analysed (on the server `guild_id`'s
        tables, if given; only `player`'s, if given), by player key; verdicts stored before
        migration 8 totalled first. A player with no analysed decision is left out."""
        await self.backfill()
        where = (["d.guild_id = ?"] if guild_id is not None else []) + (
            ["t.player = ?"] if player is not None else [])
        rows = await self.store.db.execute_fetchall(
            "SELECT t.player, t.plies, COUNT(*), SUM(t.checker_decisions), "
            "SUM(t.checker_errors), SUM(t.checker_loss), SUM(t.cube_decisions), "
            "SUM(t.cube_errors), SUM(t.cube_loss) FROM analysis_totals t "
            + ("JOIN discord_tables d ON d.table_id = t.table_id " if guild_id is not None
               else "")
            + (f"WHERE {' AND '.join(where)} " if where else "")
            + "GROUP BY t.player, t.plies ORDER BY t.player, t.plies",
            tuple(x for x in (guild_id, player) if x is not None))
        found: dict[str, Analysed] = {}
        for key, plies, games, *sums in rows:  # PostgreSQL's SUM of integers is a Decimal
            was = found.get(key, Analysed())
            found[key] = Analysed(
                was.checker + Figures(int(sums[0]), int(sums[1]), float(sums[2])),
                was.cube + Figures(int(sums[3]), int(sums[4]), float(sums[5])),
                {**was.depths, int(plies): int(games)})
        return found

    async def posted(self, table_id: str, game: int) -> None:
        """The game's message is in #board."""
        async with self.store.writing:
            await self.store.db.execute(
                "UPDATE analyses SET posted = 1 WHERE table_id = ? AND game = ?",
                (table_id, game))

    async def summed(self, table_id: str) -> bool:
        """Whether the session's figures were posted beside the final sheet (row game 0)."""
        rows = list(await self.store.db.execute_fetchall(
            "SELECT 1 FROM analyses WHERE table_id = ? AND game = 0", (table_id,)))
        return bool(rows)

    async def sum_posted(self, table_id: str) -> None:
        """The session's figures are in #board."""
        async with self.store.writing:
            await self.store.db.execute(
                "INSERT OR IGNORE INTO analyses (table_id, game, plies, result, posted, "
                "totalled) VALUES (?, 0, 0, '{\"session\": true}', 1, 1)", (table_id,))

    async def due(self, hours: float) -> list[str]:
        """The tables with a game ended in the last `hours` or a verdict not posted."""
        since = int(time.time() - hours * 3600)
        rows = await self.store.db.execute_fetchall(
            "SELECT DISTINCT table_id FROM events WHERE type = 'GameEnded' AND at >= ? "
            "UNION SELECT table_id FROM analyses WHERE posted = 0", (since,))
        return [row[0] for row in rows]


def _decoded_totals(text: str) -> dict[str, tuple[Figures, Figures]]:
    return totals(json.loads(text))


async def _total(db: Database, table_id: str, game: int, plies: int,
                 found: dict[str, tuple[Figures, Figures]]) -> None:
    """Keep each player's figures in one game's verdict and mark the verdict totalled."""
    if found:
        await db.executemany(
            "INSERT OR IGNORE INTO analysis_totals (table_id, game, player, plies, "
            "checker_decisions, checker_errors, checker_loss, cube_decisions, cube_errors, "
            "cube_loss) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(table_id, game, player, plies, checker.decisions, checker.errors,
              float(checker.loss), cube.decisions, cube.errors, float(cube.loss))
             for player, (checker, cube) in found.items()])
    await db.execute("UPDATE analyses SET totalled = 1 WHERE table_id = ? AND game = ?",
                     (table_id, game))


class AnalysisQueue:
    """Analyses each table's ended games in turn, stores and posts each verdict once."""

    def __init__(self, store: EventStore, states: States, post: Post, *, plies: int,
                 worker: AnalysisWorker | None = None,
                 locale: Locale = _table_language) -> None:
        self.rows = AnalysisStore(store)
        self.store, self.states, self.post, self.plies = store, states, post, plies
        self.locale = locale  # the posts are in the table's language
        self.worker = worker or AnalysisWorker()
        self.enabled = available()
        self._queued: list[str] = []  # tables to look at, in turn
        self._played: dict[str, int] = {}  # games played per table when last noticed
        self._ended: set[str] = set()  # tables noticed ended
        self._noticed: dict[str, float] = {}  # when a table's game end was noticed
        self._task: asyncio.Task[None] | None = None
        self._started = False
        self.idle = asyncio.Event()  # set while nothing is queued or running (for tests)
        self.idle.set()

    def start(self) -> None:
        """Let the queue run: what was wanted before this is taken in turn now."""
        self._started = True
        self._drain()

    def _drain(self) -> None:
        """A task that takes the queued tables in turn, and ends when none is left (no task
        waits for nothing)."""
        if self._started and self._queued and (self._task is None or self._task.done()):
            self._task = spawn(self._run(), "analysis queue")

    async def resume(self, only: Callable[[str], Awaitable[bool]] | None = None) -> None:
        """At start-up: queue every table with a game still to analyse or to post (of
        those `only` keeps: the tables this process serves)."""
        if not self.enabled:
            log.info("GNU Backgammon's analysis is not installed: games are not analysed "
                     "(pip install -e '.[analysis]' to turn it on)")
            return
        for table_id in await self.rows.due(RESUME_HOURS):
            if only is None or await only(table_id):
                self._want(table_id)

    def notice(self, table_id: str, state: TableState) -> None:
        """After an action is shown: if a game ended since the last notice, queue the
        table (what is still to do is read from the store)."""
        if not self.enabled:
            return
        played, before = state.games_played, self._played.get(table_id)
        self._played[table_id] = played
        if before is not None and played > before:
            self._noticed.setdefault(table_id, time.monotonic())
        if before is None or played > before:  # (the first notice: once, to be sure)
            self._want(table_id)
        elif state.ended and table_id not in self._ended:  # the session's figures
            self._ended.add(table_id)
            self._want(table_id)

    def _want(self, table_id: str) -> None:
        if table_id not in self._queued:
            self._queued.append(table_id)
            self.idle.clear()
        self._drain()

    async def _run(self) -> None:
        while self._queued:
            table_id = self._queued.pop(0)
            try:
                await self._table(table_id)
            except Exception:
                log.exception("analysing table %s", table_id)
        self.idle.set()

    async def _table(self, table_id: str) -> None:
        """Analyse, store and post every ended game of the table not done yet; once the
        table has ended, the session's figures."""
        done = await self.rows.games(table_id)
        light = await self.store.events(table_id, skip=("Rolled", "Moved"))  # not decoded
        ended = ended_games([s.event for s in light])
        if not all(done.get(game, Stored(game, 0, {}, False)).posted for game in ended):
            await self._games(table_id, ended, done)
        state = await self.states(table_id)
        if state.ended and not await self.rows.summed(table_id):
            await self._session(table_id, state)

    async def _session(self, table_id: str, state: TableState) -> None:
        """The session's figures, beside the final sheet (once)."""
        done = {n: s for n, s in (await self.rows.games(table_id)).items()
                if s.failed is None and s.result.get("decisions")}
        if done:
            await self.post(table_id, 0, session(
                {n: s.result for n, s in done.items()}, [s.plies for s in done.values()],
                _names(state), await self.locale(table_id, state)))
        await self.rows.sum_posted(table_id)

    async def _games(self, table_id: str, ended: list[int], done: dict[int, Stored]) -> None:
        """Analyse, store and post the ended games not done yet."""
        events = [s.event for s in await self.store.events(table_id)]
        for game in ended:
            if game not in done:
                started = time.monotonic()
                # the rules' replay of a long game takes some 0.1 s: off the event loop
                transcript = await asyncio.to_thread(game_transcript, events, game)
                result = await self._analyse(transcript)
                await self.rows.save(table_id, game, self.plies, result)
                log.info("table %s game %d analysed at %d-ply in %.1f s", table_id, game,
                         self.plies, time.monotonic() - started)
                done = await self.rows.games(table_id)
            stored = done[game]
            if stored.posted:
                continue
            if stored.failed is None and stored.result.get("decisions"):
                state = await self.states(table_id)
                await self.post(table_id, game, post_game(
                    stored.result, game, stored.plies, _names(state),
                    await self.locale(table_id, state)))
                noticed = self._noticed.pop(table_id, None)
                if noticed is not None:
                    log.info("table %s game %d: the analysis posted %.1f s after the game "
                             "ended", table_id, game, time.monotonic() - noticed)
            elif stored.failed is not None:
                log.warning("table %s game %d not analysed: %s", table_id, game,
                            stored.failed)
            await self.rows.posted(table_id, game)

    async def _analyse(self, transcript: list[str]) -> dict[str, Any]:
        """The worker's verdict; a second try if the worker died (it is restarted)."""
        for attempt in (1, 2):
            try:
                return await self.worker.analyse(transcript, self.plies)
            except AnalysisError as exc:
                if attempt == 2 or "stopped" not in str(exc):
                    return {"error": str(exc)}
        raise AssertionError("unreachable")

    async def close(self) -> None:
        """Stop the queue and end the worker (a game in progress is analysed again at the
        next start: nothing was stored for it)."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        await self.worker.close()
