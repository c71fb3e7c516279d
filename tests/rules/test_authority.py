"""Who may run a table (rules/authority.py): start, end, results, blinding; and names kept
for players who left. Given/when/then, with commands as Discord sends them (a named sender,
`moderator` only for a moderator)."""

from typing import Any

import pytest

from rules.commands import (
    Blind,
    Disconnect,
    Drop,
    EndSession,
    Join,
    Leave,
    Result,
    Seat,
    Take,
    Unblind,
)
from rules.cube import Side
from rules.errors import NotYourTurn, RuleError, SeatingError
from rules.events import GameAbandoned, GameEnded, ResultProposed
from rules.results import confirmers, must_agree
from rules.state import TableState, replay
from rules.table import decide
from rules.table_events import Blinded, SessionEnded
from rules.transcript import build, parse


def do(state: TableState, command: str, by: str, **args: Any) -> TableState:
    return replay(decide(state, build(command, by, **args)), state)


def hosted(*players: str, mode: str = "scorekeeper", preset: str = "atlanta") -> TableState:
    """Given: a table opened by `host` (who does not play) where `players` joined."""
    state = do(TableState(), "open", "host", preset=preset, mode=mode)
    for player in players:
        state = do(state, "join", player, name=player.title())
    return state


def started(*players: str) -> TableState:
    """Given: the players seated in the order given (Box, Captain, rest) and a game on."""
    state = do(hosted(*players), "seat", "host", order=list(players))
    return do(state, "start", players[0])


def test_the_opener_is_the_host() -> None:
    assert hosted().host == "host"


@pytest.mark.parametrize("name", ["start", "end_session"])
def test_a_kibitzer_can_neither_start_nor_end_a_table(name: str) -> None:
    state = do(hosted("ann", "bo", "cy"), "seat", "ann", order=["ann", "bo", "cy"])
    with pytest.raises(NotYourTurn, match="Only the players at this table, its host"):
        decide(state, build(name, "kib"))
    for allowed in ("ann", "host"):  # a player, the host
        assert decide(state, build(name, allowed))
    assert decide(state, build(name, "kib", **{"moderator": True}))


def test_a_kibitzer_cannot_draw_the_seats() -> None:
    with pytest.raises(NotYourTurn):
        decide(hosted("ann", "bo"), Seat(by="kib", order=["ann", "bo"]))


def test_a_result_needs_the_box_side_and_the_captain() -> None:
    state = started("ann", "bo", "cy")  # Box ann, Captain bo, cy
    for outsider in ("kib", "cy"):  # a kibitzer; a Team player who is not the Captain
        with pytest.raises(NotYourTurn, match="Only the Box side"):
            decide(state, Result(by=outsider, winner="box"))
    proposed = decide(state, Result(by="ann", winner="box", kind="gammon"))
    assert proposed == (ResultProposed(Side.BOX, "gammon", "ann", Side.BOX),)
    assert confirmers(state) == ()
    state = replay(proposed, state)
    assert state.game is not None and state.game.offer == proposed[0]
    assert confirmers(state) == ("bo",)  # the Captain, the board's Confirm the result
    # the Box side's word again is refused, saying who confirms it; the Captain's other
    # word is a counter-offer
    with pytest.raises(NotYourTurn, match="ann gave this result already: it stands when "
                                          "the Captain confirms it"):
        decide(state, Result(by="ann", winner="box", kind="gammon"))
    other = decide(state, Result(by="bo", winner="box"))
    assert other == (ResultProposed(Side.BOX, "single", "bo", Side.TEAM),)
    (ended,) = decide(state, Result(by="bo", winner="box", kind="gammon"))
    assert isinstance(ended, GameEnded) and ended.kind == "gammon"


def test_fibs_4_1c_a_result_stands_when_everybody_with_a_cube_in_the_game_agrees() -> None:
    # FIBS §4 ¶1c: a game ends on a result "everybody has agreed on" (or a moderator's).
    state = do(hosted("ann", "bo", "cy", "di", preset="fibs"), "seat", "host",
               order=["ann", "bo", "cy", "di"])
    state = do(state, "start", "ann")

    def agree(state: TableState, by: str, winner: str = "box") -> tuple[Any, ...]:
        return decide(state, Result(by=by, winner=winner))

    with pytest.raises(NotYourTurn, match=r"cube still in the game \(ann, bo, cy, di\)"):
        agree(state, "kib")
    (offer,) = agree(state, "ann")
    assert offer == ResultProposed(Side.BOX, "single", "ann", Side.BOX, ("ann",),
                                   ("bo", "cy", "di"))
    state = replay((offer,), state)
    state = replay(agree(state, "bo"), state)  # the Captain's word is not enough
    assert state.game is not None and state.game.offer is not None
    assert state.game.offer.waiting == confirmers(state) == ("cy", "di")
    with pytest.raises(NotYourTurn, match=r"You agreed to this result already: it waits "
                                          r"for cy, di"):
        agree(state, "bo")  # again: refused, saying who is still to agree
    (other,) = agree(state, "cy", "team")  # another result starts afresh
    assert (other.agreed, other.waiting) == (("cy",), ("ann", "bo", "di"))
    state = replay(agree(state, "cy"), state)
    (ended,) = agree(state, "di")
    assert isinstance(ended, GameEnded) and ended.winner is Side.BOX
    # A player out of the game is not asked; an away one does what the Captain does (§5 ¶1).
    fresh = do(do(do(do(state, "result", "mod", winner="box", moderator=True), "start", "ann"),
                  "double", "ann"), "take", "cy")  # Box ann, Captain cy (one cube, §2 ¶5)
    fresh = do(do(do(fresh, "drop", "di"), "take", "bo"), "away", "bo")
    with pytest.raises(NotYourTurn, match=r"\(ann, cy, bo\)"):
        agree(fresh, "di")  # he dropped: out of the game
    (ended,) = agree(replay(agree(fresh, "ann"), fresh), "cy")
    assert isinstance(ended, GameEnded)
    six = ("a", "b", "c", "d", "e", "f")  # from six the Box has a Partner (c): he agrees too
    six_game = do(do(hosted(*six, preset="fibs"), "seat", "host", order=list(six)), "start", "a")
    assert must_agree(six_game) == ("a", "c", "b", "d", "e", "f")


