"""Issue 37, the club's standings: a server's players by points over a month or all time,
their gnubg rates and running scores, and each player's own page, as aiohttp serves them
from a real store (sessions made from transcripts as `python -m bot scenario --db` makes
them, one game analysed by the real gnubg worker at 0 ply); the pure computation apart."""

from __future__ import annotations

import hashlib
import html
import json
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.analysis.queue import AnalysisStore
from bot.analysis.text import Figures
from bot.analysis.transcript import transcripts
from bot.analysis.worker import analyse_game
from bot.app import scenario
from bot.app.service import TableService
from bot.records.stats import PlayerStats
from bot.render.drawing import Drawing
from bot.store import EventStore
from bot.store.channels import Channels
from bot.web import chart, standings
from bot.web.links import Links
from bot.web.server import Pages
from rules.transcript import parse

GUILD, OTHER = 11, 22
XSS = "<script>alert(1)</script>"
DATA = Path(__file__).parents[1] / "analysis" / "data"
# December 2024: Ann the Box, Bob and Cy (no names given: shown by their keys), analysed:
# Cy pays Ann 4 and Ann pays Bob 2 (Ann +2, Bob +2, Cy -4)
DECEMBER = (DATA / "chouette.jsonl").read_text()


def transcript(*lines: dict[str, Any]) -> str:
    return "\n".join(json.dumps(line) for line in lines) + "\n"


def joined(*players: tuple[str, str]) -> list[dict[str, Any]]:
    return [{"cmd": "open", "preset": "atlanta", "mode": "scorekeeper"},
            *({"cmd": "join", "by": key, "name": name} for key, name in players)]


# January 2025, twice. Atlanta: a game won without a cube turned pays single, 1 a player.
# The 5th: Box Ann wins twice against Bob and Cy: Ann +4, Bob -2, Cy -2.
FIFTH = transcript(*joined(("Ann", "Ann"), ("Bob", "Bob"), ("Cy", XSS)),
                   {"cmd": "seat", "order": ["Ann", "Bob", "Cy"]},
                   *[{"cmd": "start"}, {"cmd": "result", "winner": "box", "kind": "single"}] * 2,
                   {"cmd": "end_session"})
# The 19th: Box Bob loses to Cy, Ann and Dee: Bob -3, the others +1.
NINETEENTH = transcript(*joined(("Bob", "Bob"), ("Cy", XSS), ("Ann", "Ann"), ("Dee", "Dee")),
                        {"cmd": "seat", "order": ["Bob", "Cy", "Ann", "Dee"]},
                        {"cmd": "start"}, {"cmd": "result", "winner": "team", "kind": "single"})
# Another server's session: none of its players or points on GUILD's pages.
ELSEWHERE = transcript(*joined(("Zed", "Zed"), ("Yul", "Yul"), ("Xi", "Xi")),
                       {"cmd": "seat", "order": ["Zed", "Yul", "Xi"]},
                       {"cmd": "start"}, {"cmd": "result", "winner": "box", "kind": "single"})
OPENED = {DECEMBER: "2024-12-20", FIFTH: "2025-01-05", NINETEENTH: "2025-01-19",
          ELSEWHERE: "2025-01-07"}


def table(text: str) -> str:
    return "scenario-" + hashlib.sha256(text.encode()).hexdigest()[:16]


def unix(day: str) -> int:
    return int(datetime.strptime(f"{day} 20:00", "%Y-%m-%d %H:%M").replace(
        tzinfo=UTC).timestamp())


Site = tuple[TestClient[Any, Any], EventStore, str]


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    """The four sessions stored, each tied to its server and opened on its day (the stored
    times set back in the store); December's game analysed; GUILD's standings on."""
    db = tmp_path / "store.sqlite3"
    for number, text in enumerate(OPENED, 1):
        assert (await scenario.run_stored(text, db))["rejected"] == []
        async with EventStore(db) as store:
            await store.channels.save(Channels(table(text), OTHER if text == ELSEWHERE
                                               else GUILD, *range(number * 10, number * 10 + 5)))
            await store.db.execute("UPDATE events SET at = ? + version WHERE table_id = ?",
                                   (unix(OPENED[text]), table(text)))
    async with EventStore(db) as store:
        events = [s.event for s in await store.events.stored(table(DECEMBER))]
        (number, lines), = transcripts(events).items()
        await AnalysisStore(store).save(table(DECEMBER), number, 0,
                                        await analyse_game(lines, 0))
        club = await Links(store).turn_club(GUILD, True)
        assert club is not None
        async with TestClient(TestServer(Pages(store, Drawing(0)).app())) as client:
            yield client, store, club


