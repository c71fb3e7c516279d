"""Given/when/then tests of the table's lobby and seating between games (rules/table.py)."""

import dataclasses

import pytest

from rules.errors import NotYourTurn, RuleError, SeatingError
from rules.preset import load_preset
from rules.state import TableState, evolve
from rules.table_events import TableOpened
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


def test_atlanta_1_2_the_partner_is_the_boxs_choice_by_invitation() -> None:
    six = table("a", "b", "c", "d", "e", "f")
    with pytest.raises(NotYourTurn, match=r"has not invited you: ask a to invite you"):
        do(six, "partner", by="f")  # nobody invited him: he can't seat himself
    with pytest.raises(NotYourTurn, match=r"Only the Box \(a\) invites a Partner"):
        do(six, "invite_partner", by="b", player="f")
    with pytest.raises(SeatingError, match="f is asked first"):
        do(six, "invite_partner", by="a", player="e")  # Atlanta 6.5: the bottom first
    invited = do(six, "invite_partner", by="a", player="f")
    assert invited.invited == ("f",) and invited.seating == six.seating
    accepted = do(invited, "partner", by="f")
    assert accepted.seating is not None and accepted.seating.partner == "f"
    over = do(do(invited, "start"), "result", winner="box")
    assert over.invited == ()  # an invitation lasts until the next game ends
    with pytest.raises(SeatingError, match="at least 6"):
        do(table(), "invite_partner", by="ann", player="di")


def test_where_the_partner_is_not_the_boxs_choice_the_player_takes_the_place() -> None:
    for preset in ("fibs", "danish", "euro"):
        state = table("a", "b", "c", "d", "e", "f", preset=preset)
        assert not state.rules.partner_invited
        first = state.seating.team[0] if preset == "euro" else None  # the Captain there
        player = first or ("c" if preset == "fibs" else "f")
        taken = do(state, "partner", by=player)
        assert taken.seating is not None and taken.seating.partner == player


def test_a_table_opened_before_the_option_keeps_its_rule_for_the_partner() -> None:
    """A table stored before `partner_invited` existed (its opening lists every option it
    knew, not this one) goes on as it was played: first in line takes the place."""
    options = {k: v for k, v in dataclasses.asdict(load_preset("atlanta")).items()
               if k != "partner_invited"}
    old = evolve(TableState(), TableOpened("atlanta", "play", options))
    assert not old.rules.partner_invited
    assert do(TableState(), "open", preset="atlanta").rules.partner_invited


def test_a_stake_from_a_stranger_before_the_seats_says_how_to_join() -> None:
    state = do(TableState(), "open", preset="atlanta")
    with pytest.raises(SeatingError, match=r"zed is not at this table: to play, `/chouette "
                                           r"join` first"):
        do(state, "stake", by="zed", stake=2)
    with pytest.raises(SeatingError, match="Draw the seats first"):
        do(do(state, "join", by="ann"), "stake", by="ann", stake=2)


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
