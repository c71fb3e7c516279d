"""The engine's rule edges, each on a named position (points from the side on roll's view).

Boards in comments: the side on roll (X) moves from 24 down to 1 and bears off below 1;
O's checkers are shown on X's numbering. `B` is X's bar.
"""

import json
from pathlib import Path

import pytest

from rules.board import GameKind, Move, Position, legal_plays
from rules.errors import RuleError
from rules.notation import format_play, position_from_id, position_id


def plays(pos: Position, dice: tuple[int, int]) -> list[str]:
    return sorted(format_play(p) for p in legal_plays(pos, dice))


def pos(player: dict[int, int], opponent: dict[int, int]) -> Position:
    """Both sides in their own numbering, as Position.from_points takes them."""
    return Position.from_points(player, opponent)


def test_initial_position_and_its_id() -> None:
    start = Position.initial()
    assert position_id(start) == "4HPwATDgc/ABMA"
    assert start.pips == (167, 167)
    assert start.off == (0, 0)
    assert start.swap() == start
    assert start.outcome() is None


def test_opening_rolls_have_the_plays_gnubg_lists() -> None:
    start = Position.initial()
    assert plays(start, (6, 5)) == ["13/2", "13/7 8/3", "13/8 13/7", "24/13", "24/18 13/8",
                                    "24/18 8/3", "8/3 8/2"]
    assert [len(legal_plays(start, d)) for d in ((3, 1), (1, 1), (6, 6))] == [16, 42, 11]


def test_dice_order_does_not_matter() -> None:
    start = Position.initial()
    assert plays(start, (6, 1)) == plays(start, (1, 6))


def test_issue_example_bear_off_with_hit_has_six_results() -> None:
    # 8AEABCgAAAAAAA: X has one checker on his 5 and one on his 6 (13 off);
    # O has five on his own 5-point and one on his 22 (X's 3 point).
    #   X:  6:1  5:1        O blot on X's 3
    p = position_from_id("8AEABCgAAAAAAA")
    assert p.player[4] == p.player[5] == 1 and p.off == (13, 9)
    assert p.opponent[4] == 5 and p.opponent[21] == 1
    got = plays(p, (3, 2))
    assert len(got) == 6
    assert "5/3*/off" in got


def test_bar_must_be_entered_first() -> None:
    # X: bar 1, 13:14.  O holds his 3-6 points (X's 22-19): 6-3 cannot enter, so X passes
    # although the checkers on 13 could move.
    p = pos({25: 1, 13: 14}, {3: 2, 4: 2, 5: 2, 6: 2, 19: 7})
    assert plays(p, (6, 3)) == [""]
    # With O's 3-point open (X's 22) the 3 enters, and only then may the 6 be played.
    q = pos({25: 1, 13: 14}, {4: 2, 5: 2, 6: 2, 19: 9})
    assert plays(q, (6, 3)) == ["bar/16", "bar/22 13/7"]
    assert all(pl.moves[0].src == 25 for pl in legal_plays(q, (6, 3)))


def test_two_on_the_bar_and_only_one_enters() -> None:
    # X: bar 2, 6:13.  O holds his 6-point (X's 19): a 6-1 enters one checker, with the 1.
    p = pos({25: 2, 6: 13}, {6: 2, 12: 13})
    assert plays(p, (6, 1)) == ["bar/24"]


def test_both_dice_are_played_when_some_order_allows() -> None:
    # X: 7:1 (14 off).  O holds X's 1 (his 24) and 13 on his 6.
    #   6-1: 7/1 is blocked, but 7/6 then 6/off uses both dice, so that is the only play.
    p = pos({7: 1}, {24: 2, 6: 13})
    assert plays(p, (6, 1)) == ["7/off"]


def test_only_one_die_can_be_played_so_the_larger() -> None:
    # X: 12:1, 2:14.  O holds X's 4 and 5 (his 21 and 20).
    #   5-3: 12/7 then 7/4 is blocked; 12/9 then 9/4 is blocked; nothing bears off with 12 out.
    #   Either die alone could be played: the larger must be.
    p = pos({12: 1, 2: 14}, {21: 2, 20: 2, 1: 11})
    assert plays(p, (5, 3)) == ["12/7"]


def test_only_the_smaller_die_when_the_larger_cannot_move() -> None:
    # X: 12:1, 2:14.  O holds X's 6 and 3 (his 19 and 22).
    #   6-3: 12/6 is blocked; 12/9 is open but then 9/3 is blocked: only the 3 is played.
    p = pos({12: 1, 2: 14}, {19: 2, 22: 2, 1: 11})
    assert plays(p, (6, 3)) == ["12/9"]


def test_doubles_move_up_to_four_times_or_as_many_as_possible() -> None:
    # X: 24:2, 1:13; O blocks X's 16 (his 9): 4-4: 24/20 twice, then 20/16 blocked.
    p = pos({24: 2, 1: 13}, {9: 2, 6: 13})
    assert plays(p, (4, 4)) == ["24/20(2)"]
    start = Position.initial()
    assert all(len(pl.moves) == 4 for pl in legal_plays(start, (1, 1)))


