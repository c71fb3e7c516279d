"""What the board and the messages show, black-box: only actions someone may take, a turned
cube as waiting, the table's mode, moderators' acts announced, and names as they were
typed, whatever markdown they hold."""

import os
import re
import signal
import time
from pathlib import Path

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


@e2e()
async def test_double_shows_only_while_someone_may_double(drv) -> None:
    await open_table(drv, "alice", "bob", "carol")
    await drv.click("alice", board(drv), label="Start game")
    box, team = seats(drv)
    while (shooter := await play_until_roll(drv)) != team[0]:
        await drv.click(shooter, board(drv), label="Roll")
    await drv.click(team[0], board(drv), label="Double")
    assert f"{team[0]} 2 (doubled by {team[0]}, waiting)" in board(drv)["content"]
    assert "Double" in drv.button_labels(board(drv))  # the other Team player may still
    menu = await drv.click(box, board(drv), label="Answer the doubles")
    await choose(drv, box, menu, {"take": [team[0]]})  # his answer to this turn's doubles
    assert f"{team[0]} 2 (held by {box})" in board(drv)["content"]
    labels = drv.button_labels(board(drv))
    assert "Roll" in labels and "Double" not in labels and "Hold the roll" not in labels, labels


@e2e()
async def test_under_fibs_the_captains_double_leaves_nobody_a_double(drv) -> None:
    await open_table(drv, "alice", "bob", "carol", "dave", preset="fibs")
    where = "chouette 1 · fibs/board"
    await drv.click("alice", board(drv, where), label="Start game")
    box, team = seats(drv, where)
    while (shooter := await play_until_roll(drv, where)) != team[0]:
        await drv.click(shooter, board(drv, where), label="Roll")
    assert "Double" in drv.button_labels(board(drv, where))
    await drv.click(team[0], board(drv, where), label="Double")
    assert "Double" not in drv.button_labels(board(drv, where))
    assert status(drv, where).startswith(f"Waiting for {box}")


@e2e()
async def test_names_read_as_typed_and_moderators_acts_are_announced(drv) -> None:
    for name in ("**bo_ld**", "@here"):
        await drv.add_member(name)
    mods = await drv.fake.create_role("Chouette Moderator")
    await drv.fake.set_member_roles("dave", [mods["id"]])
    await open_table(drv, "alice", "**bo_ld**", "@here", mode="scorekeeper")
    assert "Scorekeeper mode" in board(drv)["content"]
    await drv.click("alice", board(drv), label="Start game")
    box, _ = seats(drv)
    content = board(drv)["content"]
    assert "**bo_ld**" not in content and "**bo_ld**" in read(content)
    assert "@here" not in content and "@here" in read(content)
    menu = await drv.click(box, board(drv), label="Double")
    await choose(drv, box, menu, {"double": [p for p in ("alice", "**bo_ld**", "@here")
                                             if p != box]})
    asked = [m["content"] for p in ("alice", "**bo_ld**", "@here") if p != box
             for m in drv.dms(p) if "turned to 2" in m["content"]]
    assert len(asked) == 2 and all(f"against {box} is" in read(a) for a in asked), asked
    for text in [*asked, *(m["content"] for m in drv.messages(BOARD))]:
        assert "@here" not in text and "**bo_ld**" not in text, text

    blinded = await drv.slash("dave", KIBITZ, "chouette mod blind", member="erin")
    assert blinded.ephemeral and "erin" in blinded.text()
    record = [m["content"] for m in drv.messages(BOARD)[1:]]
    assert any("A moderator blinds erin" in line for line in record), record
    await drv.slash("dave", KIBITZ, "chouette mod unblind", member="erin")
    assert "A moderator gives erin sight of this table again." in drv.last_message(BOARD)[
        "content"]


@e2e()
async def test_a_team_players_question_counts_down_his_time(drv) -> None:
    await open_table(drv, "alice", "bob", "carol", mode="scorekeeper")
    await drv.click("alice", board(drv), label="Start game")
    box, team = seats(drv)
    menu = await drv.click(box, board(drv), label="Double")
    asked = time.time()
    await choose(drv, box, menu, {"double": team})
    for player in team:  # Atlanta's decision_timeout_seconds: 120
        (dm,) = [m for m in drv.dms(player) if "turned to 2" in m["content"]]
        found = re.search(r"Answer <t:(\d+):R>\.$", dm["content"])
        assert found and asked - 1 <= int(found[1]) - 120 <= time.time(), dm["content"]
    found = re.search(r"Time runs out <t:(\d+):R>\.$", status(drv))
    assert found and asked - 1 <= int(found[1]) - 120 <= time.time(), status(drv)


def drawing_process(drv) -> int:
    """The bot's drawing process (bot/render/drawing.py: a ProcessPoolExecutor's worker, which
    multiprocessing starts by `spawn_main`): the child that is not the resource tracker."""
    pid = drv.bot.pid
    children = [int(c) for task in Path(f"/proc/{pid}/task").iterdir()
                for c in (task / "children").read_text().split()]
    (worker,) = [c for c in children
                 if "spawn_main" in Path(f"/proc/{c}/cmdline").read_text()]
    return worker


@e2e()
async def test_a_click_is_acknowledged_in_time_while_the_drawing_process_is_stuck(drv) -> None:
    """Discord forgets a click after 3 s: a board that can't be drawn in time (the drawing
    process stopped here) is acknowledged first, and shown once drawn."""
    await open_table(drv, "alice", "bob", "carol")
    await drv.click("alice", board(drv), label="Start game")
    shooter = await play_until_roll(drv)
    worker = drawing_process(drv)
    os.kill(worker, signal.SIGSTOP)
    try:
        started = time.monotonic()
        roll = await drv.click(shooter, board(drv), label="Roll", settle=False)
        assert roll.acked and time.monotonic() - started < 3  # deferred, not failed
        assert status(drv).startswith(f"Waiting for {shooter} to roll")  # not drawn yet
    finally:
        os.kill(worker, signal.SIGCONT)
    await drv.wait_for(lambda: status(drv).startswith(f"Waiting for {shooter} to play"),
                       timeout=10)
    assert drv.pngs(board(drv))  # the board drawn, its image with it
