"""The club's pages, served by aiohttp.web from the store: read-only, GET only.

Routes (`Pages.app`):
- `/s/TOKEN`: a session's page (bot.web.session); TOKEN from `bot.web.links`.
- `/s/TOKEN/game/N` and `/s/TOKEN/game/N/K`: step K of game N's replay (bot.web.replay),
  `/s/TOKEN/game/N/K.png` its board, drawn by the bot's renderer on demand and kept;
  `/s/TOKEN/game/N/cube-I.mat`: the I-th Team player's own cube game, his match file.
- `/club/TOKEN` (`?month=YYYY-MM`) and `/club/TOKEN/player/KEY`: a server's standings and a
  player's own page, while its moderators have them on (bot.web.standings).
- `/static/...`: the style sheet and the replay's keys.

Anything else, a token that names nothing, a game or step that is not there: a plain 404.
Every answer carries a Content-Security-Policy that allows no inline script and no form,
sends no referrer (a session's link is its key) and sets no cookie. A table's page is kept in
memory by its last event's version, so a page asked again costs a lookup.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import jinja2
from aiohttp import web

from bot.records import cubes
from bot.records.games import BoardGame, board_games
from bot.records.stats import BOARD_EVENTS
from bot.render.drawing import Drawing
from bot.store import EventStore
from bot.web import standings
from bot.web.links import Links
from bot.web.replay import Step, steps
from bot.web.session import Session, session
from bot.words.i18n import translate
from rules.events import GameAbandoned, GameEnded, GameResumed, GameStarted
from rules.state import TableState

HERE = Path(__file__).parent
T = TypeVar("T")
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; img-src 'self'; style-src 'self'; "
                               "script-src 'self'; base-uri 'none'; form-action 'none'; "
                               "frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}
MONTH = re.compile(r"\d{4}-\d{2}")


class Kept:
    """The last `size` values made, by key (least recently used out first)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[Hashable, Any] = OrderedDict()

    async def get(self, key: Hashable, make: Callable[[], Awaitable[T]]) -> T:
        if key in self._values:
            self._values.move_to_end(key)
            value: T = self._values[key]
            return value
        value = await make()
        self._values[key] = value
        while len(self._values) > self.size:
            self._values.popitem(last=False)
        return value


def templates() -> jinja2.Environment:
    """The pages' templates, every value they write escaped."""
    return jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"),
                              autoescape=True, undefined=jinja2.StrictUndefined,
                              trim_blocks=True, lstrip_blocks=True)


@dataclass(frozen=True)
class Table:
    """What a table's pages are made of, at one version of it: the session's page, its
    games played on a board by number, and each analysed game's decisions."""

    page: Session
    games: dict[int, BoardGame]  # without their rolls and moves
    spans: dict[int, tuple[int, int | None]]  # versions of a game's first and last events
    decisions: dict[int, list[Any]]


