"""Contract 6 on the command line: `python -m bot web` serves the club's pages from the store
the settings name until stopped; `python -m bot links` prints each table's page path."""

from __future__ import annotations

import asyncio
import json
import signal
import sys
from collections.abc import Callable, Coroutine
from typing import Any

from bot.config import Settings, SettingsError
from bot.render.drawing import Drawing
from bot.store import EventStore, StoreError
from bot.web.links import Links
from bot.web.server import Pages, serve


def _store(db: str | None) -> tuple[Settings, EventStore]:
    settings = Settings.load()
    return settings, EventStore(db or settings.database)


def links(db: str | None) -> int:
    """One JSON line a table: {"table": id, "page": its session page's path}."""
    async def main() -> None:
        async with _store(db)[1] as store:
            found = Links(store)
            for table_id in await store.events.table_ids(open_only=False):
                print(json.dumps({"table": table_id, "page": await found.session(table_id)}))
    return _run(main)


def web(db: str | None, bind: str | None) -> int:
    """Serve the pages at `bind` (default CHOUETTE_WEB_BIND) until SIGINT or SIGTERM."""
    async def main() -> None:
        settings, store = _store(db)
        address = bind or settings.web_bind
        if address == "off":
            raise SettingsError("CHOUETTE_WEB_BIND is off (the bot serves no pages): give "
                                "this process its address with --bind HOST:PORT.")
        drawing = Drawing(settings.draw_processes)
        stop = asyncio.Event()
        for number in (signal.SIGINT, signal.SIGTERM):
            asyncio.get_running_loop().add_signal_handler(number, stop.set)
        async with store:
            await drawing.start()
            runner = await serve(Pages(store, drawing), address)
            try:
                print(f"chouette-bot: the club's pages at http://{address}/", flush=True)
                await stop.wait()
            finally:
                await runner.cleanup()
                await drawing.close()
    return _run(main)


def _run(main: Callable[[], Coroutine[Any, Any, None]]) -> int:
    try:
        asyncio.run(main())
    except (SettingsError, StoreError, OSError) as exc:
        print(f"chouette-bot: {exc}", file=sys.stderr)
        return 2
    return 0
