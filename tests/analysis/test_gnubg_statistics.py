"""Contract 5's `players` figures are gnubg's own statistics of the same games.

Each Team player's cube game is exported by the bot as a match file (`bot.records.cubes`:
its Box's and Captain's plays, that cube's doubles, beavers and answers), imported into
gnubg, put through gnubg's `analyse match` and read from `show statistics game`
(tests/analysis/gnubg_games.py): nothing is computed by hand. Then, per the contract:
- a Team player's close or actual cube decisions and cube error rate are those of his
  cube's game; the Captain's checker plays, and so his overall rate and rating, too (his
  cube rates the checker plays, and each transcript here keeps his cube to the end);
- the Box's checker plays are those of the Captain's game; his cube decisions those of
  every cube's game summed, and his overall rate theirs together.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.analysis.text import Figures, rating, rating_word, totals
from bot.analysis.worker import ROOT

DATA = Path(__file__).parent / "data"
CHOUETTE = (DATA / "chouette.jsonl").read_text()
# the same game, Cy dropping Ann's beaver: gnubg counts that drop as a pass of his own
# double, rated with its numbers (the beaver itself counts for no one)
DROPPED_BEAVER = CHOUETTE.replace('{"cmd": "take", "by": "Cy"}', '{"cmd": "drop", "by": "Cy"}')
# 30 plays, mostly gnubg's best (the Captain rated "Master"), cubes centred to the end
STRONG = (DATA / "strong.jsonl").read_text()
RATE = 0.02  # mEMG: gnubg sums its own floats, the worker the equities printed to 5 places


def run(args: list[str], transcript: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, *args], cwd=ROOT, input=transcript, text=True,
                          capture_output=True, timeout=300, check=True)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def worker(transcript: str, plies: int = 0) -> dict[str, Any]:
    """The worker's verdict (its own process: gnubg prints on its stdout)."""
    code = ("import json, sys; from analysis.engine import Engine; "
            "from analysis.verdict import verdict; out = Engine.take_stdout(); "
            "out.write(json.dumps(verdict(sys.stdin.read().splitlines(), "
            f"Engine({plies}))))")
    return run(["-c", code], transcript)


def seating(transcript: str) -> list[str]:
    seat = next(json.loads(line) for line in transcript.splitlines() if '"seat"' in line)
    order: list[str] = seat["order"]
    return order


def rate(total: float, count: int) -> float | None:
    return total / count * 1000 if count else None


def same(ours: float | None, gnubg: float | None) -> None:
    if gnubg is None:
        assert ours is None
    else:
        assert ours == pytest.approx(gnubg, abs=RATE)


@pytest.mark.parametrize(("transcript", "plies"), [(CHOUETTE, 0), (DROPPED_BEAVER, 0),
                                                   (STRONG, 0), (STRONG, 2)],
                         ids=["chouette", "dropped-beaver", "strong", "strong-2-ply"])
def test_players_are_gnubg_statistics(transcript: str, plies: int) -> None:
    verdict = worker(transcript, plies)
    gnubg = run(["tests/analysis/gnubg_games.py", str(plies)], transcript)
    check_players(verdict, gnubg, seating(transcript))


def check_players(verdict: dict[str, Any], gnubg: dict[str, Any], order: list[str],
                  checker: bool = True) -> None:
    """The verdict's `players` are gnubg's statistics of each Team player's cube game (the
    checker and overall rates too, unless `checker` is False)."""
    ours = verdict["players"]
    box, captain, *_ = order
    for team in order[1:]:  # each Team player's cube decisions: his cube's game
        mine, his = ours[team], gnubg[team]["players"][team]
        assert mine["cube_close"] == his["close"], team
        same(mine["rates"]["cube"], his["cube"]["rate"] if his["close"] else None)
    mine, his = ours[captain], gnubg[captain]["players"][captain]
    assert mine["unforced"] == his["unforced"]
    if checker:
        same(mine["rates"]["checker"], his["checker"]["rate"])
        same(mine["rates"]["overall"], his["overall"]["rate"])
        assert mine["rating"] == his["rating"]
    # the Box: checker plays once (the Captain's game), cube decisions over every cube
    games = [gnubg[team]["players"][box] for team in order[1:]]
    plays = gnubg[captain]["players"][box]
    close = sum(g["close"] for g in games)
    cube = sum(g["cube"]["total"] for g in games)
    mine = ours[box]
    assert (mine["unforced"], mine["cube_close"]) == (plays["unforced"], close)
    same(mine["rates"]["cube"], rate(cube, close))
    if checker:
        same(mine["rates"]["checker"], plays["checker"]["rate"])
        same(mine["rates"]["overall"], rate(plays["checker"]["total"] + cube,
                                            plays["unforced"] + close))
    # and the bot's own figures of the game (the post-game message) are the same
    found = totals(verdict)
    for name, row in ours.items():
        checker_figures, cube_figures = found[name]
        assert (checker_figures.decisions, cube_figures.decisions) == (row["unforced"],
                                                                       row["cube_close"])
        same(-cube_figures.rate if cube_figures.decisions else None, row["rates"]["cube"])
        overall = checker_figures + cube_figures
        assert rating(overall) == row["rating"]


def test_the_captain_of_a_strong_game_is_rated_as_gnubg_rates_him() -> None:
    ours = worker(STRONG)["players"]
    assert ours["Bob"]["rating"] == "Master"  # not every game here is a Beginner's


def test_the_rating_words_are_the_pinned_modules() -> None:
    """The worker's words, in the order of the module's `errorrating` (0 to 5), and the
    bot's thresholds give the word the module's `errorrating` gives, at every rate (gnubg
    is asked in a process of its own)."""
    code = ("import json, gnubg; from analysis.engine import RATINGS; "
            "print(json.dumps([list(RATINGS), "
            "[RATINGS[gnubg.errorrating(i / 10000)] for i in range(600)]]))")
    ratings, words = json.loads(subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, text=True, capture_output=True,
        check=True).stdout)
    assert ratings == [
        "Beginner", "Intermediate", "Advanced", "Master", "Grandmaster", "Super Grandmaster"]
    assert [rating_word(i / 10000) for i in range(600)] == words
    assert rating(Figures()) is None and rating(Figures(1, 0, 0.0)) == "Super Grandmaster"
