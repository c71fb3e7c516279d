"""GNU Backgammon's verdict after each game, black-box: a game played to its end (a Team
double taken, the Box's double dropped), the analysis posted once in #board with each
player's figures, `/chouette analysis` answering with the worst error's board, the
session's figures after the final sheet, and a kill -9 while the analysis is queued, after
which the message still comes, once."""

from __future__ import annotations

import os
import re
import sqlite3
import time
from typing import Any

from tests.e2e.random_play import delivered
from tests.e2e.session import (
    BOARD,
    KIBITZ,
    board,
    choose,
    open_table,
    play_until_roll,
    read,
    seats,
    status,
)
from tests.e2e.support import e2e

PLIES = os.environ.get("E2E_ANALYSIS_PLIES", "0")  # 2 to measure the bot's own depth
ENV = {"CHOUETTE_ANALYSIS_PLIES": PLIES}
HEAD = "**GNU Backgammon on game 1**"


async def quick_game(drv: Any) -> tuple[str, list[str]]:
    """Alice, bob and carol play a game: the Captain and the next double, the Box takes
    both, then the Box doubles and both drop. Returns (Box, Team) once the game is over."""
    await open_table(drv, "alice", "bob", "carol")
    await drv.click("alice", board(drv), label="Start game")
    box, team = seats(drv)
    while (shooter := await play_until_roll(drv)) != team[0]:
        await drv.click(shooter, board(drv), label="Roll")
    await drv.click(team[0], board(drv), label="Double")
    await drv.click(team[1], board(drv), label="Double")
    menu = await drv.click(box, board(drv), label="Answer the doubles")
    await choose(drv, box, menu, {"take": team})
    while (shooter := await play_until_roll(drv)) != box:
        await drv.click(shooter, board(drv), label="Roll")
    menu = await drv.click(box, board(drv), label="Double")
    await choose(drv, box, menu, {"double": team})
    for player in team[:-1]:
        (dm,) = [m for m in drv.dms(player) if "Drop" in drv.button_labels(m)]
        await drv.click(player, dm, label="Drop")
    (dm,) = [m for m in drv.dms(team[-1]) if "Drop" in drv.button_labels(m)]
    await drv.click(team[-1], dm, label="Drop", settle=False)  # the game's last action
    return box, team


def verdicts(drv: Any) -> list[dict[str, Any]]:
    return [m for m in drv.messages(BOARD) if m["content"].startswith(HEAD)]


def analysed(drv: Any) -> list[tuple[int, int]]:
    """The store's `analyses` rows: (game, posted)."""
    db = sqlite3.connect(f"file:{drv.extra_env['CHOUETTE_DB']}?mode=ro", uri=True)
    try:
        return db.execute("SELECT game, posted FROM analyses").fetchall()
    finally:
        db.close()


@e2e(env=ENV)
async def test_the_verdict_is_posted_after_the_game_and_shown_on_request(drv: Any) -> None:
    box, team = await quick_game(drv)
    ended = time.monotonic()
    await drv.wait_for(lambda: verdicts(drv), timeout=90)
    print(f"\nanalysis at {PLIES}-ply posted {time.monotonic() - ended:.1f} s after the "
          "game's last action")
    assert status(drv).startswith("Between games")
    await drv.settle()
    (message,) = verdicts(drv)
    lines = read(message["content"]).splitlines()
    for player in (box, *team):  # each player's figures, gnubg's overall rate and rating
        (line,) = [line for line in lines if line.startswith(f"{player}: ")]
        assert " · overall " in line and "mEMG (" in line, line
    for player in (box, team[0]):  # the Box and the Captain played the checkers
        (line,) = [line for line in lines if line.startswith(f"{player}: ")]
        assert "checker " in line, line
    assert lines[-1].startswith(("Worst: ", "No error")), lines
    assert len(message["content"]) < 800  # short, never a wall

    r = await drv.slash("dave", KIBITZ, "chouette analysis", options={"game": 1})
    assert r.acked and r.ephemeral, r
    (answer,) = r.messages
    assert "GNU Backgammon on game 1" in answer["content"]
    assert drv.pngs(answer), answer["content"]  # the worst error on its board
    assert "Error " in answer["content"]
    r = await drv.slash(team[1], KIBITZ, "chouette analysis", options={"game": 2})
    assert "There is no game 2" in r.text(), r.text()

    # /chouette stats: the Box's error rates over his analysed games, the message's own
    (line,) = [line for line in lines if line.startswith(f"{box}: ")]
    rates = re.findall(r"(checker|cube) \d+ errors? in (\d+), -[\d.]+, (-?[\d.]+ mEMG)", line)
    r = await drv.slash(box, KIBITZ, "chouette stats")
    stats = r.text()
    for kind, _, rate in rates:
        assert f"{kind.capitalize()} error rate: {rate}" in stats, stats
    counts = {kind: count for kind, count, _ in rates}  # a kind gnubg counts none of: 0
    assert (f"Analysed decisions: checker {counts.get('checker', 0)} · cube "
            f"{counts.get('cube', 0)}") in stats, stats
    assert f"Analysed games: 1 at {PLIES}-ply" in stats, stats


@e2e(env={"CHOUETTE_ANALYSIS_PLIES": "4"})  # slow: still analysing when killed
async def test_a_kill_9_while_the_analysis_is_queued_loses_nothing(drv: Any) -> None:
    await quick_game(drv)
    await drv.kill_bot()  # kill -9 at once: the game is over, its analysis under way
    assert analysed(drv) == []  # nothing stored for it: the store says it is still wanted
    drv.extra_env["CHOUETTE_ANALYSIS_PLIES"] = "0"
    await drv.start_bot()
    await drv.wait_ready(require_commands=False)
    await delivered(drv)
    await drv.wait_for(lambda: verdicts(drv), timeout=90)
    await drv.settle()
    assert len(verdicts(drv)) == 1  # posted once
    assert "(0-ply" in verdicts(drv)[0]["content"]
    await drv.wait_for(lambda: analysed(drv) == [(1, 1)], timeout=10)


@e2e(env=ENV)
async def test_the_sessions_figures_come_beside_the_final_sheet(drv: Any) -> None:
    box, team = await quick_game(drv)
    await drv.wait_for(lambda: verdicts(drv), timeout=90)
    r = await drv.slash(team[-1], KIBITZ, "chouette end")
    assert r.acked

    def after_sheet() -> list[str]:
        contents = [m["content"] for m in drv.messages(BOARD)]
        final = [i for i, c in enumerate(contents) if c.startswith("**Final score**")]
        return [c for c in contents[final[0]:] if c.startswith(
            "**GNU Backgammon over the session**")] if final else []

    await drv.wait_for(after_sheet, timeout=60)
    await drv.settle()
    (text,) = after_sheet()
    assert all(any(read(line).startswith(f"{p}: ") for line in text.splitlines())
               for p in (box, *team)), text
