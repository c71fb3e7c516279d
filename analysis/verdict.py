# chouette-bot analysis worker. Copyright (C) 2025 the chouette-bot authors.
# GPL-3.0-or-later: see analysis/LICENSE.
"""Contract 5: gnubg's verdict on every decision of a play-mode transcript.

A decision's `loss` is the equity given up against gnubg's best choice, never negative,
normalised to a cube of 1 as gnubg shows it:
- a move: the best play's equity less the played one's (a forced play loses nothing);
- a double: No double against min(Double/take, Double/pass), as gnubg's cube analysis;
- a take: take = -DT, drop = -DP (= -1), beaver = -2 DT (where the table allows beavers),
  in units of the cube before the double.

Beyond the contract, each decision gnubg was asked about carries its numbers under one
optional key, `details` (for `/chouette analysis`):
- a cube decision (`double` or `take`): `{"nd": .., "dt": .., "dp": ..}`, gnubg's No double,
  Double/take and Double/pass for the side that may double (for a take, the doubler's);
- a move with a choice: `{"plays": [{"play": .., "equity": ..}, ...], "played": {"play": ..,
  "equity": .., "rank": ..}}`, gnubg's best `TOP_PLAYS` plays best first and the one played
  (rank 1 = as good as gnubg's best); a forced play has no `details` (nothing was asked).

Each player's summary also carries gnubg's own statistics, counted as `show statistics game`
counts them after gnubg's `analyse match` of each cube's money game (`statistics`; a test
has gnubg count the same games): `unforced` checker plays (a choice to make), `cube_close`
cube decisions (close or actual), the error `rates` in mEMG with gnubg's sign, and gnubg's
`rating` word for the overall rate.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from analysis.decisions import Decision, find


class Rater(Protocol):
    """What the verdict needs of an engine (analysis.engine.Engine)."""

    def set_rules(self, jacoby: bool, beavers: bool) -> None: ...
    def rating(self, per_decision: float) -> str: ...
    def cube(self, pid: str, value: int, owner: str) -> Any: ...
    def moves(self, pid: str, dice: tuple[int, int], value: int, owner: str,
              played: str) -> Any: ...


TOP_PLAYS = 5  # the plays `details` lists for a move, best first
_TIE = 1e-9
CLOSE = 0.16  # gnubg's isCloseCubedecision: a no double within this of doubling is close


def _num(x: float) -> float:
    return round(x, 6) + 0.0  # no -0.0


def verdict(lines: Iterable[str], engine: Rater) -> dict[str, Any]:
    """The contract's object: `decisions` in order and the `players` summary."""
    found, rules = find(lines)
    engine.set_rules(rules.jacoby, rules.beavers)
    every = [rate(d, engine, rules.beavers) for d in found]
    rated = [d for d, made in zip(every, found, strict=True) if made.listed]
    players: dict[str, dict[str, Any]] = {}
    # gnubg's statistics: unforced plays, their loss, close cube decisions, their loss
    counted: dict[str, tuple[int, float, int, float]] = {}
    for d, made in zip(every, found, strict=True):
        row = players.setdefault(d["player"], {"moves": 0, "move_loss": 0.0,
                                               "cube_decisions": 0, "cube_loss": 0.0})
        unforced, checker, close, cube = counted.get(d["player"], (0, 0.0, 0, 0.0))
        if made.listed and d["kind"] == "move":
            row["moves"] += 1
            row["move_loss"] += d["loss"]
        elif made.listed:
            row["cube_decisions"] += 1
            row["cube_loss"] += d["loss"]
        counts = statistics(d)
        if counts is not None and counts[0] == "checker":
            unforced, checker = unforced + 1, checker + counts[1]
        elif counts is not None:
            close, cube = close + 1, cube + counts[1]
        counted[d["player"]] = (unforced, checker, close, cube)
    for name, row in players.items():
        row["move_loss"], row["cube_loss"] = _num(row["move_loss"]), _num(row["cube_loss"])
        row.update(_gnubg_row(*counted[name], engine))
    return {"decisions": rated, "players": players}


