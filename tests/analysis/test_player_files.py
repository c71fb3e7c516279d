"""Issue 33, item 4: each Team player's own cube game, as the bot exports it (`python -m bot
export --player`, `/chouette record player:`), is a match file gnubg imports, and gnubg's
own `analyse match` and `show statistics game` of it give the bot's numbers.

One short play-mode game of each preset (tests/analysis/data: Atlanta's and Villages' with a
beaver; Euro's and FIBS' without, their tables have none; the Danish Box doubling every cube
at the same level), at 0 and 2 ply. For each Team player's file (tests/analysis/gnubg_games.py
exports it with the bot's code, imports it and reads gnubg's analysis back):
- every cube decision contract 5 lists on his cube (the Box's and his: double or no double,
  take or drop) has gnubg's No double, Double/take and Double/pass (a take's seen by the
  taker); a beaver has its double's numbers (gnubg does not analyse a beaver);
- the Captain's file has every checker play the verdict rated with his cube: gnubg's best
  equity and the played one's;
- the `players` block is gnubg's statistics (`check_players`, as for the other games).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.analysis.test_gnubg_statistics import check_players, run, seating, worker

DATA = Path(__file__).parent / "data"
PRESETS = {"atlanta": "chouette", "danish": "danish", "euro": "euro", "fibs": "fibs",
           "villages": "villages"}
EXACT = 1e-5  # both read gnubg's equities as it prints them, to 5 places


def near(ours: float, gnubg: float) -> None:
    assert ours == pytest.approx(gnubg, abs=EXACT)


def cube_entries(records: list[dict[str, Any]]) -> list[tuple[str, list[float] | None]]:
    """gnubg's cube decisions of one file, in order: ("double", numbers) for each chance to
    double (taken or not), ("take", the doubler's numbers) for each take or pass, and
    ("beaver", None) for a beaver (a double on a double, which gnubg does not analyse)."""
    found: list[tuple[str, list[float] | None]] = []
    for record in records:
        cube = record["cube"]
        if record["action"] in ("move", "double") and cube is not None:
            found.append(("double", cube))
        elif record["action"] == "double":
            found.append(("beaver", None))
        elif cube is not None:  # a take or pass; its answer to a beaver has no numbers
            found.append(("take", [-x for x in cube]))
    return found


def check_cubes(decisions: list[dict[str, Any]], records: list[dict[str, Any]]) -> int:
    """The verdict's decisions on one cube are gnubg's; how many were compared."""
    entries = iter(cube_entries(records))
    last: list[float] | None = None
    for d in decisions:
        kind, numbers = next(entries)
        beaver = d["kind"] == "take" and d["played"] == "beaver"
        assert kind == ("beaver" if beaver else d["kind"]), (d, kind)
        numbers = last if beaver else numbers
        assert numbers is not None
        for key, gnubg in zip(("nd", "dt", "dp"), numbers, strict=True):
            near(d["details"][key], gnubg)
        last = numbers
    assert next(entries, None) is None  # gnubg has no decision the verdict has not
    return len(decisions)


def check_moves(decisions: list[dict[str, Any]], records: list[dict[str, Any]]) -> int:
    """The verdict's checker plays rated with the Captain's cube are gnubg's in his file."""
    played = [r for r in records if r["action"] == "move" and not r["passed"]]
    moves = [d for d in decisions if d["kind"] == "move"]
    assert 0 < len(played) <= len(moves)
    compared = 0
    for d, record in zip(moves, played, strict=False):
        if "details" in d:  # a forced play: gnubg is not asked, nor is its loss
            near(d["details"]["plays"][0]["equity"], record["best"])
            near(d["details"]["played"]["equity"], record["played"])
            near(d["loss"], record["best"] - record["played"])
            compared += 1
    return compared


@pytest.mark.parametrize("plies", [0, 2])
@pytest.mark.parametrize("preset", list(PRESETS))
def test_each_team_players_file_is_analysed_by_gnubg_as_the_bot_does(preset: str,
                                                                      plies: int) -> None:
    transcript = (DATA / f"{PRESETS[preset]}.jsonl").read_text()
    assert f'"preset": "{preset}", "mode": "play"' in transcript
    verdict = worker(transcript, plies)
    gnubg = run(["tests/analysis/gnubg_games.py", str(plies)], transcript)
    order = seating(transcript)
    assert sorted(gnubg) == sorted(order[1:])  # a file for each Team player
    compared = 0
    for team in order[1:]:
        mine = [d for d in verdict["decisions"] if d["kind"] != "move"
                and d["cube"]["team"] == team]
        compared += check_cubes(mine, gnubg[team]["decisions"])
    compared += check_moves(verdict["decisions"], gnubg[order[1]]["decisions"])
    assert compared >= 6
    check_players(verdict, gnubg, order)
