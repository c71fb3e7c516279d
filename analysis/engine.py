# chouette-bot analysis worker: GNU Backgammon's verdict on a chouette's decisions.
# Copyright (C) 2025 the chouette-bot authors
#
# This program is free software: you can redistribute it and/or modify it under the terms of
# the GNU General Public License as published by the Free Software Foundation, either version
# 3 of the License, or (at your option) any later version. See analysis/LICENSE.
"""The engine: GNU Backgammon's own numbers for one position, through its Python module.

Every question is a money game at one cube (value, owner) with the table's Jacoby setting,
at `plies` plies, asked as a player asks gnubg: the position, cube and dice set with a GNU
Backgammon ID, then its `hint` command, whose lines are read from its output: every play
with its equity, or "No double / Double, take / Double, pass" (the module has no call that
returns the cube's numbers, and `findbestmoves` cuts a play short at a checker borne off).
Equities are gnubg's, normalised to a cube of 1, printed to 5 decimals.

A play is rated as gnubg's `analyse match` rates it, not as its `hint` does by default:
the plays that pass the analysis' move filter (`ANALYSIS_FILTER`) are evaluated at the full
depth, even one alone (the hint stops filtering early when one play is left), and the played
one too if the filter dropped it.
"""

from __future__ import annotations

import ctypes
import os
import re
import tempfile
from dataclasses import dataclass
from typing import Any

import gnubg

from rules.board import Position, legal_plays
from rules.notation import format_play, parse_play, position_from_id, position_id

OWNERS = ("centred", "roller", "other")  # whose the cube is, seen from the side on roll
_MOVE_LINE = re.compile(r"^\s*\d+\.\s+Cubeful (\d)-ply\s+(.+?)\s+Eq\.:\s+([+-]?\d+\.\d+)",
                        re.MULTILINE)
_CUBE_LINE = re.compile(r"^\s*\d\.\s+(No (?:re)?double|(?:Re)?[Dd]ouble, (?:take|pass))"
                        r"\s+([+-]?\d+\.\d+)", re.MULTILINE)
# the pinned module's rating words (its `rating|...` strings), by `gnubg.errorrating`'s
# answer 0..5 for an error rate per decision (EMG): not the desktop 1.07's "Awful!" to
# "Supernatural"
RATINGS = ("Beginner", "Intermediate", "Advanced", "Master", "Grandmaster",
           "Super Grandmaster")
# gnubg's default move filter for its analysis (`show analysis`), by depth: at each level
# before the last, up to `n` plays within `threshold` of the best go on. Given to `hint`
# with the best one accepted (1 + n - 1): the same plays go on, and a play left alone is
# still evaluated at the full depth, as the analysis does
ANALYSIS_FILTER = {1: ((16, 0.32),), 2: ((16, 0.32), (8, 0.16)),
                   3: ((24, 0.4), (12, 0.2), (6, 0.08)),
                   4: ((32, 0.4), (16, 0.2), (8, 0.1), (6, 0.08))}
_HINT_FILTER = [{"ply": ply, "level": level, "acceptmoves": 1, "extramoves": n - 1,
                 "threshold": threshold} for ply, levels in ANALYSIS_FILTER.items()
                for level, (n, threshold) in enumerate(levels)]
# every play to the full depth: the played one rated there when the filter dropped it (gnubg's
# `eval` of the position it reached gives the same number, but leaves its cache so that later
# cube decisions differ from the analysis' in the 5th decimal)
_KEEP_ALL = [{"ply": ply, "level": level, "acceptmoves": 1000, "extramoves": 0,
              "threshold": 0.0} for ply in range(1, 5) for level in range(ply)]


class EngineError(RuntimeError):
    """gnubg refused a question or answered in a way this worker can't read."""


@dataclass(frozen=True)
class CubeAnswer:
    """gnubg's cube analysis for the side on roll: No double, Double/take, Double/pass."""

    nd: float
    dt: float
    dp: float


@dataclass(frozen=True)
class MoveAnswer:
    """Every legal play's equity, best first: (Position ID after it, gnubg's notation,
    equity), the ID from the mover's view (not swapped); and the played one's equity."""

    plays: tuple[tuple[str, str, float], ...]
    played: float


