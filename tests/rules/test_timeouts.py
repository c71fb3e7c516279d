"""Every decision is answered or times out: a stand-in who does not answer in time, and a
Team whose every player lets his time run out, never hang the table (a reading: the cube
is dropped, which risks no more than its value)."""

from typing import Any

from rules.commands import Timeout
from rules.cube_state import CubeState
from rules.events import GameEnded
from rules.roles import cube_of
from rules.state import TableState, replay
from rules.table import decide
from rules.transcript import build


def do(state: TableState, command: str, by: str = "", **args: Any) -> TableState:
    return replay(decide(state, build(command, by, **args)), state)


def doubled(*players: str) -> TableState:
    """Given: an Atlanta table seated in the order given, the Box doubling every cube."""
    state = do(TableState(), "open", mode="scorekeeper")
    state = do(do(state, "seat", order=list(players)), "start")
    return do(state, "double", players[0])


def test_an_away_players_cube_is_dropped_when_his_stand_in_lets_the_time_run_out() -> None:
    state = do(doubled("ann", "bo", "cy"), "timeout", player="cy")  # cy away: bo asked
    assert state.member("cy").away and cube_of(state.game, "cy").state is CubeState.OFFERED
    state = do(state, "timeout", player="cy")  # bo did not answer for him either
    assert cube_of(state.game, "cy").state is CubeState.DROPPED


def test_a_team_that_lets_every_decision_time_out_ends_the_game() -> None:
    state = doubled("ann", "bo", "cy")
    for player in ("bo", "cy", "bo"):  # away, away, and then nobody answers for bo
        state = do(state, "timeout", player=player)
    events = decide(state, Timeout(player="cy"))
    assert isinstance(events[-1], GameEnded) and events[-1].transfers


def test_an_answer_given_for_a_player_is_his_with_the_reason_beside_it() -> None:
    """`CubeTurned.by` is the player's key whoever answers for him; `why` says who did (a
    timeout, the rule set for an away player, nobody in time)."""
    from rules.events import CubeTurned

    def turned(state: TableState, command: Timeout) -> list[tuple[str, str, object]]:
        return [(e.by, e.why, e.action) for e in decide(state, command)
                if isinstance(e, CubeTurned)]

    state = doubled("ann", "bo", "cy")
    state = replay(decide(state, Timeout(player="cy")), state)  # away now: bo stands in
    assert turned(state, Timeout(player="cy")) == [("cy", "answered_late", "drop")]
    dropper = do(TableState(), "open", mode="scorekeeper",
                 options={"timeout_action": "drop"})
    dropper = do(do(do(dropper, "seat", order=["ann", "bo", "cy"]), "start"), "double", "ann")
    assert turned(dropper, Timeout(player="cy")) == [("cy", "answered_timed_out", "drop")]
    villages = do(TableState(), "open", preset="villages", mode="scorekeeper")
    villages = do(do(do(villages, "seat", order=["ann", "bo", "cy"]), "start"), "double", "ann")
    assert turned(villages, Timeout(player="cy")) == [("cy", "answered_away", "take")]


def test_an_away_players_decision_is_asked_of_his_stand_in_else_of_him() -> None:
    """`answerer`: whom the bot asks for a player's decision, a rule like the others."""
    from rules.proxies import answerer

    state = doubled("ann", "bo", "cy")
    assert [answerer(state, p) for p in ("bo", "cy")] == ["bo", "cy"]  # both here
    away = do(state, "timeout", player="cy")  # cy away: the Captain, bo, stands in (7.1)
    assert [answerer(away, p) for p in ("bo", "cy")] == ["bo", "bo"]
    villages = do(TableState(), "open", preset="villages", mode="scorekeeper")
    villages = do(do(do(villages, "seat", order=["ann", "bo", "cy"]), "start"), "double", "ann")
    villages = do(villages, "timeout", player="cy")
    assert answerer(villages, "cy") is None  # the rule set answers for him: nobody is asked
