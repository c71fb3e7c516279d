"""Tests of the game: scoring, settlements and play mode (rolls, moves, rotation)."""

import hashlib
from fractions import Fraction
from typing import Any

import pytest

from rules.board import Position
from rules.commands import BadCommand, EndSession, Leave, Roll
from rules.cube import Cube, Side
from rules.cube_state import CubeState
from rules.errors import CubeNotAvailable, NotYourTurn, RuleError, SeatingError
from rules.events import GameStarted, Rolled
from rules.game import booked, box_consults_fully, shooter, team_voices
from rules.ledger import net, split_game
from rules.seating import Seating
from rules.state import TableState, replay
from rules.table import decide, partner_invitees
from rules.table_events import PlayerLeft, SessionEnded
from tests.rules.tables import cube, do, game, scores, table

# -- scoring ---------------------------------------------------------------------------------


def test_atlanta_4_1_jacoby_and_2_2_stakes() -> None:
    state = do(TableState(), "open", preset="atlanta", mode="scorekeeper")
    for name, stake in (("ann", 1), ("bo", 1), ("cy", 2)):
        state = do(state, "join", by=name, stake=stake)
    state = do(do(state, "seat", order=["ann", "bo", "cy"]), "start")
    state = do(do(state, "double", by="bo"), "answer", by="ann", take=["bo"])
    state = do(state, "result", winner="team", kind="gammon")
    # bo's cube is in the game: 2 x gammon = 4; cy's is centred at stake 2: a single, 2.
    assert scores(state) == {"ann": -6, "bo": 4, "cy": 2}


def test_atlanta_4_2_partner_shares_and_the_box_gets_the_odd_point() -> None:
    state = do(table("a", "b", "c", "d", "e", "f"), "partner", by="a", player="f")
    state = do(do(state, "start"), "result", winner="box")
    # Four Team cubes at 1: the Box side wins 4, two each.
    assert scores(state)["a"] == 2 and scores(state)["f"] == 2
    state = do(do(table("a", "b", "c", "d", "e", "f"), "partner", by="a", player="f"), "start")
    state = do(do(state, "double", by="b"), "answer", by="a", take=["b"])
    state = do(state, "result", winner="box")  # the Box side wins 2 + 1 + 1 + 1 = 5
    assert (scores(state)["a"], scores(state)["f"]) == (3, 2)
    assert sum(scores(state).values()) == 0


def test_atlanta_6_1_the_partners_own_penalty_does_not_cost_the_box_his_box() -> None:
    # Given: Box a with Partner f; f consulted before two cubes were turned and pays the
    # Captain b a starting cube alone (Atlanta 3.6)
    state = do(table("a", "b", "c", "d", "e", "f"), "partner", by="a", player="f")
    state = do(do(state, "start"), "penalty", by="b", player="f", action="partner")
    # When: c, d and e double (not the Captain); a drops c and d and takes e; the Box
    # beats the Captain in a single
    for player in ("c", "d", "e"):
        state = do(state, "double", by=player)
    state = do(state, "answer", by="a", drop=["c", "d"], take=["e"])
    state = do(state, "result", winner="box")
    # Then: the Box side won 1 (-1 -1 +2 +1): the Box +1, the Partner 0 and his penalty -1.
    # 6.1 asks the Box's own profit: +1, so a keeps the box; the Partner's penalty is his.
    assert (scores(state)["a"], scores(state)["f"]) == (1, -1)
    assert state.seating is not None and state.seating.box == "a"


def test_atlanta_6_4_the_partner_whose_turn_comes_stays_or_captains() -> None:
    state = do(table("a", "b", "c", "d", "e", "f"), "partner", by="a", player="f")
    for _ in range(4):  # the Box wins every game: each Captain goes to the end
        assert state.choices == ()
        state = do(do(state, "start"), "result", winner="box")
    assert state.seating is not None
    # f's turn to captain came: by default he stays Partner and drops to the bottom.
    assert (state.seating.partner, state.seating.team) == ("f", ("b", "c", "d", "e"))
    assert state.choices == (("captain", "f"),)
    with pytest.raises(NotYourTurn, match=r"open choices: f: captain"):
        do(state, "captain", by="b")
    with pytest.raises(NotYourTurn, match="isn't yours"):
        do(state, "alone", by="a")
    captained = do(state, "captain", by="f")
    assert captained.seating is not None
    assert (captained.seating.partner, captained.seating.team) == (None, ("f", "b", "c", "d",
                                                                         "e"))
    # ... and the bottom player may be invited as the new Partner.
    assert partner_invitees(captained)[0] == "e"
    with pytest.raises(NotYourTurn, match="isn't yours"):
        do(captained, "captain", by="f")  # made once
    assert do(state, "start").choices == ()  # not made before the game: he stays


def test_atlanta_6_3_the_new_box_may_play_alone() -> None:
    state = do(table("a", "b", "c", "d", "e", "f"), "partner", by="a", player="f")
    state = do(do(state, "start"), "result", winner="team")
    assert state.seating is not None
    # b beat the Box: he is Box, the losing Box a his Partner; f is back in the Team.
    assert (state.seating.box, state.seating.partner) == ("b", "a")
    assert state.choices == (("alone", "b"),)
    alone = do(state, "alone", by="b")
    assert alone.seating is not None
    assert (alone.seating.box, alone.seating.partner) == ("b", None)
    assert alone.seating.team[-1] == "a" and set(alone.seating.team) == {"a", "c", "d", "e",
                                                                         "f"}


def test_fibs_5_1_an_away_player_at_the_top_of_the_rotation_goes_to_the_back() -> None:
    state = game("ann", "bo", "cy", "di", preset="fibs")
    state = do(state, "away", by="cy")
    state = do(state, "result", winner="box")  # bo goes to the bottom: cy would captain
    assert state.seating is not None and state.seating.team == ("di", "bo", "cy")
    back = do(do(game("ann", "bo", "cy", "di", preset="fibs"), "away", by="cy"), "back", by="cy")
    back = do(back, "result", winner="box")
    assert back.seating is not None and back.seating.team == ("cy", "di", "bo")


def test_before_the_first_seats_anyone_sits_down_and_after_them_the_table_decides() -> None:
    fresh = do(do(TableState(), "open", preset="fibs"), "request", by="ann")
    assert fresh.present == ("ann",) and fresh.requests == ()
    state = do(table("ann", "bo", "cy", preset="fibs"), "request", by="zed", stake=2)
    assert state.member("zed") is None and state.requests[0][0].stake == 2
    with pytest.raises(SeatingError, match="asked to join already"):
        do(state, "request", by="zed")
    with pytest.raises(NotYourTurn, match="Only the players at the table"):
        do(state, "admit", by="kib", player="zed")
    state = do(do(state, "admit", by="ann", player="zed"), "admit", by="bo", player="zed")
    assert state.member("zed") is None  # FIBS §8 ¶1: unanimous, cy has not spoken
    with pytest.raises(NotYourTurn, match="admitted zed already"):
        do(state, "admit", by="bo", player="zed")
    state = do(state, "admit", by="cy", player="zed")
    assert state.member("zed") is not None and state.requests == ()
    assert state.seating is not None and state.seating.team[-1] == "zed"
    objected = do(do(table("ann", "bo", "cy", preset="fibs"), "request", by="zed"), "object",
                  by="cy", player="zed")
    assert objected.requests == () and objected.member("zed") is None


