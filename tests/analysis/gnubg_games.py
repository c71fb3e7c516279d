"""gnubg's own verdict on a chouette: each Team player's cube game, exported by the bot as a
match file (`bot.records.cubes`, what `/chouette record` and `python -m bot export --player`
give), imported into gnubg (`import mat`), put through gnubg's `analyse match`, and read back
from `show statistics game` and from the analysed game exported as text, as a player would.

    python tests/analysis/gnubg_games.py PLIES < TRANSCRIPT.jsonl

prints one JSON object: {Team player: {"box": the Box, "players": {name: figures},
"decisions": [...]}}, the figures as gnubg prints them: `unforced`, `close` (close or actual
cube decisions), `checker`, `cube` and `overall` ({"total": EMG, "rate": mEMG}, gnubg's sign)
and `rating` (gnubg's word for the overall rate, or "n/a"); `decisions` each record of the
game as gnubg's analysis shows it: `action` (move, no move, double, take, drop), `cube`
(No double, Double/take, Double/pass as gnubg prints them, from the side on roll's view; for
a take or drop, the taker's), and for a move `best` and `played` (equities). Nothing here uses
the worker's counting: the numbers are gnubg's, of the file the bot exports.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import gnubg

from analysis.engine import Engine
from bot.app import scenario
from bot.records import cubes
from rules.cube import Side
from rules.state import replay

_NUMBER = re.compile(r"[+-]?\d+\.\d+")
_ACTION = re.compile(r"^\* .*? (moves|cannot move|doubles|accepts|rejects)\b", re.MULTILINE)
_CUBE = re.compile(r"^\d\. (No (?:re)?double|(?:Re)?[Dd]ouble, (?:take|pass))\s+([+-]?\d+\.\d+)",
                   re.MULTILINE)
_MOVE = re.compile(r"^(\*?)\s+\S*\s+Cubeful \d-ply\s+.+?\s+Eq\.:\s+([+-]?\d+\.\d+)",
                   re.MULTILINE)
ACTIONS = {"moves": "move", "cannot move": "move", "doubles": "double", "accepts": "take",
           "rejects": "drop"}  # and gnubg.match()'s actions are move, double, take, drop


def decisions(text: str) -> list[dict[str, Any]]:
    """Each record of an analysed game exported as text (`export game text`), in order."""
    found = []
    for block in text.split("Move number ")[1:]:
        action = _ACTION.search(block)
        if action is None:
            continue
        row: dict[str, Any] = {"action": ACTIONS[action.group(1)], "cube": None,
                               "passed": action.group(1) == "cannot move"}
        cube = {("nd" if label.startswith("No") else "dt" if label.endswith("take")
                 else "dp"): float(equity) for label, equity in _CUBE.findall(block)}
        if cube:
            row["cube"] = [cube["nd"], cube["dt"], cube["dp"]]
        moves = _MOVE.findall(block)
        if moves:
            row["best"] = float(moves[0][1])
            row["played"] = next(float(e) for star, e in moves if star)
        found.append(row)
    return found


def analysed(engine: Engine, mat: str, jacoby: bool, beavers: bool, plies: int,
             names: tuple[str, str]) -> dict[str, Any]:
    """gnubg's statistics and decisions of one exported file, analysed at `plies`."""
    with tempfile.TemporaryDirectory() as folder:
        path, text = Path(folder) / "cube.mat", Path(folder) / "cube.txt"
        path.write_text(mat, encoding="utf-8")
        for setting in ("set confirm new off", "set automatic roll off",
                        f"set jacoby {'on' if jacoby else 'off'}",
                        f"set beavers {3 if beavers else 0}", f"import mat {path}",
                        "set analysis luck off",
                        *(f"set analysis {what} evaluation {how}"
                          for what in ("chequerplay", "cubedecision")
                          for how in (f"plies {plies}", "cubeful on")),
                        "analyse match", f"export game text {text}"):
            engine.command(setting)
        shown = engine.command("show statistics game")
        # the text ends on the last position again after a drop: gnubg's own records count
        records = [r for r in gnubg.match()["games"][-1]["game"]
                   if r["action"] in ACTIONS.values()]  # (a resignation has no analysis)
        found = decisions(text.read_text(encoding="utf-8"))[:len(records)]
        assert [r["action"] for r in found] == [r["action"] for r in records], records
        return {"players": statistics(shown, names), "decisions": found}


def statistics(text: str, names: tuple[str, str]) -> dict[str, dict[str, Any]]:
    """`show statistics match` read back: each player's figures (gnubg's player 0 first)."""
    found: dict[str, dict[str, Any]] = {name: {} for name in names}
    section = ""
    for line in text.splitlines():
        label, columns = line[:41].strip(), (line[41:65], line[65:])
        if line.strip().endswith("statistics") and not line.startswith(" "):
            section = line.split()[0].lower()
            continue
        for name, column in zip(names, columns, strict=True):
            mine = found[name]
            numbers = [float(n) for n in _NUMBER.findall(column)]
            if label == "Unforced moves":
                mine["unforced"] = int(column.split()[0])
            elif label == "Close or actual cube decisions":
                mine["close"] = int(column.split()[0])
            elif label.startswith("Error total") and section in ("chequerplay", "cube",
                                                                 "overall"):
                kind = {"chequerplay": "checker"}.get(section, section)
                mine.setdefault(kind, {})["total"] = numbers[0]
            elif label.startswith("Error rate") and section in ("chequerplay", "cube",
                                                                "overall"):
                kind = {"chequerplay": "checker"}.get(section, section)
                mine.setdefault(kind, {})["rate"] = numbers[0]
            elif label == "Overall rating":
                mine["rating"] = column.strip()
    return found


def main() -> int:
    out = Engine.take_stdout()
    plies = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    events = scenario.transcript(sys.stdin.read().splitlines())
    rules = replay(events).rules
    engine = Engine(plies)
    answer = {}
    for cube in cubes.cube_games(events):
        mat = cubes.export(events, cube.team, cube.number)
        names = (f"{cube.shown(Side.BOX)} (Box)", cube.shown(Side.TEAM))  # as the file
        found = analysed(engine, mat, rules.jacoby, rules.beavers, plies, names)
        players = found["players"]
        answer[cube.team] = {"box": cube.box, "decisions": found["decisions"],
                             "players": {cube.box: players[names[0]],
                                         cube.team: players[names[1]]}}
    out.write(json.dumps(answer) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