def test_a_moderator_or_the_monitor_gives_a_result_alone() -> None:
    state = started("ann", "bo", "cy")
    for command in (Result(by="mod", winner="team", moderator=True),
                    Result(winner="team"),
                    parse({"cmd": "result", "by": "cy", "winner": "team"})):
        (ended,) = decide(state, command)
        assert isinstance(ended, GameEnded) and ended.winner is Side.TEAM


def test_a_session_ends_mid_game_only_by_a_moderator_and_the_drops_stand() -> None:
    state = do(started("ann", "bo", "cy"), "double", "ann")
    state = do(do(state, "drop", "bo"), "take", "cy")  # bo pays ann 1; cy plays on at 2
    with pytest.raises(RuleError, match="a moderator may end it now"):
        decide(state, EndSession(by="ann"))
    events = decide(state, EndSession(by="mod", moderator=True))
    assert [type(e) for e in events] == [GameAbandoned, SessionEnded]
    ended = replay(events, state)
    assert ended.ended and ended.game is None
    assert ended.sheet.totals() == {"ann": 1, "bo": -1}


def test_moderators_blind_kibitzers_never_players() -> None:
    state = hosted("ann", "bo")
    with pytest.raises(NotYourTurn, match="Only a moderator"):
        decide(state, Blind(by="ann", player="kib"))
    with pytest.raises(RuleError, match="plays at this table"):
        decide(state, Blind(by="mod", player="bo", moderator=True))
    blinded = do(state, "blind", "mod", player="kib", moderator=True)
    assert blinded.blinded == ("kib",)
    with pytest.raises(SeatingError, match="blinded"):
        decide(blinded, Join(by="kib"))
    with pytest.raises(RuleError, match="already blinded"):
        decide(blinded, Blind(by="mod", player="kib", moderator=True))
    assert decide(blinded, Unblind(by="mod", player="kib", moderator=True)
                  ) == (Blinded("kib", False),)
    assert do(blinded, "unblind", "mod", player="kib", moderator=True).blinded == ()


def test_a_player_who_left_keeps_his_name() -> None:
    state = hosted("ann", "bo", "cy")
    assert state.shown("cy") == "Cy"
    gone = do(state, "leave", "cy")
    assert gone.member("cy") is None and gone.shown("cy") == "Cy"
    assert gone.shown("nobody") == "nobody"


def test_an_answer_to_a_question_that_is_gone_is_refused() -> None:
    state = do(started("ann", "bo", "cy"), "double", "ann")  # the Box turns both cubes to 2
    state = do(do(state, "beaver", "bo"), "ask_turn", "ann", turn="raccoon", across="bo")
    state = do(state, "agree_turn", "bo", turn="raccoon", player="ann")  # 4, then 8
    with pytest.raises(RuleError, match="about the cube at 2; it is at 8"):
        decide(state, Drop(by="bo", face=2))  # the DM that said "turned to 2"
    assert decide(state, Drop(by="bo", face=8))
    assert decide(state, Take(by="cy", face=2))  # cy's question still stands


def test_a_second_leave_during_a_game_is_refused() -> None:
    state = do(started("ann", "bo", "cy"), "leave", "cy")
    with pytest.raises(SeatingError, match="leaves at the end of this game already"):
        decide(state, Leave(by="cy"))


def test_the_next_seating_after_the_box_resigns_does_not_hang_on_the_order_of_accepts() -> None:
    def after(order: tuple[str, ...]) -> Any:
        state = do(started("ann", "bo", "cy", "di"), "resign", "ann", kind="single")
        for player in order:
            state = do(state, "accept", player)
        return state.seating
    assert after(("bo", "cy", "di")) == after(("di", "cy", "bo")) == after(("cy", "bo", "di"))
    assert after(("di", "cy", "bo")).box == "bo"  # Atlanta 6.1: the Captain who beat the Box


def test_only_a_moderator_reports_a_disconnection() -> None:
    state = hosted("ann", "bo", "cy")
    with pytest.raises(NotYourTurn, match="Only moderators"):
        decide(state, Disconnect(by="ann", player="bo"))
    member = do(state, "disconnect", "mod", player="bo", moderator=True).member("bo")
    assert member is not None and member.disconnected
