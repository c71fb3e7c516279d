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
import logging
import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from pathlib import Path
from typing import Any, TypeVar

import jinja2
from aiohttp import web

from bot.records import cubes
from bot.records.games import board_games
from bot.render.drawing import Drawing
from bot.store import EventStore
from bot.web import standings
from bot.web.links import Links
from bot.web.replay import Step, steps
from bot.web.session import Session, session
from bot.words.i18n import translate
from rules.events import Event

log = logging.getLogger(__name__)
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


class Pages:
    """The web pages of one store; `drawing` draws the boards (the bot's own processes, or
    a web process's)."""

    def __init__(self, store: EventStore, drawing: Drawing) -> None:
        self.store, self.drawing = store, drawing
        self.links = Links(store)
        self.env = templates()
        self._sessions = Kept(64)
        self._replays = Kept(64)
        self._boards = Kept(512)

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

    async def _session(self, table_id: str, version: int) -> tuple[Session, list[Event]]:
        analysed = await self.store.analyses.count(table_id)

        async def make() -> tuple[Session, list[Event]]:
            stored = await self.store.events.stored(table_id)
            verdicts = {game: (plies, result) for game, plies, result, _
                        in await self.store.analyses.kept(table_id)}
            page = await asyncio.to_thread(session, table_id, stored, verdicts)
            return page, [s.event for s in stored]
        return await self._sessions.get((table_id, version, analysed), make)

    async def _steps(self, table_id: str, version: int, number: int) -> tuple[Step, ...]:
        page, events = await self._session(table_id, version)
        game = next((g for g in board_games(events) if g.number == number), None)
        if game is None:
            raise web.HTTPNotFound(text="Not found")
        line = next((g for g in page.games if g.number == number), None)

        async def make() -> tuple[Step, ...]:
            decisions: list[Any] = []
            if line is not None and line.plies is not None:
                found = [r for n, _, r, _ in await self.store.analyses.kept(table_id)
                         if n == number]
                decisions = json.loads(found[0]).get("decisions", []) if found else []
            return await asyncio.to_thread(steps, game, decisions, page.language or None)
        plies = line.plies if line is not None else None
        return await self._replays.get((table_id, version, number, plies), make)

    # -- the pages --------------------------------------------------------------------------

    def _render(self, name: str, locale: object, **values: Any) -> web.Response:
        def words(text: str) -> str:
            return translate(text, locale)
        html = self.env.get_template(name).render(_=words, **values)
        return web.Response(text=html, content_type="text/html")

    async def session_page(self, request: web.Request) -> web.Response:
        table_id, version = await self._table(request)
        page, _ = await self._session(table_id, version)
        return self._render("session.html", page.language or None, page=page,
                            base=request.path)

    async def replay_page(self, request: web.Request) -> web.Response:
        table_id, version = await self._table(request)
        number = int(request.match_info["game"])
        found = await self._steps(table_id, version, number)
        index = int(request.match_info.get("step", "0"))
        if index >= len(found):
            raise web.HTTPNotFound(text="Not found")
        page, events = await self._session(table_id, version)
        files = [c for c in cubes.cube_games(events) if c.number == number]
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
        found = await self._steps(table_id, version, number)
        if index >= len(found):
            raise web.HTTPNotFound(text="Not found")
        page, _ = await self._session(table_id, version)

        async def make() -> bytes:
            data = await self.drawing.board(found[index].state, page.language or None)
            assert data is not None  # a game's step always has its board
            return data
        data = await self._boards.get((table_id, number, index, version), make)
        return web.Response(body=data, content_type="image/png",
                            headers={"Cache-Control": "private, max-age=86400"})

    async def match_file(self, request: web.Request) -> web.Response:
        table_id, version = await self._table(request)
        number, index = int(request.match_info["game"]), int(request.match_info["cube"])
        _, events = await self._session(table_id, version)
        files = [c for c in cubes.cube_games(events) if c.number == number]
        if index >= len(files):
            raise web.HTTPNotFound(text="Not found")
        text = cubes.export(events, files[index].team, number)
        name = f"game-{number}-{index + 1}.mat"
        return web.Response(text=text, content_type="text/plain", headers={
            "Content-Disposition": f'attachment; filename="{name}"'})

    async def standings_page(self, request: web.Request) -> web.Response:
        guild_id = await self.links.guild(request.match_info["token"])
        month = request.query.get("month", "")
        if guild_id is None or (month and not MONTH.fullmatch(month)):
            raise web.HTTPNotFound(text="Not found")
        found = await standings.read(self.store, self.links, guild_id, month or None)
        return self._render("standings.html", None, club=found, base=request.path)

    async def player_page(self, request: web.Request) -> web.Response:
        guild_id = await self.links.guild(request.match_info["token"])
        if guild_id is None:
            raise web.HTTPNotFound(text="Not found")
        found = await standings.player(self.store, self.links, guild_id,
                                       request.match_info["player"])
        if found is None:
            raise web.HTTPNotFound(text="Not found")
        club = f"/club/{request.match_info['token']}"
        return self._render("player.html", None, player=found, club=club)


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
    await web.TCPSite(runner, host.strip("[]") or None, int(port)).start()
    return runner
