"""Nothing lost between the store and Discord, black-box: whole sessions under each preset,
the bot killed with kill -9 at random moments (the action just sent, or half shown), a
message refused now and then (503) and an edit rate-limited (429), and after each restart
Discord shows exactly what the store says: the board's status, every
channel's overwrites, a live button for every decision waiting, each sheet and each game's
start once. The state is read from the bot's own database, as the store folds it."""

import random
from typing import Any

from tests.e2e.random_play import PLAYERS, act, check, delivered, restarted
from tests.e2e.session import open_table
from tests.e2e.support import e2e


def session(preset: str, seed: int) -> Any:
    async def run(drv: Any) -> None:
        rng = random.Random(seed)
        await open_table(drv, *PLAYERS, preset=preset)
        kills = 0
        for _ in range(300):  # 6 kills come about 60 actions in: 300 is never short
            killing = rng.random() < 0.1
            if rng.random() < 0.05:  # Discord refuses the next message once: redelivered
                drv.fake.fail_next[r"channels/\d+/messages"] = (503, 0, "Service Unavailable")
            if rng.random() < 0.05:  # and rate-limits an edit: discord.py waits it out
                drv.fake.rate_limit_next[r"channels/\d+/messages/\d+"] = 1
            await act(drv, rng, settle=not killing)
            if killing:
                await drv.wait_for(lambda: True)  # the action on its way
                await restarted(drv)
                kills += 1
                check(drv)
            if kills >= 6:
                break
        assert kills >= 6
        await delivered(drv)
        check(drv)
    run.__name__ = f"test_kill_9_through_a_{preset}_session"
    return run


test_kill_9_through_an_atlanta_session = e2e()(session("atlanta", 1))
test_kill_9_through_a_fibs_session = e2e()(session("fibs", 2))
test_kill_9_through_a_villages_session = e2e()(session("villages", 3))
test_kill_9_through_a_danish_session = e2e()(session("danish", 4))
test_kill_9_through_a_euro_session = e2e()(session("euro", 5))
