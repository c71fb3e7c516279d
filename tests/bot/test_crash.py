"""Contract 2 with --db: a run killed (SIGKILL) at any moment and run again ends exactly as an
uninterrupted run does, and running a finished file again applies nothing twice."""

import json
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.app import scenario


def long_session(seed: int = 7, games: int = 100) -> str:
    """A scorekeeper session with cube action every game and some refused commands."""
    rng = random.Random(seed)
    players = ["ann", "bo", "cy", "di", "ed"]
    lines = [{"cmd": "open", "preset": "atlanta", "mode": "scorekeeper"},
             {"cmd": "seat", "order": players}]
    for _ in range(games):
        lines.append({"cmd": "start"})
        doublers = rng.sample(players, rng.randint(0, 3))
        lines += [{"cmd": "double", "by": p} for p in doublers]
        # Answer whoever really doubled (the Box is whoever the rotation made him: the
        # commands not fitting the seating are refused, which the run must also replay).
        lines.append({"cmd": "answer", "by": rng.choice(players), "take": doublers})
        lines.append({"cmd": "result", "winner": rng.choice(["box", "team"]),
                      "kind": rng.choice(["single", "single", "gammon"])})
        if rng.random() < 0.2:
            lines.append({"cmd": "take", "by": rng.choice(players)})  # refused
    lines.append({"cmd": "end_session"})
    return "\n".join(json.dumps(line) for line in lines) + "\n"


def run_cli(path: Path, db: Path, kill_after: float | None = None) -> str | None:
    proc = subprocess.Popen([sys.executable, "-m", "bot", "scenario", str(path), "--db",
                             str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    if kill_after is None:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        return out
    time.sleep(kill_after)
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    return None


@pytest.fixture(scope="module")
def transcript(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, float]:
    path = tmp_path_factory.mktemp("crash") / "session.jsonl"
    path.write_text(long_session())
    expected = json.dumps(scenario.run(path.read_text().splitlines()))
    started = time.perf_counter()
    out = run_cli(path, path.with_suffix(".timing.db"))
    took = time.perf_counter() - started
    assert out is not None and out.strip() == expected
    return path, expected, took


def test_a_run_again_applies_nothing_twice(transcript: tuple[Path, str, float],
                                           tmp_path: Path) -> None:
    path, expected, _ = transcript
    db = tmp_path / "c.db"
    first, second = run_cli(path, db), run_cli(path, db)
    assert first is not None and second is not None
    assert first.strip() == second.strip() == expected
    with sqlite3.connect(db) as conn:
        keys = conn.execute("SELECT COUNT(*), COUNT(DISTINCT key) FROM commands").fetchone()
        lines = sum(1 for line in path.read_text().splitlines() if line.strip())
    assert keys == (lines, lines)


@pytest.mark.parametrize("seed", range(12))
def test_killed_at_a_random_moment_and_rerun_ends_the_same(
        transcript: tuple[Path, str, float], tmp_path: Path, seed: int) -> None:
    path, expected, took = transcript
    rng = random.Random(seed)
    db = tmp_path / "c.db"
    for _ in range(rng.randint(1, 3)):  # one to three kills in a row, then a full run
        run_cli(path, db, kill_after=rng.uniform(0.0, took))
    out = run_cli(path, db)
    assert out is not None and out.strip() == expected
