"""Rotation, seating, joining and leaving: every rotation rule of the five documents."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import BadOption, SeatingError
from rules.rotation import ROTATIONS, GameSummary, atlanta, danish, euro, fibs, villages
from rules.seating import (
    Reroll,
    Seating,
    drop_partner,
    fibs_partner,
    join,
    leave,
    order_by_rolls,
    partner_candidates,
    resign_box,
    seat_by_rolls,
    take_partner,
)

F = Fraction
SIX = Seating("Alex", None, ("Bo", "Claus", "Dan", "Erik", "Frank"))
FIVE = Seating("A", None, ("B", "C", "D", "E"))


def box_won(net: int = 1, **kw: object) -> GameSummary:
    return GameSummary(winner="box", box_net=F(net), **kw)  # type: ignore[arg-type]


def team_won(net: int = -1, **kw: object) -> GameSummary:
    return GameSummary(winner="team", box_net=F(net), **kw)  # type: ignore[arg-type]


def order(s: Seating) -> tuple[str, ...]:
    return (s.box, *s.team)


# -- Seating ---------------------------------------------------------------------------------


def test_seating_captain_is_first_on_the_team_and_partner_is_not_on_it() -> None:
    s = Seating("A", "P", ("B", "C"), partner_place=2)
    assert s.captain == "B"
    assert s.players == ("A", "P", "B", "C")
    assert eval(repr(s)) == s


@pytest.mark.parametrize(
    "box, partner, team",
    [("A", None, ("B", "A")), ("A", "B", ("B", "C")), ("A", None, ("B", "B")), ("A", None, ())],
)
def test_seating_refuses_a_player_twice_or_no_captain(
    box: str, partner: str | None, team: tuple[str, ...]
) -> None:
    with pytest.raises(SeatingError):
        Seating(box, partner, team)


def test_seating_refuses_a_partner_place_ahead_of_the_captain() -> None:
    with pytest.raises(SeatingError, match="1 to 2"):
        Seating("A", "P", ("B", "C"), partner_place=0)


def test_summary_refuses_players_off_the_team_or_leaving_twice() -> None:
    with pytest.raises(SeatingError, match="only Team players"):
        atlanta(FIVE, box_won(dropped=("Z",)))
    with pytest.raises(SeatingError, match="leaves a game once"):
        atlanta(FIVE, box_won(dropped=("C",), doubled_out=("C",)))
    with pytest.raises(SeatingError, match="Acting Captain"):
        atlanta(FIVE, box_won(dropped=("B",), acting_captains=("B",)))


# -- Rolling for seats (Atlanta 1.3, FIBS, Villages 2-4, Danish) ------------------------------


def test_atlanta_1_3_highest_box_next_captain_then_team_last_is_first_asked_partner() -> None:
    s = seat_by_rolls({"A": (3, 4), "B": (6, 5), "C": (2, 1), "D": (5, 4), "E": (1, 1)})
    assert s == Seating("B", None, ("D", "A", "C", "E"))
    assert isinstance(s, Seating) and partner_candidates(s)[0] == "E"


def test_atlanta_1_3_doubles_count_once_and_ties_reroll_instead_of_a_random_choice() -> None:
    rolls = {"A": (5, 5), "B": (6, 4), "C": (6, 3), "D": (1, 1)}
    assert seat_by_rolls(rolls) == Reroll((("A", "B"),))
    s = seat_by_rolls(rolls, [{"A": (2, 1), "B": (4, 4)}])
    assert s == Seating("B", None, ("A", "C", "D"))
    assert partner_candidates(s)[0] == "D"


def test_rolls_ties_are_rerolled_only_by_the_tied_players() -> None:
    rolls = {"A": (4,), "B": (4,), "C": (2,), "D": (2,), "E": (6,)}
    assert order_by_rolls(rolls) == Reroll((("A", "B"), ("C", "D")))
    assert order_by_rolls(rolls, [{"A": (1,), "B": (3,), "C": (5,), "D": (5,)}]) == Reroll(
        (("C", "D"),)
    )
    final = order_by_rolls(
        rolls, [{"A": (1,), "B": (3,), "C": (5,), "D": (5,)}, {"C": (1,), "D": (2,)}]
    )
    assert final == ("E", "B", "A", "D", "C")
    with pytest.raises(SeatingError, match="not tied"):
        order_by_rolls(rolls, [{"A": (1,), "B": (3,), "C": (5,), "D": (4,), "E": (1,)}])
    with pytest.raises(SeatingError, match="must re-roll too"):
        order_by_rolls(rolls, [{"A": (1,)}])
    with pytest.raises(SeatingError, match="not dice"):
        order_by_rolls({"A": (7,), "B": (1,)})


def test_fibs_order_of_play_third_highest_roll_partners_the_box() -> None:
    rolls = {p: (6 - i, 6 - i) for i, p in enumerate("ABCDEF")}
    s = seat_by_rolls(rolls)
    assert isinstance(s, Seating)
    s = fibs_partner(s)
    assert (s.box, s.captain, s.partner, s.team) == ("A", "B", "C", ("B", "D", "E", "F"))


def test_danish_one_die_each_highest_box_ties_mutually_reroll() -> None:
    rolls = {"Alex": (6,), "Bo": (5,), "Claus": (3,), "Dan": (3,)}
    assert seat_by_rolls(rolls) == Reroll((("Claus", "Dan"),))
    s = seat_by_rolls(rolls, [{"Claus": (2,), "Dan": (5,)}])
    assert s == Seating("Alex", None, ("Bo", "Dan", "Claus"))


# -- Atlanta 6.1-6.5, 10.1 ------------------------------------------------------------------


def test_atlanta_6_1_box_keeps_box_only_with_profit() -> None:
    assert order(atlanta(FIVE, box_won(net=2))) == ("A", "C", "D", "E", "B")


def test_atlanta_6_1_box_without_profit_goes_behind_the_captain() -> None:
    for net in (0, -3):
        s = atlanta(FIVE, box_won(net=net))
        assert order(s) == ("C", "D", "E", "B", "A")


def test_atlanta_6_1_captain_cube_settled_for_zero_box_goes_behind_captain() -> None:
    s = atlanta(FIVE, box_won(net=3, settled={"B": F(0)}))
    assert order(s) == ("C", "D", "E", "B", "A")


def test_atlanta_6_1_captain_who_beats_the_box_is_box_and_box_goes_to_the_end() -> None:
    assert order(atlanta(FIVE, team_won())) == ("B", "C", "D", "E", "A")
    # The winner of Box vs the initial Captain: the Captain's dropped cube decides it.
    assert order(atlanta(FIVE, team_won(net=2, dropped=("B",)))) == ("A", "C", "D", "E", "B")


def test_atlanta_6_1_house_rule_a_win_is_enough_to_keep_the_box() -> None:
    s = atlanta(FIVE, box_won(net=-1), box_retention="win")
    assert order(s) == ("A", "C", "D", "E", "B")


def test_atlanta_6_2_first_acting_captain_is_next_captain_regardless_of_outcome() -> None:
    g = team_won(net=1, dropped=("B", "C"), acting_captains=("C", "D"))
    assert order(atlanta(FIVE, g)) == ("A", "C", "D", "E", "B")
    # With a passed player ahead of him, the first Acting Captain still captains next.
    g = box_won(net=3, dropped=("C", "B"), acting_captains=("D",))
    assert order(atlanta(FIVE, g)) == ("A", "D", "C", "E", "B")


def test_atlanta_6_2_acting_captain_takes_the_box_when_the_box_shows_no_profit() -> None:
    g = team_won(net=-1, dropped=("B",), acting_captains=("C",))
    assert order(atlanta(FIVE, g)) == ("C", "D", "E", "B", "A")


def test_atlanta_6_3_captain_doubles_box_out_is_box_and_acting_captain_is_captain() -> None:
    g = box_won(net=2, doubled_out=("B",), acting_captains=("C",))
    assert order(atlanta(FIVE, g)) == ("B", "C", "D", "E", "A")


def test_atlanta_6_3_partner_keeps_his_place_and_losing_box_becomes_partner() -> None:
    s = Seating("A", "P", ("B", "C", "D", "E", "F"), partner_place=2)  # queue B C P D E F
    t = atlanta(s, team_won(doubled_out=("B",), acting_captains=("C",)))
    assert (t.box, t.partner, t.team, t.partner_place) == ("B", "A", ("C", "P", "D", "E", "F"), 5)


def test_atlanta_6_3_losing_box_goes_to_the_end_when_the_new_box_plays_alone() -> None:
    s = Seating("A", "P", ("B", "C", "D", "E", "F"), partner_place=2)
    t = atlanta(s, team_won(new_box_plays_alone=True))
    assert (t.box, t.partner, t.team) == ("B", None, ("C", "P", "D", "E", "F", "A"))


def test_atlanta_4_5_partnership_survives_a_box_win() -> None:
    s = Seating("A", "P", ("B", "C", "D", "E", "F"), partner_place=3)  # B C D P E F
    t = atlanta(s, box_won(net=2))
    assert (t.box, t.partner, t.team, t.partner_place) == ("A", "P", ("C", "D", "E", "F", "B"), 2)


def test_atlanta_6_4_partner_whose_turn_comes_stays_and_drops_behind_the_loser() -> None:
    s = Seating("A", "P", ("B", "C", "D", "E", "F"), partner_place=1)  # B P C D E F
    t = atlanta(s, box_won(net=2))
    assert (t.box, t.partner, t.team, t.partner_place) == ("A", "P", ("C", "D", "E", "F", "B"), 5)


def test_atlanta_6_4_partner_may_become_captain_and_the_bottom_is_asked_next() -> None:
    s = Seating("A", "P", ("B", "C", "D", "E", "F"), partner_place=1)
    t = atlanta(s, box_won(net=2, partner_stays=False))
    assert (t.box, t.partner, t.team) == ("A", None, ("P", "C", "D", "E", "F", "B"))
    assert partner_candidates(t)[0] == "B"
    u = take_partner(t, "B")
    assert (u.partner, u.team, u.partner_place) == ("B", ("P", "C", "D", "E", "F"), 5)


def test_atlanta_6_1_no_profit_ends_the_partnership_and_partner_keeps_his_place() -> None:
    s = Seating("A", "P", ("B", "C", "D", "E", "F"), partner_place=1)  # B P C D E F
    t = atlanta(s, box_won(net=0))
    assert (t.box, t.partner, t.team) == ("P", None, ("C", "D", "E", "F", "B", "A"))


def test_atlanta_6_5_joiners_go_to_the_end_in_the_order_of_their_own_roll() -> None:
    joiners = order_by_rolls({"X": (2, 3), "Y": (6, 6)})
    assert isinstance(joiners, tuple)
    s = join(atlanta(FIVE, box_won(net=1)), joiners)
    assert order(s) == ("A", "C", "D", "E", "B", "Y", "X")


def test_atlanta_6_5_bottom_of_rotation_is_first_asked_to_be_partner_not_a_newcomer() -> None:
    s = join(Seating("A", None, ("B", "C", "D", "E")), ["X", "Y"])
    assert partner_candidates(s) == ("E", "D", "C", "Y", "X", "B")
    declined = partner_candidates(s)[1]
    t = take_partner(s, declined)
    assert (t.partner, t.team, t.partner_place) == ("D", ("B", "C", "E", "X", "Y"), 2)
    with pytest.raises(SeatingError, match="already the Partner"):
        take_partner(t, "E")


def test_atlanta_1_2_partner_needs_six_players() -> None:
    with pytest.raises(SeatingError, match="at least 6"):
        take_partner(FIVE, "E", partner_min_players=6)
    assert take_partner(join(FIVE, ["F"]), "F", partner_min_players=6).partner == "F"


def test_atlanta_10_1_box_follows_captain_when_both_lose_and_partner_follows_loser() -> None:
    assert order(atlanta(FIVE, box_won(net=-1)))[-2:] == ("B", "A")  # "b" follows "c"
    s = Seating("A", "P", ("B", "C", "D", "E", "F"), partner_place=1)
    assert atlanta(s, box_won(net=1)).team[-1] == "B"  # "p": Partner just after the loser


def test_join_refuses_a_full_table_and_players_already_seated() -> None:
    with pytest.raises(SeatingError, match="at most 5 players: room for 0"):
        join(join(FIVE, []), ["F"], max_players=5)
    with pytest.raises(SeatingError, match="already sits"):
        join(FIVE, ["C"])


def test_leave_captain_next_in_line_captains_and_box_seat_goes_to_the_captain() -> None:
    assert order(leave(FIVE, "B")) == ("A", "C", "D", "E")
    assert order(leave(FIVE, "A")) == ("B", "C", "D", "E")
    assert order(leave(FIVE, "D")) == ("A", "B", "C", "E")
    with pytest.raises(SeatingError, match="not at this table"):
        leave(FIVE, "Z")
    with pytest.raises(SeatingError, match="table of two"):
        leave(Seating("A", None, ("B",)), "A")


def test_leave_partner_leaves_the_box_alone_and_a_departure_can_bring_his_turn() -> None:
    s = Seating("A", "P", ("B", "C", "D", "E", "F"), partner_place=1)
    assert leave(s, "P") == Seating("A", None, ("B", "C", "D", "E", "F"))
    t = leave(s, "B")
    assert (t.partner, t.team, t.partner_place) == ("P", ("C", "D", "E", "F"), 4)
    assert drop_partner(t).team == ("C", "D", "E", "F", "P")


# -- FIBS -----------------------------------------------------------------------------------


def test_fibs_a_box_wins_keeps_box_and_losing_captain_goes_to_the_bottom() -> None:
    assert order(fibs(FIVE, box_won(net=-2))) == ("A", "C", "D", "E", "B")


def test_fibs_a_box_loses_goes_to_the_bottom_and_winning_captain_is_box() -> None:
    assert order(fibs(FIVE, team_won())) == ("B", "C", "D", "E", "A")


def test_fibs_actual_game_winner_decides_even_if_the_captain_passed_a_cube() -> None:
    assert order(fibs(FIVE, team_won(net=3, dropped=("B",)))) == ("B", "C", "D", "E", "A")


def test_fibs_b_partnership_wins_and_keeps_the_box() -> None:
    s = Seating("A", "P", ("B", "C", "D", "E", "F"))
    assert fibs(s, box_won()) == Seating("A", "P", ("C", "D", "E", "F", "B"))


def test_fibs_b_partnership_loses_shooter_bottom_partner_captain_next_is_partner() -> None:
    s = Seating("A", "P", ("B", "C", "D", "E", "F"))
    assert fibs(s, team_won()) == Seating("B", "C", ("P", "D", "E", "F", "A"))


def test_fibs_six_players_require_a_partner_next_after_the_captain() -> None:
    s = fibs(Seating("A", None, ("B", "C", "D", "E", "F")), team_won())
    assert s == Seating("B", "D", ("C", "E", "F", "A"))
    grown = fibs_partner(join(fibs(FIVE, box_won()), ["F"]))
    assert (grown.box, grown.partner, grown.team) == ("A", "D", ("C", "E", "B", "F"))
    assert fibs_partner(FIVE) == FIVE


def test_fibs_partnership_survives_a_shrink_below_six_until_the_box_run_ends() -> None:
    s = leave(fibs(Seating("A", "P", ("B", "C", "D", "E")), box_won()), "E")
    assert s == Seating("A", "P", ("C", "D", "B"))
    s = fibs(s, box_won())
    assert s == Seating("A", "P", ("D", "B", "C"))
    # The box run ends: the winning Captain boxes alone, the Partner captains,
    # the losing shooter goes to the bottom.
    assert fibs(s, team_won()) == Seating("D", None, ("P", "B", "C", "A"))


def test_fibs_new_player_goes_behind_the_player_who_just_lost() -> None:
    s = join(fibs(FIVE, team_won()), ["Z"], max_players=10)
    assert order(s) == ("B", "C", "D", "E", "A", "Z")
    with pytest.raises(SeatingError, match="at most 10"):
        join(s, [str(i) for i in range(5)], max_players=10)


def test_fibs_away_player_reaching_the_top_moves_to_the_back() -> None:
    assert order(fibs(FIVE, box_won(away=frozenset({"C"})))) == ("A", "D", "E", "B", "C")


def test_fibs_a_player_may_not_pass_the_box() -> None:
    with pytest.raises(SeatingError, match="may not pass the box"):
        resign_box(FIVE, allowed=False)


def test_fibs_partner_is_next_after_the_captain_when_a_partner_must_be_found() -> None:
    s = Seating("A", None, ("B", "C", "D", "E", "F"))
    assert partner_candidates(s, partner_from="after_captain")[0] == "C"


# -- Villages ---------------------------------------------------------------------------------


def test_villages_2_3_4_highest_roll_box_second_captain_crew_in_roll_order() -> None:
    s = seat_by_rolls({"A": (1, 2), "B": (6, 6), "C": (5, 4), "D": (3, 3)})
    assert s == Seating("B", None, ("C", "D", "A"))


def test_villages_1_at_most_five_players() -> None:
    with pytest.raises(SeatingError, match="at most 5"):
        join(FIVE, ["F"], max_players=5)


def test_villages_4_newcomer_ranks_lowest_after_the_loser() -> None:
    assert order(join(villages(FIVE, box_won()), ["Z"])) == ("A", "C", "D", "E", "B", "Z")
    assert order(join(villages(FIVE, team_won()), ["Z"])) == ("B", "C", "D", "E", "A", "Z")


def test_villages_15_box_keeps_the_box_when_he_wins_and_is_at_least_even() -> None:
    assert order(villages(FIVE, box_won(net=0))) == ("A", "C", "D", "E", "B")


def test_villages_15_box_who_wins_the_game_but_loses_money_loses_the_box() -> None:
    # 15 is silent on who takes the box: as Atlanta 6.1, the Box goes to the end behind the
    # Captain, the player behind the Captain is Box and the next one Captain.
    assert order(villages(FIVE, box_won(net=-1))) == ("C", "D", "E", "B", "A")
    # 12b: a Captain who passed the Box's double fell to the bottom; the Acting Captain
    # behind him is Box (6.1 over 6.2, as at an Atlanta table).
    g = box_won(net=-1, dropped=("B",), acting_captains=("C",))
    assert order(villages(FIVE, g)) == ("C", "D", "E", "B", "A")
    # 11a: the Captain whose double the Box passed "shall start play once again as The
    # Captain" since the Box won the game; the next player takes the box.
    g = box_won(net=-1, doubled_out=("B",), acting_captains=("C",))
    assert order(villages(FIVE, g)) == ("C", "B", "D", "E", "A")


def test_villages_11a_refused_captain_is_box_if_team_wins_acting_captain_stays_captain() -> None:
    g = team_won(doubled_out=("B",), acting_captains=("C",))
    assert order(villages(FIVE, g)) == ("B", "C", "D", "E", "A")


def test_villages_11a_box_wins_refused_captain_is_captain_again() -> None:
    g = box_won(net=1, doubled_out=("B",), acting_captains=("C",))
    assert order(villages(FIVE, g)) == ("A", "B", "C", "D", "E")


def test_villages_12b_captain_who_resigns_a_box_double_falls_to_the_bottom() -> None:
    g = box_won(net=2, dropped=("B",), acting_captains=("C",))
    assert order(villages(FIVE, g)) == ("A", "C", "D", "E", "B")
    g = team_won(net=-1, dropped=("B",), acting_captains=("C",))
    assert order(villages(FIVE, g)) == ("C", "D", "E", "B", "A")


def test_villages_15_box_may_resign_and_the_captain_takes_the_box() -> None:
    assert order(resign_box(FIVE)) == ("B", "C", "D", "E", "A")


def test_villages_has_no_partner() -> None:
    with pytest.raises(SeatingError, match="no Partner"):
        villages(Seating("A", "P", ("B", "C")), box_won())


# -- Danish: the four worked examples, exactly ---------------------------------------------


def names(s: Seating) -> list[str]:
    return [s.box, *s.team]


def test_danish_example_1_box_wins_against_all() -> None:
    s = danish(SIX, box_won(dropped=("Claus", "Erik")))
    assert names(s) == ["Alex", "Claus", "Dan", "Erik", "Frank", "Bo"]


def test_danish_example_2_box_loses_to_bo_dan_erik() -> None:
    expected = ["Bo", "Dan", "Erik", "Claus", "Frank", "Alex"]
    assert names(danish(SIX, team_won(dropped=("Claus", "Frank")))) == expected
    assert names(danish(SIX, box_won(doubled_out=("Bo", "Dan", "Erik")))) == expected


def test_danish_example_3_box_loses_to_claus_and_frank() -> None:
    s = danish(SIX, box_won(doubled_out=("Claus", "Frank")))
    assert names(s) == ["Claus", "Frank", "Dan", "Erik", "Bo", "Alex"]


def test_danish_example_4_box_loses_only_to_frank() -> None:
    s = danish(SIX, team_won(dropped=("Bo", "Claus", "Dan", "Erik")))
    assert names(s) == ["Frank", "Claus", "Dan", "Erik", "Bo", "Alex"]


def test_danish_temporary_captain_has_no_effect_on_the_order() -> None:
    g = box_won(dropped=("Bo",), acting_captains=("Claus",))
    assert names(danish(SIX, g)) == ["Alex", "Claus", "Dan", "Erik", "Frank", "Bo"]


def test_danish_net_profit_does_not_keep_a_box_who_lost_to_anyone() -> None:
    s = danish(SIX, box_won(net=5, doubled_out=("Frank",)))
    assert names(s)[0] == "Frank"
    with pytest.raises(BadOption):
        danish(SIX, box_won(), box_retention="win_profit")


def test_danish_partner_is_left_out_unless_the_box_loses_then_he_is_box() -> None:
    s = Seating("Alex", "Pia", ("Bo", "Claus", "Dan", "Erik", "Frank"))
    kept = danish(s, box_won())
    assert kept == Seating("Alex", "Pia", ("Claus", "Dan", "Erik", "Frank", "Bo"))
    lost = danish(s, box_won(doubled_out=("Claus", "Frank")))
    assert lost == Seating("Pia", "Claus", ("Frank", "Dan", "Erik", "Bo", "Alex"))


def test_danish_joining_players_start_last_in_the_order() -> None:
    assert names(join(SIX, ["Gert"]))[-1] == "Gert"


# -- euro -----------------------------------------------------------------------------------


def test_euro_captain_defeating_box_in_the_game_or_with_the_cube_is_box() -> None:
    assert order(euro(FIVE, team_won())) == ("B", "C", "D", "E", "A")
    g = box_won(net=1, doubled_out=("B",), acting_captains=("C",))
    assert order(euro(FIVE, g)) == ("B", "C", "D", "E", "A")


def test_euro_box_keeps_the_box_only_with_an_overall_profit() -> None:
    assert order(euro(FIVE, box_won(net=1))) == ("A", "C", "D", "E", "B")
    # No profit: next-in-line are Box and Captain, old Captain just above the old Box.
    assert order(euro(FIVE, box_won(net=0))) == ("C", "D", "E", "B", "A")


def test_euro_acting_captain_becomes_captain_or_even_box() -> None:
    g = box_won(net=2, dropped=("B",), acting_captains=("C",))
    assert order(euro(FIVE, g)) == ("A", "C", "D", "E", "B")
    g = team_won(net=-2, dropped=("B",), acting_captains=("C",))
    assert order(euro(FIVE, g)) == ("C", "D", "E", "B", "A")


def test_euro_partner_is_the_current_captain_moved_to_the_box_side() -> None:
    s = Seating("A", None, ("B", "C", "D", "E", "F"))
    first = partner_candidates(s, partner_from="captain")[0]
    t = take_partner(s, first)
    assert (t.partner, t.captain, t.partner_place) == ("B", "C", 4)


def test_fibs_everyone_away_leaves_the_order_alone() -> None:
    g = box_won(away=frozenset({"B", "C", "D", "E"}))
    assert order(fibs(FIVE, g)) == ("A", "C", "D", "E", "B")


def test_partner_released_without_a_place_becomes_captain() -> None:
    s = Seating("A", "P", ("B", "C", "D", "E", "F"))
    assert drop_partner(s) == Seating("A", None, ("P", "B", "C", "D", "E", "F"))
    with pytest.raises(SeatingError, match="no Partner"):
        drop_partner(FIVE)


def test_resigned_box_ends_the_partnership_and_goes_to_the_bottom() -> None:
    s = Seating("A", "P", ("B", "C", "D", "E", "F"), partner_place=3)
    assert resign_box(s) == Seating("B", None, ("C", "D", "P", "E", "F", "A"))


def test_seat_by_rolls_needs_two_players() -> None:
    with pytest.raises(SeatingError, match="at least two"):
        seat_by_rolls({"A": (6, 6)})


def test_rotations_name_the_five_rule_sets() -> None:
    expected = {"atlanta": atlanta, "fibs": fibs, "villages": villages, "danish": danish,
                "euro": euro}
    assert dict(ROTATIONS) == expected


# -- properties -------------------------------------------------------------------------------

NAMES = [f"p{i}" for i in range(12)]
PARTNERED = {"atlanta", "euro", "fibs", "danish"}


@st.composite
def summaries(draw: st.DrawFn, s: Seating) -> GameSummary:
    team = list(s.team)
    out = draw(st.permutations(team))
    cut1 = draw(st.integers(0, len(out)))
    cut2 = draw(st.integers(cut1, len(out)))
    cut3 = draw(st.integers(cut2, len(out)))
    settled = {p: F(draw(st.integers(-2, 2))) for p in out[cut2:cut3]}
    acting = draw(st.lists(st.sampled_from(team[1:]), unique=True)) if len(team) > 1 else []
    return GameSummary(
        winner=draw(st.sampled_from(["box", "team"])),
        box_net=F(draw(st.integers(-8, 8)), 2),
        dropped=tuple(out[:cut1]),
        doubled_out=tuple(out[cut1:cut2]),
        settled=settled,
        acting_captains=tuple(acting),
        partner_stays=draw(st.booleans()),
        new_box_plays_alone=draw(st.booleans()),
        away=frozenset(draw(st.lists(st.sampled_from(team)))),
    )


@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(sorted(ROTATIONS)), data=st.data())
def test_every_rotation_keeps_a_permutation_of_the_players_present(
    name: str, data: st.DataObject
) -> None:
    rotate: Callable[..., Seating] = ROTATIONS[name]
    n = data.draw(st.integers(2, 7))
    s = Seating(NAMES[0], None, tuple(NAMES[1:n]))
    present = set(NAMES[:n])
    for _ in range(data.draw(st.integers(1, 12))):
        op = data.draw(st.sampled_from(["game", "game", "join", "leave", "partner", "drop"]))
        if op == "game":
            s = rotate(s, data.draw(summaries(s)))
        elif op == "join" and len(present) < len(NAMES):
            new = data.draw(st.lists(st.sampled_from(sorted(set(NAMES) - present)),
                                     min_size=1, max_size=2, unique=True))
            s = join(s, new)
            present |= set(new)
        elif op == "leave" and len(present) > 2:
            gone = data.draw(st.sampled_from(sorted(present)))
            s = leave(s, gone)
            present.discard(gone)
        elif op == "partner" and name in PARTNERED and s.partner is None and len(s.team) > 1:
            how = data.draw(st.sampled_from(["bottom", "after_captain", "captain"]))
            s = take_partner(s, partner_candidates(s, partner_from=how)[0],  # type: ignore[arg-type]
                             keep_place=data.draw(st.booleans()))
        elif op == "drop" and s.partner is not None:
            s = drop_partner(s)
        assert sorted(s.players) == sorted(present)
        assert len(set(s.players)) == len(s.players)
        assert s.partner is None or s.partner not in s.team
