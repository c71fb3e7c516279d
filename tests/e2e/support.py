"""Black-box tests: the bot run as its own process (`python -m bot run`) against the fake
Discord of `harness/` (a copy of ../shared/e2e, kept faithful to Discord's documentation),
with exactly the permissions the README's invite asks for."""

from __future__ import annotations

import asyncio
import os
import re
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

HARNESS = Path(__file__).resolve().parent / "harness"
sys.path.insert(0, str(HARNESS))

from driver import Driver, DriverError, InteractionFailed  # noqa: E402
from fake_discord import FakeDiscord, Perm  # noqa: E402

PROJECT = Path(__file__).resolve().parents[2]
README = (PROJECT / "README.md").read_text()
INVITE = int(re.search(r"permissions=(\d+)", README)[1])  # type: ignore[index]

__all__ = ["INVITE", "PROJECT", "Driver", "DriverError", "FakeDiscord", "InteractionFailed",
           "Perm", "e2e"]

Test = Callable[[Driver], Awaitable[None]]


def e2e(*, permissions: int = INVITE, env: dict[str, str] | None = None,
        rate_limits: bool = False, **kwargs: Any) -> Callable[[Test], Callable[[], None]]:
    """A black-box test: a fresh fake Discord whose bot holds `permissions` (by default
    exactly the invite's), with Discord's rate limits if `rate_limits`, the bot started from
    this project on a database of its own, no autoroll. The test fails if the bot called a
    route the fake lacks, or if it answered any interaction late (`drv.ack_times` holds how
    long each answer took, by interaction id)."""
    def decorate(fn: Test) -> Callable[[], None]:
        def test() -> None:
            async def main() -> None:
                with tempfile.TemporaryDirectory() as tmp:
                    log_dir = Path(os.environ.get("E2E_LOG_DIR") or tmp)
                    drv = Driver(PROJECT, python=sys.executable,
                                 fake=FakeDiscord(bot_permissions=permissions,
                                                  rate_limits=rate_limits),
                                 env={"CHOUETTE_DB": f"{tmp}/chouette.sqlite3",
                                      "CHOUETTE_ENV_FILE": f"{tmp}/none.env",  # no .env
                                      "CHOUETTE_AUTOROLL": "0",
                                      "CHOUETTE_ANALYSIS_PLIES": "0",  # issue 21: quick
                                      **(env or {})},
                                 log_path=log_dir / f"e2e-{fn.__name__}.log",
                                 guild_ready_timeout=0.2, **kwargs)
                    try:
                        await drv.start()
                        drv.ack_times = time_answers(drv.fake)  # type: ignore[attr-defined]
                        await fn(drv)
                        late = [i for i in drv.fake.interactions.values()
                                if any(why == "late" for why, _ in i.rejected)]
                        if late:
                            raise DriverError(f"{len(late)} interactions answered late")
                        if drv.fake.unrouted:
                            raise DriverError("the bot called routes the fake lacks: "
                                              f"{[(c.method, c.path) for c in drv.fake.unrouted]}")
                    finally:
                        await drv.stop()
            asyncio.run(main())
        test.__name__ = test.__qualname__ = fn.__name__
        test.__doc__, test.__module__ = fn.__doc__, fn.__module__
        return test
    return decorate


def time_answers(fake: FakeDiscord) -> dict[str, float]:
    """Seconds from each interaction's arrival to the bot's first answer to it, by id,
    filled in as the bot answers (the fake's callback route, observed, unchanged)."""
    times: dict[str, float] = {}
    routes = fake._routes
    i = next(i for i, (m, rx, _) in enumerate(routes)
             if m == "POST" and rx.pattern.endswith("/callback"))
    method, pattern, callback = routes[i]

    async def timed(req: Any, body: Any, files: Any, iid: str, token: str) -> Any:
        it = fake.interactions.get(iid)
        if it is not None and it.response is None:
            times.setdefault(iid, time.monotonic() - it.created)
        return await callback(req, body, files, iid, token)

    routes[i] = (method, pattern, timed)
    return times


def hold(drv: Driver, method: str, pattern: str,
         arrived: asyncio.Event | None = None) -> asyncio.Event:
    """Make the fake Discord keep the bot's next `method` request to a path matching
    `pattern` waiting until the returned event is set: a slow network, to kill the bot in
    the middle of an action. The request is answered as usual once released. `arrived`
    is set when the request comes."""
    release = asyncio.Event()
    routes = drv.fake._routes
    i = next(i for i, (m, rx, _) in enumerate(routes)
             if m == method and rx.pattern == pattern)
    route = routes[i]

    async def slow(*args: Any, **kw: Any) -> Any:
        routes[i] = route  # the next request goes through at once
        if arrived is not None:
            arrived.set()
        await release.wait()
        return await route[2](*args, **kw)

    routes[i] = (route[0], route[1], slow)
    return release
