"""Tests of cube actions: Team doubles and the Box's answer, Box doubles and the Team's."""

import pytest

from rules.cube import Side
from rules.cube_state import CubeState
from rules.errors import CubeNotAvailable, NotYourTurn
from tests.rules.tables import cube, do, game, scores

# -- Team doubles and the Box's answer ------------------------------------------------------


def test_atlanta_5_10_box_accepts_at_least_half_captain_first() -> None:
    state = game()
    for player in ("bo", "cy", "di"):
        state = do(state, "double", by=player)
    with pytest.raises(CubeNotAvailable, match="at least half"):
        do(state, "answer", by="ann", take=["bo"], drop=["cy", "di"])
    with pytest.raises(CubeNotAvailable, match="Captain first"):
        do(state, "answer", by="ann", take=["cy", "di"], drop=["bo"])
    state = do(state, "answer", by="ann", take=["bo", "cy"], drop=["di"])
    assert scores(state)["di"] == 1 and cube(state, "bo").in_game


def test_atlanta_5_11_box_is_free_when_not_the_whole_team_doubles() -> None:
    state = do(do(game(), "double", by="bo"), "double", by="cy")
    state = do(state, "answer", by="ann", take=["cy"], drop=["bo"])
    assert cube(state, "bo").state is CubeState.DROPPED and scores(state)["bo"] == 1


def test_the_box_answers_all_doubles_together_under_a_constraint() -> None:
    state = do(do(do(game(), "double", by="bo"), "double", by="cy"), "double", by="di")
    with pytest.raises(CubeNotAvailable, match="together"):
        do(state, "drop", by="ann", cubes=["di"])


def test_atlanta_5_10a_three_handed_takes_both_or_drops_both() -> None:
    state = do(do(game("ann", "bo", "cy"), "double", by="bo"), "double", by="cy")
    with pytest.raises(CubeNotAvailable, match="both"):
        do(state, "answer", by="ann", take=["bo"], drop=["cy"])
    euro = do(do(game("ann", "bo", "cy", preset="euro"), "double", by="bo"), "double", by="cy")
    with pytest.raises(CubeNotAvailable, match=r"both \(euro ¶6\)"):
        do(euro, "answer", by="ann", take=["bo"], drop=["cy"])  # euro ¶6: "or pass all cubes"
    assert do(euro, "answer", by="ann", drop=["bo", "cy"]).game is None


def test_danish_same_level_take_or_drop_together() -> None:
    state = do(do(game(preset="danish"), "double", by="bo"), "double", by="cy")
    with pytest.raises(CubeNotAvailable, match="same level"):
        do(state, "answer", by="ann", take=["bo"], drop=["cy"])


def test_a_team_player_cannot_double_a_cube_the_box_owns() -> None:
    state = do(do(game(), "double", by="bo"), "answer", by="ann", take=["bo"])
    with pytest.raises(CubeNotAvailable, match="ann owns your cube at 2"):
        do(state, "double", by="bo")


# -- Box doubles and the Team's answers -----------------------------------------------------


def test_atlanta_5_6_initial_box_doubles_go_to_the_captain_first() -> None:
    with pytest.raises(CubeNotAvailable, match="Captain first"):
        do(game(), "double", by="ann", cubes=["cy"])
    state = do(game(), "double", by="ann", cubes=["bo"])
    assert cube(state, "bo").state is CubeState.OFFERED
    assert cube(state, "cy").state is CubeState.CENTRED


def test_danish_box_doubles_every_cube_of_a_level_and_team_answers_in_order() -> None:
    with pytest.raises(CubeNotAvailable, match="same level"):
        do(game(preset="danish"), "double", by="ann", cubes=["bo", "cy"])
    state = do(game(preset="danish"), "double", by="ann")
    with pytest.raises(NotYourTurn, match="bo decides first"):
        do(state, "take", by="cy")
    state = do(do(do(state, "take", by="bo"), "drop", by="cy"), "take", by="di")
    assert scores(state)["cy"] == -1


def test_beaver_raccoon_chain_and_drop_pays_the_value_before() -> None:
    state = do(game(), "double", by="ann", cubes=["bo"])
    state = do(state, "beaver", by="bo")  # bo turns it to 4 and keeps it
    assert cube(state, "bo").to_act is Side.BOX
    state = do(do(state, "ask_turn", by="ann", turn="raccoon", across="bo"), "agree_turn",
               by="bo", turn="raccoon", player="ann")  # 8, still bo's (by consent: 5.4)
    state = do(state, "drop", by="bo")
    assert scores(state)["bo"] == -4  # the value before the raccoon (Villages 9, Atlanta 5.4)


def test_beavers_are_refused_where_the_rule_set_has_none() -> None:
    state = do(game(preset="euro"), "double", by="ann")
    with pytest.raises(CubeNotAvailable, match="Beavers aren't allowed"):
        do(state, "beaver", by="bo")


def test_villages_8_a_lone_taker_must_beaver() -> None:
    state = do(game("ann", "bo", "cy", preset="villages"), "double", by="ann")
    state = do(state, "drop", by="bo")
    with pytest.raises(CubeNotAvailable, match="lone taker"):
        do(state, "take", by="cy")
    # Taking first and being left alone by the others' drops beavers the cube.
    state = do(game("ann", "bo", "cy", preset="villages"), "double", by="ann")
    state = do(do(state, "take", by="cy"), "drop", by="bo")
    assert cube(state, "cy").state is CubeState.BEAVERED and cube(state, "cy").face == 4


def test_when_every_team_player_drops_the_game_ends_for_the_box() -> None:
    state = do(game(), "double", by="ann")
    for player in ("bo", "cy", "di"):
        state = do(state, "drop", by=player)
    assert state.game is None and scores(state)["ann"] == 3
    # 6.1: the Box beat the Captain with a profit and keeps the box.
    assert state.seating is not None and state.seating.box == "ann"
    assert state.seating.team == ("cy", "di", "bo")