class Pages:
    """The web pages of one store; `drawing` draws the boards (the bot's own processes, or
    a web process's)."""

    def __init__(self, store: EventStore, drawing: Drawing) -> None:
        self.store, self.drawing = store, drawing
        self.links = Links(store)
        self.env = templates()
        self._tables = Kept(32)
        self._replays = Kept(64)
        self._boards = Kept(512)
        self._seen: standings.Seen = {}  # each server's sessions, by table (standings.py)

    def app(self) -> web.Application:
        """The aiohttp application."""
        app = web.Application(middlewares=[_headers])
        app.add_routes([
            web.get("/s/{token}", self.session_page),
            web.get(r"/s/{token}/game/{game:\d+}", self.replay_page),
            web.get(r"/s/{token}/game/{game:\d+}/{step:\d+}", self.replay_page),
            web.get(r"/s/{token}/game/{game:\d+}/{step:\d+}.png", self.board),
            web.get(r"/s/{token}/game/{game:\d+}/cube-{cube:\d+}.mat", self.match_file),
            web.get("/club/{token}", self.standings_page),
            web.get("/club/{token}/player/{player}", self.player_page),
            web.static("/static", HERE / "static"),
        ])
        return app

    # -- what a table has -----------------------------------------------------------------

    async def _table(self, request: web.Request) -> tuple[str, int]:
        table_id = await self.links.table(request.match_info["token"])
        if table_id is None:
            raise web.HTTPNotFound(text="Not found")
        return table_id, await self.store.events.version(table_id)

    async def _kept(self, table_id: str, version: int) -> Table:
        """What the table's pages are made of at `version`, with its verdicts so far."""
        analysed = await self.store.analyses.count(table_id)

        async def make() -> Table:
            rows = await self.store.events.versioned(table_id, skip=BOARD_EVENTS)
            state = (await self.store.events.load(table_id)).state  # from its snapshot
            times = await self.store.events.span(table_id)
            verdicts = {game: (plies, result) for game, plies, result, _
                        in await self.store.analyses.kept(table_id)}
            return await asyncio.to_thread(self._made, state, rows, times, verdicts)
        return await self._tables.get((table_id, version, analysed), make)

    def _made(self, state: TableState, rows: list[tuple[int, int | None, str]],
              times: tuple[int | None, int | None],
              verdicts: dict[int, tuple[int, str]]) -> Table:
        """A table's pages' makings, in a worker thread: its events but the board's rolls
        and moves decoded and folded (the seats, cubes and results of its games; a replay
        reads its own game's events whole) and where each game's events are."""
        stored = self.store.events.stored_of(rows)
        events = [s.event for s in stored]
        played = board_games(events)
        spans: dict[int, tuple[int, int | None]] = {}
        current = None
        for one in stored:
            if isinstance(one.event, GameStarted | GameResumed):
                current = one.event.number
                first = spans[current][0] if current in spans else one.version
                spans[current] = (first, None)
            elif isinstance(one.event, GameEnded | GameAbandoned) and current in spans:
                spans[current] = (spans[current][0], one.version)
        answers = {n: (plies, json.loads(text)) for n, (plies, text) in verdicts.items()}
        page = session(state, events, played, times, answers)
        return Table(page, {g.number: g for g in played}, spans,
                     {n: answer.get("decisions", []) for n, (_, answer) in answers.items()})

    async def _steps(self, table_id: str, version: int, number: int
                     ) -> tuple[Table, BoardGame, tuple[Step, ...]]:
        """Game `number` whole (its events read now) and its replay's steps."""
        made = await self._kept(table_id, version)
        if number not in made.spans:
            raise web.HTTPNotFound(text="Not found")
        decisions = made.decisions.get(number, [])

        async def make() -> tuple[BoardGame, tuple[Step, ...]]:
            first, last = made.spans[number]
            rows = await self.store.events.versioned(table_id, first=first, last=last)
            return await asyncio.to_thread(self._replay, made, number, rows, decisions)
        game, found = await self._replays.get((table_id, version, number, len(decisions)),
                                              make)
        return made, game, found

    def _replay(self, made: Table, number: int, rows: list[tuple[int, int | None, str]],
                decisions: list[Any]) -> tuple[BoardGame, tuple[Step, ...]]:
        events = [s.event for s in self.store.events.stored_of(rows)]
        before = made.games[number].before
        game = next(g for g in board_games(events, before) if g.number == number)
        return game, steps(game, decisions, made.page.language or None)

    # -- the pages --------------------------------------------------------------------------

    def _render(self, name: str, locale: object, **values: Any) -> web.Response:
        def words(text: str) -> str:
            return translate(text, locale)
        html = self.env.get_template(name).render(_=words, **values)
        return web.Response(text=html, content_type="text/html")

    async def session_page(self, request: web.Request) -> web.Response:
        table_id, version = await self._table(request)
        page = (await self._kept(table_id, version)).page
        channels = await self.store.channels.find(table_id=table_id)
        club = None if channels is None else await self.links.club(channels.guild_id)
        return self._render("session.html", page.language or None, page=page,
                            base=request.path, club=club)

    async def replay_page(self, request: web.Request) -> web.Response:
        table_id, version = await self._table(request)
        number = int(request.match_info["game"])
        made, game, found = await self._steps(table_id, version, number)
        index = int(request.match_info.get("step", "0"))
        if index >= len(found):
            raise web.HTTPNotFound(text="Not found")
        page, files = made.page, cubes.cubes_of(game)
        session_path = f"/s/{request.match_info['token']}"
        return self._render("replay.html", page.language or None, page=page, number=number,
                            step=found[index], index=index, count=len(found),
                            game_path=f"{session_path}/game/{number}",
                            session_path=session_path,
                            files=[(i, c.names.get(c.team, c.team)) for i, c in
                                   enumerate(files)])

    async def board(self, request: web.Request) -> web.Response:
        table_id, version = await self._table(request)
        number, index = int(request.match_info["game"]), int(request.match_info["step"])
        made, _, found = await self._steps(table_id, version, number)
        if index >= len(found):
            raise web.HTTPNotFound(text="Not found")

        async def make() -> bytes:
            data = await self.drawing.board(found[index].state, made.page.language or None)
            assert data is not None  # a game's step always has its board
            return data
        data = await self._boards.get((table_id, number, index, version), make)
        return web.Response(body=data, content_type="image/png",
                            headers={"Cache-Control": "private, max-age=86400"})

    async def match_file(self, request: web.Request) -> web.Response:
        table_id, version = await self._table(request)
        number, index = int(request.match_info["game"]), int(request.match_info["cube"])
        made = await self._kept(table_id, version)
        files = cubes.cubes_of(made.games[number]) if number in made.games else []
        if index >= len(files):
            raise web.HTTPNotFound(text="Not found")
        data, team = await self.store.events.data(table_id), files[index].team
        text = await asyncio.to_thread(
            lambda: cubes.export(self.store.events.decoded(data), team, number))
        name = f"game-{number}-{index + 1}.mat"
        return web.Response(text=text, content_type="text/plain", headers={
            "Content-Disposition": f'attachment; filename="{name}"'})

    async def _language(self, guild_id: int) -> str | None:
        """A club's pages' language: its latest table's (None, English, without a table)."""
        tables = await self.store.channels.of_guild(guild_id, open_only=False)
        if not tables:
            return None
        return (await self.store.events.load(tables[-1].table_id)).state.language or None

    async def standings_page(self, request: web.Request) -> web.Response:
        guild_id = await self.links.guild(request.match_info["token"])
        month = request.query.get("month", "")
        if guild_id is None or (month and not MONTH.fullmatch(month)):
            raise web.HTTPNotFound(text="Not found")
        found = await standings.read(self.store, self.links, guild_id, month or None,
                                     self._seen)
        return self._render("standings.html", await self._language(guild_id), club=found,
                            base=request.path)

    async def player_page(self, request: web.Request) -> web.Response:
        guild_id = await self.links.guild(request.match_info["token"])
        if guild_id is None:
            raise web.HTTPNotFound(text="Not found")
        found = await standings.player(self.store, self.links, guild_id,
                                       request.match_info["player"], self._seen)
        if found is None:
            raise web.HTTPNotFound(text="Not found")
        club = f"/club/{request.match_info['token']}"
        return self._render("player.html", await self._language(guild_id), player=found,
                            club=club)


@web.middleware
async def _headers(request: web.Request,
                   handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                   ) -> web.StreamResponse:
    """The safety headers on every answer, a 404's too."""
    try:
        response = await handler(request)
    except web.HTTPException as exc:
        exc.headers.update(HEADERS)
        raise
    response.headers.update(HEADERS)
    return response


async def serve(pages: Pages, bind: str) -> web.AppRunner:
    """Serve `pages` at `bind` ("host:port") until the runner is cleaned up."""
    host, _, port = bind.rpartition(":")
    runner = web.AppRunner(pages.app(), access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host.strip("[]") or None, int(port)).start()
    except BaseException:
        await runner.cleanup()
        raise
    return runner
