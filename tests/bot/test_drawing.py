"""The drawing process (bot/drawing.py): the same images as drawn in the bot's own process,
a dead worker replaced, and no worker left behind when the bot is killed."""

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.drawing import Drawing, Names, WorkerGone, _warmed
from bot.render.board import board_png
from bot.render.samples import sample_picture, sample_sheet
from bot.render.sheet import render_sheet
from rules.state import TableState

ROOT = Path(__file__).resolve().parents[2]


def children() -> list[int]:
    """This process's child processes."""
    return [int(c) for task in Path("/proc/self/task").iterdir()
            for c in (task / "children").read_text().split()]


def alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


async def test_a_worker_draws_what_the_bot_would() -> None:
    drawing = Drawing(1)
    await drawing.start()
    try:
        picture = sample_picture()
        assert await drawing.run(board_png, picture) == board_png(picture)
        sheet, order, roles = sample_sheet()
        names = Names((("Ann", "Søren Ærø"),))
        drawn = await drawing.run(render_sheet, sheet, order, roles=roles, shown=names)
        assert drawn == render_sheet(sheet, order, roles=roles, shown=names)
        assert drawing.pids and set(drawing.pids) <= set(children())
    finally:
        await drawing.close()


async def test_a_dead_worker_is_replaced() -> None:
    drawing = Drawing(1)
    try:
        picture = sample_picture()
        await drawing.run(board_png, picture)
        (first,) = drawing.pids
        os.kill(first, signal.SIGKILL)
        await asyncio.sleep(0.5)  # the bot reads the end of its output
        assert await drawing.run(board_png, picture) == board_png(picture)  # drawn here
        assert await drawing.run(board_png, picture) == board_png(picture)  # a new worker
        assert drawing.pids not in ([], [first])
    finally:
        await drawing.close()


async def test_without_processes_the_bot_draws_in_a_thread() -> None:
    before = set(children())  # the other tests' workers, if still ending
    drawing = Drawing(0)
    assert await drawing.board(TableState()) is None  # no board yet
    picture = sample_picture()
    assert await drawing.run(board_png, picture) == board_png(picture)
    assert await drawing.picture(picture) == board_png(picture)  # an analysed error's board
    assert set(children()) <= before and drawing.pids == []


async def test_a_failed_warm_up_is_one_log_line(caplog: pytest.LogCaptureFixture) -> None:
    """The first board a worker draws is awaited by nobody: how it failed is logged (not
    "Future exception was never retrieved" when the future is collected)."""
    answer: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    answer.add_done_callback(_warmed)
    answer.set_exception(WorkerGone())
    await asyncio.sleep(0)  # the callback runs
    assert "did not draw its first board: WorkerGone()" in caplog.text


def test_names_are_looked_up_in_one_dict() -> None:
    names = Names((("1", "Ann"), ("2", "Bo")))
    assert (names("1"), names("2"), names("3")) == ("Ann", "Bo", "3")


def test_the_worker_ends_when_the_bot_is_killed() -> None:
    script = ("import asyncio\n"
              "from bot.drawing import Drawing\n"
              "from bot.render.board import board_png\n"
              "from bot.render.samples import sample_picture\n"
              "async def main():\n"
              "    d = Drawing(1)\n"
              "    await d.run(board_png, sample_picture())\n"
              "    print(d.pids[0], flush=True)\n"
              "    await asyncio.sleep(60)\n"
              "asyncio.run(main())\n")
    bot = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE,
                           text=True)
    try:
        assert bot.stdout is not None
        worker = int(bot.stdout.readline())
        assert alive(worker)
        bot.kill()  # kill -9: nothing closes the worker's input but the kernel
        bot.wait(5)
        deadline = time.monotonic() + 10
        while alive(worker):
            assert time.monotonic() < deadline, "the drawing process outlived the bot"
            time.sleep(0.1)
    finally:
        bot.kill()


@pytest.mark.parametrize("processes", ["-1", "many", "65"])
def test_a_bad_number_of_processes_is_refused(processes: str) -> None:
    from bot.config import Settings, SettingsError

    with pytest.raises(SettingsError, match="CHOUETTE_DRAW_PROCESSES"):
        Settings.load(environ={"CHOUETTE_DRAW_PROCESSES": processes})
