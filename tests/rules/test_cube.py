"""Tests of rules/cube.py: one doubling contract, rule by rule, then its invariants."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.board import GameKind
from rules.cube import Cube, Side
from rules.cube_state import CubeState
from rules.errors import CubeNotAvailable, RuleError
from rules.ledger import Transfer

TEAM, BOX = Side.TEAM, Side.BOX


def ann() -> Cube:
    """Ann (Team) against Bo (the Box), basic stake, centred."""
    return Cube("Ann", "Bo")


# -- Atlanta 1.5 / 3.3: in the game, turned ------------------------------------------------------


def test_atlanta_1_5_cube_in_game_only_when_turned_and_accepted() -> None:
    offered = ann().offer(TEAM)
    assert offered.turned and not offered.in_game
    taken = offered.take()
    assert taken.in_game and taken.accepted


def test_atlanta_1_5_auto_doubled_centred_cube_is_not_in_game() -> None:
    cube = ann().auto_double()
    assert cube.value == 2 and cube.owner is None and cube.state is CubeState.CENTRED
    assert not cube.in_game and not cube.turned


def test_atlanta_3_3_dropped_cube_counts_as_turned_but_is_out_of_game() -> None:
    cube, _ = ann().offer(BOX).drop()
    assert cube.turned and not cube.in_game and not cube.live


# -- Atlanta 2.2: stakes --------------------------------------------------------------------------


def test_atlanta_2_2_double_stakes_cube_shows_2_and_pays_double() -> None:
    cube = Cube("Ann", "Bo", stake=2)
    assert cube.face == 2 and cube.value == 1
    _, paid = cube.offer(BOX).drop()
    assert paid == Transfer("Ann", "Bo", Fraction(2), paid.reason)


def test_atlanta_2_2_stake_multiplies_game_result() -> None:
    cube = Cube("Ann", "Bo", stake=4).offer(TEAM).take()
    assert cube.result(GameKind.GAMMON, TEAM, jacoby=True).points == 4 * 2 * 2


# -- Atlanta 4.1: Jacoby, scoring -----------------------------------------------------------------


def test_atlanta_4_1_jacoby_no_gammon_for_centred_cube() -> None:
    paid = ann().result(GameKind.GAMMON, BOX, jacoby=True)
    assert (paid.payer, paid.payee, paid.points) == ("Ann", "Bo", Fraction(1))


def test_atlanta_4_1_jacoby_no_gammon_for_auto_doubled_cube() -> None:
    paid = ann().auto_double().result(GameKind.BACKGAMMON, TEAM, jacoby=True)
    assert (paid.payer, paid.payee, paid.points) == ("Bo", "Ann", Fraction(2))


def test_atlanta_4_1_gammon_counts_for_cube_in_game() -> None:
    cube = ann().offer(BOX).take()
    assert cube.result(GameKind.GAMMON, BOX, jacoby=True).points == 4


def test_without_jacoby_centred_cube_counts_backgammon_triple() -> None:
    assert ann().result(GameKind.BACKGAMMON, TEAM, jacoby=False).points == 3


def test_result_refused_while_a_double_is_pending() -> None:
    with pytest.raises(CubeNotAvailable, match="Ann has to answer the double to 2"):
        ann().offer(BOX).result(GameKind.SINGLE, BOX, jacoby=True)


def test_result_refused_for_dropped_cube() -> None:
    cube, _ = ann().offer(TEAM).drop()
    with pytest.raises(CubeNotAvailable, match="dropped"):
        cube.result(GameKind.SINGLE, BOX, jacoby=True)


# -- Atlanta 5.3-5.5: double, take, drop, beaver, raccoon --------------------------------------


def test_atlanta_5_3_take_gives_ownership_to_taker() -> None:
    cube = ann().offer(TEAM).take()
    assert cube.owner is BOX and cube.value == 2 and cube.doublers == {BOX}


def test_owner_may_redouble_and_the_other_side_may_not() -> None:
    cube = ann().offer(BOX).take()
    assert cube.offer(TEAM).value == 4
    owned_by_box = ann().offer(TEAM).take()
    with pytest.raises(CubeNotAvailable, match="You can't double: Bo owns your cube at 2"):
        owned_by_box.offer(TEAM)
    with pytest.raises(CubeNotAvailable, match="You can't double Ann: Ann owns the cube at 2"):
        cube.offer(BOX)


def test_centred_cube_may_be_doubled_by_either_side_pending_by_none() -> None:
    assert ann().doublers == {TEAM, BOX}
    pending = ann().offer(BOX)
    assert pending.doublers == frozenset() and pending.to_act is TEAM
    with pytest.raises(CubeNotAvailable, match="you have to answer the double to 2 on your "
                                                "cube against Bo first"):
        pending.offer(TEAM)  # told Ann herself: never "Ann has to answer"
    with pytest.raises(CubeNotAvailable, match="Ann has to answer"):
        pending.offer(BOX)  # the Box is told who he waits for


def test_a_refusal_names_a_bought_game_apart_from_the_buyers_own_cube() -> None:
    bought, _ = ann().sell("Cy", 1)  # Cy holds Ann's game against Bo, and his own cube
    owned = bought.offer(TEAM).take()
    with pytest.raises(CubeNotAvailable, match="Bo owns the game you bought from Ann "
                                                r"\(against Bo\) at 2"):
        owned.offer(TEAM)
    with pytest.raises(CubeNotAvailable, match="Cy owns the cube bought from Ann at 2"):
        bought.offer(BOX).take().offer(BOX)


def test_drop_pays_the_value_before_the_double() -> None:
    cube = ann().offer(TEAM).take().offer(BOX)
    dropped, paid = cube.drop()
    assert (paid.payer, paid.payee, paid.points) == ("Ann", "Bo", Fraction(2))
    assert paid.reason == "Ann dropped the double to 4"
    assert dropped.state is CubeState.DROPPED and dropped.winner is BOX and dropped.value == 2


def test_atlanta_5_3_beaver_turns_and_keeps_possession() -> None:
    cube = ann().offer(BOX).beaver(allowed=True)
    assert cube.value == 4 and cube.owner is TEAM and cube.to_act is BOX
    assert cube.state is CubeState.BEAVERED and cube.in_game


def test_atlanta_5_4_drop_beaver_loses_value_before_beaver() -> None:
    _, paid = ann().offer(BOX).beaver(allowed=True).drop()
    assert (paid.payer, paid.payee, paid.points) == ("Bo", "Ann", Fraction(2))
    assert paid.reason == "Bo dropped the beaver to 4"


def test_atlanta_5_4_raccoon_after_beaver() -> None:
    cube = ann().offer(BOX).beaver(allowed=True).raccoon(allowed=True)
    assert cube.value == 8 and cube.owner is TEAM and cube.to_act is TEAM
    taken = cube.take()
    assert taken.owner is TEAM and taken.state is CubeState.TAKEN and taken.doublers == {TEAM}


def test_atlanta_5_4_raccoon_only_with_consent() -> None:
    with pytest.raises(CubeNotAvailable, match="Raccoons aren't allowed at this table"):
        ann().offer(BOX).beaver(allowed=True).raccoon(allowed=False)


def test_raccoon_refused_without_a_beaver() -> None:
    with pytest.raises(CubeNotAvailable, match="You can't raccoon now"):
        ann().offer(BOX).raccoon(allowed=True)


def test_villages_9_drop_raccoon_pays_beavered_amount() -> None:
    cube = ann().offer(TEAM).beaver(allowed=True).raccoon(allowed=True)
    _, paid = cube.drop()
    assert (paid.payer, paid.payee, paid.points) == ("Bo", "Ann", Fraction(4))


def test_villages_10_aardvarks_refused() -> None:
    cube = ann().offer(TEAM).beaver(allowed=True).raccoon(allowed=True)
    with pytest.raises(CubeNotAvailable, match="Aardvarks aren't allowed at this table"):
        cube.aardvark(allowed=False)


def test_aardvark_where_allowed_ends_the_exchange() -> None:
    cube = ann().offer(TEAM).beaver(allowed=True).raccoon(allowed=True).aardvark(allowed=True)
    assert cube.value == 16 and cube.to_act is TEAM and cube.owner is BOX
    with pytest.raises(CubeNotAvailable, match="You can't beaver now"):
        cube.beaver(allowed=True)
    assert cube.take().owner is BOX


def test_fibs_no_beavers() -> None:
    with pytest.raises(CubeNotAvailable, match="Beavers aren't allowed at this table"):
        ann().offer(BOX).beaver(allowed=False)


def test_atlanta_5_5_dropped_cube_cannot_be_turned_again() -> None:
    cube, _ = ann().offer(BOX).drop()
    with pytest.raises(CubeNotAvailable, match="out of this game"):
        cube.offer(TEAM)
    with pytest.raises(CubeNotAvailable):
        cube.take()


def test_take_refused_without_a_double() -> None:
    with pytest.raises(CubeNotAvailable, match="There is no double to take"):
        ann().take()


def test_atlanta_5_1_auto_double_only_on_a_centred_cube() -> None:
    assert ann().auto_double().auto_double().value == 4
    with pytest.raises(CubeNotAvailable, match="centred"):
        ann().offer(TEAM).take().auto_double()


# -- Atlanta 5.7: extras; Danish sell-cube ------------------------------------------------------


def test_atlanta_5_7_extra_pays_the_taker_and_gives_him_a_2_cube() -> None:
    extra, premium = Cube.extra("Cy", "Ann")
    assert (premium.payer, premium.payee, premium.points) == ("Cy", "Ann", Fraction(1))
    held = extra.take()
    assert (held.team_player, held.box_player, held.value, held.owner) == ("Ann", "Cy", 2, TEAM)
    assert held.in_game and held.is_extra
    assert held.result(GameKind.SINGLE, BOX, jacoby=True) == Transfer(
        "Ann", "Cy", Fraction(2), "Cy won a single with the cube at 2")


def test_atlanta_5_7_dropping_an_extra_loses_a_net_point() -> None:
    extra, premium = Cube.extra("Cy", "Ann")
    _, paid = extra.drop()
    assert (paid.payer, paid.payee) == ("Ann", "Cy")
    assert paid.points - premium.points == 1


def test_atlanta_5_7_extra_may_be_beavered() -> None:
    extra, _ = Cube.extra("Cy", "Ann")
    beavered = extra.beaver(allowed=True)
    assert beavered.value == 4 and beavered.owner is TEAM
    _, paid = beavered.drop()
    assert (paid.payer, paid.payee, paid.points) == ("Cy", "Ann", Fraction(2))


# -- Settlements, buy-outs, sales ----------------------------------------------------------------


def test_atlanta_4_5_box_settles_with_one_player() -> None:
    cube = ann().offer(TEAM).take()
    settled, paid = cube.settle(Fraction(3, 2), BOX)
    assert settled.state is CubeState.SETTLED and not settled.in_game
    assert paid == (Transfer("Bo", "Ann", Fraction(3, 2), paid[0].reason),)


def test_atlanta_6_1_settlement_for_zero_records_nothing() -> None:
    settled, paid = ann().settle(0, BOX)
    assert paid == () and not settled.live


def test_settlement_refuses_negative_points() -> None:
    with pytest.raises(CubeNotAvailable, match="can't be negative"):
        ann().settle(-1, TEAM)


def test_fibs_box_buys_out_a_non_doubler_for_half_a_point() -> None:
    _, paid = ann().settle(Fraction(1, 2), BOX)
    assert paid[0].points == Fraction(1, 2) and paid[0].payee == "Ann"


def test_fibs_captain_buys_a_non_doublers_game_and_plays_it() -> None:
    cube, paid = ann().offer(TEAM).sell("Cap", Fraction(1, 2))  # while the double waits
    assert (cube.team_player, cube.holder, cube.player(TEAM)) == ("Ann", "Cap", "Cap")
    assert paid == (Transfer("Cap", "Ann", Fraction(1, 2), paid[0].reason),)
    assert cube.side_of("Cap") is TEAM
    with pytest.raises(CubeNotAvailable, match="no part"):
        cube.side_of("Ann")  # the seller is out
    dropped, lost = cube.drop()
    assert lost.payer == "Bo" and lost.payee == "Cap" and dropped.winner is TEAM


def test_sale_to_the_opponent_is_refused() -> None:
    with pytest.raises(CubeNotAvailable, match="settles instead"):
        ann().sell("Bo", 1)
    with pytest.raises(CubeNotAvailable, match="can't sell your game now"):
        ann().offer(BOX).sell("Cap", 1)


# -- Penalties -----------------------------------------------------------------------------------


def test_euro_frozen_cube_allows_only_takes() -> None:
    # euro ¶13 "offensively frozen, only takes allowed": no double, no beaver, and no drop.
    cube = ann().freeze(TEAM)
    assert cube.doublers == {BOX}
    with pytest.raises(CubeNotAvailable, match="frozen"):
        cube.offer(TEAM)
    with pytest.raises(CubeNotAvailable, match="frozen"):
        cube.offer(BOX).beaver(allowed=True)
    with pytest.raises(CubeNotAvailable, match="frozen for this game, and you may only take"):
        cube.offer(BOX).drop()
    assert cube.offer(BOX).take().in_game


def test_atlanta_3_6_box_takes_ownership_at_starting_value() -> None:
    cube = Cube("Ann", "Bo", stake=2).award(BOX)
    assert cube.owner is BOX and cube.face == 2 and not cube.in_game
    assert cube.doublers == {BOX}


def test_side_of_names_the_players_side() -> None:
    assert ann().side_of("Bo") is BOX
    with pytest.raises(CubeNotAvailable, match="Cy has no part in Ann's cube against Bo"):
        ann().side_of("Cy")


def test_repr_is_valid_code() -> None:
    cube = ann().offer(BOX).beaver(allowed=True)
    assert eval(repr(cube)) == cube


# -- Properties ----------------------------------------------------------------------------------

ACTIONS = st.sampled_from([
    "offer_team", "offer_box", "take", "drop", "beaver", "raccoon", "aardvark", "auto",
    "settle", "sell", "freeze", "award", "result",
])


def _apply(cube: Cube, action: str, allowed: bool) -> tuple[Cube, tuple[Transfer, ...]]:
    match action:
        case "offer_team":
            return cube.offer(TEAM), ()
        case "offer_box":
            return cube.offer(BOX), ()
        case "take":
            return cube.take(), ()
        case "drop":
            dropped, paid = cube.drop()
            return dropped, (paid,)
        case "beaver":
            return cube.beaver(allowed=allowed), ()
        case "raccoon":
            return cube.raccoon(allowed=allowed), ()
        case "aardvark":
            return cube.aardvark(allowed=allowed), ()
        case "auto":
            return cube.auto_double(), ()
        case "settle":
            return cube.settle(Fraction(1, 2), BOX if allowed else TEAM)
        case "sell":
            return cube.sell("Cap" if allowed else cube.box_player, 1)
        case "freeze":
            return cube.freeze(TEAM if allowed else BOX), ()
        case "award":
            return cube.award(BOX), ()
        case _:
            return cube, (cube.result(GameKind.GAMMON, TEAM, jacoby=allowed),)


@given(
    start=st.sampled_from([1, 2, 4]),
    stake=st.integers(1, 4),
    steps=st.lists(st.tuples(ACTIONS, st.booleans()), max_size=25),
)
def test_any_transitions_raise_only_rule_errors_and_keep_powers_of_two(
    start: int, stake: int, steps: list[tuple[str, bool]]
) -> None:
    cube = Cube("Ann", "Bo", value=start, stake=stake)
    for action, allowed in steps:
        try:
            cube, paid = _apply(cube, action, allowed)
        except RuleError:
            continue
        multiple, rest = divmod(cube.value, start)
        assert rest == 0 and multiple & (multiple - 1) == 0
        assert all(t.points > 0 and t.points % Fraction(1, 2) == 0 for t in paid)
        assert cube.in_game == (cube.accepted and cube.live)
        assert (cube.to_act is None) == (not cube.pending)
        if cube.pending:
            assert cube.doublers == frozenset()
