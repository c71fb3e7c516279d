"""One walk over a session's games (`bot.records.games.board_games`), for the game records and the
analysis alike: a game held over (FIBS §6 ¶2) is one game, played out after other games and
ended then; a long session's transcripts fold each stored event once, not once per game."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import rules.state
from bot.analysis.transcript import GAME_EVENTS, ended, ended_games, transcripts
from bot.app.scenario import apply
from bot.records import games
from rules.board import legal_plays
from rules.cube import Side
from rules.events import Event, GameHeldOver, Rolled
from rules.game import shooter
from rules.notation import format_play
from rules.state import TableState, replay
from rules.table import decide
from rules.transcript import parse
from tests.bot.test_analysis_discord_side import session


def held_over(seed: int) -> list[str]:
    """FIBS in play mode at a table of four: game 1 is held over when its Captain goes,
    game 2 is played and dropped, then game 1 is played out and dropped."""
    rng, state, lines = random.Random(seed), TableState(), list[str]()

    def do(data: dict[str, Any]) -> None:
        nonlocal state
        state = replay(decide(state, parse(data)), state)
        lines.append(json.dumps(data))

    def turns(count: int) -> None:
        for _ in range(count):
            game = state.game
            assert game is not None
            if game.dice is None:
                do({"cmd": "roll", "by": shooter(state),
                    "dice": [rng.randint(1, 6), rng.randint(1, 6)]})
            game = state.game
            assert game is not None and game.position is not None
            if game.dice is not None and (plays := legal_plays(game.position, game.dice)):
                do({"cmd": "move", "by": shooter(state), "play": format_play(rng.choice(plays))})

    def team_doubles_box_drops() -> None:
        while state.game is not None and not (
                state.game.dice is None and state.game.on_roll is Side.TEAM):
            turns(1)
        assert state.seating is not None
        do({"cmd": "double", "by": state.seating.captain})
        do({"cmd": "drop", "by": state.seating.box})

    do({"cmd": "open", "preset": "fibs", "mode": "play"})
    do({"cmd": "seat", "order": ["ann", "bob", "cy", "dee"]})
    do({"cmd": "start", "opening": [[1, 4]]})
    turns(6)
    assert state.seating is not None
    captain = state.seating.captain
    do({"cmd": "disconnect", "by": "cy", "player": captain})
    do({"cmd": "hold_over", "by": "cy"})
    do({"cmd": "back", "by": captain})
    do({"cmd": "start", "opening": [[2, 5]]})
    turns(4)
    team_doubles_box_drops()
    do({"cmd": "resume", "by": captain})
    turns(4)
    team_doubles_box_drops()
    assert state.games_played == 2 and not state.held and state.game is None
    return lines


@pytest.mark.parametrize("seed", [1, 2])
def test_a_game_held_over_and_played_out_later_is_one_game_that_ended(seed: int) -> None:
    _, events, rejected = apply(held_over(seed))
    assert not rejected
    one, two = games.board_games(events)
    assert (one.number, one.end, two.number, two.end) == (1, "ended", 2, "ended")
    hold = next(i for i, e in enumerate(one.events) if isinstance(e, GameHeldOver))
    assert hold < len(one.events) - 1  # its events run on after the hold

    # The record (the .mat): game 1 has its turns after the hold and its result; before the
    # one walk it stopped at the hold, with no winner, and its last turns were lost.
    first, second = games.games(events)
    assert first.number == 1 and first.winner is Side.TEAM and first.kind == "single"
    rolled = sum(isinstance(e, Rolled) for e in one.events)
    assert len(first.turns) == 1 + rolled  # the opening's turn and every roll, both sides
    assert second.number == 2 and second.winner is Side.TEAM
    mat = games.export(events)
    assert mat.count("Wins 1 point") == 2

    # The analysis: both ended, in the order they ended; game 1 rebuilt up to its hold
    # (docs/analysis.md), from its own events, as from the session's.
    assert ended_games(events) == [2, 1]
    # from the games' own events alone, as the queue reads them (nothing folded)
    assert ended_games([e for e in events if type(e).__name__ in GAME_EVENTS]) == [2, 1]
    assert [g.number for g in ended(games.board_games(events))] == [2, 1]  # the walk's, the same
    found = transcripts(events)
    assert sorted(found) == [1, 2] and found[1] == transcripts(events, [1])[1]
    moves = [json.loads(x)["play"] for x in found[1] if json.loads(x)["cmd"] == "move"]
    before_hold = sum(isinstance(e, Rolled) for e in one.events[:hold])
    plays = [t.play for t in first.turns[:1 + before_hold] if t.play]
    assert moves == plays and moves
    assert transcripts(events, [2]).keys() == {2}


def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Count the events folded: by the walk over the table's events, and in all (the walk,
    and the rules rebuilding each game on a table of its own)."""
    count = {"walk": 0, "all": 0}
    fold = rules.state.evolve

    def walk(state: TableState, event: Event) -> TableState:
        count["walk"] += 1
        return all_(state, event)

    def all_(state: TableState, event: Event) -> TableState:
        count["all"] += 1
        return fold(state, event)

    monkeypatch.setattr(games, "evolve", walk)
    monkeypatch.setattr(rules.state, "evolve", all_)  # `replay`'s, so the rules' own
    return count


