"""Whether the running bot is well, for a container's HEALTHCHECK or a monitor: while it is
connected to Discord and its database answers, the bot touches a heartbeat file beside the
database; `python -m bot health` says whether that file is fresh."""

from __future__ import annotations

import asyncio
import logging
import math
import os
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # `python -m bot health` runs every minute: it doesn't load discord.py
    import discord

log = logging.getLogger(__name__)

EVERY = 30.0  # seconds between two beats
MAX_AGE = 90.0  # a beat older than this: unwell (three beats missed)


def heartbeat_file(database: Path) -> Path:
    """The heartbeat file of the bot that uses `database`: beside it, where it may write."""
    return database.with_name(database.name + ".alive")


async def beat(client: discord.Client, database_answers: Callable[[], Awaitable[object]],
               path: Path, every: float = EVERY) -> None:
    """Touch `path` every `every` seconds while the client is connected to Discord (ready,
    with a heartbeat of its own) and `database_answers()` (a read) returns; run until
    cancelled. The first beat comes as soon as the client is ready."""
    await client.wait_until_ready()
    while True:
        if client.is_ready() and not client.is_closed() and math.isfinite(client.latency):
            try:
                await database_answers()
                await asyncio.to_thread(touch, path)
            except Exception:  # a database that fails, a folder gone: no beat, and say why
                log.warning("no heartbeat: the database or %s can't be used", path,
                            exc_info=True)
        await asyncio.sleep(every)


def touch(path: Path) -> None:
    """Make `path` exist with the time now."""
    path.touch()
    os.utime(path)


def check(path: Path, max_age: float = MAX_AGE, now: float | None = None) -> str | None:
    """None if `path` was touched within `max_age` seconds; else what is wrong, in a line."""
    try:
        age = (time.time() if now is None else now) - path.stat().st_mtime
    except FileNotFoundError:
        return (f"no heartbeat at {path}: the bot is not running, is still starting, or has "
                "never been connected to Discord")
    if age > max_age:
        return (f"the last heartbeat ({path}) is {age:.0f} s old (at most {max_age:.0f}): "
                "the bot is not connected to Discord, its database is failing, or it stopped")
    return None
