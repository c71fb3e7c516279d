"""Plays and Position IDs as text: parse, format, round-trip, and the refusals players see."""

import pytest

from rules.board import Move, Position, legal_plays
from rules.errors import AmbiguousPlay, BadNotation, IllegalPlay
from rules.notation import format_play, parse_paths, parse_play, position_from_id, position_id

START = Position.initial()


@pytest.mark.parametrize(
    ("moves", "text"),
    [
        ((Move(24, 18), Move(13, 11)), "24/18 13/11"),
        ((Move(25, 22, True),), "bar/22*"),
        ((Move(6, 0), Move(6, 0)), "6/off(2)"),
        ((Move(8, 5), Move(8, 5), Move(6, 3), Move(6, 3)), "8/5(2) 6/3(2)"),
        ((Move(24, 20), Move(20, 16)), "24/16"),
        ((Move(24, 21, True), Move(21, 16)), "24/21*/16"),
        ((Move(13, 7, True), Move(6, 2)), "13/7* 6/2"),
        ((Move(13, 9), Move(9, 5), Move(13, 9), Move(9, 5)), "13/5(2)"),
        ((), ""),
    ],
)
def test_format_like_gnubg(moves: tuple[Move, ...], text: str) -> None:
    assert format_play(moves) == text


@pytest.mark.parametrize(
    ("text", "paths"),
    [
        ("24/18 13/11", [([24, 18], 1, set()), ([13, 11], 1, set())]),
        ("bar/22*", [([25, 22], 1, {22})]),
        ("B/22", [([25, 22], 1, set())]),
        ("6/off(2)", [([6, 0], 2, set())]),
        ("6/0 6/o", [([6, 0], 1, set()), ([6, 0], 1, set())]),
        ("24/20*/16", [([24, 20, 16], 1, {20})]),
        ("13/7, 8/7", [([13, 7], 1, set()), ([8, 7], 1, set())]),
    ],
)
def test_parse_forms(text: str, paths: list[tuple[list[int], int, set[int]]]) -> None:
    assert parse_paths(text) == paths


@pytest.mark.parametrize("text", ["13-7", "13/", "/7", "7/13", "off/3", "6/bar", "13/7(9)",
                                  "26/20", "hello"])
def test_malformed_plays_say_how_to_write_one(text: str) -> None:
    with pytest.raises(BadNotation):
        parse_paths(text)


def test_parse_accepts_gnubg_and_looser_forms_for_the_same_play() -> None:
    want = parse_play("13/11 6/5", START, (2, 1))
    for text in ("6/5 13/11", "13/11, 6/5", "13/11 6/5*"):
        assert parse_play(text, START, (2, 1)) == want
    joined = parse_play("13/10", START, (2, 1))
    assert joined == parse_play("13/11/10", START, (1, 2)) == parse_play("13/12 12/10", START,
                                                                          (2, 1))


def test_illegal_play_lists_the_legal_ones() -> None:
    with pytest.raises(IllegalPlay, match=r"not legal with 6-5.*24/13"):
        parse_play("24/18 13/7", START, (6, 5))
    with pytest.raises(IllegalPlay, match="no checker on 20"):
        parse_play("20/14 13/8", START, (6, 5))
    with pytest.raises(IllegalPlay, match="You can move"):
        parse_play("pass", START, (6, 5))


def test_joined_move_through_two_blots_is_ambiguous_until_the_hit_is_named() -> None:
    # X: 24:1, 6:14.  O blots on X's 21 and 19 (his 4 and 6), the rest on his 1 (X's 24? no:
    # X has 24) -> on his 2 (X's 23).  5-3: 24/21*/16 and 24/19*/16 both reach X's 16.
    p = Position.from_points({24: 1, 6: 14}, {4: 1, 6: 1, 2: 13})
    with pytest.raises(AmbiguousPlay, match=r"24/19\*/16.*24/21\*/16|24/21\*/16.*24/19\*/16"):
        parse_play("24/16", p, (5, 3))
    hit21 = parse_play("24/21*/16", p, (5, 3))
    assert [m.dst for m in hit21.moves if m.hit] == [21]
    assert format_play(parse_play("24/19/16", p, (5, 3))) == "24/19*/16"


def test_joined_move_past_one_blot_means_the_quiet_route() -> None:
    # One blot on X's 21: "24/16" is the quiet 24/19/16, as gnubg writes it.
    p = Position.from_points({24: 1, 6: 14}, {4: 1, 2: 14})
    assert format_play(parse_play("24/16", p, (5, 3))) == "24/16"
    assert format_play(parse_play("24/21*/16", p, (5, 3))) == "24/21*/16"


def test_a_pass_is_written_empty_or_pass() -> None:
    closed = Position.from_points({25: 1, 2: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 12: 3})
    assert parse_play("", closed, (6, 6)).moves == ()
    assert parse_play("pass", closed, (6, 6)).moves == ()


def test_every_legal_play_parses_back_from_its_notation() -> None:
    for dice in ((6, 5), (3, 1), (1, 1), (4, 4), (6, 6)):
        for play in legal_plays(START, dice):
            assert parse_play(format_play(play), START, dice) == play


@pytest.mark.parametrize(
    "pid", ["4HPwATDgc/ABMA", "8AEABCgAAAAAAA", "AAAAAAAAAAAAAA", "MCiSHHWUJEWVKg"]
)
def test_position_id_round_trip(pid: str) -> None:
    assert position_id(position_from_id(pid)) == pid


@pytest.mark.parametrize("pid", ["4HPwATDgc/ABM", "4HPwATDgc/AB!A", "//////////////",
                                 "4HPwATDgc/ABM="])
def test_bad_position_ids_are_refused(pid: str) -> None:
    with pytest.raises(BadNotation):
        position_from_id(pid)
