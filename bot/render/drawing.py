"""Images drawn beside the event loop, in processes of their own.

Pillow holds the GIL while it draws: a board takes 5-20 ms, a long score sheet 80 ms, and
in a thread of the bot's process that is time every other click waits for. So the boards
and sheets are drawn by a pool of worker processes (`concurrent.futures.ProcessPoolExecutor`,
`CHOUETTE_DRAW_PROCESSES` of them, default 1; 0 draws in a thread as before), which keep
their own caches of what they drew (the bands, the glyphs) and put other cores to work.
What they are sent is plain data (a `Picture`, a sheet's rows), never a table's state; what
they return is PNG bytes.

The workers are spawned (the 'spawn' start method: a fresh interpreter that imports what it
draws with), not forked: a fork copies the bot as it is at that instant, its event loop, its
sockets and the locks its other threads may hold, into a child with one thread that can
never release them. (A spawned worker imports the main module of a script, not that of
`python -m bot`: a script that draws keeps its work under `if __name__ == "__main__"`.)

The pool is made when the bot starts, and each worker draws a sample board as it starts, so
the first click of the day does not wait for it. A worker waits for work on a pipe it holds
both ends of, which never tells it that the bot was killed (kill -9): so it watches the bot
(`multiprocessing.parent_process()`) in a thread, and ends with it. If a worker dies, the
pool is broken: what it had to draw is drawn in the bot's process, and a new pool is made
for the next image.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ParamSpec, TypeVar

from bot.render.board import board_png
from bot.render.palette import sample_picture
from bot.render.picture import Picture, table_picture
from bot.words.i18n import Translation, catalogue, languages
from rules.state import TableState

log = logging.getLogger(__name__)
P = ParamSpec("P")
T = TypeVar("T")


class Drawing:
    """The bot's drawing processes (or none: a thread)."""

    def __init__(self, processes: int = 1) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None

    async def start(self) -> None:
        """Start the workers (without waiting for them), each drawing a first board (its
        palette, its static board)."""
        if self.processes:
            pool = self._workers()
            for _ in range(self.processes):  # each call that finds no worker idle starts one
                pool.submit(os.getpid).add_done_callback(_started)

    async def board(self, state: TableState, locale: object = None) -> bytes | None:
        """The table's board as PNG bytes (None before it has one), its words in `locale`'s
        language (the table's)."""
        if state.board is None:
            return None
        return await self.picture(table_picture(state, words=Translation.of(locale)))

    async def picture(self, picture: Picture) -> bytes:
        """A board's picture (`bot.render.picture.picture`: an analysed error's, say) as PNG
        bytes."""
        return await self.run(board_png, picture)

    async def run(self, draw: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """`draw(*args, **kwargs)` in a worker (a module-level function, picklable
        arguments)."""
        call = functools.partial(draw, *args, **kwargs)
        if self.processes:
            pool = self._workers()
            try:
                return await asyncio.get_running_loop().run_in_executor(pool, call)
            except BrokenProcessPool:
                log.warning("a drawing process ended: drawn in the bot's process this time, "
                            "new drawing processes from the next image")
                if self._pool is pool:  # not yet replaced (by another image it owed)
                    self._pool = None
                    pool.shutdown(wait=False)
        return await asyncio.to_thread(call)

    def _workers(self) -> ProcessPoolExecutor:
        """The pool, made if there is none (its workers start with the first calls)."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.processes, initializer=_begin,
                                             mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    async def close(self) -> None:
        """Stop the workers, once they have drawn what they are drawing."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, cancel_futures=True)


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

    @cached_property
    def _by_key(self) -> dict[str, str]:  # made once, at the first name asked
        return dict(self.names)

    def __call__(self, key: str) -> str:
        return self._by_key.get(key, key)


def _begin() -> None:
    """A worker's start (in the worker): it ends with the bot, and draws a first board."""
    threading.Thread(target=_end_with_the_bot, name="ends with the bot", daemon=True).start()
    try:
        _warm()
    except Exception:  # a worker that can't draw a sample may still draw the rest
        log.warning("the drawing process did not draw its first board", exc_info=True)


def _end_with_the_bot() -> None:
    """End this worker when the bot ends, killed or not (the kernel closes the bot's end of
    the pipe that started the worker, and `join` returns)."""
    bot = multiprocessing.parent_process()
    if bot is not None:
        bot.join()
        os._exit(0)


def _warm() -> None:
    """A first board drawn and the catalogues read: what a worker keeps for the next."""
    board_png(sample_picture())
    for language in languages():  # a board's strip reads its words from the catalogue
        catalogue(language)


def _started(answer: Future[Any]) -> None:
    """A worker started, or why not (one log line: the next image tells more)."""
    if not answer.cancelled() and (exc := answer.exception()) is not None:
        log.warning("the drawing process did not start: %r", exc)
