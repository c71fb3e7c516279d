"""Given/when/then: a Partner with cubes of his own (`partner_cubes = "own"`, Danish ¶19 "two
cubes are associated with each player on the Captain's team", euro ¶9 "making the Box side a
multiplayer side like the Team side")."""

import pytest

from rules.commands import Answer, BadCommand
from rules.cube import Cube, Side
from rules.cube_state import CubeState
from rules.errors import CubeNotAvailable, NotYourTurn
from rules.events import DoublesAnswered
from rules.game import shooter
from rules.roles import cube_between
from rules.state import TableState
from rules.table import decide
from tests.rules.tables import do, scores, table

TEAM = ("b", "c", "d", "e")


def partnered(preset: str = "danish", mode: str = "scorekeeper", **options: object) -> TableState:
    """Given: a started game, Box a with Partner f, Team b (Captain), c, d, e."""
    state = do(table("a", "b", "c", "d", "e", "f", preset=preset, mode=mode, **options),
               "partner", by="a", player="f")
    return do(state, "start", **({"opening": [[1, 3]]} if mode == "play" else {}))


def cube(state: TableState, team_player: str, box_player: str) -> Cube:
    assert state.game is not None
    found = cube_between(state.game, team_player, box_player)
    assert found is not None
    return found


def test_each_team_player_has_a_cube_against_the_box_and_one_against_the_partner() -> None:
    state = partnered()
    assert state.game is not None
    assert sorted((c.team_player, c.box_player) for c in state.game.cubes) == sorted(
        [(p, "a") for p in TEAM] + [(p, "f") for p in TEAM])
    shared = do(do(table("a", "b", "c", "d", "e", "f", preset="atlanta"), "partner", by="a",
                   player="f"), "start")
    assert shared.game is not None and len(shared.game.cubes) == 4  # Atlanta: shared


def test_a_single_win_pays_each_box_side_player_in_full_with_no_split() -> None:
    state = do(partnered(), "result", winner="box")
    assert scores(state) == {"b": -2, "c": -2, "d": -2, "e": -2, "a": 4, "f": 4}


def test_a_team_double_turns_both_cubes_and_each_box_side_player_answers_his_own() -> None:
    state = do(partnered(mode="play"), "move", by="b", play="8/5 6/5")
    state = do(do(state, "roll", by="a", dice=[6, 5]), "move", by="a", play="24/13")
    state = do(state, "double", by="b")
    assert cube(state, "b", "a").state is CubeState.OFFERED
    assert cube(state, "b", "f").state is CubeState.OFFERED
    with pytest.raises(NotYourTurn, match="waiting for a, f"):
        do(state, "roll", by="b", dice=[3, 1])
    events = decide(state, Answer(by="a", take=["b"]))
    assert not any(isinstance(e, DoublesAnswered) for e in events)  # f has yet to answer
    state = do(state, "answer", by="a", take=["b"])
    with pytest.raises(CubeNotAvailable, match="No Team double is waiting for your answer"):
        do(state, "answer", by="a", drop=["b"])
    events = decide(state, Answer(by="f", drop=["b"]))
    assert any(isinstance(e, DoublesAnswered) for e in events)
    state = do(state, "answer", by="f", drop=["b"])
    assert scores(state)["b"] == 1 and scores(state)["f"] == -1
    assert cube(state, "b", "a").state is CubeState.TAKEN
    with pytest.raises(CubeNotAvailable, match="answered this turn"):
        do(state, "double", by="c")


def test_the_partner_doubles_his_own_cubes_and_a_team_player_names_the_cube_he_answers(
) -> None:
    state = do(partnered(mode="play"), "move", by="b", play="8/5 6/5")
    state = do(state, "double", by="a")  # the Box: every cube at the level (Danish)
    state = do(state, "double", by="f")  # the Partner: his own
    assert cube(state, "c", "f").state is CubeState.OFFERED
    with pytest.raises(BadCommand, match="Several cubes wait for your answer: your cube "
                       r"against a \(a\); your cube against f \(f\); name one"):
        do(state, "take", by="b")
    state = do(do(state, "take", by="b", cubes=["a"]), "drop", by="b", cubes=["f"])
    assert scores(state)["f"] == 1 and cube(state, "b", "a").owner is Side.TEAM
    partner_only = do(table("a", "b", "c", "d", "e", "f", preset="atlanta"), "partner",
                      by="a", player="f")
    with pytest.raises(NotYourTurn, match=r"a turns the cubes for the Box side \(the Box is a\)"):
        do(do(partner_only, "start"), "double", by="f")


def test_the_partner_shoots_for_the_box_side_once_the_box_has_no_cube_left() -> None:
    state = do(partnered(mode="play"), "move", by="b", play="8/5 6/5")
    state = do(do(state, "roll", by="a", dice=[6, 5]), "move", by="a", play="24/13")
    for player in TEAM:
        state = do(state, "double", by=player)
    state = do(state, "answer", by="a", drop=list(TEAM))
    state = do(state, "answer", by="f", take=list(TEAM))
    state = do(do(state, "roll", by="b", dice=[3, 1]), "move", by="b", play="8/5 6/5")
    assert state.game is not None and state.game.on_roll is Side.BOX
    assert shooter(state) == "f"
    with pytest.raises(NotYourTurn, match="f rolls and plays for the Box"):
        do(state, "roll", by="a", dice=[6, 6])
    state = do(state, "resign", by="a", kind="single")
    for player in TEAM:
        state = do(state, "accept", by=player)
    assert state.game is None
    # a lost 1 to each; f lost each doubled cube at 2: 4 + 8 to the Team.
    assert scores(state)["a"] == -4 and scores(state)["f"] == -8
    assert sum(scores(state).values()) == 0
