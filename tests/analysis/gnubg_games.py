"""gnubg's own statistics of a chouette: each Team player's cube as a money game of its own,
typed into gnubg move by move, put through gnubg's `analyse match`, and read back from
`show statistics match` (a session of that one game), as a player would read them.

    python tests/analysis/gnubg_games.py PLIES < TRANSCRIPT.jsonl

prints one JSON object: {Team player: {"box": the Box, "players": {name: figures}}}, the
figures as gnubg prints them: `unforced`, `close` (close or actual cube decisions),
`checker`, `cube` and `overall` ({"total": EMG, "rate": mEMG}, gnubg's sign) and `rating`
(gnubg's word for the overall rate, or "n/a"). Nothing here uses the worker's counting: the
game is rebuilt from the rules' events (who rolled what, who played what, each turn of that
cube), the numbers are gnubg's.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from analysis.engine import Engine
from rules.cube import Side
from rules.errors import RuleError
from rules.events import CubeTurned, Moved, Rolled
from rules.state import TableState, evolve
from rules.table import decide
from rules.transcript import parse

GNUBG_ANSWER = {"double": "double", "take": "take", "drop": "drop", "beaver": "redouble",
                "raccoon": "redouble"}
_NUMBER = re.compile(r"[+-]?\d+\.\d+")


def commands(lines: list[str]) -> tuple[dict[str, list[str]], dict[str, str], Any]:
    """gnubg's commands for each Team cube's game (by its Team player), its Box, the rules.

    gnubg's player 0 is the Team, player 1 the Box. A cube's game ends with its drop."""
    state = TableState()
    games: dict[str, list[str]] = {}
    boxes: dict[str, str] = {}
    over: set[str] = set()
    for line in lines:
        try:
            events = decide(state, parse(json.loads(line)))
        except RuleError:
            continue
        for event in events:
            before = state
            state = evolve(state, event)
            game = before.game
            if game is None or game.position is None:
                continue
            if not games and game.cubes:
                for cube in game.cubes:
                    if not cube.is_extra and not cube.penalty:
                        games[cube.team_player] = [
                            f"set turn {0 if game.on_roll is Side.TEAM else 1}"]
                        boxes[cube.team_player] = cube.box_player
                        assert cube.value == 1, "automatic doubles are not rebuilt here"
            if isinstance(event, Rolled | Moved):
                dice = event.dice if isinstance(event, Rolled) else game.dice
                assert dice is not None
                if isinstance(event, Rolled) and not event.passed:
                    continue  # its move follows
                play = event.play if isinstance(event, Moved) else ""
                for team, typed in games.items():
                    if team not in over:
                        typed += [f"set dice {dice[0]} {dice[1]}", f"move {play}".strip()]
            elif isinstance(event, CubeTurned) and isinstance(event.action, str):
                team = event.cube.team_player
                if team in games and team not in over and event.action in GNUBG_ANSWER:
                    games[team].append(GNUBG_ANSWER[event.action])
                if team in games and event.action == "drop":
                    over.add(team)
    return games, boxes, state.rules


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
    games, boxes, rules = commands(sys.stdin.read().splitlines())
    engine = Engine(plies)
    answer = {}
    for team, typed in games.items():
        for setting in ("set automatic roll off", f"set jacoby {'on' if rules.jacoby else 'off'}",
                        f"set beavers {3 if rules.beavers else 0}", "new session",
                        f"set player 0 name {team}", f"set player 1 name {boxes[team]}",
                        "set player 0 human", "set player 1 human", "set analysis luck off",
                        *(f"set analysis {what} evaluation {how}"
                          for what in ("chequerplay", "cubedecision")
                          for how in (f"plies {plies}", "cubeful on")),
                        "new game", *typed, "analyse match"):
            engine.command(setting)
        shown = engine.command("show statistics match")
        answer[team] = {"box": boxes[team],
                        "players": statistics(shown, (team, boxes[team]))}
    out.write(json.dumps(answer) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