def text(page: str) -> str:
    """The page's words, tags out, entities read."""
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))



def rows(page: str, name: str) -> list[list[str]]:
    """The rows of the page's table of class `name`, each as its cells' words."""
    body = re.search(rf'<table class="{name}">.*?<tbody>(.*?)</tbody>', page, re.S)
    assert body is not None, name
    return [[text(cell).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row,
                                                       re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", body.group(1), re.S)]


async def get(client: TestClient[Any, Any], url: str) -> str:
    answer = await client.get(url)
    assert answer.status == 200, url
    assert answer.content_type == "text/html"
    return await answer.text()


async def test_all_time_the_players_are_ordered_by_points_with_their_sessions_and_games(
        site: Site) -> None:
    client, _, club = site
    page = await get(client, club)
    # Ann 2 + 4 + 1, Dee 1, Bob 2 - 2 - 3, Cy -4 - 2 + 1; Cy by the name he joined under
    assert rows(page, "standings") == [["1", "Ann", "+7", "3", "4"],
                                       ["2", "Dee", "+1", "1", "1"],
                                       ["3", "Bob", "-3", "3", "4"],
                                       ["4", XSS, "-5", "3", "4"]]
    assert "Zed" not in page and "Yul" not in page  # another server's players
    assert "All time" in text(page) and "Sessions: 3" in text(page)
    months = re.findall(r'<a href="([^"]*\?month=[^"]*)">', page)
    assert months == [f"{club}?month=2025-01", f"{club}?month=2024-12"]  # newest first
    figures = rows(page, "figures")  # December's analysed game: Ann, Bob and Cy
    assert [r[0] for r in figures] == ["Ann", "Bob", XSS]
    assert all(re.fullmatch(r"-?\d+\.\d mEMG", cell) for r in figures for cell in r[3:4])
    assert all(r[4] for r in figures)  # gnubg's rating word


async def test_a_game_played_since_the_last_view_is_in_the_next(site: Site) -> None:
    client, store, club = site
    assert rows(await get(client, club), "standings")[0] == ["1", "Ann", "+7", "3", "4"]
    # at the 19th's table, Cy (Box since Bob lost) wins two more: +3 each, the Team -1 each
    service = TableService(store)
    state = await service.state(table(NINETEENTH))
    assert state.seating is not None and state.seating.box == "Cy"
    for number, line in enumerate([{"cmd": "start"},
                                   {"cmd": "result", "winner": "box", "kind": "single"}] * 2):
        outcome = await service.handle(table(NINETEENTH), parse(line), f"more:{number}")
        assert outcome.accepted, outcome.reason
    assert rows(await get(client, club), "standings") == [["1", "Ann", "+5", "3", "6"],
                                                          ["2", XSS, "+1", "3", "6"],
                                                          ["3", "Dee", "-1", "1", "3"],
                                                          ["4", "Bob", "-5", "3", "6"]]


async def test_a_month_counts_only_the_sessions_opened_in_it(site: Site) -> None:
    client, _, club = site
    january = await get(client, f"{club}?month=2025-01")
    assert rows(january, "standings") == [["1", "Ann", "+5", "2", "3"],
                                          ["2", "Dee", "+1", "1", "1"],
                                          ["3", XSS, "-1", "2", "3"],
                                          ["4", "Bob", "-5", "2", "3"]]
    assert "mEMG" not in january  # December's analysed game is left out, its rates too
    assert f'<a href="{club}">All time</a>' in january
    assert '<span aria-current="page">2025-01</span>' in january
    december = await get(client, f"{club}?month=2024-12")
    assert rows(december, "standings") == [["1", "Ann", "+2", "1", "1"],
                                           ["2", "Bob", "+2", "1", "1"],
                                           ["3", "Cy", "-4", "1", "1"]]
    assert "mEMG" in december and "Dee" not in december
    empty = await get(client, f"{club}?month=2023-05")
    assert "No session was opened" in empty and "<svg" not in empty
    assert (await client.get(f"{club}?month=2025-1")).status == 404


async def test_the_chart_draws_each_players_running_score_with_his_name(site: Site) -> None:
    client, _, club = site
    page = await get(client, club)
    svg = re.search(r"<svg .*?</svg>", page, re.S)
    assert svg is not None and 'viewBox="0 0 ' in svg.group()
    assert [text(t).strip() for t in re.findall(r"<g><title>(.*?)</title>", svg.group())] == [
        "Ann", "Dee", "Bob", XSS]  # the legend, in the standings' order
    lines = re.findall(r'<polyline points="([^"]*)"', svg.group())
    assert [len(line.split()) for line in lines] == [3, 3, 3, 3]  # three sessions each
    assert "2024-12-20" in svg.group() and "2025-01-19" in svg.group()  # the x axis


async def test_a_name_is_escaped_everywhere_and_no_page_has_a_script_or_inline_style(
        site: Site) -> None:
    client, _, club = site
    pages = [await get(client, club), await get(client, f"{club}?month=2025-01"),
             await get(client, f"{club}/player/Cy")]
    for page in pages:
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
        assert "<script" not in page and "style=" not in page


async def test_a_players_page_has_his_totals_sessions_and_rates_and_links_back(
        site: Site) -> None:
    client, store, club = site
    page = await get(client, f"{club}/player/Ann")
    words = text(page)
    assert "Points: +7 · Sessions: 3 · Games: 4 · 2024-12-20 – 2025-01-19" in words
    assert f'<a href="{club}">' in page  # back to the standings
    sessions = rows(page, "sessions")
    assert [r[:3] for r in sessions] == [["2025-01-19", "+1", "1"], ["2025-01-05", "+4", "2"],
                                         ["2024-12-20", "+2", "1"]]
    assert [bool(r[3]) for r in sessions] == [False, False, True]  # December's analysed
    links = Links(store)
    assert re.findall(r'<a href="(/s/[^"]+)">', page) == [
        await links.session(table(t)) for t in (NINETEENTH, FIFTH, DECEMBER)]
    for path in re.findall(r'<a href="(/s/[^"]+)">', page):
        assert "Chouette session" in await get(client, path)
    svg = re.search(r"<svg .*?</svg>", page, re.S)  # his overall rate, one session analysed
    assert svg is not None and len(re.findall(r"<circle ", svg.group())) == 1
    dee = await get(client, f"{club}/player/Dee")
    assert "Points: +1 · Sessions: 1 · Games: 1" in text(dee) and "<svg" not in dee


async def test_standings_turned_off_or_a_wrong_link_or_player_are_a_plain_404(
        site: Site) -> None:
    client, store, club = site
    for url in ("/club/nothing", "/club/nothing/player/Ann", f"{club}/player/Nobody",
                f"{club}/player/Zed", f"{club}/player/"):
        assert (await client.get(url)).status == 404, url
    links = Links(store)
    assert await links.turn_club(GUILD, False) is None
    for url in (club, f"{club}?month=2025-01", f"{club}/player/Ann"):
        assert (await client.get(url)).status == 404, url
    again = await links.turn_club(GUILD, True)
    assert again is not None and again != club
    assert (await client.get(again)).status == 200 and (await client.get(club)).status == 404
    assert (await client.get(await links.turn_club(OTHER, True) or "")).status == 200


# -- the pure computation --------------------------------------------------------------------

def played(table_id: str, day: str, **points: int) -> standings.Played:
    return standings.Played(table_id, unix(day), {
        key: PlayerStats(key, name=key.title(), sessions=1, games=2, points=Fraction(value))
        for key, value in points.items()})


SESSIONS = [played("t1", "2025-01-05", ann=3, bob=-3), played("t2", "2025-02-01", bob=2, cy=-2),
            played("t3", "2025-02-09", ann=-1, cy=1)]


def test_the_running_score_sums_each_players_points_session_by_session() -> None:
    found = standings.running(SESSIONS)
    assert found.labels == ("2025-01-05", "2025-02-01", "2025-02-09")
    assert found.series == (chart.Series("Ann", (3.0, 3.0, 2.0)),  # most points first
                            chart.Series("Bob", (-3.0, -1.0, -1.0)),
                            chart.Series("Cy", (0.0, -2.0, -1.0)))  # 0 before his first


def test_months_are_newest_first_and_a_month_keeps_the_sessions_opened_in_it() -> None:
    untimed = standings.Played("t0", None, {})
    assert standings.months([*SESSIONS, untimed]) == ("2025-02", "2025-01")
    assert [p.table_id for p in standings.in_month(SESSIONS, "2025-02")] == ["t2", "t3"]
    assert standings.in_month([*SESSIONS, untimed], None)[-1] is untimed
    assert [p.table_id for p in standings.in_order([SESSIONS[2], untimed, SESSIONS[0]])] == [
        "t0", "t1", "t3"]


def test_the_standings_order_by_points_and_sum_each_players_figures() -> None:
    figures = {"ann": (Figures(10, 1, 0.05), Figures(2, 0, 0.01))}
    found = standings.standings(SESSIONS, figures, lambda key: f"/p/{key}")
    assert [(s.name, s.points, s.sessions, s.games, s.link) for s in found] == [
        ("Ann", "+2", 2, 4, "/p/ann"), ("Bob", "-1", 2, 4, "/p/bob"), ("Cy", "-1", 2, 4, "/p/cy")]
    assert found[0].figures is not None and found[0].figures.overall == "-5.0 mEMG"
    assert found[1].figures is None  # (a tie on points and games: by name)


def test_a_players_rates_chart_has_a_point_for_each_analysed_session_oldest_first() -> None:
    figures = {"t3": (Figures(20, 2, 0.2), Figures()), "t1": (Figures(10, 0, 0.02), Figures())}
    found = standings.rates("Ann", SESSIONS, figures)
    assert found == chart.Chart((chart.Series("Ann", (-2.0, -10.0)),),
                                ("2025-01-05", "2025-02-09"))
    assert standings.rates("Ann", SESSIONS, {}).series == ()
    page = standings.page_of("ann", SESSIONS, figures, {"t1": "/s/1", "t3": "/s/3"})
    assert page is not None and [line.link for line in page.lines] == ["/s/3", "/s/1"]
    assert page.figures is not None and page.figures.overall == "-7.3 mEMG"  # 0.22 in 30
    assert standings.page_of("dee", SESSIONS, figures, {}) is None


def test_the_chart_escapes_every_text_and_scales_by_its_view_box() -> None:
    drawn = chart.Chart((chart.Series(XSS, (1.0, -2.5)), chart.Series("a&b", (0.0, 4.0))),
                        ("<b>", "2025-01-02")).svg("t<", "x\"", "y'")
    assert "<script" not in drawn and "<b>" not in drawn
    assert drawn.count("&lt;script&gt;alert(1)&lt;/script&gt;") == 2  # line's, legend's title
    assert "&gt;alert(1)&lt;/scrip…</text>" in drawn  # the legend cuts a long name short
    assert "a&amp;b" in drawn and "t&lt;" in drawn and "x&quot;" in drawn and "y&#x27;" in drawn
    assert re.match(r'<svg class="chart" viewBox="0 0 480 \d+"', drawn)
    assert "width=" not in drawn.split(">")[0] and "style=" not in drawn
    assert chart.Chart((), ()).svg("t", "x", "y") == ""


def test_the_y_axis_has_round_values_around_the_points() -> None:
    assert chart.ticks(-2.5, 4) == (-4.0, -2.0, 0.0, 2.0, 4.0)
    assert chart.ticks(0, 23) == (0.0, 5.0, 10.0, 15.0, 20.0, 25.0)
    assert chart.ticks(-7.3, 0) == (-8.0, -6.0, -4.0, -2.0, 0.0)
    assert chart.ticks(0, 0) == (-1.0, -0.5, 0.0, 0.5, 1.0)
    assert [chart.shown(v) for v in (-0.0, 2.5, 10.0)] == ["0", "2.5", "10"]
    assert chart.picked(3) == (0, 1, 2) and chart.picked(21) == (0, 5, 10, 15, 20)


async def test_a_danish_club_reads_its_pages_in_danish(tmp_path: Path) -> None:
    """The pages are in the language of the club's tables (`/chouette open` keeps the
    server's): a Danish table's session page, and its club's standings and player pages."""
    danish = transcript({"cmd": "open", "preset": "danish", "mode": "scorekeeper",
                       "language": "da"},
                      *({"cmd": "join", "by": key, "name": key} for key in ("Ann", "Bob", "Cy")),
                      {"cmd": "seat", "order": ["Ann", "Bob", "Cy"]},
                      {"cmd": "start"}, {"cmd": "result", "winner": "box", "kind": "single"})
    db = tmp_path / "store.sqlite3"
    assert (await scenario.run_stored(danish, db))["rejected"] == []
    async with EventStore(db) as store:
        await store.channels.save(Channels(table(danish), GUILD, 1, 2, 3, 4, 5))
        club = await Links(store).turn_club(GUILD, True)
        session = await Links(store).session(table(danish))
        async with TestClient(TestServer(Pages(store, Drawing(0)).app())) as client:
            assert "Pointliste" in text(await get(client, session))
            standing = await get(client, str(club))
            assert "Klubbens stilling" in text(standing) and "Hele tiden" in text(standing)
            player = re.search(r'href="([^"]*/player/Ann)"', standing)
            assert player is not None
            assert "Tilbage til klubbens stilling" in text(await get(client, player.group(1)))
