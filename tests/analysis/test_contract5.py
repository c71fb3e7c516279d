"""Contract 5 (`python -m bot analyse`) against GNU Backgammon itself, decision by decision.

The transcripts are our own (tests/analysis/data/). What each decision is (kind, player,
what was played, the cube) is written below by hand from the transcript; the numbers are
checked against gnubg's `hint` on the same positions, set up with gnubg's own commands by
`analysis/check.py` (an independent path: the worker uses gnubg.findbestmoves and gnubg IDs).
No mock of gnubg anywhere: the analysis extra is installed by `make test`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from analysis.decisions import CubeView, Decision
from analysis.verdict import TOP_PLAYS, rate
from bot.analysis.worker import ROOT, AnalysisError, AnalysisWorker, analyse_game

DATA = Path(__file__).parent / "data"
CHOUETTE = (DATA / "chouette.jsonl").read_text().splitlines()
# (kind, player, played, cube (Team player, value, owner) rated: for a move the Captain's)
EXPECTED = [
    ("move", "Ann", "24/23 8/5", ("Bob", 1, "centred")),  # the Box's opening 3-1
    ("double", "Bob", "no double", ("Bob", 1, "centred")),
    ("double", "Cy", "no double", ("Cy", 1, "centred")),
    ("move", "Bob", "8/5 8/2*", ("Bob", 1, "centred")),
    ("double", "Ann", "double", ("Bob", 1, "centred")),  # the Box doubles Bob only
    ("take", "Bob", "take", ("Bob", 1, "centred")),
    ("double", "Ann", "no double", ("Cy", 1, "centred")),  # ... and not Cy: at his roll
    # Ann's 6-6 from the bar has no legal play: no move decision
    ("double", "Cy", "double", ("Cy", 1, "centred")),
    ("take", "Ann", "beaver", ("Cy", 1, "centred")),  # Cy's take of the beaver: none
    ("double", "Bob", "no double", ("Bob", 2, "team")),  # Bob owns his cube at 2
    ("move", "Bob", "24/13", ("Bob", 2, "team")),
    ("double", "Ann", "double", ("Cy", 4, "box")),  # Bob's cube is his: only Cy's
    ("take", "Cy", "drop", ("Cy", 4, "box")),
    ("move", "Ann", "bar/21 24/22", ("Bob", 2, "team")),
    ("double", "Bob", "double", ("Bob", 2, "team")),
    ("take", "Ann", "drop", ("Bob", 2, "team")),  # the game is over: no cube left
]


def analyse_cli(path: Path, plies: int = 0) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-m", "bot", "analyse", str(path), "--plies",
                           str(plies)], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          check=True)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def gnubg_hint(decisions: list[dict[str, Any]], cubes: list[tuple[str, int, str]],
               *, jacoby: bool, beavers: bool) -> list[dict[str, Any]]:
    """analysis/check.py's verdict: gnubg's hint on each decision's position."""
    question = {"jacoby": jacoby, "beavers": beavers, "box": ["Ann"], "decisions": [
        {**d, "cube": {"team": t, "value": v, "owner": o}}
        for d, (t, v, o) in zip(decisions, cubes, strict=True)]}
    done = subprocess.run([sys.executable, "-m", "analysis.check"], cwd=ROOT, text=True,
                          input=json.dumps(question), capture_output=True, timeout=120,
                          check=True)
    answers: list[dict[str, Any]] = json.loads(done.stdout)
    return answers


def agree(result: dict[str, Any], cubes: list[tuple[str, int, str]], *, jacoby: bool,
          beavers: bool) -> None:
    decisions = result["decisions"]
    for d, want in zip(decisions, gnubg_hint(decisions, cubes, jacoby=jacoby,
                                              beavers=beavers), strict=True):
        where = f"{d['kind']} by {d['player']} at {d['id']}"
        assert d["loss"] == pytest.approx(want["loss"], abs=5e-5), where
        assert d["best"] in want["best"] or d["loss"] == pytest.approx(0, abs=5e-5), where
        assert d["loss"] >= 0
        agree_details(d, want["details"], where)


