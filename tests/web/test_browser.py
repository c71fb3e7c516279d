"""Issue 37, items 6 and 7, in a real browser: Debian's Chromium driven by Selenium through
chromium-driver (`make test` installs both where they are missing), against `python -m bot web`
serving a store made by `python -m bot scenario` from a play-mode transcript whose players
have hostile names (data/hostile_play.jsonl), its game analysed by gnubg, its table on a
server whose club standings are on. One web process and one Chromium for the module."""

from __future__ import annotations

import asyncio
import json
import os
import re
import select
import socket
import struct
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.wait import WebDriverWait

from bot.analysis.queue import AnalysisStore
from bot.analysis.transcript import transcripts
from bot.analysis.worker import analyse_game
from bot.store import EventStore
from bot.store.channels import Channels
from bot.web.links import Links

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = Path(__file__).parent / "data" / "hostile_play.jsonl"
PLAIN = ROOT / "tests" / "scenarios" / "atlanta_play.jsonl"  # a table without a server
BOX = "<script>window.__hacked=1</script>"
CAPTAIN = '"><img src=x onerror="window.__hacked=2">'
NAMES = [BOX, CAPTAIN, 'Ann & Bob\'s "table"', "{{ 7*7 }}", "javascript:alert(1)",
         "Hubert Wolfeschlegelsteinhausenbergerdorff", "Ζωή 田中太郎"]
GUILD = 4242
CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync",  # the network is closed: background networking would hang it
         "--hide-scrollbars")  # as on a phone: a scroll bar takes no room from the page
WAIT = 15.0  # seconds


@dataclass(frozen=True)
class Site:
    """The web process's address, the hostile table's page and the plain table's."""

    url: str
    page: str
    plain: str