def test_villages_4_the_box_admits_and_danish_4_a_newcomer_joins_unless_someone_objects(
) -> None:
    villages = do(table("ann", "bo", "cy", preset="villages"), "request", by="zed")
    with pytest.raises(NotYourTurn, match=r"The Box \(ann\) decides"):
        do(villages, "admit", by="bo", player="zed")
    assert do(villages, "admit", by="ann", player="zed").member("zed") is not None
    danish = do(table("ann", "bo", "cy", preset="danish"), "request", by="zed")
    danish = do(danish, "request", by="yan")
    danish = do(danish, "object", by="bo", player="yan")
    started = do(danish, "start")  # nobody objected to zed: he sits down as the game starts
    assert started.member("zed") is not None and started.member("yan") is None
    assert started.seating is not None and started.seating.team[-1] == "zed"
    assert started.game is not None and "zed" in {c.team_player for c in started.game.cubes}
    with pytest.raises(BadCommand, match="yan has not asked"):
        do(started, "admit", by="ann", player="yan")


def test_atlanta_4_5_box_and_partner_settle_their_shares_and_the_game_goes_on() -> None:
    state = do(do(table("a", "b", "c", "d", "e", "f"), "partner", by="a", player="f"), "start")
    state = do(do(state, "double", by="c"), "answer", by="a", drop=["c"])  # shared: -1
    state = do(state, "settle", by="a", **{"with": "f", "points": 1})  # f sells his share
    with pytest.raises(CubeNotAvailable, match="settled this game already"):
        do(state, "settle", by="f", **{"with": "a", "points": -1})
    state = do(state, "result", winner="box")  # b, d, e pay 1 each: all to a now
    # c's drop was shared (the odd point the Box's: a -1, f 0); then a paid f 1 and took
    # the rest alone (+3). The Box side's profit keeps the box and the partnership.
    assert scores(state) == {"c": 1, "a": 1, "f": 1, "b": -1, "d": -1, "e": -1}
    assert state.seating is not None and (state.seating.box, state.seating.partner) == ("a",
                                                                                        "f")
    fibs = do(do(table("a", "b", "c", "d", "e", "f", preset="fibs"), "partner", by="a",
                 player="c"), "start")
    fibs = do(fibs, "settle", by="c", **{"with": "a", "points": "-1/2"})  # FIBS §2 ¶3
    assert scores(fibs) == {"a": Fraction(-1, 2), "c": Fraction(1, 2)}


def test_fibs_2_11_box_and_partner_answer_a_later_team_double_each_for_his_half() -> None:
    state = do(do(table("a", "b", "c", "d", "e", "f", preset="fibs"), "partner", by="a",
                  player="c"), "start")  # Box a, Partner c; Team b, d, e, f
    state = do(state, "double", by="a")
    for player in ("b", "d", "e", "f"):
        state = do(state, "take", by=player)
    later = do(state, "double", by="b")  # the Team redoubles its cube to 4
    with pytest.raises(BadCommand, match="Take or drop every double waiting together"):
        do(later, "answer", by="c", drop=["b"])
    split = do(do(later, "answer", by="c", drop=["b", "d", "e", "f"]), "answer", by="a",
               take=["b", "d", "e", "f"])
    assert scores(split)["c"] == -4 and cube(split, "b").value == 4  # 1 to each, half of 2
    done = do(split, "result", winner="team")
    assert scores(done) == {"a": -8, "c": -4, "b": 3, "d": 3, "e": 3, "f": 3}  # a's half of 4
    # The other way round the Box pays his half and is his Partner's slave.
    slave = do(do(later, "answer", by="c", take=["b", "d", "e", "f"]), "answer", by="a",
               drop=["b", "d", "e", "f"])
    assert scores(slave)["a"] == -4
    with pytest.raises(NotYourTurn, match=r"c turns the cubes for the Box side \(the Box"):
        do(slave, "double", by="a")
    assert do(slave, "result", winner="box").sheet.totals()["c"] == 8
    agreed = do(do(later, "answer", by="c", take=["b", "d", "e", "f"]), "answer", by="a",
                take=["b", "d", "e", "f"])
    assert do(agreed, "result", winner="box").sheet.totals() == {
        "a": 8, "c": 8, "b": -4, "d": -4, "e": -4, "f": -4}


def test_fibs_2_9_a_box_who_sells_his_share_to_the_partner_is_his_slave() -> None:
    state = do(table("a", "b", "c", "d", "e", "f", preset="fibs", mode="play"), "partner",
               by="a", player="c")
    state = do(state, "start", opening=[[3, 1]])
    state = do(state, "move", by="a", play="8/5 6/5")
    state = do(do(state, "roll", by="b", dice=[6, 5]), "move", by="b", play="24/13")
    state = do(state, "settle", by="c", **{"with": "a", "points": "1/2"})  # c buys a's share
    assert shooter(state) == "c"  # the master plays; the Box is his slave
    state = do(state, "resign", by="a", kind="single")
    for player in ("b", "d", "e", "f"):
        state = do(state, "accept", by=player)
    assert scores(state) == {"a": Fraction(1, 2), "c": Fraction(-9, 2), "b": 1, "d": 1,
                             "e": 1, "f": 1}


def test_atlanta_5_8_the_box_may_insist_on_answers_in_rotation_order() -> None:
    free = do(game(), "double", by="ann")
    assert cube(do(free, "drop", by="di"), "di").state is CubeState.DROPPED  # any order
    ordered = do(game(), "double", by="ann", in_order=True)
    with pytest.raises(NotYourTurn, match="bo decides first"):
        do(ordered, "drop", by="di")
    ordered = do(do(do(ordered, "take", by="bo"), "take", by="cy"), "drop", by="di")
    assert cube(ordered, "di").state is CubeState.DROPPED
    with pytest.raises(BadCommand, match="only where the rule set allows it"):
        do(game(preset="danish"), "double", by="ann", in_order=True)


def test_villages_11_once_one_doubles_the_others_decide_in_rotation_order() -> None:
    state = game("ann", "bo", "cy", "di", "ed", preset="villages")
    state = do(do(state, "double", by="di"), "double", by="bo")  # di starts; bo decides first
    with pytest.raises(NotYourTurn, match=r"cy comes before ed.*Still to decide: nobody"):
        do(do(state, "double", by="ed"), "double", by="cy")
    state = do(state, "answer", by="ann", take=["bo", "di"])
    assert cube(state, "bo").value == cube(state, "di").value == 2
    # The next round starts afresh: anyone may open it, those above him then decide.
    state = do(do(state, "double", by="ed"), "double", by="cy")
    assert cube(state, "cy").state is CubeState.OFFERED
    free = do(do(game("ann", "bo", "cy", "di", "ed"), "double", by="di"), "double", by="ed")
    assert cube(do(free, "double", by="bo"), "bo").state is CubeState.OFFERED  # Atlanta: any