def test_a_long_sessions_transcripts_fold_each_event_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each game used to be rebuilt after a replay of the table from event 0: this
    session's 8 games folded its events about 5 times over (2 games: 1.7, 4 games: 2.7).
    Now the walk folds each once and each game's rebuilding its own events about once
    more, however many games."""
    _, events, rejected = apply(session(7, games=8))
    assert not rejected and len(ended_games(events)) == 8
    count = counted(monkeypatch)
    found = transcripts(events)
    assert sorted(found) == list(range(1, 9)) and all(found.values())
    assert count["walk"] == len(events)
    assert count["all"] < 3 * len(events)


def test_a_raccoon_made_by_consent_is_rebuilt_as_asked_and_agreed() -> None:
    """Atlanta 5.4: a raccoon is asked and agreed (a raccoon sent alone is refused), so the
    analysis rebuilds the game with the same two lines, and its cubes come out the same."""
    rng, state, lines = random.Random(3), TableState(), list[str]()

    def do(data: dict[str, Any]) -> None:
        nonlocal state
        state = replay(decide(state, parse(data)), state)
        lines.append(json.dumps(data))

    do({"cmd": "open", "preset": "atlanta", "mode": "play"})
    do({"cmd": "seat", "order": ["bo", "ann", "cy", "di"]})
    do({"cmd": "start", "opening": [[4, 2]]})
    while not (state.game and state.game.dice is None and state.game.on_roll is Side.TEAM):
        game = state.game
        assert game is not None and game.position is not None
        if game.dice is None:
            do({"cmd": "roll", "by": shooter(state), "dice": [rng.randint(1, 6), 1]})
        elif plays := legal_plays(game.position, game.dice):
            do({"cmd": "move", "by": shooter(state), "play": format_play(rng.choice(plays))})
    for player in ("ann", "cy", "di"):
        do({"cmd": "double", "by": player})
    do({"cmd": "answer", "by": "bo", "beaver": ["ann"], "take": ["cy"], "drop": ["di"]})
    do({"cmd": "ask_turn", "by": "ann", "turn": "raccoon", "across": "bo"})
    do({"cmd": "agree_turn", "by": "bo", "turn": "raccoon", "player": "ann"})
    do({"cmd": "drop", "by": "bo", "cubes": ["ann"]})
    do({"cmd": "resign", "by": "cy"})
    do({"cmd": "accept", "by": "bo"})
    assert state.game is None
    _, events, rejected = apply(lines)
    assert not rejected
    (rebuilt,) = transcripts(events).values()
    cmds = [json.loads(line)["cmd"] for line in rebuilt]
    assert cmds[cmds.index("answer"):] == ["answer", "ask_turn", "agree_turn", "drop"]
    _, again, refused = apply(rebuilt)  # (the resignation is not rebuilt: the game so far)
    turned = [e for e in events if type(e).__name__ == "CubeTurned"]
    assert not refused and [e for e in again if type(e).__name__ == "CubeTurned"] == turned[
        :len(turned) - 1] and turned[-2].action == "drop"
