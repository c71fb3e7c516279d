"""Given/when/then: a moderator's corrections, with the consent each rule set asks."""

from fractions import Fraction

import pytest

from rules.commands import Approve, BadCommand
from rules.cube import Side
from rules.cube_state import CubeState
from rules.errors import NotYourTurn, RuleError
from rules.events import Corrected, CorrectionAnswered, CorrectionProposed
from rules.ledger import Transfer
from rules.state import TableState
from rules.table import decide
from tests.rules.tables import cube, do, game, scores, table


def correct(state: TableState, by: str = "mod", **args: object) -> TableState:
    return do(state, "correct", by=by, moderator=True, **args)


def test_a_score_correction_waits_for_both_players_it_concerns() -> None:
    state = do(game(), "result", winner="box")
    before = scores(state)
    state = correct(state, kind="score", reason="bo's drop was entered twice",
                    **{"from": "cy", "to": "bo", "points": 2})
    assert state.proposals[0][0].needs == ("cy", "bo")
    assert scores(state) == before  # nothing moves until both agree
    with pytest.raises(NotYourTurn, match="waits for cy, bo"):
        do(state, "approve", by="di", correction=1)
    state = do(state, "approve", by="bo", correction=1)
    with pytest.raises(NotYourTurn, match="waits for cy; you already agreed"):
        do(state, "approve", by="bo", correction=1)
    events = decide(state, Approve(by="cy", correction=1))
    assert events == (CorrectionAnswered(1, "cy", True), Corrected(1))
    state = do(state, "approve", by="cy", correction=1)
    after = scores(state)
    assert after["cy"] == before["cy"] - 2 and after["bo"] == before["bo"] + 2
    assert sum(after.values()) == 0
    assert state.sheet.games[-1] == (
        Transfer("cy", "bo", Fraction(2), "correction: bo's drop was entered twice"),)
    assert state.proposals == () and state.corrections == 1


def test_a_refusal_drops_the_correction_and_the_proposer_need_not_agree_with_himself() -> None:
    state = do(game(), "result", winner="team")
    before = scores(state)
    with pytest.raises(BadCommand, match=r"keeps whole points \(Atlanta 4.2\)"):
        correct(state, by="bo", kind="score", reason="typo", points="1/2",
                **{"from": "bo", "to": "cy"})  # only whole points reach this sheet
    state = correct(state, by="bo", kind="score", reason="typo", points=1,
                    **{"from": "bo", "to": "cy"})
    assert state.proposals[0][0].needs == ("cy",)
    state = do(state, "refuse", by="cy", correction=1)
    assert state.proposals == () and scores(state) == before
    with pytest.raises(BadCommand, match="No correction 1 is waiting"):
        do(state, "approve", by="cy", correction=1)


@pytest.mark.parametrize(("args", "error", "message"), [
    ({"moderator": False, "kind": "score"}, RuleError, "Only a moderator"),
    ({"kind": "scores", "reason": "x"}, BadCommand, "score .* or an undo"),
    ({"kind": "score", "reason": " ", "from": "bo", "to": "cy", "points": 1},
     BadCommand, "Give the reason"),
    ({"kind": "score", "reason": "x", "from": "bo", "to": "zed", "points": 1},
     BadCommand, "zed never sat at this table"),
    ({"kind": "score", "reason": "x", "from": "bo", "to": "bo", "points": 1},
     BadCommand, "two different players"),
    ({"kind": "score", "reason": "x", "from": "bo", "to": "cy", "points": -1},
     BadCommand, "more than 0"),
    ({"kind": "score", "reason": "x", "from": "bo", "to": "cy", "points": "lots"},
     BadCommand, "is a number"),
    ({"kind": "undo", "reason": "x"}, RuleError, "no game on the board"),
])
def test_a_correction_is_refused_with_what_is_allowed(args: dict[str, object],
                                                      error: type[Exception],
                                                      message: str) -> None:
    state = do(game(), "result", winner="box")
    with pytest.raises(error, match=message):
        do(state, "correct", by="mod", **{"moderator": True, **args})