def test_euro_4_team_doubles_come_in_team_order() -> None:
    state = do(game("ann", "bo", "cy", "di", "ed", preset="euro"), "double", by="cy")
    with pytest.raises(NotYourTurn, match="bo comes before cy"):
        do(state, "double", by="bo")  # bo let his turn pass: no opener's exception here
    state = do(do(state, "double", by="ed"), "answer", by="ann", take=["cy", "ed"])
    assert cube(state, "ed").value == 2


def test_atlanta_6_5_players_joining_at_the_same_game_roll_for_their_order() -> None:
    state = do(table("ann", "bo", "cy"), "join", by="yan")
    state = do(do(state, "join", by="zed"), "join", by="xi")
    assert state.seating is not None and state.seating.team[-3:] == ("yan", "zed", "xi")
    with pytest.raises(SeatingError, match="zed and xi roll again"):
        do(state, "start", newcomer_rolls={"yan": [6, 6], "zed": [3, 4], "xi": [5, 2]})
    with pytest.raises(BadCommand, match="one roll for each newcomer"):
        do(state, "start", newcomer_rolls={"yan": [6, 6]})
    state = do(state, "start", newcomer_rolls={"yan": [1, 1], "zed": [3, 4], "xi": [5, 2]},
               newcomer_rerolls=[{"zed": [2, 2], "xi": [6, 1]}])
    assert state.seating is not None and state.seating.team == ("bo", "cy", "xi", "zed", "yan")
    assert do(table("ann", "bo", "cy"), "start").seating is not None  # nothing to order


def test_atlanta_2_2_a_newcomer_at_a_higher_stake_waits_for_the_box() -> None:
    state = do(table("ann", "bo", "cy"), "request", by="zed", stake=2)
    assert do(state, "start").member("zed") is None  # no objection, but no Box either
    state = do(state, "admit", by="bo", player="zed")
    assert state.member("zed") is None
    state = do(state, "admit", by="ann", player="zed")  # the Box agrees
    member = state.member("zed")
    assert member is not None and member.stake == 2


def test_danish_15_a_second_tie_is_carried_to_the_boxs_next_game_if_he_keeps_the_box(
) -> None:
    auto = {"automatic_doubles": "box_option"}  # ¶15, a variation: turned on at `open`
    state = do(table(preset="danish", automatic_carry_over=True, **auto), "start", ties=2)
    assert cube(state, "bo").value == 2 and state.carry == ("ann", 1)  # one now, one carried
    kept = do(do(state, "result", winner="box"), "start", ties=0)
    assert cube(kept, "bo").value == 2 and kept.carry is None
    lost = do(do(state, "result", winner="team"), "start", ties=0)
    assert lost.seating is not None and lost.seating.box != "ann"
    assert cube(lost, "cy").value == 1
    declined = do(table(preset="danish", automatic_carry_over=True, **auto), "start", ties=2,
                  carry=False)
    assert declined.carry is None
    plain = do(table(preset="danish", **auto), "start", ties=2)  # no carrying over
    assert do(plain, "result", winner="box").carry is None
    assert cube(do(table(preset="danish"), "start", ties=2), "bo").value == 1  # the preset


def test_a_bought_game_is_played_doubled_settled_and_resigned_by_its_holder() -> None:
    state = do(do(game(), "double", by="bo"), "answer", by="ann", take=["bo"])
    # Atlanta 4.3: the half is rolled off; cy throws 11 against di's 3, so di pays 1
    state = do(state, "sell", by="cy", rolloff=[[[6, 5], [1, 2]]],
               **{"from": "cy", "to": "di", "points": "1/2"})
    assert cube(state, "cy") is None  # cy is out: di plays his game
    state = do(state, "double", by="di")  # di's own cube and the one he bought
    assert state.game is not None
    assert {c.team_player for c in state.game.cubes if c.state is CubeState.OFFERED} == {
        "cy", "di"}
    state = do(state, "answer", by="ann", take=["cy", "di"])
    with pytest.raises(CubeNotAvailable, match="You and ann have no cube in play between you"):
        do(state, "settle", by="cy", **{"with": "ann", "points": 1})  # he sold it
    state = do(state, "resign", by="ann")  # on every cube still in, held or not
    for player in ("bo", "di"):
        state = do(state, "accept", by=player)
    assert state.game is None and scores(state)["di"] == 4 - 1


def test_a_game_sold_to_an_outsider_is_played_by_its_seat() -> None:
    state = do(table("ann", "bo", "cy", mode="play"), "start", opening=[[1, 3]])
    state = do(state, "sell", by="bo", rolloff=[[[1, 1], [2, 2]]],
               **{"from": "bo", "to": "kib", "points": "1/2"})
    assert shooter(state) == "bo"  # a spectator holds it; the Captain still rolls


def test_villages_an_away_captain_is_deemed_to_take_like_anyone() -> None:
    state = do(game("ann", "bo", "cy", preset="villages"), "away", by="bo")
    state = do(state, "double", by="ann")
    assert cube(state, "bo").state is CubeState.TAKEN  # Villages 13, the Captain too


def test_an_unopposed_newcomer_the_table_has_no_room_for_waits_and_ties_are_not_negative(
) -> None:
    state = do(table("ann", "bo", "cy", max_players=4), "request", by="yan")
    state = do(state, "request", by="zed")
    started = do(state, "start")  # room for yan only
    assert started.member("yan") is not None and started.member("zed") is None
    with pytest.raises(BadCommand, match="0 or more"):
        do(table(), "start", ties=-1)
    with pytest.raises(BadCommand, match="is not a number"):
        do(do(game(), "double", by="bo"), "settle", by="ann",
           **{"with": "bo", "points": float("inf")})


def test_a_timed_out_fibs_captains_drop_binds_the_team_as_his_own_would() -> None:
    state = do(game("ann", "bo", "cy", "di", preset="fibs", timeout_action="drop"),
               "double", by="ann")
    state = do(state, "timeout", player="bo")
    assert state.game is None  # bo's drop dropped every cube: the game is over
    assert scores(state) == {"ann": 3, "bo": -1, "cy": -1, "di": -1}


def test_end_session_breakdown_settles_every_total() -> None:
    state = do(do(game(), "result", winner="team"), "end_session")
    assert state.ended and scores(state)["ann"] == -3


# -- play mode -------------------------------------------------------------------------------


def test_opening_ties_are_automatic_doubles_where_the_preset_uses_them() -> None:
    euro = do(table(preset="euro", mode="play"), "start", opening=[[2, 2], [4, 4], [6, 1]])
    assert cube(euro, "bo").value == 2  # euro: one automatic double, no more
    assert euro.game is not None and euro.game.on_roll is Side.BOX and euro.game.dice == (6, 1)
    atl = do(table(mode="play"), "start", opening=[[2, 2], [1, 6]])
    assert cube(atl, "bo").value == 1  # Atlanta 5.1: only by agreement
    agreed = do(table(mode="play"), "start", opening=[[2, 2], [1, 6]], automatic_with=["cy"])
    assert (cube(agreed, "bo").value, cube(agreed, "cy").value) == (1, 2)


