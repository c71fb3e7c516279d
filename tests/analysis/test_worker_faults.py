"""A worker that fails (issue 33): it hangs, exits, or writes something that is not its answer.

Each fault is an `AnalysisError` (a `WorkerFault`), never a raw `JSONDecodeError` or
`ConnectionResetError`; the faulty process is killed and the next game gets a new one; the
queue tries a game once more, then logs and skips it and goes on with the next; `python -m
bot analyse` says so in one line. The broken worker is a small script run in the real
worker's place (`AnalysisWorker(command=...)`): its first `faults` starts misbehave, the
later ones are the real worker (or answer a verdict made by it, for a quick queue)."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from bot.analysis.queue import AnalysisQueue, AnalysisStore
from bot.analysis.worker import AnalysisError, AnalysisWorker, WorkerFault, analyse_game
from bot.app.scenario import apply
from bot.store import EventStore
from rules.state import TableState, replay

DATA = Path(__file__).parent / "data"
CHOUETTE = (DATA / "chouette.jsonl").read_text().splitlines()
FAKE = """if True:
    import json, os, sys, time
    from pathlib import Path
    folder, mode, faults = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    count = folder / "starts"
    starts = int(count.read_text()) + 1 if count.exists() else 1
    count.write_text(str(starts))
    if starts > faults:
        canned = folder / "canned.json"
        if not canned.exists():  # the real worker from here on
            os.execv(sys.executable, [sys.executable, "-m", "analysis"])
        print(json.dumps({"ready": True}), flush=True)
        for line in sys.stdin:
            print(json.dumps({"result": json.loads(canned.read_text())}), flush=True)
        sys.exit(0)
    with open(folder / "pids", "a") as pids:
        pids.write(f"{os.getpid()}\\n")
    if mode == "closed pipe":  # its input closed: the request can't be written
        os.close(0)
    print(json.dumps({"ready": True}), flush=True)
    sys.stdin.readline()
    if mode == "garbage":
        print("Segmentation fault {not JSON", flush=True)
    elif mode == "a list":
        print("[1, 2]", flush=True)
    elif mode == "exit":
        sys.exit(3)
    time.sleep(3600)  # hangs (and after garbage: never ends of itself)
"""


def broken(folder: Path, mode: str, faults: int = 1) -> list[str]:
    """The command of a worker whose first `faults` starts fail as `mode` says."""
    return [sys.executable, "-c", FAKE, str(folder), mode, str(faults)]


def gone(folder: Path) -> bool:
    """Whether every faulty worker started is no longer running (killed and reaped)."""
    for pid in map(int, (folder / "pids").read_text().split()):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        return False
    return True


async def test_a_hung_worker_is_killed_and_the_next_game_gets_a_new_one(tmp_path: Path
                                                                        ) -> None:
    worker = AnalysisWorker(command=broken(tmp_path, "hang"), timeout=1.5)
    try:
        started = time.monotonic()
        with pytest.raises(WorkerFault, match=r"took more than 1\.5 s"):
            await worker.analyse(CHOUETTE[:6])
        assert time.monotonic() - started < 15 and gone(tmp_path)
        worker.timeout = 120  # the real worker now: gnubg's start-up on a busy machine
        result = await worker.analyse(CHOUETTE[:6])
        assert [d["kind"] for d in result["decisions"]] == ["move", "double", "double", "move"]
        assert (tmp_path / "starts").read_text() == "2"
    finally:
        await worker.close()


@pytest.mark.parametrize("mode", ["garbage", "a list", "exit", "closed pipe"])
async def test_every_fault_is_the_analysis_error(tmp_path: Path, mode: str) -> None:
    worker = AnalysisWorker(command=broken(tmp_path, mode), timeout=60)
    try:
        started = time.monotonic()
        with pytest.raises(AnalysisError) as raised:
            await worker.analyse(CHOUETTE[:6])
        assert isinstance(raised.value, WorkerFault)  # not a JSONDecodeError, a reset pipe
        assert mode == "exit" or "it was stopped" in str(raised.value)
        assert time.monotonic() - started < 30 and gone(tmp_path)  # not by the timeout
    finally:
        await worker.close()


@pytest.fixture(scope="module")
def verdict() -> dict[str, Any]:
    return asyncio.run(analyse_game(CHOUETTE, 0))


async def test_the_queue_retries_a_hung_game_once_then_skips_it(
        tmp_path: Path, verdict: dict[str, Any], caplog: pytest.LogCaptureFixture) -> None:
    """t1's game hangs the worker twice (the try and the retry): it is logged and skipped,
    and t2's game, next in the queue, is analysed and posted by a new worker."""
    _, events, _ = apply(CHOUETTE)
    (tmp_path / "canned.json").write_text(json.dumps(verdict))
    posts: list[tuple[str, int]] = []

    async def post(table: str, game: int, text: str) -> None:
        posts.append((table, game))

    async def states(table: str) -> TableState:
        return replay(events)

    worker = AnalysisWorker(command=broken(tmp_path, "hang", faults=2), timeout=1)
    async with EventStore(tmp_path / "c.db") as store:
        for table in ("t1", "t2"):
            await store.events.append(table, 0, events, None, None)
        queue = AnalysisQueue(store, states, post, plies=0, worker=worker)
        queue.start()
        with caplog.at_level(logging.INFO):
            await queue.notice("t1", replay(events))
            await queue.notice("t2", replay(events))
            await asyncio.wait_for(queue.idle.wait(), 60)
        await queue.close()
        assert posts == [("t2", 1)] and (tmp_path / "starts").read_text() == "3"
        (skipped,) = (await AnalysisStore(store).games("t1")).values()
        assert skipped.posted and "took more than 1 s" in (skipped.failed or "")
        assert (await AnalysisStore(store).games("t2"))[1].failed is None
    said = [r.getMessage() for r in caplog.records if "took more than" in r.getMessage()]
    assert len(said) == 2 and "tried once more" in said[0] and "t1 game 1 not analysed" in said[1]


def test_the_command_line_says_a_fault_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from bot import __main__ as cli
    from bot.analysis import worker

    monkeypatch.setattr(worker, "worker_command", lambda python: broken(tmp_path, "garbage"))
    assert cli.main(["analyse", str(DATA / "chouette.jsonl")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("chouette-bot: the analysis worker failed (JSONDecodeError")
