"""Background tasks whose failures are logged when they happen, never lost.

A task that nobody awaits (a decision timer, an autoroll) keeps its exception to itself
until it is garbage-collected, if ever: `spawn` logs it the moment the task ends."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any, TypeVar

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