def test_only_the_shooter_rolls_and_moves_and_doubles_come_before_the_roll() -> None:
    state = do(table(mode="play"), "start", opening=[[1, 3]])
    assert shooter(state) == "bo"
    with pytest.raises(NotYourTurn, match="bo rolls and plays for the Team"):
        do(state, "move", by="cy", play="8/5 6/5")
    with pytest.raises(NotYourTurn, match="dice are rolled"):
        do(state, "double", by="cy")
    state = do(state, "move", by="bo", play="8/5 6/5")
    assert shooter(state) == "ann"
    with pytest.raises(NotYourTurn, match="side on roll"):
        do(state, "double", by="bo")


@pytest.mark.parametrize("preset", ["atlanta", "danish"])
def test_a_premature_roll_stands_in_atlanta_8_6_and_is_void_in_danish_9(preset: str) -> None:
    state = do(table("ann", "bo", "cy", preset=preset, mode="play"), "start",
               opening=[[1, 3]])
    state = do(state, "move", by="bo", play="8/5 6/5")
    state = do(state, "double", by="ann")
    if preset == "danish":
        with pytest.raises(NotYourTurn, match=r"Before the roll, .* waiting for bo, cy"):
            do(state, "roll", by="ann", dice=[3, 1])
        return
    state = do(state, "roll", by="ann", dice=[3, 1])  # bo answers knowing the roll
    with pytest.raises(NotYourTurn, match=r"Before the play, .* waiting for bo, cy"):
        do(state, "move", by="ann", play="8/5 6/5")
    with pytest.raises(NotYourTurn, match="dice are rolled"):
        do(state, "double", by="ann")
    state = do(do(do(state, "drop", by="bo"), "take", by="cy"), "move", by="ann",
               play="8/5 6/5")
    assert state.game is not None and state.game.on_roll is Side.TEAM


def test_a_games_dice_seed_is_revealed_only_after_it_and_only_if_it_hashes_right() -> None:
    seed = bytes(32)
    committed = hashlib.sha256(seed).hexdigest()
    state = do(table(mode="play"), "start", opening=[[2, 2], [3, 1]], commitment=committed)
    assert state.commitments == ((1, committed, ""),) and state.game is not None
    assert state.game.dice_used == 4  # the tie and the opening roll
    with pytest.raises(RuleError, match="still being played"):
        do(state, "reveal", game=1, seed=seed.hex())
    state = do(state, "move", by="ann", play="8/5 6/5")
    with pytest.raises(NotYourTurn, match="drawn for an earlier roll"):
        do(state, "roll", by="bo", dice=[6, 5], die=2)
    rolled = do(state, "roll", by="bo", dice=[6, 5], die=4)
    assert rolled.game is not None and rolled.game.dice_used == 6
    for player in ("bo", "cy", "di"):
        state = do(state, "double", by=player)
    state = do(state, "answer", by="ann", drop=["bo", "cy", "di"])
    assert state.game is None
    with pytest.raises(RuleError, match="does not hash to game 1's commitment"):
        do(state, "reveal", game=1, seed=bytes([1] * 32).hex())
    with pytest.raises(BadCommand, match="no dice commitment"):
        do(state, "reveal", game=2, seed=seed.hex())
    state = do(state, "reveal", game=1, seed=seed.hex())
    assert state.commitments == ((1, committed, seed.hex()),)
    with pytest.raises(RuleError, match="already revealed"):
        do(state, "reveal", game=1, seed=seed.hex())
    with pytest.raises(BadCommand, match="64 hexadecimal"):
        do(table(mode="play"), "start", opening=[[3, 1]], commitment="abc")


def test_acting_captain_shoots_when_the_captain_drops_and_captains_next() -> None:
    state = do(table(mode="play"), "start", opening=[[3, 1]])
    state = do(state, "move", by="ann", play="8/5 6/5")
    state = do(do(state, "roll", by="bo", dice=[6, 5]), "move", by="bo", play="24/13")
    state = do(state, "double", by="ann")
    state = do(do(do(state, "drop", by="bo"), "take", by="cy"), "take", by="di")
    assert shooter(state) == "ann"
    state = do(do(state, "roll", by="ann", dice=[2, 1]), "move", by="ann", play="13/11 6/5")
    assert shooter(state) == "cy"  # Atlanta 6.2: the next in line is Acting Captain
    state = do(do(state, "double", by="cy"), "answer", by="ann", drop=["cy"])
    with pytest.raises(CubeNotAvailable, match="answered this turn"):
        do(state, "double", by="di")
    assert shooter(state) == "di"


def test_atlanta_6_2_the_first_acting_captain_captains_the_next_game() -> None:
    state = do(game(), "double", by="ann")
    state = do(do(do(state, "drop", by="bo"), "take", by="cy"), "take", by="di")
    state = do(state, "result", winner="box")
    # The Box beat the Captain with a profit (1 + 2 + 2) and keeps the box; cy, the first
    # Acting Captain, captains; the losing Captain goes to the end.
    assert state.seating is not None
    assert (state.seating.box, state.seating.team) == ("ann", ("cy", "di", "bo"))
    assert scores(state)["ann"] == 5


def test_a_roll_with_no_legal_play_passes_the_turn() -> None:
    # The Team (on roll) has a checker on the bar against the Box's closed board.
    closed = Position.from_points({25: 1, 2: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 12: 3})
    seated = table("ann", "bo", "cy", mode="play")
    cubes = tuple(Cube(p, "ann") for p in ("bo", "cy"))
    state = replay([GameStarted(1, cubes, position=closed, on_roll=Side.TEAM)], seated)
    events = decide(state, Roll(by="bo", dice=[6, 6]))
    assert events == (Rolled(Side.TEAM, (6, 6), passed=True),)
    state = replay(events, state)
    assert state.game is not None and state.game.on_roll is Side.BOX
    assert state.game.position == closed.swap() and shooter(state) == "ann"


def test_atlanta_5_7_a_lone_taker_gets_extras_from_the_droppers() -> None:
    state = do(game(), "double", by="ann")
    state = do(do(do(state, "drop", by="bo"), "drop", by="cy"), "take", by="di")
    with pytest.raises(CubeNotAvailable, match="dropped the Box's double"):
        do(state, "extra", by="di")
    state = do(state, "extra", by="cy")  # cy pays di 1 and offers him a cube at 2
    with pytest.raises(CubeNotAvailable, match="already gave"):
        do(state, "extra", by="cy")
    state = do(state, "extra", by="bo")  # a second extra may wait with the first
    state = do(state, "take", by="di")  # di answers "the offered extras" together
    assert state.game is not None
    assert [c.box_player for c in state.game.cubes if c.is_extra and c.in_game] == ["cy", "bo"]
    state = do(state, "result", winner="box")
    # ann +1 +1 +2; bo, cy: -1 drop, -1 premium, +2 on the extra; di: +2 -2 -2 -2.
    assert scores(state) == {"ann": 4, "bo": 0, "cy": 0, "di": -4}


