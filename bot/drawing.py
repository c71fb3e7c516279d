"""Images drawn beside the event loop, in a process of their own.

Pillow holds the GIL while it draws: a board takes 5-20 ms, a long score sheet 130 ms, and
in a thread of the bot's process that is time every other click waits for. So the boards
and sheets are drawn by a worker process (`CHOUETTE_DRAW_PROCESSES`, default 1; 0 draws in
a thread as before), which also keeps its own caches of what it drew (the bands, the
glyphs) and puts a second core to work. What it is sent is plain data (a `Picture`, a
sheet's rows), never a table's state; what it returns is PNG bytes.

The worker is started with the bot and draws one board at once, so the first click of the
day does not wait for it. It ends with the bot, and by itself if the bot is killed (it
watches its parent). If it dies, the image is drawn in the bot's process and a new worker
is started for the next one.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import ParamSpec, TypeVar

from bot.i18n import Words, catalogue, languages
from bot.render.board import board_png, table_picture
from rules.state import TableState

log = logging.getLogger(__name__)
P = ParamSpec("P")
T = TypeVar("T")


class Drawing:
    """The bot's drawing processes (or none: a thread)."""

    def __init__(self, processes: int = 1) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None

    def start(self) -> None:
        """Start the worker and have it draw a first board (its palette, its static board)."""
        if self.processes:
            self._executor().submit(_warm)

    async def board(self, state: TableState, locale: object = None) -> bytes | None:
        """The table's board as PNG bytes (None before it has one), its words in `locale`'s
        language (the table's)."""
        if state.board is None:
            return None
        return await self.run(board_png, table_picture(state, words=Words.of(locale)))

    async def run(self, draw: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """`draw(*args)` in the worker (a module-level function, picklable arguments)."""
        if not self.processes:
            return await asyncio.to_thread(draw, *args, **kwargs)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), _call, draw, args, kwargs)
        except BrokenProcessPool:
            log.warning("the drawing process ended: drawn in the bot's process this time, "
                        "a new drawing process from the next image")
            self._pool = None
            return await asyncio.to_thread(draw, *args, **kwargs)

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.processes, mp_context=multiprocessing.get_context("spawn"),
                initializer=_watch_parent, initargs=(os.getpid(),))
        return self._pool

    def close(self) -> None:
        """Stop the workers (what they were drawing is not waited for)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


@dataclass(frozen=True)
class Names:
    """A table's players' names as plain data (`state.shown` is bound to the whole state):
    a `Shown` to send to the worker."""

    names: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, state: TableState) -> Names:
        keys = {key for key, _ in state.names} | {m.player for m in state.members}
        if state.seating is not None:
            keys |= set(state.seating.players)
        return cls(tuple((key, state.shown(key)) for key in sorted(keys)))

    def __call__(self, key: str) -> str:
        return dict(self.names).get(key, key)


def _call(draw: Callable[..., T], args: tuple[object, ...], kwargs: dict[str, object]) -> T:
    return draw(*args, **kwargs)


def _warm() -> None:
    from bot.render.samples import sample_picture

    board_png(sample_picture())
    for language in languages():  # a board's strip reads its words from the catalogue
        catalogue(language)


def _watch_parent(parent: int) -> None:
    """In a worker: end when the bot's process is gone (killed, its pipes still open)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, name="watch the bot", daemon=True).start()
