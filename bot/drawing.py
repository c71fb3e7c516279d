"""Images drawn beside the event loop, in a process of their own.

Pillow holds the GIL while it draws: a board takes 5-20 ms, a long score sheet 80 ms, and
in a thread of the bot's process that is time every other click waits for. So the boards
and sheets are drawn by a worker process (`CHOUETTE_DRAW_PROCESSES`, default 1; 0 draws in
a thread as before), which also keeps its own caches of what it drew (the bands, the
glyphs) and puts a second core to work. What it is sent is plain data (a `Picture`, a
sheet's rows), never a table's state; what it returns is PNG bytes.

A worker is `python -m bot.drawing`, spoken to over its standard input and output from the
event loop itself (no thread): a request is a pickled (function, arguments), an answer a
pickled (done, value), each after its length in 4 bytes, the answers in the order of the
requests. It is started with the bot and draws one board at once, so the first click of the
day does not wait for it. It ends when its input closes: when the bot stops, and when the
bot is killed. If it dies, what it had to draw is drawn in the bot's process and a new
worker is started for the next image.
"""

from __future__ import annotations

import asyncio
import logging
import pickle
import sys
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from bot.i18n import Translation, catalogue, languages
from bot.render.board import Picture, board_png, table_picture
from rules.state import TableState

log = logging.getLogger(__name__)
P = ParamSpec("P")
T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[1]  # where `python -m bot.drawing` finds `bot`


class WorkerGone(Exception):
    """The drawing process ended before it answered."""


class Worker:
    """One drawing process and the answers it owes, oldest first."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.owed: deque[asyncio.Future[Any]] = deque()
        self.reading = asyncio.ensure_future(self._read())

    @classmethod
    async def start(cls) -> Worker:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.drawing", cwd=ROOT, stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE)
        return cls(process)

    @property
    def alive(self) -> bool:
        return not self.reading.done()

    def ask(self, draw: Callable[..., Any], args: tuple[Any, ...],
            kwargs: dict[str, Any]) -> asyncio.Future[Any]:
        """Send one request; its answer's future."""
        assert self.process.stdin is not None
        data = pickle.dumps((draw, args, kwargs), pickle.HIGHEST_PROTOCOL)
        answer = asyncio.get_running_loop().create_future()
        self.process.stdin.write(len(data).to_bytes(4, "big") + data)  # may raise: none owed
        self.owed.append(answer)
        return answer

    async def _read(self) -> None:
        assert self.process.stdout is not None
        try:
            while True:
                size = int.from_bytes(await self.process.stdout.readexactly(4), "big")
                done, value = pickle.loads(await self.process.stdout.readexactly(size))
                answer = self.owed.popleft()
                if not answer.done():
                    (answer.set_result if done else answer.set_exception)(value)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass  # the process ended
        finally:
            for answer in self.owed:
                if not answer.done():
                    answer.set_exception(WorkerGone())

    async def close(self) -> None:
        """Close its input, so that it ends, and wait for it (5 s, then it is killed)."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            await asyncio.wait_for(self.process.wait(), 5)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
        await asyncio.gather(self.reading, return_exceptions=True)


class Drawing:
    """The bot's drawing processes (or none: a thread)."""

    def __init__(self, processes: int = 1) -> None:
        self.processes = processes
        self._workers: list[Worker] = []
        self._starting = asyncio.Lock()

    async def start(self) -> None:
        """Start the workers, each drawing a first board (its palette, its static board)."""
        if self.processes:
            await self._worker()

    @property
    def pids(self) -> list[int]:
        """The drawing processes running."""
        return [w.process.pid for w in self._workers if w.alive]

    async def board(self, state: TableState, locale: object = None) -> bytes | None:
        """The table's board as PNG bytes (None before it has one), its words in `locale`'s
        language (the table's)."""
        if state.board is None:
            return None
        return await self.picture(table_picture(state, words=Translation.of(locale)))

    async def picture(self, picture: Picture) -> bytes:
        """A board's picture (`bot.render.board.picture`: an analysed error's, say) as PNG
        bytes."""
        return await self.run(board_png, picture)

    async def run(self, draw: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """`draw(*args)` in a worker (a module-level function, picklable arguments)."""
        if self.processes:
            try:
                answer: T = await (await self._worker()).ask(draw, args, kwargs)
                return answer
            except (WorkerGone, OSError):
                log.warning("the drawing process ended: drawn in the bot's process this "
                            "time, a new drawing process from the next image")
        return await asyncio.to_thread(draw, *args, **kwargs)

    async def _worker(self) -> Worker:
        """The worker with the fewest answers owed, started if there are too few."""
        async with self._starting:
            self._workers = [w for w in self._workers if w.alive]
            while len(self._workers) < self.processes:
                worker = await Worker.start()
                worker.ask(_warm, (), {}).add_done_callback(_warmed)
                self._workers.append(worker)
        return min(self._workers, key=lambda w: len(w.owed))

    async def close(self) -> None:
        """Stop the workers."""
        workers, self._workers = self._workers, []
        await asyncio.gather(*(worker.close() for worker in workers))


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


def _warm() -> None:
    from bot.render.samples import sample_picture

    board_png(sample_picture())
    for language in languages():  # a board's strip reads its words from the catalogue
        catalogue(language)


def _warmed(answer: asyncio.Future[None]) -> None:
    """A worker's first board drawn, or why not (one log line: the next image tells more)."""
    if not answer.cancelled() and (exc := answer.exception()) is not None:
        log.warning("the drawing process did not draw its first board: %r", exc)


def serve() -> None:
    """A worker's loop: each request read from standard input answered on standard output,
    until the input ends (the bot stopped or was killed)."""
    requests, answers = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # what anything prints must not mix with the answers
    while len(head := requests.read(4)) == 4:
        draw, args, kwargs = pickle.loads(requests.read(int.from_bytes(head, "big")))
        try:
            data = pickle.dumps((True, draw(*args, **kwargs)), pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # the bot raises it where it asked
            try:
                data = pickle.dumps((False, exc), pickle.HIGHEST_PROTOCOL)
            except Exception:
                data = pickle.dumps((False, RuntimeError(repr(exc))))
        answers.write(len(data).to_bytes(4, "big") + data)
        answers.flush()


if __name__ == "__main__":
    serve()