def test_atlanta_5_7_the_lone_taker_drops_some_of_the_extras_together() -> None:
    state = do(game(), "double", by="ann")
    state = do(do(do(state, "drop", by="bo"), "drop", by="cy"), "take", by="di")
    state = do(do(state, "extra", by="cy"), "extra", by="bo")
    with pytest.raises(NotYourTurn, match="No cube of zed waits for your answer"):
        do(state, "take", by="di", cubes=["zed"])
    state = do(state, "drop", by="di", cubes=["bo"])  # keeps cy's, drops bo's: a net -1
    state = do(state, "take", by="di", cubes=["cy"])
    state = do(state, "result", winner="team")
    # di: +2 on the Box's cube, +1 +1 premiums, -2 to bo for the dropped extra (a net point
    # lost to him), +2 on cy's extra; bo: -1 drop, -1 premium, +2; cy: -1, -1, -2.
    assert scores(state) == {"ann": 0, "bo": 0, "cy": -4, "di": 4}


def test_atlanta_5_7_the_lone_taker_may_drop_after_all_rather_than_take_the_extras() -> None:
    state = do(game(), "double", by="ann")
    state = do(do(do(state, "drop", by="bo"), "drop", by="cy"), "take", by="di")
    with pytest.raises(CubeNotAvailable, match="Only a lone taker with extras"):
        do(state, "retract", by="di")
    state = do(do(state, "extra", by="cy"), "retract", by="di")
    # di pays ann the undoubled 1 and gives cy's premium back: every cube is out.
    assert state.game is None
    assert scores(state) == {"ann": 3, "bo": -1, "cy": -1, "di": -1}


def test_atlanta_5_7_dropping_the_box_cube_after_taking_an_extra_voids_it_too() -> None:
    state = do(game(), "double", by="ann")
    state = do(do(do(state, "drop", by="bo"), "drop", by="cy"), "take", by="di")
    state = do(do(state, "extra", by="cy"), "take", by="di")  # the first extra, taken
    state = do(do(state, "extra", by="bo"), "retract", by="di")  # the second: drop instead
    # di drops the Box's cube (pays ann 1); both extras lapse, both premiums go back, and
    # no cube keeps the game going.
    assert state.game is None
    assert scores(state) == {"ann": 3, "bo": -1, "cy": -1, "di": -1}


def test_extras_need_a_lone_taker_in_atlanta_and_go_to_the_highest_taker_in_danish() -> None:
    state = do(game(), "double", by="ann")
    state = do(do(do(state, "drop", by="bo"), "take", by="cy"), "take", by="di")
    with pytest.raises(CubeNotAvailable, match="lone taker"):
        do(state, "extra", by="bo")
    danish = do(game(preset="danish", extras="highest_taker"), "double", by="ann")  # ¶16
    danish = do(do(do(danish, "take", by="bo"), "drop", by="cy"), "take", by="di")
    with pytest.raises(CubeNotAvailable, match="goes to bo"):
        do(danish, "extra", by="cy", to="di")
    danish = do(do(danish, "extra", by="cy"), "take", by="bo")
    assert danish.game is not None
    assert any(c.team_player == "bo" and c.box_player == "cy" and c.in_game
               for c in danish.game.cubes)


def test_extras_and_the_danish_variations_are_off_unless_the_table_agrees() -> None:
    # Villages 8 covers the lone taker (he beavers); euro ¶10 "If not agreed on separately,
    # only Jacoby and a single Automatic"; Danish ¶15-¶16 are "common variations".
    for preset, why in (("villages", "Villages 8"), ("euro", "euro ¶10"),
                        ("danish", "Danish ¶16")):
        state = do(game(preset=preset), "double", by="ann")
        state = do(do(state, "drop", by="bo"), "take", by="cy")
        with pytest.raises(CubeNotAvailable, match=f"Extras aren't given at this table \\({why}"):
            do(state, "extra", by="bo")
    on = do(game(preset="villages", extras="lone_taker"), "double", by="ann")  # agreed
    on = do(do(do(on, "drop", by="bo"), "drop", by="cy"), "beaver", by="di")  # rule 8
    on = do(on, "take", by="ann")
    assert any(c.is_extra for c in do(on, "extra", by="bo").game.cubes)  # type: ignore[union-attr]
    assert cube(do(table(preset="danish"), "start", ties=1), "bo").value == 1  # ¶15 off
    auto = do(table(preset="danish", automatic_doubles="box_option"), "start", ties=1)
    assert cube(auto, "bo").value == 2


def test_a_team_players_double_naming_other_players_cubes_is_refused() -> None:
    with pytest.raises(BadCommand, match=r"your own cube only: leave out cy, di \(only the Box"):
        do(game(), "double", by="bo", cubes=["bo", "cy", "di"])
    assert cube(do(game(), "double", by="bo", cubes=["bo"]), "bo").state is CubeState.OFFERED


def test_fibs_2_6_extras_only_from_four_players_villages_14_some_doubles_euro_1_three() -> None:
    three = do(do(game("ann", "bo", "cy", preset="fibs"), "double", by="ann"), "take", by="bo")
    with pytest.raises(CubeNotAvailable, match="Extras aren't given at this table"):
        do(do(three, "drop", by="cy"), "extra", by="cy")
    four = do(do(game(preset="fibs"), "double", by="ann"), "take", by="bo")
    four = do(do(do(four, "drop", by="cy"), "drop", by="di"), "extra", by="cy")
    assert four.game is not None and any(c.is_extra for c in four.game.cubes)
    some = do(game(preset="villages"), "double", by="ann", cubes=["cy"])  # not the Captain
    assert cube(some, "cy").state is CubeState.OFFERED and cube(some, "bo").owner is None
    with pytest.raises(CubeNotAvailable, match="Captain first"):
        do(game(), "double", by="ann", cubes=["cy"])  # Atlanta 5.6, by contrast
    with pytest.raises(SeatingError, match="at least 3 players"):
        do(do(table("ann", "bo", "cy", preset="euro"), "leave", by="cy"), "start")


def test_fibs_one_cube_the_captain_turns_the_initial_cube_for_the_team() -> None:
    state = game(preset="fibs")
    with pytest.raises(NotYourTurn, match="Captain"):
        do(state, "double", by="cy")
    state = do(state, "double", by="bo")
    assert all(cube(state, p).state is CubeState.OFFERED for p in ("bo", "cy", "di"))
    with pytest.raises(CubeNotAvailable, match="as a whole"):
        do(state, "answer", by="ann", take=["bo"], drop=["cy", "di"])
    state = do(state, "answer", by="ann", take=["bo", "cy", "di"])
    assert {cube(state, p).face for p in ("bo", "cy", "di")} == {2}


def test_fibs_one_cube_a_captain_who_drops_the_box_double_drops_for_all() -> None:
    state = do(game(preset="fibs"), "double", by="ann", cubes=["bo"])  # turns the one cube
    assert all(cube(state, p).to_act is Side.TEAM for p in ("bo", "cy", "di"))
    with pytest.raises(NotYourTurn, match="bo decides first"):
        do(state, "take", by="di")
    state = do(state, "drop", by="bo")
    assert state.game is None and scores(state) == {"ann": 3, "bo": -1, "cy": -1, "di": -1}


