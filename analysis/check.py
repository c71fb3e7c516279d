# chouette-bot analysis worker. Copyright (C) 2025 the chouette-bot authors.
# GPL-3.0-or-later: see analysis/LICENSE.
"""An independent check of contract 5: gnubg's `hint`, typed as a player would type it.

    python -m analysis.check < QUESTION.json

The question is `{"jacoby": bool, "beavers": bool, "box": [Box-side players],
"decisions": [...]}`, contract 5's decisions, each move also carrying the `cube` it is rated
with. Each position is set up with gnubg's own commands (`set turn`, `set board`, `set cube
value`, `set cube owner`), not with the GNU Backgammon IDs the worker uses; the plays are
rated by `gnubg.findbestmoves` (the worker reads `hint`), the cube by `hint` (gnubg has no
other way to give its numbers). The contract's rules then give each decision's `loss` and
the `best` choices (several where gnubg's equities tie), and gnubg's numbers for the
worker's `details` (`plays`: every play's equity by gnubg's notation; `nd`, `dt`, `dp` for
a cube decision). The answer is one JSON list, in order. Tests only: 0 ply, the cube's
equities as gnubg prints them (5 decimals).
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

import gnubg

from analysis.engine import Engine

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


def _plays(pid: str, dice: list[int], cube: dict[str, Any]) -> dict[str, float]:
    """{play: equity} from gnubg.findbestmoves, not the hint the worker reads; the cube
    as `set cube` left it, the Jacoby rule as `set jacoby` did (gnubg.cubeinfo says
    Jacoby whatever the session's rule: its gammon price is set here)."""
    jacoby = "with the Jacoby" in gnubg.show("jacoby")
    price = 0.0 if jacoby and cube["cubeowner"] == -1 else 1.0
    cube.update(jacoby=int(jacoby), gammonprice=((price, price), (price, price)))
    board = gnubg.positionfromid(pid)
    found = gnubg.findbestmoves(board, cube, gnubg.evalcontext(1, 0, 1, 1, 0.0), tuple(dice))
    if any(len(m["move"]) % 2 for m in found):
        raise ValueError(f"a play bears off in {pid}: findbestmoves cuts it short")
    return {gnubg.movetupletostring(m["move"], board): float(m["score"]) for m in found}


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
            plays = _plays(d["id"], d["dice"], gnubg.cubeinfo())
            best, top = _best(plays)
            loss = top - plays[d["played"]]
            numbers: dict[str, Any] = {"plays": plays}
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
            numbers = cube
        answers.append({"best": best, "loss": round(loss, 6), "details": numbers})
    return answers


def main() -> int:
    out = Engine.take_stdout()
    engine = Engine(0)
    out.write(json.dumps(check(json.load(sys.stdin), engine)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
