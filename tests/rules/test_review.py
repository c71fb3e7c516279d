"""Who may see a game's analysis, and when (rules/review.py): once the game is over, never
during play, for everyone (kibitzers too)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.errors import RuleError
from rules.review import NotOverYet, may_see_analysis
from rules.state import TableState, replay
from rules.table import decide
from rules.transcript import parse

CHOUETTE = (Path(__file__).parents[1] / "analysis" / "data" / "chouette.jsonl"
            ).read_text().splitlines()


def run(lines: list[str]) -> TableState:
    state = TableState()
    for line in lines:
        state = replay(decide(state, parse(json.loads(line))), state)
    return state


def test_during_play_the_game_in_progress_is_refused_with_what_is_allowed() -> None:
    state = run(CHOUETTE[:8])  # game 1 in play
    with pytest.raises(NotOverYet, match=r"Game 1 is still being played.*no game is over "
                                         r"yet.*leave out the game"):
        may_see_analysis(state, 1)
    may_see_analysis(state, None)  # the session's games over so far: none, but allowed


def test_once_the_game_is_over_anyone_may_see_it() -> None:
    state = run(CHOUETTE)  # game 1 over
    assert state.game is None and state.games_played == 1
    may_see_analysis(state, 1)
    may_see_analysis(state, None)


def test_the_next_game_in_play_is_refused_and_the_last_one_shown() -> None:
    state = run([*CHOUETTE, '{"cmd": "start", "opening": [[5, 2]]}'])
    assert state.game is not None and state.game.number == 2
    may_see_analysis(state, 1)
    with pytest.raises(NotOverYet, match=r"Game 2 is still being played.*game 1 is over"):
        may_see_analysis(state, 2)


def test_a_game_not_played_yet_is_named_as_such() -> None:
    with pytest.raises(RuleError, match=r"There is no game 3 at this table yet .game 1 is "
                                        r"over"):
        may_see_analysis(run(CHOUETTE), 3)