def test_atlanta_3_2_only_players_with_a_cube_in_the_game_consult() -> None:
    state = game()
    assert team_voices(state) == frozenset() and not box_consults_fully(state)
    state = do(do(state, "double", by="bo"), "double", by="cy")
    state = do(state, "answer", by="ann", take=["bo"], drop=["cy"])
    assert team_voices(state) == {"bo"}
    assert box_consults_fully(state)  # 3.3: two cubes turned, taken or not
    danish = game(preset="danish")
    assert team_voices(danish) == {"bo", "cy", "di"}
    # The Captain asks those whose cubes are in, even without his own in the game.
    asks = do(do(game(), "double", by="cy"), "answer", by="ann", take=["cy"])
    assert team_voices(asks) == {"bo", "cy"}
    # Once he dropped, the Acting Captain plays and asks, not he.
    dropped = do(do(do(game(), "double", by="ann"), "drop", by="bo"), "take", by="cy")
    assert team_voices(do(dropped, "drop", by="di")) == {"cy"}


def test_atlanta_4_5_the_box_settles_with_one_player_who_leaves_the_game() -> None:
    state = do(do(game(whole_points=False), "double", by="bo"), "answer", by="ann",
               take=["bo"])
    state = do(state, "settle", by="ann", **{"with": "bo", "points": 1.5})
    assert scores(state)["bo"] == Fraction(3, 2) and not cube(state, "bo").live
    state = do(state, "result", winner="box")
    assert scores(state) == {"ann": Fraction(1, 2), "bo": Fraction(3, 2), "cy": -1, "di": -1}
    with pytest.raises(CubeNotAvailable, match="initial cube"):
        do(game(preset="fibs"), "settle", by="ann", **{"with": "bo", "points": 0.5})


def test_atlanta_4_3_a_settlements_fraction_is_rolled_off() -> None:
    taken = do(do(game(), "double", by="bo"), "answer", by="ann", take=["bo"])
    with pytest.raises(BadCommand, match=r"fraction is rolled off \(Atlanta 4.3\)"):
        do(taken, "settle", by="ann", **{"with": "bo", "points": 1.5})
    # ann (paying 1½) throws 11 to bo's 2 after a tie at 7: she wins the half and pays 1.
    won = do(taken, "settle", by="ann", **{"with": "bo", "points": 1.5,
                                          "rolloff": [[[3, 4], [5, 2]], [[6, 5], [1, 1]]]})
    assert scores(won)["bo"] == 1
    lost = do(taken, "settle", by="ann", **{"with": "bo", "points": "3/2",
                                           "rolloff": [[[1, 2], [2, 2]]]})
    assert scores(lost)["bo"] == 2
    # bo asks for 1½ from ann (he is paid: negative points) and loses the roll-off: 1.
    asked = do(taken, "settle", by="bo", **{"with": "ann", "points": -1.5,
                                           "rolloff": [[[1, 1], [6, 6]]]})
    assert scores(asked)["bo"] == 1
    for bad in ([[[3, 4], [5, 2]]], [[[3, 4]]], [[[7, 1], [1, 1]]], []):
        with pytest.raises(BadCommand, match="rolloff lists the throws"):
            do(taken, "settle", by="ann", **{"with": "bo", "points": 1.5, "rolloff": bad})


def test_fibs_2_a_non_doubler_sells_his_game_for_half_to_the_box_or_a_teammate() -> None:
    state = do(game(preset="fibs"), "double", by="bo")  # the Captain turns the one cube
    with pytest.raises(NotYourTurn, match="cy's and ann's to agree"):
        do(state, "sell", by="di", **{"from": "cy", "to": "ann"})
    state = do(state, "sell", by="ann", **{"from": "cy", "to": "ann"})  # the Box preempts
    assert scores(state)["cy"] == Fraction(1, 2) and not cube(state, "cy").live
    state = do(state, "sell", by="di", **{"from": "di", "to": "bo"})  # the Captain buys
    assert cube(state, "di") is None  # di is out: bo plays his game
    assert state.game is not None
    held = next(c for c in state.game.cubes if c.team_player == "di")
    assert (held.holder, held.state) == ("bo", CubeState.OFFERED)
    with pytest.raises(CubeNotAvailable, match="You have no game in play"):  # di, who sold it
        do(state, "sell", by="di", **{"from": "di", "to": "bo"})
    state = do(state, "answer", by="ann", take=["bo", "di"])
    state = do(state, "result", winner="team")
    # bo wins 2 on his cube and 2 on di's, paid di 1/2 for it; ann paid cy 1/2.
    assert scores(state) == {"ann": Fraction(-9, 2), "bo": Fraction(7, 2),
                             "cy": Fraction(1, 2), "di": Fraction(1, 2)}


def test_fibs_2_2_partners_split_a_buyout_and_the_next_roll_gives_the_odd_half() -> None:
    state = do(table("a", "b", "c", "d", "e", "f", preset="fibs", mode="play"), "partner",
               by="a", player="c")  # Box a, Partner c; Team b, d, e, f
    state = do(state, "start", opening=[[3, 1]])
    state = do(do(state, "move", by="a", play="8/5 6/5"), "roll", by="b", dice=[6, 5])
    state = do(do(state, "move", by="b", play="24/13"), "roll", by="a", dice=[2, 1])
    state = do(do(state, "move", by="a", play="13/11 6/5"), "double", by="b")
    state = do(state, "sell", by="a", **{"from": "d", "to": "a"})  # the Box buys d out for 1/2
    state = do(state, "answer", by="a", take=["b", "e", "f"])
    assert booked(state, state.game.transfers) == split_game(  # no roll yet: exact quarters
        state.game.transfers, "a", "c", "halves")

    def shares(dice: list[int]) -> dict[str, Fraction]:
        after = do(state, "roll", by="b", dice=dice)
        assert after.game is not None
        return net(booked(after, after.game.transfers))

    assert shares([4, 2]) == {"a": Fraction(-1, 2), "c": 0, "d": Fraction(1, 2)}  # even
    assert shares([4, 1]) == {"a": 0, "c": Fraction(-1, 2), "d": Fraction(1, 2)}  # odd


def test_fibs_2_2_in_scorekeeper_mode_the_bots_roll_gives_the_odd_half() -> None:
    # Given: a FIBS table kept by a scorekeeper (no rolls entered), Box a, Partner c
    state = do(table("a", "b", "c", "d", "e", "f", preset="fibs"), "partner", by="a",
               player="c")
    state = do(do(state, "start"), "double", by="b")  # the Captain turns the one cube

    def shares(**roll: Any) -> dict[str, Fraction]:
        # When: the Box buys d out for 1/2, the bot's roll (if any) coming with it
        after = do(state, "sell", by="a", **{"from": "d", "to": "a"}, **roll)
        assert after.game is not None
        return net(booked(after, after.game.transfers))

    # Then: an even roll gives the half to the shooter, an odd one to the Partner, never
    # quarters; with no roll sent the half is not given away: the sale is refused, saying
    # how the roll is given (as a fraction without its roll-off at whole points)
    assert shares(next_roll=[4, 2]) == {"a": Fraction(-1, 2), "c": 0, "d": Fraction(1, 2)}
    assert shares(next_roll=[4, 1]) == {"a": 0, "c": Fraction(-1, 2), "d": Fraction(1, 2)}
    with pytest.raises(BadCommand, match=r"determined by the next roll \(FIBS §2 ¶2\), so "
                       r"the command carries it, next_roll: two dice"):
        shares()
    with pytest.raises(BadCommand, match="next_roll: two dice from 1 to 6"):
        shares(next_roll=[7, 1])


