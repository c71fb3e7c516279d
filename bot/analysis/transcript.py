"""A played game as a play-mode transcript (contract 2), rebuilt from a table's events, for
the analysis worker (contract 5 reads transcripts, the store keeps events).

Pure: standard library, `rules/` and the one walk over a session's games
(`bot.records.games.board_games`, which the game records use too). The game is set up as it stood
when it started (the rules, the stakes, the seating), then each stored action of the game
becomes the command that makes the same events: a candidate command is tried on the
transcript's own table with the rules' `decide`, and kept only if it makes what the store
holds (a roll's dice, a play, a cube's turn or answer, by the same player). A stored event
no command here remakes (a player gone away, a proxy, a resignation) is passed over: the
decisions around it are still found.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Collection, Iterable, Iterator, Sequence
from typing import Any

from bot.records.games import BoardGame, board_games
from rules.errors import RuleError
from rules.events import (
    CubeTurned,
    Event,
    GameAbandoned,
    GameEnded,
    GameHeldOver,
    GameResumed,
    GameStarted,
    Moved,
    Rolled,
    TurnAsked,
)
from rules.game import shooter
from rules.state import TableState, replay
from rules.table import decide
from rules.table_events import PlayerAway
from rules.transcript import parse

ANSWERS = ("take", "drop", "beaver", "raccoon", "aardvark")
_OVER = (GameEnded, GameAbandoned, GameHeldOver)


def ended(games: Sequence[BoardGame]) -> list[BoardGame]:
    """The games played on a board that ended (a result: not abandoned, nor on hold), in
    the order they ended (a game held over ends when it is played out)."""
    over = [g for g in games if g.end == "ended" and g.ended_at is not None]
    return sorted(over, key=lambda g: g.ended_at or 0)


GAME_EVENTS = tuple(kind.__name__ for kind in (GameStarted, GameResumed, *_OVER))


def ended_games(events: Iterable[Event]) -> list[int]:
    """The numbers of the games played on a board that ended, in the order they ended (a
    scorekeeper's games have no board, nothing to analyse; a game held over ends when it
    is played out). Only the games' own events count (`GAME_EVENTS`: the store reads no
    other), so no state is folded."""
    over: list[int] = []
    held: set[int] = set()
    playing: int | None = None  # the board game under way
    for event in events:
        if isinstance(event, GameStarted):
            playing = event.number if event.position is not None else None
        elif isinstance(event, GameResumed):
            playing = event.number if event.number in held else None
            held.discard(event.number)
        elif isinstance(event, _OVER) and playing is not None:
            if isinstance(event, GameEnded):
                over.append(playing)
            elif isinstance(event, GameHeldOver):
                held.add(playing)
            playing = None  # abandoned: no result to analyse
    return over


def transcripts(events: Sequence[Event], numbers: Collection[int] | None = None
                ) -> dict[int, list[str]]:
    """The ended games `numbers` (all, by default) of the table whose events are `events`,
    as transcript lines (JSON), by number: one walk over the events (`records.board_games`:
    each folded once), then each game rebuilt from its own events only. A game held over is
    rebuilt up to its hold (docs/analysis.md)."""
    return {g.number: _played(g.before, g.started, g.events) for g in ended(board_games(events))
            if numbers is None or g.number in numbers}


def _setup(state: TableState, started: GameStarted) -> list[dict[str, Any]]:
    """open, join (each with his stake), seat, start: the table as the game began."""
    seating = state.seating
    assert seating is not None
    options = {f.name: getattr(state.rules, f.name) for f in dataclasses.fields(state.rules)}
    lines: list[dict[str, Any]] = [
        {"cmd": "open", "preset": state.preset, "mode": "play",
         "options": json.loads(json.dumps(options))}]
    players = [seating.box, *([seating.partner] if seating.partner else []), *seating.team]
    for player in players:
        member = state.member(player)
        lines.append({"cmd": "join", "by": player, "stake": member.stake if member else 1})
    seat: dict[str, Any] = {"cmd": "seat", "order": [seating.box, *seating.team]}
    if seating.partner:
        seat["partner"] = seating.partner
    lines += [seat, {"cmd": "start", "opening": [list(pair) for pair in started.opening]}]
    return lines


def _played(before: TableState, started: GameStarted, rest: Sequence[Event]) -> list[str]:
    lines: list[str] = []
    mine = TableState()
    for data in _setup(before, started):
        try:
            mine = replay(decide(mine, parse(data)), mine)
        except RuleError:
            continue  # (the setup is the rules' own; a refusal leaves the line out)
        lines.append(json.dumps(data))
    at = 0
    while at < len(rest) and mine.game is not None:
        for data in _candidates(mine, rest, at):
            try:
                made = decide(mine, parse(data))
            except RuleError:
                continue
            if made and _same(made, rest[at:at + len(made)]):
                mine = replay(made, mine)
                lines.append(json.dumps(data))
                at += len(made)
                break
        else:  # no command remakes it: passed over
            if isinstance(rest[at], _OVER):
                break
            at += 1
    return lines


def _candidates(state: TableState, events: Sequence[Event], at: int
                ) -> Iterator[dict[str, Any]]:
    """The commands that may have made `events[at]` (and those after it, with it)."""
    event = events[at]
    who = shooter(state) or ""
    if isinstance(event, Rolled):
        yield {"cmd": "roll", "by": who, "dice": list(event.dice)}
    elif isinstance(event, Moved):
        yield {"cmd": "move", "by": who, "play": event.play}
    elif isinstance(event, PlayerAway):
        yield {"cmd": "away" if event.away else "back", "by": event.player}
    elif isinstance(event, TurnAsked):  # a raccoon or an aardvark asked, by consent
        yield {"cmd": "ask_turn", "by": event.player, "turn": event.turn,
               "across": event.across}
    elif isinstance(event, CubeTurned):
        group = [e for e in _run(events, at) if e.action == event.action]
        cubes = [e.cube.team_player for e in group]
        if event.action == "double":
            yield {"cmd": "double", "by": event.by}
            yield {"cmd": "double", "by": event.by, "cubes": cubes}
        elif event.action in ANSWERS:
            if event.action in ("raccoon", "aardvark"):  # made by the other's consent
                cube = event.cube
                other = cube.box_player if event.by == cube.team_player else cube.team_player
                yield {"cmd": "agree_turn", "by": other, "turn": event.action,
                       "player": event.by}
            yield {"cmd": event.action, "by": event.by}
            yield {"cmd": event.action, "by": event.by, "cubes": cubes}
            answers: dict[str, list[str]] = {}
            for e in _run(events, at):
                answers.setdefault(str(e.action), []).append(e.cube.team_player)
            yield {"cmd": "answer", "by": event.by, **answers}


def _run(events: Sequence[Event], at: int) -> list[CubeTurned]:
    """The cube events from `at` on by the same player, one after another."""
    first = events[at]
    assert isinstance(first, CubeTurned)
    run: list[CubeTurned] = []
    for event in events[at:]:
        if not isinstance(event, CubeTurned) or (event.by, event.why) != (first.by, first.why):
            break
        run.append(event)
    return run


def _same(made: Sequence[Event], stored: Sequence[Event]) -> bool:
    """Whether the events a command made are those stored, as far as the game goes."""
    return len(made) == len(stored) and all(
        _key(a) == _key(b) for a, b in zip(made, stored, strict=True))


def _key(event: Event) -> tuple[Any, ...]:
    if isinstance(event, Rolled):
        return ("Rolled", event.dice)
    if isinstance(event, Moved):
        return ("Moved", event.play)
    if isinstance(event, CubeTurned):
        return ("CubeTurned", event.cube.team_player, event.cube.box_player, event.action,
                event.by, event.why)
    return (type(event).__name__,)
