"""`guarded` (bot/discord/failures.py) notes when the bot first saw a click, and `waited`
counts from the click's id (Discord's time) when the host's clock agrees it is under 3 s
old, else from then on the host's own clock: a click queued on a busy bot has waited since
Discord made it, while a host clock seconds ahead of Discord's would otherwise defer every
board click, and one behind would wait past Discord's 3 s."""

from __future__ import annotations

import time
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import discord

from bot.discord.failures import SEEN, guarded, waited


def click(made_ago: float) -> Any:
    """An interaction Discord made `made_ago` seconds before this host's clock's now."""
    return SimpleNamespace(extras={}, created_at=discord.utils.utcnow()
                           - timedelta(seconds=made_ago))


async def test_a_click_is_timed_from_when_the_bot_first_saw_it() -> None:
    seen: list[float] = []

    @guarded
    async def handle(interaction: Any) -> None:
        seen.append(waited(interaction))

    skewed = click(made_ago=10.0)  # the host's clock 10 s ahead of Discord's
    before = time.monotonic()
    await handle(skewed)
    assert skewed.extras[SEEN] >= before and seen[0] < 1.0
    await handle(click(made_ago=-5.0))  # behind Discord's: the bot's own wait
    assert seen[1] < 1.0
    await handle(click(made_ago=1.5))  # queued 1.5 s before its handler ran
    assert 1.5 <= seen[2] < 2.5
    assert waited(click(made_ago=1.5)) >= 1.5  # not through `guarded`: Discord's time