def test_a_refusal_tells_a_buyers_own_cube_from_the_game_he_bought_against_the_same_box(
) -> None:
    # Given: FIBS, the Captain bo bought di's game; both are against the Box ann
    state = do(game(preset="fibs"), "double", by="bo")
    state = do(state, "sell", by="bo", **{"from": "di", "to": "bo"})
    state = do(do(state, "answer", by="ann", take=["bo", "cy", "di"]), "double", by="ann")
    # When: bo answers without saying which; Then: he is told which is which, in his words
    with pytest.raises(BadCommand, match=r"your cube against ann \(bo\); the game you bought "
                                         r"from di \(against ann\) \(di\); name one"):
        do(state, "take", by="bo")
    with pytest.raises(NotYourTurn, match=r"Answer your own cube first \(rotation order\)"):
        do(state, "drop", by="bo", cubes=["di"])  # FIBS: answers in rotation order
    state = do(do(state, "take", by="bo", cubes=["bo"]), "take", by="cy")  # by its seat
    state = do(state, "drop", by="bo", cubes=["di"])  # and the game he bought, by its seat
    assert state.game is not None
    assert [c.state for c in state.game.cubes if c.player(Side.TEAM) == "bo"] == [
        CubeState.TAKEN, CubeState.DROPPED]  # and about his own cube he is "you":
    with pytest.raises(NotYourTurn, match="Nothing waits for your answer: your cube against "
                                          "ann is at 4, held by you"):
        do(state, "take", by="bo")


def test_refusals_cite_the_tables_own_rule_set() -> None:
    euro = do(game(preset="euro"), "double", by="bo")
    euro = do(do(euro, "double", by="cy"), "double", by="di")
    with pytest.raises(CubeNotAvailable, match=r"or drop them all \(euro ¶6\)"):
        do(euro, "answer", by="ann", take=["bo"], drop=["cy", "di"])
    with pytest.raises(CubeNotAvailable, match=r"initial cube \(FIBS §2 ¶4\)"):
        do(game(preset="fibs"), "settle", by="ann", points=1, **{"with": "bo"})
    # FIBS is silent on the order of the Box's initial doubles: it follows Atlanta 5.6
    with pytest.raises(CubeNotAvailable, match=r"rotation: double bo \(as Atlanta 5.6\)"):
        do(game(preset="fibs", single_cube=False), "double", by="ann", cubes=["cy"])
    villages = do(game(preset="villages"), "double", by="ann")
    villages = do(do(villages, "drop", by="bo"), "drop", by="cy")
    with pytest.raises(CubeNotAvailable, match=r"must beaver \(Villages 8\)"):
        do(villages, "take", by="di")


def test_after_the_last_drop_a_player_is_told_the_game_is_over() -> None:
    state = do(do(game("ann", "bo", "cy"), "double", by="ann"), "drop", by="bo")
    state = do(state, "drop", by="cy")  # the last cube: the game is over
    with pytest.raises(RuleError, match="game 1 is over, with no cube left in play"):
        do(state, "take", by="cy")


def test_fibs_1_3_a_partnership_that_did_not_just_win_ends_when_five_are_left() -> None:
    # Given: six at a FIBS table; the Box side a+c loses, so b boxes with d, the next in line
    state = do(do(table("a", "b", "c", "d", "e", "f", preset="fibs"), "start"), "result",
               winner="team")
    assert state.seating is not None
    assert (state.seating.box, state.seating.partner) == ("b", "d")
    # When: f leaves between games, before the new partnership has won anything
    left = do(state, "leave", by="f")
    # Then: five are left and there is no Partner: d goes back after the Captain c
    assert left.seating == Seating("b", None, ("c", "d", "e", "a"))
    # But a partnership that just won stays for the rest of the box run
    won = do(do(state, "start"), "result", winner="box")
    assert do(won, "leave", by="f").seating == Seating("b", "d", ("e", "a", "c"))


def test_fibs_2_5_a_captain_who_sells_his_game_is_the_masters_slave() -> None:
    state = do(table("ann", "bo", "cy", "di", preset="fibs", mode="play"), "start",
               opening=[[1, 3]])
    state = do(state, "move", by="bo", play="8/5 6/5")
    state = do(do(state, "roll", by="ann", dice=[6, 5]), "move", by="ann", play="24/13")
    state = do(do(state, "double", by="bo"), "answer", by="ann", take=["bo", "cy", "di"])
    state = do(do(state, "roll", by="bo", dice=[2, 1]), "move", by="bo", play="13/11 6/5")
    state = do(do(state, "roll", by="ann", dice=[3, 3]), "move", by="ann", play="13/7(2)")
    with pytest.raises(BadCommand, match="the Box or a Team player can"):
        do(state, "sell", by="bo", **{"from": "bo", "to": "zed"})
    state = do(state, "sell", by="bo", **{"from": "bo", "to": "cy"})  # later cube: half of 2
    assert scores(state)["bo"] == 1 and shooter(state) == "cy"
    with pytest.raises(CubeNotAvailable, match="not sold at this table"):
        do(game(settlements="never"), "sell", by="cy", **{"from": "cy", "to": "bo"})


def test_atlanta_4_4_a_team_player_sells_his_interest_and_spectators_may_buy() -> None:
    state = do(game(), "double", by="bo")  # bo doubles, cy does not: bo buys cy's interest
    # Atlanta 4.3: only whole points reach the sheet, so the half is rolled off: bo (the
    # buyer, who sends it) throws 11 to cy's 3 and wins it: the game is his for nothing.
    bought = do(state, "sell", by="bo", rolloff=[[[6, 5], [1, 2]]],
                **{"from": "cy", "to": "bo", "points": "1/2"})
    assert scores(bought).get("cy", 0) == 0 and cube(bought, "cy") is None
    preempted = do(state, "sell", by="ann", **{"from": "cy", "to": "ann", "points": 1})
    assert scores(preempted)["cy"] == 1 and not cube(preempted, "cy").live  # the Box pays
    kib = do(state, "sell", by="kib", rolloff=[[[1, 2], [6, 5]]],  # kib loses: pays 1
             **{"from": "di", "to": "kib", "points": "3/4"})
    kib = do(do(kib, "answer", by="ann", take=["bo"]), "result", winner="team")
    assert scores(kib)["kib"] == 1 - 1  # di's cube, at 1, paid to kib
    six = do(do(table("a", "b", "c", "d", "e", "f"), "partner", by="a", player="f"), "start")
    with pytest.raises(BadCommand, match="Box or a Team player or a spectator"):
        do(six, "sell", by="c", **{"from": "c", "to": "f", "points": 1})  # not the Partner


def test_penalties_follow_the_rule_set() -> None:
    state = do(game(), "penalty", by="ann", player="cy", action="award")
    assert cube(state, "cy").owner is Side.BOX and not cube(state, "cy").in_game
    washed = do(game(), "penalty", by="ann", player="cy", action="wash")
    assert not cube(washed, "cy").live
    with pytest.raises(RuleError, match="freeze"):
        do(game(preset="euro"), "penalty", by="ann", player="cy", action="wash")
    frozen = do(game(preset="euro"), "penalty", by="bo", player="cy", action="freeze")
    with pytest.raises(CubeNotAvailable, match="frozen"):
        do(frozen, "double", by="cy")