def test_with_no_consent_asked_a_correction_is_made_at_once() -> None:
    state = game(correction_consent="none")
    state = correct(state, kind="score", reason="agreed at the table",
                    **{"from": "ann", "to": "di", "points": 1})
    assert state.proposals == () and scores(state)["di"] == 1


def test_fibs_a_second_moderator_confirms_and_a_play_stands() -> None:
    state = game("ann", "bo", "cy", preset="fibs")
    state = correct(state, kind="score", reason="scorekeeper's slip",
                    **{"from": "ann", "to": "bo", "points": 1})
    assert state.proposals[0][0].needs == ("moderator",)
    with pytest.raises(NotYourTurn, match="waits for moderator"):
        do(state, "approve", by="bo", correction=1)  # a player is no scorekeeper
    with pytest.raises(NotYourTurn, match="second moderator"):
        do(state, "approve", by="mod", correction=1, moderator=True)
    state = do(state, "approve", by="mod2", correction=1, moderator=True)
    assert scores(state)["bo"] == 1
    played = do(table("ann", "bo", "cy", preset="fibs", mode="play"), "start",
                opening=[[3, 1]])
    played = do(played, "move", by="ann", play="8/5 6/5")
    with pytest.raises(RuleError, match="a checker play stands"):
        correct(played, kind="undo", reason="misclick")


def test_an_undo_takes_back_the_last_play_and_what_followed_once_the_opponent_agrees() -> None:
    state = do(table("ann", "bo", "cy", mode="play"), "start", opening=[[3, 1]])
    with pytest.raises(NotYourTurn, match="No checker play to take back"):
        correct(state, kind="undo", reason="misclick")
    start = state.game
    state = do(state, "move", by="ann", play="24/21 24/23")  # the Box meant 8/5 6/5
    state = do(state, "double", by="bo")
    state = do(state, "answer", by="ann", drop=["bo"])  # bo's cube is dropped: ann pays 1
    assert scores(state)["bo"] == 1
    state = correct(state, kind="undo", reason="ann clicked the wrong play")
    [(proposal, _)] = state.proposals
    assert proposal == CorrectionProposed(1, "undo", "mod", "ann clicked the wrong play",
                                          None, ("cy",))  # the Team's shooter now
    state = do(state, "approve", by="cy", correction=1)
    assert state.game is not None and start is not None
    assert state.game.position == start.position and state.game.dice == (3, 1)
    assert state.game.on_roll is Side.BOX and state.board == (start.position, Side.BOX)
    assert cube(state, "bo").state is CubeState.CENTRED and scores(state).get("bo", 0) == 0
    state = do(state, "move", by="ann", play="8/5 6/5")
    assert state.game is not None and state.game.on_roll is Side.TEAM


def test_an_undo_lapses_when_the_board_moves_on_and_the_dice_thrown_stay_thrown() -> None:
    state = do(table("ann", "bo", "cy", mode="play"), "start", opening=[[2, 2], [3, 1]])
    state = do(state, "move", by="ann", play="8/5 6/5")
    state = do(state, "roll", by="bo", dice=[6, 5])
    state = correct(state, kind="undo", reason="wrong play")
    assert state.proposals[0][0].needs == ("bo",)
    moved = do(state, "move", by="bo", play="24/13")
    assert moved.proposals == ()
    with pytest.raises(BadCommand, match="No correction 1"):
        do(moved, "approve", by="bo", correction=1)
    undone = do(state, "approve", by="bo", correction=1)
    assert undone.game is not None and undone.game.on_roll is Side.BOX
    assert undone.game.dice_used == 6  # the Team's 6-5 was thrown: it rolls anew later
    with pytest.raises(NotYourTurn, match="since the last undo"):
        correct(undone, kind="undo", reason="again")
