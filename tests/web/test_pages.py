"""Issue 37: a session's page and a game's replay, as aiohttp serves them from a real store
(a table made from a transcript, as `python -m bot scenario --db` makes it, and its game
analysed by the real gnubg worker at 0 ply); the safety headers and the plain 404s."""

from __future__ import annotations

import hashlib
import html
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.analysis.queue import AnalysisStore
from bot.analysis.transcript import transcripts
from bot.analysis.worker import analyse_game
from bot.app import scenario
from bot.render.drawing import Drawing
from bot.store import EventStore
from bot.web.links import Links, token
from bot.web.server import HEADERS, Pages

DATA = Path(__file__).parents[1] / "analysis" / "data"
GAME = (DATA / "chouette.jsonl").read_text()  # Ann the Box, Bob and Cy: doubles, a beaver
TABLE = "scenario-" + hashlib.sha256(GAME.encode()).hexdigest()[:16]


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[tuple[TestClient[Any, Any], str]]:
    db = tmp_path / "store.sqlite3"
    await scenario.run_stored(GAME, db)
    async with EventStore(db) as store:
        events = [s.event for s in await store.events.stored(TABLE)]
        (number, lines), = transcripts(events).items()
        await AnalysisStore(store).save(TABLE, number, 0, await analyse_game(lines, 0))
        async with TestClient(TestServer(Pages(store, Drawing(0)).app())) as client:
            yield client, await Links(store).session(TABLE)


def text(page: str) -> str:
    """The page's words, tags out, entities read."""
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


async def test_the_session_page_shows_the_sheet_the_breakdown_the_games_and_the_dice(
        site: tuple[TestClient[Any, Any], str]) -> None:
    client, path = site
    answer = await client.get(path)
    assert answer.status == 200
    assert answer.content_type == "text/html"
    words = text(await answer.text())
    assert "Rule set: atlanta" in words
    # the columns in the seating of the next game; game 1's totals and changes; the total
    assert "Game Bob Cy Ann 1 +2 +2 -4 -4 +2 +2 Total +2 -4 +2" in words
    assert "Who pays whom Cy pays Ann 2 Cy pays Bob 2" in words
    assert "Game 1 : Box Ann, Captain Bob. The Team wins (single)." in words
    assert "GNU Backgammon, 0-ply" in words and "mEMG" in words  # each player's figures
    assert "House rules" in words


async def test_each_decision_is_shown_at_the_step_where_it_was_made(
        site: tuple[TestClient[Any, Any], str]) -> None:
    client, path = site
    steps = []
    for index in range(40):
        answer = await client.get(f"{path}/game/1/{index}")
        if answer.status == 404:
            break
        steps.append(text(await answer.text()))
    assert 10 < len(steps) < 40
    def at(line: str) -> str:  # the verdicts at the step of this line of the record
        found = [s for s in steps if f"▶ ⏭ {line}" in s]
        assert len(found) == 1, line
        return found[0].split("GNU Backgammon", 1)[-1].split("Cubes")[0]

    # the opening 3-1 played 24/23 8/5: gnubg's best is 8/5 6/5, a very bad error; then,
    # on that board, Bob's and Cy's cubes not turned (no loss)
    assert " ".join(at("Box plays 24/23 8/5.").split()) == (
        "Ann : played 24/23 8/5 with 3-1, best 8/5 6/5, -0.317 (very bad) "
        "Bob : no double Cy : no double")
    assert " ".join(at("Team plays 8/5 8/2*.").split()).startswith(
        "Bob : played 8/5 8/2* with 6-3,")
    assert "Ann : beavered Cy's 2-cube that was a take, -0.075 (bad)" in " ".join(
        at("Ann: beaver (Cy v Ann, cube 4).").split())
    assert " ".join(at("Cy: drop (Cy v Ann, cube 4).").split()) == (
        "Cy : dropped an 8-cube that was a take, -0.859 (very bad)")
    assert "▶ ⏭ Team rolls 6-3. Cubes" in " ".join(steps)  # a roll decides nothing
    assert "Cy v Ann, cube 4: Ann won · dropped" in steps[-2]  # every cube's state


async def test_the_board_of_a_step_is_a_png_and_each_team_player_has_a_match_file(
        site: tuple[TestClient[Any, Any], str]) -> None:
    client, path = site
    board = await client.get(f"{path}/game/1/2.png")
    assert board.status == 200 and board.content_type == "image/png"
    assert (await board.read()).startswith(b"\x89PNG")
    files = [await client.get(f"{path}/game/1/cube-{i}.mat") for i in range(3)]
    assert [f.status for f in files] == [200, 200, 404]  # Bob's and Cy's, the Box has none
    assert "attachment" in files[0].headers["Content-Disposition"]
    assert "Jacoby" in await files[0].text()


async def test_every_answer_has_the_safety_headers_and_sets_no_cookie(
        site: tuple[TestClient[Any, Any], str]) -> None:
    client, path = site
    for url in (path, f"{path}/game/1/0", f"{path}/game/1/0.png", "/static/style.css",
                "/nothing"):
        answer = await client.get(url)
        for name, value in HEADERS.items():
            assert answer.headers[name] == value, (url, name)
        assert "Set-Cookie" not in answer.headers
    policy = HEADERS["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert "form-action 'none'" in policy


async def test_a_bad_or_unknown_link_is_a_plain_404(
        site: tuple[TestClient[Any, Any], str]) -> None:
    client, path = site
    changed = path[:-1] + ("A" if path[-1] != "A" else "B")
    wrong_secret = "/s/" + token(b"not the store's secret", TABLE)
    for url in ("/", "/s/", changed, wrong_secret, f"/s/{TABLE}", f"{path}/game/2",
                f"{path}/game/1/999", f"{path}/game/1/999.png", f"{path}/game/x",
                "/club/nothing", "/static/../bot/config.py"):
        answer = await client.get(url)
        assert answer.status == 404, url
        assert answer.content_type == "text/plain", url
    assert (await client.post(path)).status == 405  # read-only


async def test_links_are_the_same_from_every_process_and_not_the_tables_ids(
        tmp_path: Path) -> None:
    db = tmp_path / "store.sqlite3"
    await scenario.run_stored(GAME, db)
    async with EventStore(db) as one, EventStore(db) as two:
        path = await Links(one).session(TABLE)
        assert path == await Links(two).session(TABLE)
        assert TABLE not in path and len(path.rsplit("/", 1)[1]) == 22  # 128 bits
        assert await Links(two).table(path.rsplit("/", 1)[1]) == TABLE