def test_euro_13_a_frozen_cube_only_takes_whoever_answers_for_it() -> None:
    # "offensively frozen, only takes allowed for the current game": no drop either.
    frozen = do(game(preset="euro"), "penalty", by="bo", player="di", action="freeze")
    doubled = do(frozen, "double", by="ann")  # every cube; answers in Team order (¶4)
    state = do(do(doubled, "take", by="bo"), "drop", by="cy")
    with pytest.raises(CubeNotAvailable, match="frozen for this game, and you may only take"):
        do(state, "drop", by="di")
    assert cube(do(state, "take", by="di"), "di").in_game
    # His stand-in (the Captain, ¶14) may not drop it for him either; a timeout takes it.
    away = do(state, "away", by="di")
    with pytest.raises(CubeNotAvailable, match="only take"):
        do(away, "drop", by="bo", **{"for": "di"})
    lapsed = do(do(state, "timeout", player="di"), "timeout", player="di")
    assert cube(lapsed, "di").in_game  # nobody answered in time: taken, not dropped


def test_atlanta_3_6_an_offender_out_of_the_game_pays_half_and_an_early_partner_a_cube(
) -> None:
    state = do(do(game(), "double", by="cy"), "answer", by="ann", drop=["cy"])  # cy is out
    with pytest.raises(CubeNotAvailable, match="half a starting cube is the penalty"):
        do(state, "penalty", by="ann", player="cy", action="award")
    with pytest.raises(NotYourTurn, match="the Box or the Captain"):
        do(state, "penalty", by="di", player="cy", action="half")
    with pytest.raises(BadCommand, match=r"fraction is rolled off \(Atlanta 4.3\)"):
        do(state, "penalty", by="bo", player="cy", action="half")  # 4.2: whole points only
    # bo throws 9 to cy's 4: he wins the fraction, and cy pays 1 for his half cube.
    fined = do(state, "penalty", by="bo", player="cy", action="half",
               rolloff=[[[4, 5], [2, 2]]])
    assert scores(fined)["bo"] - scores(state).get("bo", 0) == 1
    six = do(do(table("a", "b", "c", "d", "e", "f"), "partner", by="a", player="f"), "start")
    with pytest.raises(NotYourTurn, match=r"The Captain \(b\) claims"):
        do(six, "penalty", by="a", player="f", action="partner")
    paid = do(six, "penalty", by="b", player="f", action="partner")
    assert scores(paid) == {"f": -1, "b": 1}
    turned = do(do(six, "double", by="b"), "double", by="c")
    with pytest.raises(RuleError, match="Two cubes are turned"):
        do(turned, "penalty", by="b", player="f", action="partner")


def test_atlanta_3_6_the_aggrieved_takes_another_cube_the_offender_out_is_liable_for() -> None:
    out = do(do(game(), "double", by="cy"), "answer", by="ann", drop=["cy"])  # cy is out
    state = do(out, "penalty", by="bo", player="cy", action="cube")  # the Captain's
    with pytest.raises(CubeNotAvailable, match="already liable"):
        do(state, "penalty", by="ann", player="cy", action="cube")
    assert state.game is not None and state.game.cubes[-1].live  # played out with the game
    state = do(state, "result", winner="team", kind="gammon")
    assert scores(state)["cy"] - scores(out)["cy"] == -1  # he pays bo a single (Jacoby)
    # The Box's cube against the offender does not keep the game going once the Team is out.
    state = do(out, "penalty", by="ann", player="cy", action="cube")
    state = do(do(do(state, "double", by="ann"), "drop", by="bo"), "drop", by="di")
    assert state.game is None and scores(state)["cy"] - scores(out)["cy"] == -1


def test_euro_13_a_major_offence_pays_the_stake_and_18_penalties_are_not_profit() -> None:
    state = do(game(preset="euro"), "penalty", by="ann", player="cy", action="stake")
    assert scores(state) == {"cy": -1, "ann": 1}
    # The Box beats the Captain but is even on the cubes (di's drop, cy's wash, bo's win):
    # only the penalty makes a profit, which doesn't count (euro ¶18): he loses the box.

    def even(state: TableState) -> TableState:
        state = do(do(state, "double", by="di"), "answer", by="ann", drop=["di"])  # ann -1
        state = do(state, "settle", by="ann", **{"with": "cy", "points": 0})  # a wash
        return do(state, "result", winner="box")  # bo pays ann 1

    state = even(state)
    assert scores(state)["ann"] == 1
    assert state.seating is not None and state.seating.box != "ann"
    counted = even(do(game(preset="euro", profit_counts_penalties=True), "penalty", by="ann",
                      player="cy", action="stake"))
    assert counted.seating is not None and counted.seating.box == "ann"


def test_atlanta_10_2_a_player_who_leaves_plus_is_paid_by_the_most_minus_first() -> None:
    state = do(do(game(), "double", by="bo"), "answer", by="ann", take=["bo"])
    state = do(state, "result", winner="team")  # ann -4: bo +2, cy +1, di +1
    events = decide(state, Leave(by="bo"))
    left = events[0]
    assert isinstance(left, PlayerLeft)
    assert [(t.payer, t.payee, t.points) for t in left.payments] == [("ann", "bo", 2)]


def test_atlanta_10_2_a_leaver_is_settled_once_and_the_end_pays_only_what_is_still_owed(
) -> None:
    # Given: ann lost 4 in the first game (bo +2, cy +1, di +1)
    state = do(do(game(), "double", by="bo"), "answer", by="ann", take=["bo"])
    state = do(state, "result", winner="team")
    # When: bo leaves between games, then di announces his leave during the next game
    state = do(state, "leave", by="bo")  # ann pays bo 2 at the table
    assert state.sheet.owed() == {"ann": -2, "bo": 0, "cy": 1, "di": 1}
    assert state.sheet.totals()["bo"] == 2  # his points won stay on the sheet
    state = do(do(state, "start"), "leave", by="di")  # cy is the Box now, v di and ann
    assert state.seating is not None and state.seating.box == "cy"
    assert state.sheet.owed()["di"] == 1  # not settled yet: his game is still on
    state = do(do(state, "double", by="di"), "answer", by="cy", take=["di"])
    state = do(state, "result", winner="team")  # di +2, ann +1: ann -1, cy -2, di +3
    # Then: di is settled when the game ends, on the sheet as it stands after it: the
    # most minus (cy, -2) pays him first, then ann the rest
    assert [(t.payer, t.payee, t.points) for t in state.sheet.paid] == [
        ("ann", "bo", 2), ("cy", "di", 2), ("ann", "di", 1)]
    assert state.sheet.owed() == {"ann": 0, "bo": 0, "cy": 0, "di": 0}
    ended = decide(state, EndSession(by="cy"))[0]
    assert isinstance(ended, SessionEnded) and ended.breakdown == ()  # nobody paid twice
