"""The club's pages, black-box (issue 37's "Done when"): the bot process serves them itself
at CHOUETTE_WEB_BIND, and a whole session ends with a link on its final sheet that opens its
page (CHOUETTE_WEB_URL + the session's unguessable path); the same link with one letter of
its token changed opens nothing. On Discord's rate limits, and killed (kill -9) as the
session ends: the restarted bot posts the final sheet if it had not, with the same link, and
serves the page again."""

from __future__ import annotations

import socket
from typing import Any

import aiohttp

from tests.e2e.random_play import restarted
from tests.e2e.session import BOARD, KIBITZ, board, open_table, seats
from tests.e2e.support import e2e

LINK = 5  # a link button's style


def free_port() -> int:
    """A port of 127.0.0.1 nothing listens at now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(url) as answer:
        return answer.status, await answer.text()


def test_a_whole_session_ends_with_a_link_that_opens_its_page() -> None:
    port = free_port()  # chosen as the bot starts: the tests run in parallel
    base = f"http://127.0.0.1:{port}"

    @e2e(env={"CHOUETTE_WEB_BIND": f"127.0.0.1:{port}", "CHOUETTE_WEB_URL": base},
         rate_limits=True)
    async def whole_session_with_its_page(drv: Any) -> None:
        await open_table(drv, "alice", "bob", "carol", mode="scorekeeper")
        await drv.click("alice", board(drv), label="Start game")
        box, (captain, *_) = seats(drv)
        await drv.slash(box, KIBITZ, "chouette result", winner="team")
        await drv.click(captain, board(drv), label="Confirm the result")
        await drv.slash(box, KIBITZ, "chouette end")
        await restarted(drv)  # kill -9 as the session ends: the sheet is shown once, after
        (final,) = [m for m in drv.messages(BOARD) if m["content"].startswith("**Final score**")]
        (link,) = [b for b in drv.buttons(final) if b["style"] == LINK]
        assert link["label"] == "Session page" and "custom_id" not in link, link
        url = link["url"]
        assert url.startswith(f"{base}/s/"), url
        status, html = await get(url)
        assert status == 200, html
        for player in ("alice", "bob", "carol"):
            assert player in html, player
        token = url.rsplit("/", 1)[1]
        other = "B" if token[0] == "A" else "A"
        status, _ = await get(url.removesuffix(token) + other + token[1:])
        assert status == 404
        log = drv.log_path.read_text()
        assert f"the club's pages are served at http://127.0.0.1:{port}/" in log
        assert "not served" not in log

    whole_session_with_its_page()