def statistics(d: dict[str, Any]) -> tuple[str, float] | None:
    """How gnubg's statistics count a rated decision: ("checker" or "cube", its loss), or
    None where they do not count it.

    - a checker play counts if it had a choice (gnubg's unforced moves), with its loss;
    - a double made counts, with its loss; a double not made counts if it was a missed
      double or close (gnubg's isCloseCubedecision: the best of No double and the double,
      less the lower of Double/take and 1, under 0.16), with its loss;
    - an answer counts as a take or a pass, rated between the two alone (a beaver is no
      choice of gnubg's: its loss is the take's, or the drop's, against the other); a
      beaver itself never counts, and the answer that ends it (not a listed decision)
      counts as a take or pass of the first double, rated with that double's numbers, as
      gnubg does.
    """
    if d["kind"] == "move":
        return ("checker", float(d["loss"])) if "details" in d else None
    cube = d["details"]
    if d["kind"] == "double":
        if d["played"] == "double":
            return "cube", float(d["loss"])
        best = max(cube["nd"], min(cube["dt"], cube["dp"]))
        close = best - min(cube["dt"], 1.0) < CLOSE
        return ("cube", float(d["loss"])) if close else None
    if d["played"] not in ("take", "drop"):  # a beaver
        return None
    # gnubg rates an answer with the doubler's numbers: a take loses DT - DP if a pass was
    # better, a pass DP - DT if a take was
    gap = cube["dt"] - cube["dp"]
    return "cube", _num(max(gap if d["played"] == "take" else -gap, 0.0))


def _gnubg_row(unforced: int, checker: float, close: int, cube: float,
               engine: Rater) -> dict[str, Any]:
    """gnubg's figures of one player: counts, rates in mEMG signed as gnubg prints them
    (a loss is negative; None without a decision) and the rating word (None likewise)."""
    def rate(loss: float, count: float) -> float | None:
        return _num(-loss / count * 1000) if count else None

    decisions = unforced + close
    return {"unforced": unforced, "cube_close": close,
            "rates": {"checker": rate(checker, unforced), "cube": rate(cube, close),
                      "overall": rate(checker + cube, decisions)},
            "rating": engine.rating((checker + cube) / decisions) if decisions else None}


def rate(d: Decision, engine: Rater, beavers: bool) -> dict[str, Any]:
    """One decision as the contract lists it, with gnubg's numbers under `details`."""
    out: dict[str, Any] = {"game": d.game, "player": d.player, "kind": d.kind}
    if d.kind != "move":
        out["cube"] = d.cube.as_json()
    out["id"] = d.pid
    details: dict[str, Any] | None
    if d.kind == "move":
        assert d.dice is not None
        out["dice"] = list(d.dice)
        best, loss, details = _move(d, engine)
    else:
        cube = engine.cube(d.pid, d.cube.value, d.cube.seen)
        if d.kind == "double":
            best, loss = _double(d, cube)
        else:
            best, loss = _take(d, cube, beavers)
        details = {"nd": _num(cube.nd), "dt": _num(cube.dt), "dp": _num(cube.dp)}
    out.update(played=d.played, best=best, loss=_num(max(loss, 0.0)))
    if details is not None:
        out["details"] = details
    return out


def _move(d: Decision, engine: Rater) -> tuple[str, float, dict[str, Any] | None]:
    if len(d.plays) <= 1:  # forced: nothing to choose, nothing asked
        return d.played, 0.0, None
    assert d.dice is not None
    answer = engine.moves(d.pid, d.dice, d.cube.value, d.cube.seen, d.played_id)
    plays: list[tuple[str, str, float]] = list(answer.plays)

    def named(pid: str, notation: str) -> str:  # the rules' notation, gnubg's if unknown
        return d.plays.get(pid, notation)

    details = {
        "plays": [{"play": named(pid, notation), "equity": _num(equity)}
                  for pid, notation, equity in plays[:TOP_PLAYS]],
        "played": {"play": named(d.played_id, d.played), "equity": _num(answer.played),
                   "rank": 1 + sum(1 for *_, e in plays if e > answer.played + _TIE)},
    }
    best_id, notation, best = plays[0]
    if abs(answer.played - best) < _TIE:
        return d.played, 0.0, details  # gnubg rates them equal: the played one is a best
    return named(best_id, notation), best - answer.played, details


def _double(d: Decision, cube: Any) -> tuple[str, float]:
    doubled = min(cube.dt, cube.dp)
    best = "double" if doubled > cube.nd else "no double"
    got = doubled if d.played == "double" else cube.nd
    return best, max(doubled, cube.nd) - got


def _take(d: Decision, cube: Any, beavers: bool) -> tuple[str, float]:
    options = {"take": -cube.dt, "drop": -cube.dp}
    if beavers:
        options["beaver"] = -2 * cube.dt
    best = max(options, key=lambda k: options[k])
    if options[d.played] >= options[best] - 1e-9:
        best = d.played
    return best, options[best] - options[d.played]
