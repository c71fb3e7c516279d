"""Background tasks whose failures are logged when they happen, never lost.

A task that nobody awaits (a decision timer, an autoroll) keeps its exception to itself
until it is garbage-collected, if ever: `spawn` logs it the moment the task ends. `Timers`
are such tasks that wait, each under a named key (`Timer`)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, NamedTuple, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")


def spawn(coro: Coroutine[Any, Any, T], name: str) -> asyncio.Task[T]:
    """Run `coro` as a task named `name`; an exception it ends with is logged with its
    traceback (a cancellation is not a failure). Keep the task: the loop holds it weakly."""
    task = asyncio.get_running_loop().create_task(coro, name=name)
    task.add_done_callback(_report)
    return task


def _report(task: asyncio.Task[Any]) -> None:
    if task.cancelled():
        return
    exc = task.exception()
    if exc is not None:
        log.error("background task %r failed", task.get_name(),
                  exc_info=(type(exc), exc, exc.__traceback__))


class Timer(NamedTuple):
    """A timer's key: what it waits for, at which table (and for whom)."""

    kind: str  # "decision", "shooter", "hold", "autoroll", "redeliver", "retire"
    table_id: str
    player: str = ""


class Timers:
    """Jobs that wait, one a key: scheduling only, never state (what they time is stored)."""

    def __init__(self) -> None:
        self._tasks: dict[Timer, asyncio.Task[None]] = {}
        self._due: dict[Timer, tuple[str, float]] = {}  # what each times, when it runs out
        self._tables: dict[str, dict[Timer, None]] = {}  # each table's, in the order set

    def __contains__(self, key: Timer) -> bool:
        return key in self._tasks

    def after(self, seconds: float, key: Timer, job: Callable[[], Awaitable[Any]],
              what: str = "") -> None:
        """In `seconds`, run `job` as the timer `key` (timing `what`), in place of any of
        that key waiting."""
        self.cancel(key)
        self._due[key] = (what, time.time() + seconds)
        self._tasks[key] = spawn(self._run(seconds, key, job), f"timer {key}")
        self._tables.setdefault(key.table_id, {})[key] = None

    def keys(self, table_id: str) -> list[Timer]:
        """The timers waiting for the table `table_id`."""
        return list(self._tables.get(table_id, ()))

    def due(self, key: Timer, what: str | None = None) -> float | None:
        """When the timer `key` runs out (Unix seconds), if it waits (timing `what`)."""
        timed, when = self._due.get(key, ("", None))
        return when if what is None or what == timed else None

    def cancel(self, key: Timer) -> None:
        """Stop the timer `key` if it is waiting (a job that runs does not stop itself)."""
        old = self._forget(key)
        if old is not None and old is not asyncio.current_task():
            old.cancel()

    def _forget(self, key: Timer) -> asyncio.Task[None] | None:
        self._due.pop(key, None)
        table = self._tables.get(key.table_id, {})
        table.pop(key, None)
        if not table:
            self._tables.pop(key.table_id, None)
        return self._tasks.pop(key, None)

    async def _run(self, seconds: float, key: Timer, job: Callable[[], Awaitable[Any]]) -> None:
        await asyncio.sleep(seconds)
        self._forget(key)
        await job()