class Engine:
    """One gnubg in this process, answering questions at `plies` plies.

    gnubg prints its answers on file descriptor 1: the engine points it at a scratch file
    for good (`take_stdout` hands the caller the real standard output first).
    """

    def __init__(self, plies: int, jacoby: bool = True, beavers: bool = True) -> None:
        if not 0 <= plies <= 4:
            raise EngineError(f"plies run from 0 to 4, not {plies}")
        self.plies = plies
        self.jacoby = jacoby
        self._libc = ctypes.CDLL(None)
        self._scratch = tempfile.TemporaryFile()  # noqa: SIM115 (lives as long as gnubg)
        os.dup2(self._scratch.fileno(), 1)
        self.command("set threads 1")  # more threads hang the module (issue 21)
        self.command("set output digits 5")
        self.command("set display off")  # no board drawn after each `set gnubgid`
        gnubg.setevalhintfilter(_HINT_FILTER)
        self._cubes: dict[tuple[str, int, str, bool], CubeAnswer] = {}
        self.command("set player 0 human")
        self.command("set player 1 human")
        self.command("new session")
        for what in ("chequerplay", "cubedecision"):
            self.command(f"set evaluation {what} evaluation plies {plies}")
            self.command(f"set evaluation {what} evaluation cubeful on")
        self.set_rules(jacoby, beavers)

    @staticmethod
    def take_stdout() -> Any:
        """A new stream on the process's real standard output, before gnubg gets fd 1."""
        return os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)

    def set_rules(self, jacoby: bool, beavers: bool) -> None:
        """The table's Jacoby and beaver settings for the questions that follow."""
        self.jacoby = jacoby
        self.command(f"set jacoby {'on' if jacoby else 'off'}")
        self.command(f"set beavers {3 if beavers else 0}")

    def command(self, text: str) -> str:
        """Run one gnubg command and return what it printed."""
        self._libc.fflush(None)
        self._scratch.seek(0)
        self._scratch.truncate()
        gnubg.command(text)
        self._libc.fflush(None)
        self._scratch.seek(0)
        return self._scratch.read().decode("utf-8", "replace")

    def _cubeinfo(self, value: int, owner: str) -> dict[str, Any]:
        """gnubg's cubeinfo for the side on roll (gnubg's player 1) in a money game."""
        if owner not in OWNERS:
            raise EngineError(f"a cube's owner is one of {OWNERS}, not {owner!r}")
        index = {"centred": -1, "roller": 1, "other": 0}[owner]
        info: dict[str, Any] = gnubg.cubeinfo(value, index, 1)
        # gnubg.cubeinfo always says Jacoby: its money gammon price follows it
        price = 0.0 if self.jacoby and index == -1 else 1.0
        info.update(jacoby=int(self.jacoby), gammonprice=((price, price), (price, price)))
        return info

    @staticmethod
    def rating(per_decision: float) -> str:
        """gnubg's word for an error rate per decision (EMG, a loss: not negative), as its
        statistics name the overall rate: the module's own `errorrating`."""
        index = int(gnubg.errorrating(per_decision))
        if not 0 <= index < len(RATINGS):
            raise EngineError(f"gnubg rates {per_decision} as {index}: not a known word")
        return RATINGS[index]

    def cube(self, pid: str, value: int, owner: str) -> CubeAnswer:
        """The cube analysis of `pid` (the side on roll to move) before its roll."""
        key = (pid, value, owner, self.jacoby)
        if key not in self._cubes:  # every Team cube alike in one turn: one question
            if len(self._cubes) > 10_000:
                self._cubes.clear()
            self._cubes[key] = self._cube(pid, value, owner)
        return self._cubes[key]

    def _cube(self, pid: str, value: int, owner: str) -> CubeAnswer:
        info = self._cubeinfo(value, owner)
        match_id = gnubg.matchid(info, gnubg.posinfo(1, 0, 0, 1, (0, 0)))
        self.command(f"set gnubgid {pid}:{match_id}")
        text = self.command("hint")
        found: dict[str, float] = {}
        for label, equity in _CUBE_LINE.findall(text):
            key = "nd" if label.startswith("No") else "dt" if label.endswith("take") else "dp"
            found[key] = float(equity)
        if set(found) != {"nd", "dt", "dp"}:
            raise EngineError(f"no cube analysis for {pid} (cube {value} {owner}): "
                              f"{text.strip()[-300:]!r}")
        return CubeAnswer(found["nd"], found["dt"], found["dp"])

    def moves(self, pid: str, dice: tuple[int, int], value: int, owner: str,
              played: str) -> MoveAnswer:
        """Every play of `dice` in `pid` rated; `played` is the Position ID it reached."""
        info = self._cubeinfo(value, owner)
        match_id = gnubg.matchid(info, gnubg.posinfo(1, 0, 0, 1, dice))
        gnubgid = f"set gnubgid {pid}:{match_id}"
        self.command(gnubgid)
        position = position_from_id(pid)
        rated = self._hinted(position, dice)
        depth = next((d for p, _, _, d in rated if p == played), None)
        if depth is None:
            raise EngineError(f"{played} is not a legal result of {dice} in {pid}")
        full = [(p, n, e) for p, n, e, d in rated if d == self.plies]
        if depth < self.plies:  # dropped by the filter: rated at the full depth, where
            gnubg.setevalhintfilter(_KEEP_ALL)  # every play goes
            try:  # set again: on an unchanged position gnubg's hint answers from its last
                self.command(gnubgid)
                again = self._hinted(position, dice)
            finally:
                gnubg.setevalhintfilter(_HINT_FILTER)
            full.append(next((p, n, e) for p, n, e, _ in again if p == played))
            full.sort(key=lambda play: -play[2])
        rest = [(p, n, e) for p, n, e, d in rated if d < self.plies and p != played]
        plays = tuple(full + rest)
        return MoveAnswer(plays, next(e for p, _, e in plays if p == played))

    def _hinted(self, position: Position, dice: tuple[int, int]
                ) -> tuple[tuple[str, str, float, int], ...]:
        """(Position ID after, notation, equity, depth) of every play gnubg's hint lists,
        best first (findbestmoves would be simpler, but its tuples stop at a checker borne
        off)."""
        ids = {format_play(p): position_id(p.position) for p in legal_plays(position, dice)}
        rated = []
        for depth, notation, equity in _MOVE_LINE.findall(self.command("hint 10000")):
            after = ids.get(notation) or position_id(parse_play(notation, position, dice)
                                                     .position)
            rated.append((after, notation, float(equity), int(depth)))
        if not rated:
            raise EngineError(f"gnubg lists no play of {dice} in {position_id(position)}")
        return tuple(rated)


def version() -> str:
    """The gnubg module's version."""
    return str(getattr(gnubg, "__version__", "unknown"))
