# chouette-bot analysis worker. Copyright (C) 2025 the chouette-bot authors.
# GPL-3.0-or-later: see analysis/LICENSE.
"""An independent check of contract 5: gnubg's `hint`, typed as a player would type it.

    python -m analysis.check < QUESTION.json

The question is `{"jacoby": bool, "beavers": bool, "box": [Box-side players],
"decisions": [...]}`, contract 5's decisions, each move also carrying the `cube` it is rated
with. Each position is set up with gnubg's own commands (`set turn`, `set board`, `set cube
value`, `set cube owner`, `set dice`), not through the worker's code, and `hint` lists the
equities; the contract's rules then give each decision's `loss` and the `best` choices
(several where gnubg's equities tie). The answer is one JSON list, in order. Tests only:
0 ply, the equities as gnubg prints them (5 decimals).
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from analysis.engine import Engine

_MOVE = re.compile(r"^\s*\d+\.\s+Cubeful \d-ply\s+(.+?)\s+Eq\.:\s+([+-]?\d+\.\d+)", re.M)
_CUBE = re.compile(r"^\s*\d\.\s+(No (?:re)?double|(?:Re)?[Dd]ouble, (?:take|pass))\s+"
                   r"([+-]?\d+\.\d+)", re.M)
TIE = 1e-5


def _setup(engine: Engine, pid: str, cube: dict[str, Any], roller: str) -> None:
    engine.command("set turn 1")  # gnubg's player 1 is the side on roll
    engine.command(f"set board {pid}")
    engine.command(f"set cube value {cube['value']}")
    owner = cube["owner"]
    engine.command("set cube centre" if owner == "centred"
                   else f"set cube owner {1 if owner == roller else 0}")


def _best(options: dict[str, float]) -> tuple[list[str], float]:
    top = max(options.values())
    return [k for k, v in options.items() if v >= top - TIE], top


def check(question: dict[str, Any], engine: Engine) -> list[dict[str, Any]]:
    """The loss and the best choices of every decision, from gnubg's hint."""
    engine.command(f"set jacoby {'on' if question['jacoby'] else 'off'}")
    box = set(question["box"])
    answers = []
    for d in question["decisions"]:
        side = "box" if d["player"] in box else "team"
        roller = side if d["kind"] != "take" else ("team" if side == "box" else "box")
        _setup(engine, d["id"], d["cube"], roller)
        if d["kind"] == "move":
            engine.command("set dice {} {}".format(*d["dice"]))
            plays = {m: float(e) for m, e in _MOVE.findall(engine.command("hint 1000"))}
            best, top = _best(plays) if plays else ([d["played"]], 0.0)
            loss = top - plays[d["played"]] if plays else 0.0
        else:
            cube = {("nd" if k.startswith("No") else "dt" if k.endswith("take") else "dp"):
                    float(e) for k, e in _CUBE.findall(engine.command("hint"))}
            if d["kind"] == "double":
                options = {"no double": cube["nd"], "double": min(cube["dt"], cube["dp"])}
            else:
                options = {"take": -cube["dt"], "drop": -cube["dp"]}
                if question["beavers"]:
                    options["beaver"] = -2 * cube["dt"]
            best, top = _best(options)
            loss = top - options[d["played"]]
        answers.append({"best": best, "loss": round(loss, 6)})
    return answers


def main() -> int:
    out = Engine.take_stdout()
    engine = Engine(0)
    out.write(json.dumps(check(json.load(sys.stdin), engine)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