def bot(*args: str, env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-m", "bot", *args], cwd=ROOT, env=env, text=True,
                          capture_output=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def pages(db: Path, env: dict[str, str]) -> dict[str, str]:
    """Each table's page, by its id (`python -m bot links`)."""
    rows = [json.loads(line) for line in bot("links", "--db", str(db), env=env).splitlines()]
    return {row["table"]: row["page"] for row in rows}


async def analyse_and_put_on_a_server(db: Path, table_id: str) -> None:
    """The table's game analysed at 0 ply, the table on the server GUILD, its club on."""
    async with EventStore(db) as store:
        events = [s.event for s in await store.events.stored(table_id)]
        (number, lines), = transcripts(events).items()
        await AnalysisStore(store).save(table_id, number, 0, await analyse_game(lines, 0))
        await store.channels.save(Channels(table_id, GUILD, 1, 2, 3, 4, 5))
        await Links(store).turn_club(GUILD, True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    home = tmp_path_factory.mktemp("web")
    db = home / "club.sqlite3"
    env = {**os.environ, "CHOUETTE_ENV_FILE": str(home / "none.env")}
    bot("scenario", str(HOSTILE), "--db", str(db), env=env)
    (table_id, page), = pages(db, env).items()
    bot("scenario", str(PLAIN), "--db", str(db), env=env)
    plain, = (p for t, p in pages(db, env).items() if t != table_id)
    asyncio.run(analyse_and_put_on_a_server(db, table_id))
    port = free_port()
    with (home / "web.err").open("w") as err:
        web = subprocess.Popen([sys.executable, "-m", "bot", "web", "--db", str(db),
                                "--bind", f"127.0.0.1:{port}"], cwd=ROOT, env=env, text=True,
                               stdout=subprocess.PIPE, stderr=err)
    try:
        assert web.stdout is not None
        assert select.select([web.stdout], [], [], WAIT)[0], "python -m bot web never came up"
        up = web.stdout.readline()
        assert up == f"chouette-bot: the club's pages at http://127.0.0.1:{port}/\n", (
            up + (home / "web.err").read_text())
        yield Site(f"http://127.0.0.1:{port}", page, plain)
    finally:
        web.terminate()
        try:
            web.wait(timeout=WAIT)
        finally:
            web.kill()


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    options = Options()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium')}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    driver.set_window_size(1280, 900)
    try:
        yield driver
    finally:
        driver.quit()


def open_page(browser: WebDriver, url: str, width: int = 1280, height: int = 900) -> None:
    browser.set_window_size(width, height)
    browser.get(url)


def violations(browser: WebDriver) -> list[str]:
    """The Content-Security-Policy violations the console logged since last asked."""
    return [e["message"] for e in browser.get_log("browser")
            if "Content Security Policy" in e["message"]]


def get(url: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(url, timeout=WAIT) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def texts(browser: WebDriver, css: str) -> list[str]:
    return [e.text for e in browser.find_elements(By.CSS_SELECTOR, css)]


def nothing_ran(browser: WebDriver) -> None:
    assert browser.execute_script("return window.__hacked") is None
    assert browser.find_elements(By.CSS_SELECTOR, "[onerror], img[src=x], a[href^=javascript]"
                                 ) == []
    assert all(s.get_attribute("src") and not s.get_attribute("textContent")
               for s in browser.find_elements(By.TAG_NAME, "script"))


def test_the_session_page_shows_every_hostile_name_as_text_and_runs_nothing(
        site: Site, browser: WebDriver) -> None:
    open_page(browser, site.url + site.page)
    assert browser.title.startswith("Session ") and browser.title.endswith(" · chouette-bot")
    assert texts(browser, "h1") == ["Chouette session"]
    assert sorted(texts(browser, "table.sheet thead th")) == sorted(["Game", *NAMES])
    assert texts(browser, "table.sheet tbody th") == ["1"]
    # the same names in the game's figures, the session's and the breakdown, as plain text
    assert sorted(texts(browser, "li#game-1 table.figures tbody th")) == sorted(NAMES)
    assert sorted(texts(browser, "#games > h3 + .scroll table.figures tbody th")) == sorted(NAMES)
    assert 'Ann & Bob\'s "table" pays <script>window.__hacked=1</script> 1' in texts(
        browser, "ul.breakdown li")
    assert texts(browser, "li#game-1")[0].startswith(
        f"Game 1: Box {BOX}, Captain {CAPTAIN}. ")
    nothing_ran(browser)


def test_the_replay_steps_with_the_keyboard(site: Site, browser: WebDriver) -> None:
    open_page(browser, site.url + site.page)
    browser.find_element(By.LINK_TEXT, "Game 1").click()
    game = f"{site.url}{site.page}/game/1"
    assert browser.current_url == game
    count = int(texts(browser, "nav.steps .count")[0].split(" / ")[1])
    assert count > 10

    def press(key: str, index: int) -> None:
        browser.find_element(By.TAG_NAME, "body").send_keys(key)
        WebDriverWait(browser, WAIT).until(ec.url_to_be(f"{game}/{index}"))
        WebDriverWait(browser, WAIT).until(ec.text_to_be_present_in_element(
            (By.CSS_SELECTOR, "nav.steps .count"), f"{index + 1} / {count}"))

    lines = [texts(browser, "#line")[0]]
    for index in range(1, 4):
        press(Keys.ARROW_RIGHT, index)
        lines.append(texts(browser, "#line")[0])
    assert len(set(lines)) == 4  # each step its own line of the record
    press(Keys.ARROW_LEFT, 2)
    assert texts(browser, "#line") == [lines[2]]
    press(Keys.END, count - 1)
    assert browser.find_elements(By.CSS_SELECTOR, 'a[rel="next"], a[rel="last"]') == []
    press(Keys.HOME, 0)
    assert browser.find_elements(By.CSS_SELECTOR, 'a[rel="prev"], a[rel="first"]') == []
    board = browser.find_element(By.CSS_SELECTOR, "img.board")
    assert board.get_attribute("src") == f"{game}/0.png"
    WebDriverWait(browser, WAIT).until(
        lambda b: b.execute_script("return arguments[0].complete", board))
    assert browser.execute_script("return arguments[0].naturalWidth", board) > 0
    # each Team player's match file, named as text
    assert sorted(texts(browser, "#files li a")) == sorted(NAMES[1:])
    nothing_ran(browser)


def test_the_pages_carry_the_policy_and_set_no_cookie_and_the_browser_enforces_it(
        site: Site, browser: WebDriver) -> None:
    for path in (site.page, f"{site.page}/game/1/0", f"{site.page}/game/1/0.png",
                 "/static/replay.js", "/nothing"):
        _, headers, _ = get(site.url + path)
        policy = headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy, path
        assert "form-action 'none'" in policy, path
        assert "Set-Cookie" not in headers, path
    for path in (site.page, f"{site.page}/game/1/3"):
        open_page(browser, site.url + path)
        assert browser.find_elements(By.TAG_NAME, "form") == []
        nothing_ran(browser)
        assert violations(browser) == []  # the page's own script and style are allowed
    assert browser.get_cookies() == []
    blocked = browser.execute_async_script(  # an inline script put in the page runs not
        "const done = arguments[0];"
        "document.addEventListener('securitypolicyviolation', e => done(e.effectiveDirective));"
        "const s = document.createElement('script'); s.textContent = 'window.__hacked = 3';"
        "document.body.append(s)")
    assert blocked == "script-src-elem"
    assert browser.execute_script("return window.__hacked") is None


def test_a_bad_or_unknown_link_is_a_plain_404(site: Site) -> None:
    _, _, replay = get(f"{site.url}{site.page}/game/1")
    found = re.search(rb'class="count">1 / (\d+)<', replay)
    assert found
    token = site.page.removeprefix("/s/")
    changed = "/s/" + ("B" if token[0] == "A" else "A") + token[1:]
    for path in (changed, "/s/", "/", f"{site.page}/game/2", f"{site.page}/game/0",
                 f"{site.page}/game/1/{int(found[1])}", f"{site.page}/game/1/99.png"):
        status, headers, body = get(site.url + path)
        assert status == 404, path
        assert headers["Content-Type"].startswith("text/plain"), path
        assert body in (b"Not found", b"404: Not Found"), path


def test_the_session_page_links_to_the_club_standings(site: Site, browser: WebDriver) -> None:
    open_page(browser, site.url + site.plain)
    assert browser.find_elements(By.CSS_SELECTOR, 'a[href^="/club/"]') == []  # no server
    open_page(browser, site.url + site.page)
    browser.find_element(By.CSS_SELECTOR, 'a[href^="/club/"]').click()
    assert re.fullmatch(rf"{site.url}/club/[\w-]+", browser.current_url)
    page = browser.find_element(By.TAG_NAME, "body").text
    assert [name for name in NAMES if name not in page] == []
    nothing_ran(browser)


def png_width(data: bytes) -> int:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width: int = struct.unpack(">I", data[16:20])[0]
    return width


def test_screenshots_at_a_phones_width_and_a_desks(
        site: Site, browser: WebDriver, tmp_path_factory: pytest.TempPathFactory) -> None:
    folder = tmp_path_factory.mktemp("screenshots")
    print(f"screenshots: {folder}")
    wider = {}  # the pages wider than the window: the sheet must scroll in its own box
    for width in (400, 1280):
        for name, path in (("session", site.page), ("replay", f"{site.page}/game/1/8")):
            open_page(browser, site.url + path, width)
            WebDriverWait(browser, WAIT).until(lambda b: b.execute_script(
                "return [...document.images].every(i => i.complete && i.naturalWidth > 0)"))
            browser.set_window_size(width, browser.execute_script(  # the whole page
                "return document.documentElement.scrollHeight + outerHeight - innerHeight"))
            data = browser.get_screenshot_as_png()
            (folder / f"{name}-{width}.png").write_bytes(data)
            assert png_width(data) == width
            if (found := browser.execute_script(
                    "return document.documentElement.scrollWidth")) != width:
                wider[f"{name}-{width}"] = found
    assert wider == {}
