"""A server's standings and a player's own page (built in this issue's next step)."""

from __future__ import annotations

from typing import Any

from bot.store import EventStore
from bot.web.links import Links


async def read(store: EventStore, links: Links, guild_id: int, month: str | None) -> Any:
    """The server's standings over `month` ("YYYY-MM"), or all time."""
    raise NotImplementedError


async def player(store: EventStore, links: Links, guild_id: int, key: str) -> Any:
    """A player's own page on the server, or None."""
    raise NotImplementedError
