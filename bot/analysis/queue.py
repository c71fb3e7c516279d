"""GNU Backgammon's verdict on every game, once it is over: queued, kept, posted once.

What is wanted is derived from the store, never held in memory: a game that ended (its
`GameEnded` event) and has no row in `analyses` is still to analyse; a row not `posted` is
still to post in #board. So a crash loses nothing: at start-up `resume` queues every table
with a game ended in the last `RESUME_HOURS` or a verdict not posted, and the same steps run
again (the post carries a nonce, so a message sent just before a kill -9 is posted once).

One worker process (`bot.analysis.worker.AnalysisWorker`) for the bot, one game at a time,
at `plies` (`CHOUETTE_ANALYSIS_PLIES`, default `POST_GAME_PLIES`): the engine's CPU is in
that process, the event loop only waits on its pipe. A game the worker fails on (it overran
`CHOUETTE_ANALYSIS_TIMEOUT`, died, garbled its answer: it is killed and restarted) is tried
once more, then logged and skipped: the queue goes on with the next. Without the analysis
extra, or with CHOUETTE_ANALYSIS=off, nothing is queued (one log line at start-up) and the
bot runs as before.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.analysis.text import Analysed, Figures, kept, post_game, session, totals
from bot.analysis.transcript import GAME_EVENTS, ended_games, transcripts
from bot.analysis.worker import AnalysisError, AnalysisWorker, WorkerFault, available
from bot.app.tasks import spawn
from bot.store import EventStore, PlayerTotals
from bot.words.i18n import table_language
from bot.words.markdown import escape
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
    """Each game's verdict and each player's figures in it, as the store keeps them (its
    SQL is the store's: `store.analyses`, `bot/store/analyses.py`)."""

    def __init__(self, store: EventStore) -> None:
        self.store = store

    async def games(self, table_id: str) -> dict[int, Stored]:
        """Every verdict stored for the table, by game number."""
        return {g: Stored(g, p, json.loads(r), posted)
                for g, p, r, posted in await self.store.analyses.kept(table_id)}

    async def save(self, table_id: str, game: int, plies: int, result: dict[str, Any]) -> bool:
        """Keep a game's verdict (the first kept stands: False if one was) and, in the same
        transaction, each player's figures in it (`analysis_totals`, migration 8)."""
        return await self.store.analyses.save(table_id, game, plies, json.dumps(result),
                                              _rows(totals(result)))

    async def backfill(self) -> int:
        """Total the verdicts stored before migration 8 (each once: it is then marked
        `totalled`); returns how many. Run once at start-up (`AnalysisQueue.resume`, `python
        -m bot stats`), not at each read. Each is decoded in a worker thread."""
        rows = await self.store.analyses.untotalled()
        for table_id, game, plies, text in rows:
            found = await asyncio.to_thread(_decoded_totals, text)
            await self.store.analyses.total(table_id, game, plies, found)
        return len(rows)

    async def analysed(self, player: str, guild_id: int | None = None) -> Analysed:
        """`player`'s figures over every game analysed (on the server `guild_id`'s tables,
        if given)."""
        return (await self.players(guild_id, player)).get(player, Analysed())

    async def players(self, guild_id: int | None = None,
                      player: str | None = None) -> dict[str, Analysed]:
        """Every player's figures over every game analysed (on the server `guild_id`'s
        tables, if given; only `player`'s, if given), by player key. A player with no
        analysed decision is left out."""
        found: dict[str, Analysed] = {}
        for key, plies, games, sums in await self.store.analyses.sums(guild_id, player):
            checker, cube = kept(sums)
            was = found.get(key, Analysed())
            found[key] = Analysed(was.checker + checker, was.cube + cube,
                                  {**was.depths, plies: games})
        return found

    async def posted(self, table_id: str, game: int) -> None:
        """The game's message is in #board."""
        await self.store.analyses.posted(table_id, game)

    async def summed(self, table_id: str) -> bool:
        """Whether the session's figures were posted beside the final sheet."""
        return await self.store.analyses.session_figures(table_id)

    async def sum_posted(self, table_id: str) -> None:
        """The session's figures are in #board."""
        await self.store.analyses.session_figures_posted(table_id)

    async def due(self, hours: float) -> list[str]:
        """The tables with a game ended in the last `hours` or a verdict not posted."""
        return await self.store.analyses.due(int(time.time() - hours * 3600))


def _rows(found: dict[str, tuple[Figures, Figures]]) -> list[PlayerTotals]:
    """Each player's figures as the store keeps them."""
    return [(player, checker.decisions, checker.errors, float(checker.loss), cube.decisions,
             cube.errors, float(cube.loss)) for player, (checker, cube) in found.items()]


def _decoded_totals(text: str) -> list[PlayerTotals]:
    return _rows(totals(json.loads(text)))


class AnalysisQueue:
    """Analyses each table's ended games in turn, stores and posts each verdict once."""

    def __init__(self, store: EventStore, states: States, post: Post, *, plies: int,
                 worker: AnalysisWorker | None = None,
                 locale: Locale = _table_language, enabled: bool = True) -> None:
        self.rows = AnalysisStore(store)
        self.store, self.states, self.post, self.plies = store, states, post, plies
        self.locale = locale  # the posts are in the table's language
        self.worker = worker or AnalysisWorker()
        self.switched_off = not enabled  # CHOUETTE_ANALYSIS=off
        self.enabled = enabled and available()
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
        """At start-up: total the verdicts stored before their figures were (`backfill`:
        `/chouette stats` counts them, with the analysis extra or without), then queue every
        table with a game still to analyse or to post (of those `only` keeps: the tables
        this process serves)."""
        await self.rows.backfill()
        if not self.enabled:
            log.info("GNU Backgammon's analysis is off: %s", "CHOUETTE_ANALYSIS=off"
                     if self.switched_off else "the gnubg package is not installed (pip "
                     "install -e '.[analysis]' to turn it on)")
            return
        for table_id in await self.rows.due(RESUME_HOURS):
            if only is None or await only(table_id):
                self._want(table_id)

    async def notice(self, table_id: str, state: TableState) -> None:
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
        # which games ended: from the games' own events (a few a game), the others not read
        ended = ended_games(self.store.events.decoded(
            await self.store.events.data(table_id, only=GAME_EVENTS)))
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
        todo = [game for game in ended if game not in done]
        found: dict[int, list[str]] = {}
        if todo:  # the session's events read, decoded and walked once, off the event loop
            data = await self.store.events.data(table_id)
            found = await asyncio.to_thread(self._transcripts, data, todo)
        for game in ended:
            if game not in done:
                started = time.monotonic()
                result = await self._analyse(found.get(game, []))
                if await self.rows.save(table_id, game, self.plies, result):
                    done[game] = Stored(game, self.plies, result, False)
                else:  # another process kept its verdict first: that one stands
                    done = await self.rows.games(table_id)
                log.info("table %s game %d analysed at %d-ply in %.1f s", table_id, game,
                         self.plies, time.monotonic() - started)
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

    def _transcripts(self, data: list[str], games: list[int]) -> dict[int, list[str]]:
        """The transcripts of `games` from a table's events as stored (in a worker thread:
        decoding a long session and the rules' rebuilding of its games take a while)."""
        return transcripts(self.store.events.decoded(data), games)

    async def _analyse(self, transcript: list[str]) -> dict[str, Any]:
        """The worker's verdict, or {"error": why}: a worker fault (the worker was killed; the
        next try starts another) gets a second try, then the game is skipped."""
        for attempt in (1, 2):
            try:
                return await self.worker.analyse(transcript, self.plies)
            except WorkerFault as exc:
                if attempt == 2:
                    return {"error": str(exc)}
                log.warning("%s; the game is tried once more", exc)
            except AnalysisError as exc:  # the worker's refusal: the same again
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
