"""What may be done now, as the board offers it (rules/actions.py): Double and Hold only
while someone may take them."""

from rules.actions import doublers, holders
from rules.state import TableState
from tests.rules.tables import do, table


def team_on_roll(preset: str = "atlanta") -> TableState:
    """Given: a play-mode table (Box ann; Team bo, cy, di) whose Box has played the opening
    2-1: the Team is on roll, before its roll."""
    state = do(table("ann", "bo", "cy", "di", mode="play", preset=preset), "start",
               opening=[[2, 1]])
    return do(state, "move", by="ann", play="13/11 6/5")


def test_after_the_box_answers_the_turns_doubles_nobody_may_double_or_hold() -> None:
    state = team_on_roll()
    assert tuple(doublers(state)) == ("bo", "cy", "di") and holders(state) == ("bo", "cy", "di")
    state = do(state, "double", by="bo")
    assert tuple(doublers(state)) == ("cy", "di")  # the others, until the Box answers
    state = do(state, "answer", by="ann", take=["bo"], drop=[], beaver=[])
    assert tuple(doublers(state)) == () and holders(state) == ()


def test_under_fibs_the_captains_double_is_the_teams() -> None:
    state = team_on_roll("fibs")
    assert tuple(doublers(state)) == ("bo",)  # with one cube the Captain decides the initial double
    assert tuple(doublers(do(state, "double", by="bo"))) == ()