def test_bear_off_exact_and_from_the_highest_point_only() -> None:
    # X: 5:1, 3:1 (13 off).  O: 2 on his 1 (X's 24), 13 on his 6 (X's 19).
    p = pos({5: 1, 3: 1}, {1: 2, 6: 13})
    # 6-4: the 6 bears off the 5 (the highest); the 4 then bears off the 3, now the highest.
    # Or the 4 first (5/1) and the 6 bears off the 3: a higher die from the highest point.
    assert plays(p, (6, 4)) == ["5/1 3/off", "5/off 3/off"]
    # 4-1: the 4 may not bear off the 3 while the 5 is occupied.
    assert plays(p, (4, 1)) == ["5/1 3/2", "5/off"]


def test_no_bear_off_while_a_checker_is_outside_home() -> None:
    # X: 8:1, 2:14.  2-1: nothing may bear off while the 8 is out, even after 8/7.
    p = pos({8: 1, 2: 14}, {1: 2, 6: 13})
    assert all("off" not in g for g in plays(p, (2, 1)))
    # 6-2: 8/2 brings the last checker home, so the 2 then bears off.
    assert plays(p, (6, 2)) == ["8/off"]


def test_hit_sends_the_blot_to_the_bar() -> None:
    # X: 13:15; O blot on X's 7 (his 18). 6-x: 13/7* hits.
    p = pos({13: 15}, {18: 1, 6: 14})
    hit = [pl for pl in legal_plays(p, (6, 1)) if any(m.hit for m in pl.moves)]
    assert hit
    after = hit[0].position
    assert after.opponent[24] == 1 and after.opponent[17] == 0
    assert sum(after.opponent) == 15


def test_plays_reaching_the_same_position_are_one() -> None:
    # 13/7 7/6 and 13/12 12/6 reach the same board: one play, written 13/6.
    p = pos({13: 15}, {1: 15})
    got = plays(p, (6, 1))
    assert got.count("13/6") == 1
    assert len(got) == len(set(got))


def test_pass_when_nothing_moves() -> None:
    # X on the bar against a closed board.
    p = pos({25: 1, 2: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 12: 3})
    only = legal_plays(p, (6, 6))
    assert len(only) == 1 and only[0].moves == () and only[0].position == p


def test_outcome_single_gammon_backgammon() -> None:
    nothing: dict[int, int] = {}
    single = pos(nothing, {1: 10})
    assert single.outcome() is not None and single.outcome().kind is GameKind.SINGLE  # type: ignore[union-attr]
    gammon = pos(nothing, {10: 15})
    assert gammon.outcome().kind is GameKind.GAMMON  # type: ignore[union-attr]
    # O's checker on his 20 = in X's home board: backgammon. So is one on O's bar.
    assert pos(nothing, {20: 1, 10: 14}).outcome().kind is GameKind.BACKGAMMON  # type: ignore[union-attr]
    assert pos(nothing, {25: 1, 10: 14}).outcome().kind is GameKind.BACKGAMMON  # type: ignore[union-attr]
    lost = pos({1: 3}, nothing).outcome()
    assert lost is not None and not lost.player_won and lost.kind is GameKind.SINGLE


def test_invalid_positions_are_refused() -> None:
    with pytest.raises(RuleError):
        Position((0,) * 24, (0,) * 25)
    with pytest.raises(RuleError):
        pos({6: 16}, {})
    with pytest.raises(RuleError, match="Both sides"):
        pos({6: 1}, {19: 1})
    with pytest.raises(RuleError):
        legal_plays(Position.initial(), (0, 7))


def test_a_position_of_lists_is_one_of_tuples() -> None:
    start = Position.initial()
    listed = Position(list(start.player), list(start.opponent))  # type: ignore[arg-type]
    assert listed == start and hash(listed) == hash(start)
    assert type(listed.player) is tuple and type(listed.opponent) is tuple
    assert legal_plays(listed, (3, 1)) == legal_plays(start, (3, 1))  # hashed by its cache


def test_moves_are_values() -> None:
    assert Move(24, 18) == Move(24, 18, False)
    assert repr(Position.initial()) == "Position.from_id('4HPwATDgc/ABMA')"


def test_gnubg_agrees_on_every_play_of_the_fixture() -> None:
    """gnubg's own list of legal plays (written by tools/gnubg_check.py) for 504 cases."""
    rows = Path(__file__).with_name("data").joinpath("gnubg_plays.jsonl").read_text()
    checked = 0
    for line in rows.splitlines():
        pid, a, b, theirs = json.loads(line)
        ours = [p for p in plays(position_from_id(pid), (a, b)) if p]
        assert ours == theirs, f"{pid} {a}-{b}"
        checked += 1
    assert checked >= 500
