"""The drawing processes (bot/render/drawing.py): the same images as drawn in the bot's own process,
a dead worker replaced, and no worker left behind when the bot is killed."""

import os
import signal
import subprocess
import sys
import time
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from bot.render.board import board_png
from bot.render.drawing import Drawing, Names, _started
from bot.render.palette import sample_picture
from bot.render.samples import sample_sheet
from bot.render.sheet import render_sheet
from rules.state import TableState

ROOT = Path(__file__).resolve().parents[2]


def children(pid: int | str = "self") -> list[int]:
    """A process's child processes (this one's by default), through each of its threads (a
    thread that ended while they are read is passed over)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except FileNotFoundError:
            continue
    return found


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
        worker = await drawing.run(os.getpid)
        assert worker != os.getpid() and worker in children()
    finally:
        await drawing.close()
    assert not alive(worker)  # closed: it ended


async def test_a_dead_worker_is_replaced(caplog: pytest.LogCaptureFixture) -> None:
    drawing = Drawing(1)
    try:
        first = await drawing.run(os.getpid)
        os.kill(first, signal.SIGKILL)
        assert await drawing.run(os.getpid) == os.getpid()  # what it had to do: done here
        assert "a drawing process ended" in caplog.text
        picture = sample_picture()
        assert await drawing.run(board_png, picture) == board_png(picture)  # a new worker
        assert await drawing.run(os.getpid) not in (first, os.getpid())
    finally:
        await drawing.close()


async def test_without_processes_the_bot_draws_in_a_thread() -> None:
    before = set(children())  # the other tests' workers, if still ending
    drawing = Drawing(0)
    await drawing.start()
    assert await drawing.board(TableState()) is None  # no board yet
    picture = sample_picture()
    assert await drawing.run(board_png, picture) == board_png(picture)
    assert await drawing.picture(picture) == board_png(picture)  # an analysed error's board
    assert await drawing.run(os.getpid) == os.getpid()
    assert set(children()) <= before
    await drawing.close()


def test_a_worker_that_did_not_start_is_one_log_line(caplog: pytest.LogCaptureFixture) -> None:
    """The first call to a worker (the one that starts it) is awaited by nobody: how it
    failed is logged."""
    answer: Future[int] = Future()
    answer.add_done_callback(_started)
    answer.set_exception(BrokenProcessPool())
    assert "the drawing process did not start: BrokenProcessPool()" in caplog.text


def test_names_are_looked_up_in_one_dict() -> None:
    names = Names((("1", "Ann"), ("2", "Bo")))
    assert (names("1"), names("2"), names("3")) == ("Ann", "Bo", "3")


def test_the_workers_end_when_the_bot_is_killed() -> None:
    """Killed with kill -9, the bot leaves no process behind: its two workers (one of them
    perhaps still starting) and multiprocessing's resource tracker all end."""
    script = ("import asyncio, os\n"
              "from bot.render.drawing import Drawing\n"
              "async def main():\n"
              "    d = Drawing(2)\n"
              "    await d.start()\n"
              "    print(await d.run(os.getpid), flush=True)\n"
              "    await asyncio.sleep(60)\n"
              "asyncio.run(main())\n")
    bot = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE,
                           text=True)
    left: list[int] = []
    try:
        assert bot.stdout is not None
        worker = int(bot.stdout.readline())
        left = children(bot.pid)
        assert worker in left and len(left) == 3  # two workers and the resource tracker
        bot.kill()  # kill -9: the bot closes nothing, the kernel closes its files
        bot.wait(5)
        deadline = time.monotonic() + 5
        while left := [pid for pid in left if alive(pid)]:
            assert time.monotonic() < deadline, f"{left} outlived the bot"
            time.sleep(0.1)
    finally:
        bot.kill()
        for pid in left:
            os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("processes", ["-1", "many", "65"])
def test_a_bad_number_of_processes_is_refused(processes: str) -> None:
    from bot.config import Settings, SettingsError

    with pytest.raises(SettingsError, match="CHOUETTE_DRAW_PROCESSES"):
        Settings.load(environ={"CHOUETTE_DRAW_PROCESSES": processes})
