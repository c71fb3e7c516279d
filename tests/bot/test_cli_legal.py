"""Contract 1: `python -m bot legal` reads {id, dice} JSON lines and writes sorted results."""

import json
import subprocess
import sys

from rules.board import legal_plays
from rules.notation import position_from_id, position_id


def run_legal(stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", "legal"], input=stdin, text=True,
                          capture_output=True, check=False)


def test_legal_lists_distinct_sorted_results_from_the_movers_view() -> None:
    lines = [{"id": "4HPwATDgc/ABMA", "dice": [3, 1]}, {"id": "8AEABCgAAAAAAA", "dice": [3, 2]}]
    done = run_legal("".join(json.dumps(x) + "\n" for x in lines))
    assert done.returncode == 0, done.stderr
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(o["id"], o["dice"]) for o in out] == [(x["id"], x["dice"]) for x in lines]
    assert len(out[0]["results"]) == 16 and out[0]["results"] == sorted(out[0]["results"])
    assert len(out[1]["results"]) == 6
    # Not swapped: the mover is still the side on roll, so his checkers are what moved.
    before = position_from_id("4HPwATDgc/ABMA")
    for pid in out[0]["results"]:
        after = position_from_id(pid)
        assert after.opponent == before.opponent and after.pips[0] == before.pips[0] - 4
    expected = sorted({position_id(p.position) for p in legal_plays(before, (3, 1))})
    assert out[0]["results"] == expected


def test_no_legal_play_gives_the_position_itself() -> None:
    closed = "27aBAwD+fwAAQA"
    pos = position_from_id(closed)
    assert legal_plays(pos, (6, 6))[0].moves == ()
    done = run_legal(json.dumps({"id": closed, "dice": [6, 6]}) + "\n")
    assert json.loads(done.stdout)["results"] == [closed]


def test_a_bad_line_is_answered_with_an_error_and_the_rest_go_on() -> None:
    done = run_legal('{"id": "nonsense", "dice": [1, 2]}\n'
                     '{"id": "4HPwATDgc/ABMA", "dice": [6, 5]}\n')
    assert done.returncode == 1
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert "Position ID" in first["error"]
    assert len(second["results"]) == 7
