# chouette-bot analysis worker. Copyright (C) 2025 the chouette-bot authors.
# GPL-3.0-or-later: see analysis/LICENSE.
"""The decisions of a play-mode transcript, found by running it through the rules.

Contract 5 (../shared/DESIGN.md): a `move` per checker play, rated with the cube of the
Team's shooter; a `double` per cube the side on roll may turn before each roll after the
opening, turned or not; a `take` per double answered. Each cube decision is about one Team
player's cube against a Box-side player: a money game of its own. Nothing here asks gnubg.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field

from rules.board import Position, legal_plays
from rules.cube import Cube, Side
from rules.errors import RuleError
from rules.events import CubeTurned, Event, Moved, Rolled
from rules.game import shooter
from rules.notation import format_play, parse_play, position_id
from rules.roles import acting_captain, cube_of
from rules.ruleset import RuleSet
from rules.state import TableState, evolve
from rules.table import decide
from rules.transcript import parse

ANSWERS = ("take", "drop", "beaver")


@dataclass(frozen=True)
class CubeView:
    """A cube as it stood before a decision: its Team player, value, owner (`team`, `box`
    or `centred`) and the same owner seen from the side on roll (`roller`, `other`)."""

    team: str
    value: int
    owner: str
    seen: str

    @classmethod
    def of(cls, cube: Cube, on_roll: Side) -> CubeView:
        owner = "centred" if cube.owner is None else cube.owner.value
        seen = ("centred" if cube.owner is None
                else "roller" if cube.owner is on_roll else "other")
        return cls(cube.team_player, cube.value, owner, seen)

    def as_json(self) -> dict[str, object]:
        return {"team": self.team, "value": self.value, "owner": self.owner}


@dataclass(frozen=True)
class Decision:
    """One decision to rate: `pid` has the side on roll to move (for `take`, the doubler).

    For a move, `plays` maps the Position ID after each legal play (mover's view) to its
    notation, and `played` is the notation played; for cube decisions `played` is
    `double`/`no double` or `take`/`drop`/`beaver`, and `cube` the cube rated.

    `listed` is False for the answer that ends a beaver (a take or drop of the beaver, or of
    a raccoon on it): not a decision of contract 5, but gnubg's statistics count it as a
    take or pass of the first double, rated with that double's numbers (`pid`, `cube`).
    """

    game: int
    player: str
    kind: str
    pid: str
    cube: CubeView
    played: str
    dice: tuple[int, int] | None = None
    plays: dict[str, str] = field(default_factory=dict)
    played_id: str = ""
    listed: bool = True


@dataclass
class _Walk:
    """The walk's state between events: the open doubling window and the doubles waiting
    for an answer, each keyed by its cube's two players."""

    state: TableState = field(default_factory=TableState)
    window: dict[tuple[str, str], Decision] | None = None
    offers: dict[tuple[str, str], Decision] = field(default_factory=dict)
    beavered: dict[tuple[str, str], Decision] = field(default_factory=dict)
    found: list[Decision] = field(default_factory=list)


def _key(cube: Cube) -> tuple[str, str]:
    return (cube.team_player, cube.box_player)


def _rated(cube: Cube) -> bool:
    """A Team player's own cube against a Box-side player (extras and penalties are not)."""
    return not cube.is_extra and not cube.penalty


def find(lines: Iterable[str]) -> tuple[list[Decision], RuleSet]:
    """Every decision of the transcript in the order made, and the table's rule set.

    Lines the rules refuse are skipped, as `python -m bot scenario` skips them (a line
    nested too deep for the parser too); a ValueError if the rules accept none.
    """
    walk = _Walk()
    accepted = 0
    for line in lines:
        if not line.strip():
            continue
        try:
            events = decide(walk.state, parse(json.loads(line)))
        except (json.JSONDecodeError, RecursionError, RuleError):
            continue
        accepted += 1
        _open_window(walk)
        for event in events:
            before = walk.state
            walk.state = evolve(before, event)
            _see(walk, before, event)
        if walk.state.game is None:  # the game is over: its last cubes were answered
            _close_window(walk)
            walk.offers.clear()
            walk.beavered.clear()
    if not accepted:
        raise ValueError("no line of the transcript is a command the rules accept (contract "
                         "2: one JSON command a line)")
    _close_window(walk)
    return walk.found, walk.state.rules


def _open_window(walk: _Walk) -> None:
    """Before the side on roll rolls (not the opening): every cube it may turn now."""
    game, seating = walk.state.game, walk.state.seating
    if (walk.window is not None or game is None or seating is None or game.position is None
            or game.on_roll is None or game.dice is not None
            or any(c.pending for c in game.cubes)):
        return
    side = game.on_roll
    pid = position_id(game.position)
    walk.window = {}
    for cube in game.cubes:
        if _rated(cube) and cube.live and cube.may_double(side):
            walk.window[_key(cube)] = Decision(game.number, cube.player(side), "double", pid,
                                               CubeView.of(cube, side), "")


def _close_window(walk: _Walk) -> None:
    """The roll came (or the game ended): the window's cubes still in it were not turned."""
    if walk.window is None:
        return
    for decision in walk.window.values():  # the cubes not turned (each turned one is
        walk.found.append(Decision(decision.game, decision.player, "double", decision.pid,
                                   decision.cube, "no double"))  # found when it was)
    walk.window = None


def _see(walk: _Walk, before: TableState, event: Event) -> None:
    game = before.game
    if isinstance(event, Rolled):
        _close_window(walk)
    elif isinstance(event, CubeTurned) and game is not None and game.position is not None:
        _cube_turned(walk, before, event)
    elif isinstance(event, Moved) and game is not None:
        _moved(walk, before, event)


def _cube_turned(walk: _Walk, before: TableState, event: CubeTurned) -> None:
    game = before.game
    assert game is not None and game.position is not None and game.on_roll is not None
    key = _key(event.cube)
    old = next((c for c in game.cubes if _key(c) == key), None)
    if old is None or not _rated(old):
        return
    if event.action == "double":
        if walk.window is not None and key in walk.window:  # decided now: in order
            chance = walk.window.pop(key)
            walk.found.append(Decision(chance.game, event.by, "double", chance.pid,
                                       chance.cube, "double"))
        view = CubeView.of(old, game.on_roll)
        walk.offers[key] = Decision(game.number, event.by, "take", position_id(game.position),
                                    view, "")
    elif isinstance(event.action, str) and event.action in ANSWERS and key in walk.offers:
        offer = walk.offers.pop(key)
        if event.action == "beaver":  # its answer (after any raccoon) ends the double
            walk.beavered[key] = offer
        if event.why:  # answered for him (away, timed out): not a decision of his
            return
        walk.found.append(Decision(offer.game, event.by, "take", offer.pid, offer.cube,
                                   event.action))
    elif event.action in ("take", "drop") and isinstance(event.action, str) and (
            key in walk.beavered):
        offer = walk.beavered.pop(key)  # the beaver (or a raccoon on it) answered
        if not event.why:
            walk.found.append(Decision(offer.game, event.by, "take", offer.pid, offer.cube,
                                       event.action, listed=False))


def _moved(walk: _Walk, before: TableState, event: Moved) -> None:
    game, seating = before.game, before.seating
    assert game is not None and seating is not None
    assert game.position is not None and game.dice is not None and game.on_roll is not None
    captain = acting_captain(seating, game.cubes)
    cube = cube_of(game, captain) if captain else None
    if cube is None:  # no Team cube left alive: the game is over for rating's sake
        return
    player = shooter(before) or ""
    position: Position = game.position
    plays = {position_id(p.position): format_play(p) for p in legal_plays(position,
                                                                          game.dice)}
    played = parse_play(event.play, position, game.dice)
    walk.found.append(Decision(game.number, player, "move", position_id(position),
                               CubeView.of(cube, game.on_roll), event.play, game.dice,
                               plays, position_id(played.position)))