CONTRACT_KEYS = {"move": {"game", "player", "kind", "id", "dice", "played", "best", "loss"},
                 "double": {"game", "player", "kind", "cube", "id", "played", "best", "loss"}}
CONTRACT_KEYS["take"] = CONTRACT_KEYS["double"]


def agree_details(d: dict[str, Any], gnubg: dict[str, Any], where: str) -> None:
    """The decision's `details` are gnubg's numbers (analysis/check.py's, by another path)
    and contract 5's own fields are left as they were."""
    assert set(d) - {"details"} == CONTRACT_KEYS[d["kind"]], where
    details = d["details"]
    if d["kind"] != "move":
        assert details == {k: pytest.approx(gnubg[k], abs=1e-9) for k in ("nd", "dt", "dp")}
        return
    equities: dict[str, float] = gnubg["plays"]
    top = sorted(equities.values(), reverse=True)[:TOP_PLAYS]
    assert [p["equity"] for p in details["plays"]] == pytest.approx(top, abs=5e-5), where
    for play in details["plays"]:  # each named as gnubg names it, with its own equity
        assert play["equity"] == pytest.approx(equities[play["play"]], abs=5e-5), where
    played = details["played"]
    assert played["play"] == d["played"]
    assert played["equity"] == pytest.approx(equities[d["played"]], abs=5e-5), where
    assert played["rank"] == 1 + sum(e > played["equity"] + 5e-5 for e in equities.values())
    assert (played["rank"] == 1) == (d["loss"] == 0), where


@pytest.fixture(scope="module")
def chouette() -> dict[str, Any]:
    return analyse_cli(DATA / "chouette.jsonl")


def test_every_decision_in_order(chouette: dict[str, Any]) -> None:
    got = [(d["kind"], d["player"], d["played"],
            tuple(d["cube"].values()) if "cube" in d else None) for d in chouette["decisions"]]
    assert got == [(k, p, played, None if k == "move" else cube)
                   for k, p, played, cube in EXPECTED]
    assert all(d["game"] == 1 for d in chouette["decisions"])
    moves = [d for d in chouette["decisions"] if d["kind"] == "move"]
    assert [d["dice"] for d in moves] == [[3, 1], [6, 3], [6, 5], [4, 2]]
    assert moves[0]["id"] == "4HPwATDgc/ABMA"  # the opening position, the Box to play


def test_agrees_with_gnubg_hint(chouette: dict[str, Any]) -> None:
    agree(chouette, [cube for *_, cube in EXPECTED], jacoby=True, beavers=True)


def test_details_of_every_decision(chouette: dict[str, Any]) -> None:
    """Beyond contract 5: gnubg's numbers under `details` (checked against gnubg in
    test_agrees_with_gnubg_hint): a cube's ND/DT/DP, a move's best plays and the played."""
    for d in chouette["decisions"]:
        if d["kind"] == "move":
            assert set(d["details"]) == {"plays", "played"}
            assert len(d["details"]["plays"]) == TOP_PLAYS
            assert d["details"]["plays"][0]["play"] == d["best"]
        else:
            assert set(d["details"]) == {"nd", "dt", "dp"}
    opening, bob_double, bob_take = (chouette["decisions"][i] for i in (0, 4, 5))
    assert opening["details"]["played"] == {"play": "24/23 8/5", "equity": -0.1041,
                                            "rank": 8}
    assert bob_take["details"] == bob_double["details"]  # the doubler's numbers, both


def test_a_forced_play_has_no_details() -> None:
    """A forced play loses nothing and gnubg is not asked about it (no engine here)."""
    cube = CubeView("Bob", 1, "centred", "centred")
    forced = Decision(1, "Bob", "move", "4HPwATDgc/ABMA", cube, "6/1", (5, 5),
                      {"someid": "6/1"}, "someid")
    assert rate(forced, None, beavers=True) == (  # type: ignore[arg-type]
        {"game": 1, "player": "Bob", "kind": "move", "id": "4HPwATDgc/ABMA",
         "dice": [5, 5], "played": "6/1", "best": "6/1", "loss": 0.0})


