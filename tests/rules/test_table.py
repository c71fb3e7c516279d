"""Given/when/then tests of the table's lobby and seating between games (rules/table.py)."""

import pytest

from rules.errors import RuleError, SeatingError
from rules.state import TableState
from tests.rules.tables import do, game, table

# -- lobby --------------------------------------------------------------------------------


def test_join_refuses_a_second_seat_a_full_table_and_unknown_stakes() -> None:
    state = do(TableState(), "open", preset="villages")
    for name in ("a", "b", "c", "d", "e"):
        state = do(state, "join", by=name)
    with pytest.raises(SeatingError, match="full"):
        do(state, "join", by="f")  # Villages 1: at most five
    with pytest.raises(SeatingError, match="already"):
        do(state, "join", by="a")
    fresh = do(TableState(), "open", preset="atlanta")
    with pytest.raises(SeatingError, match="stake of 3"):
        do(fresh, "join", by="a", stake=3)


def test_commands_before_open_and_after_the_session_are_refused() -> None:
    with pytest.raises(RuleError, match="open one first"):
        do(TableState(), "join", by="ann")
    ended = do(table(), "end_session")
    with pytest.raises(RuleError, match="ended"):
        do(ended, "start")


def test_joining_during_a_game_waits_for_the_end_of_the_game() -> None:
    state = do(game(), "join", by="ed")
    assert "ed" not in state.present and state.seating and "ed" not in state.seating.players
    state = do(state, "result", winner="box")
    assert state.seating is not None and state.seating.team[-1] == "ed"


def test_a_leave_announced_in_a_game_takes_effect_when_it_ends() -> None:
    state = do(game(), "leave", by="cy")
    assert state.seating is not None and "cy" in state.seating.team
    state = do(state, "result", winner="box")
    assert state.seating is not None and "cy" not in state.seating.players
    assert "cy" not in state.present


def test_partner_needs_the_rule_set_and_the_table_size() -> None:
    with pytest.raises(SeatingError, match="no Partner"):
        do(table(preset="villages"), "partner", by="ann", player="di")
    with pytest.raises(SeatingError, match="at least 6"):
        do(table(), "partner", by="ann", player="di")
    six = do(table("a", "b", "c", "d", "e", "f"), "partner", by="a", player="f")
    assert six.seating is not None and six.seating.partner == "f"


def test_roll_for_seats_ranks_by_the_dice_and_ties_roll_again() -> None:
    state = do(TableState(), "open", preset="atlanta")
    with pytest.raises(SeatingError, match="roll again"):
        do(state, "seat", rolls={"a": [6, 5], "b": [6, 5], "c": [1, 2]})
    seated = do(state, "seat", rolls={"a": [6, 5], "b": [4, 4], "c": [1, 2]})
    assert seated.seating is not None
    assert (seated.seating.box, seated.seating.team) == ("a", ("b", "c"))
    danish = do(TableState(), "open", preset="danish")
    with pytest.raises(RuleError, match="1 dice"):
        do(danish, "seat", rolls={"a": [6, 5], "b": [4, 4], "c": [1, 2]})