def test_players_sum_their_decisions(chouette: dict[str, Any]) -> None:
    for name, row in chouette["players"].items():
        mine = [d for d in chouette["decisions"] if d["player"] == name]
        moves = [d for d in mine if d["kind"] == "move"]
        assert row["moves"] == len(moves)
        assert row["cube_decisions"] == len(mine) - len(moves)
        assert row["move_loss"] == pytest.approx(sum(d["loss"] for d in moves), abs=1e-5)
        assert row["cube_loss"] == pytest.approx(
            sum(d["loss"] for d in mine if d["kind"] != "move"), abs=1e-5)
    assert set(chouette["players"]) == {"Ann", "Bob", "Cy"}


def test_no_jacoby_no_beavers(tmp_path: Path) -> None:
    """The same game at a table without Jacoby or beavers: Ann takes Cy's double instead
    (a beaver is refused there), so she owns his cube at 2 when she redoubles it."""
    lines = [line for line in CHOUETTE if '"take", "by": "Cy"' not in line]
    lines[0] = json.dumps({"cmd": "open", "preset": "atlanta", "mode": "play",
                           "options": {"jacoby": False, "beavers": False,
                                       "raccoons": "never", "aardvarks": "never"}})
    lines = [line.replace('"beaver": ["Cy"]', '"take": ["Cy"]') for line in lines]
    path = tmp_path / "no_jacoby.jsonl"
    path.write_text("\n".join(lines) + "\n")
    result = analyse_cli(path)
    cubes = [("Cy", 2, "box") if cube == ("Cy", 4, "box") else cube for *_, cube in EXPECTED]
    played = [d["played"] for d in result["decisions"]]
    assert played == [p if p != "beaver" else "take" for _, _, p, _ in EXPECTED]
    assert all(d["best"] != "beaver" for d in result["decisions"])
    agree(result, cubes, jacoby=False, beavers=False)


async def test_one_worker_queues_games_and_reports_errors() -> None:
    worker = AnalysisWorker()
    try:
        first, second = await worker.analyse(CHOUETTE), await worker.analyse(CHOUETTE[:6])
        assert second["decisions"] == first["decisions"][:4]  # the first turns, alike
        with pytest.raises(AnalysisError, match="plies"):
            await worker.analyse(CHOUETTE, plies=9)
        assert (await worker.analyse(CHOUETTE[:4]))["decisions"][0]["kind"] == "move"
    finally:
        await worker.close()


async def test_one_shot_client_at_one_ply() -> None:
    result = await analyse_game(CHOUETTE[:6], plies=1)
    assert [d["kind"] for d in result["decisions"]] == ["move", "double", "double", "move"]


def test_bot_never_imports_gnubg() -> None:
    code = ("import sys, bot.__main__, bot.analysis.worker; "
            "sys.exit('gnubg' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0


def test_plays_that_bear_off_are_told_apart() -> None:
    """gnubg.findbestmoves cuts a play short at its first checker borne off (6/off 5/3 comes
    back as 6/off): the worker reads gnubg's hint instead, so each play is itself."""
    code = """if True:
        import json
        from analysis.engine import Engine
        from rules.board import Position, legal_plays
        from rules.notation import format_play, position_id
        out = Engine.take_stdout()
        position = Position.from_points({6: 2, 5: 3, 3: 2, 1: 1}, {6: 3, 5: 2})
        plays = {format_play(p): position_id(p.position) for p in legal_plays(position, (6, 2))}
        answer = Engine(0).moves(position_id(position), (6, 2), 1, "centred", plays["6/off 5/3"])
        out.write(json.dumps([plays, [list(p) for p in answer.plays], answer.played]))
    """
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=True)
    plays, rated, played = json.loads(done.stdout)
    assert {notation: pid for pid, notation, _ in rated} == plays
    assert played == next(e for pid, _, e in rated if pid == plays["6/off 5/3"])


def test_without_the_extra_one_line_says_how(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    from bot import __main__ as cli
    from bot.analysis import worker

    monkeypatch.setattr(worker, "available", lambda: False)
    assert cli.main(["analyse", str(DATA / "chouette.jsonl")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "pip install -e '.[analysis]'" in err
