"""Tests of rules/ledger.py: transfers, the score sheet, the Box/Partner split, settling up."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import BadOption
from rules.ledger import (
    ScoreSheet,
    Transfer,
    breakdown,
    fewest_payments,
    format_points,
    leaving_settlement,
    net,
    pay,
    round_points,
    split,
    split_game,
)

F = Fraction


def t(payer: str, payee: str, points: int | Fraction) -> Transfer:
    return Transfer(payer, payee, F(points), "test")


def settles(totals: dict[str, Fraction], payments: list[Transfer]) -> bool:
    after = dict(totals)
    for name, points in net(payments).items():
        after[name] = after.get(name, F(0)) - points
    return all(v == 0 for v in after.values())


# -- Transfers -----------------------------------------------------------------------------------


def test_transfer_points_are_exact_fractions() -> None:
    assert Transfer("Ann", "Bo", 2).points == F(2)  # type: ignore[arg-type]
    assert isinstance(Transfer("Ann", "Bo", 2).points, Fraction)  # type: ignore[arg-type]


def test_negative_or_zero_transfer_is_an_error() -> None:
    with pytest.raises(ValueError, match="positive"):
        t("Ann", "Bo", -1)
    with pytest.raises(ValueError, match="positive"):
        t("Ann", "Bo", 0)


def test_transfer_needs_two_players() -> None:
    with pytest.raises(ValueError, match="two different players"):
        t("Ann", "Ann", 1)


def test_float_points_are_refused() -> None:
    with pytest.raises(TypeError):
        Transfer("Ann", "Bo", 0.5)  # type: ignore[arg-type]


def test_a_zero_payment_is_not_recorded() -> None:
    assert pay("Ann", "Bo", 0) == ()
    assert pay("Ann", "Bo", F(1, 2), "buy-out") == (Transfer("Ann", "Bo", F(1, 2), "buy-out"),)
    with pytest.raises(ValueError):
        pay("Ann", "Bo", -1)


# -- Score sheet (Atlanta 10.1) ------------------------------------------------------------------


def test_atlanta_10_1_sheet_totals_sum_to_zero_after_each_game() -> None:
    sheet = ScoreSheet.of(
        [[t("Ann", "Bo", 2), t("Cy", "Bo", 2)], [t("Bo", "Ann", 1), t("Bo", "Cy", 4)]],
        players=["Bo", "Ann", "Cy", "Di"],
    )
    assert sheet.totals() == {"Bo": F(-1), "Ann": F(-1), "Cy": F(2), "Di": F(0)}
    assert sheet.running() == [
        {"Bo": F(4), "Ann": F(-2), "Cy": F(-2), "Di": F(0)},
        {"Bo": F(-1), "Ann": F(-1), "Cy": F(2), "Di": F(0)},
    ]
    assert all(sum(row.values()) == 0 for row in sheet.running())
    assert sheet.game_net(1) == {"Bo": F(-5), "Ann": F(1), "Cy": F(4), "Di": F(0)}


def test_add_game_returns_a_new_sheet() -> None:
    empty = ScoreSheet()
    sheet = empty.add_game([t("Ann", "Bo", F(1, 2))])
    assert empty.games == () and sheet.totals() == {"Ann": F(-1, 2), "Bo": F(1, 2)}


def test_names_put_seating_first_then_first_appearance() -> None:
    sheet = ScoreSheet.of([[t("Zed", "Ann", 1)]], players=["Bo"])
    assert sheet.names() == ("Bo", "Zed", "Ann")


@given(st.lists(st.lists(st.tuples(
    st.sampled_from("ABCDEF"), st.sampled_from("ABCDEF"),
    st.fractions(min_value=F(1, 4), max_value=100, max_denominator=4)),
    max_size=8), max_size=12))
def test_random_score_sheet_sums_to_exactly_zero(
    games: list[list[tuple[str, str, Fraction]]]
) -> None:
    sheet = ScoreSheet.of([t(a, b, p) for a, b, p in game if a != b] for game in games)
    assert sum(sheet.totals().values(), F(0)) == 0
    assert all(sum(row.values(), F(0)) == 0 for row in sheet.running())


# -- Box and Partner (Atlanta 4.2) ----------------------------------------------------------------


def test_atlanta_4_2_box_receives_the_odd_point_of_a_win() -> None:
    assert split("Bo", "Pat", 5, "box_gets_odd") == {"Bo": F(3), "Pat": F(2)}


def test_atlanta_4_2_box_loses_the_odd_point_of_a_loss() -> None:
    assert split("Bo", "Pat", -5, "box_gets_odd") == {"Bo": F(-3), "Pat": F(-2)}


def test_halves_mode_keeps_exact_halves() -> None:
    assert split("Bo", "Pat", 5, "halves") == {"Bo": F(5, 2), "Pat": F(5, 2)}


def test_unknown_split_mode_is_a_bad_option() -> None:
    with pytest.raises(BadOption, match="box_gets_odd"):
        split("Bo", "Pat", 1, "thirds")  # type: ignore[arg-type]


def test_atlanta_4_2_split_game_shares_the_box_sides_points() -> None:
    game = (t("Ann", "Bo", 2), t("Cy", "Bo", 2), t("Bo", "Di", 1), t("Cy", "Eve", 2))
    shared = split_game(game, "Bo", "Pat", "box_gets_odd")
    before, after = net(game), net(shared)
    assert after["Bo"] == 2 and after["Pat"] == 1
    assert all(after[p] == before[p] for p in ("Ann", "Cy", "Di", "Eve"))
    assert sum(after.values()) == 0


def test_atlanta_4_5_box_partner_settlement_is_kept_apart() -> None:
    game = (t("Ann", "Bo", 4), t("Bo", "Pat", 1))
    after = net(split_game(game, "Bo", "Pat", "box_gets_odd"))
    assert after == {"Ann": F(-4), "Bo": F(1), "Pat": F(3)}


# -- Rounding for display ------------------------------------------------------------------------


@pytest.mark.parametrize(("points", "mode", "shown"), [
    (F(5, 2), "exact", "+2½"),
    (F(-1, 2), "exact", "-½"),
    (F(0), "exact", "0"),
    (F(7, 3), "exact", "+7/3"),
    (F(5, 2), "half_up", "+3"),
    (F(-5, 2), "half_up", "-3"),
    (F(5, 2), "half_even", "+2"),
    (F(-5, 2), "down", "-2"),
])
def test_atlanta_4_3_whole_point_display(points: Fraction, mode: str, shown: str) -> None:
    assert format_points(points, mode) == shown  # type: ignore[arg-type]


def test_a_transfer_in_words_names_the_players_as_shown_and_drops_the_plus() -> None:
    transfer = t("ann", "bo", F(5, 2))
    assert transfer.phrase() == "ann pays bo 2½"
    assert transfer.phrase(str.title, "half_up") == "Ann pays Bo 3"
    danish = {"{payer} pays {payee} {points}": "{payer} betaler {payee} {points}"}
    assert transfer.phrase(str.title, words=lambda t: danish.get(t, t)) == "Ann betaler Bo 2½"


def test_rounding_is_for_display_only() -> None:
    sheet = ScoreSheet.of([[t("Ann", "Bo", F(1, 2)), t("Cy", "Bo", F(1, 2))]])
    assert sum(round_points(v, "half_up") for v in sheet.totals().values()) != 0
    assert sum(sheet.totals().values()) == 0


# -- Settling up (FIBS "final breakdown", Atlanta 10.2) ----------------------------------------


def test_fibs_final_breakdown_says_who_pays_whom() -> None:
    totals = {"Ann": F(-7), "Bo": F(10), "Cy": F(-3), "Di": F(0)}
    payments = breakdown(totals)
    assert payments == [Transfer("Ann", "Bo", F(7), "settle up"),
                        Transfer("Cy", "Bo", F(3), "settle up")]


def test_breakdown_refuses_totals_that_do_not_balance() -> None:
    with pytest.raises(ValueError, match="off by 1"):
        breakdown({"Ann": F(1), "Bo": F(0)})


@given(st.lists(st.fractions(min_value=-50, max_value=50, max_denominator=2), max_size=9))
def test_breakdown_settles_every_total_in_at_most_n_minus_1_payments(
    points: list[Fraction]
) -> None:
    totals = {f"p{i}": p for i, p in enumerate(points)}
    totals["last"] = -sum(points, F(0))
    payments = breakdown(totals)
    nonzero = sum(1 for v in totals.values() if v != 0)
    assert len(payments) <= max(0, nonzero - 1)
    assert settles(totals, payments)


def test_fibs_7_2_fewest_payments_finds_the_groups_that_settle_among_themselves() -> None:
    totals = {n: F(v) for n, v in zip("abcdefg", (6, -3, -5, 1, -6, 0, 7), strict=True)}
    assert len(breakdown(totals)) == 5  # the most minus first takes five payments
    fewest = breakdown(totals, "fewest_payments")
    assert fewest == [Transfer("e", "a", F(6), "settle up"),  # {a, e} settle alone,
                      Transfer("c", "g", F(5), "settle up"),  # then {b, c, d, g}
                      Transfer("b", "g", F(2), "settle up"),
                      Transfer("b", "d", F(1), "settle up")]
    assert settles(totals, fewest)


def _most_groups(values: list[Fraction]) -> int:
    """The most zero-sum groups the values split into (a slow search, for checking)."""
    if not values:
        return 0
    first, rest = values[0], values[1:]
    best = 0
    for mask in range(1 << len(rest)):
        chosen = [v for i, v in enumerate(rest) if mask >> i & 1]
        if first + sum(chosen, F(0)) == 0:
            others = [v for i, v in enumerate(rest) if not mask >> i & 1]
            best = max(best, 1 + _most_groups(others))
    return best


@given(st.lists(st.integers(-6, 6), max_size=7))
def test_fewest_payments_is_the_least_number_that_settles(points: list[int]) -> None:
    totals = {f"p{i}": F(p) for i, p in enumerate(points)}
    totals["last"] = -sum(totals.values(), F(0))
    payments = fewest_payments(totals)
    nonzero = [v for v in totals.values() if v != 0]
    assert settles(totals, payments)
    assert len(payments) == len(nonzero) - _most_groups(nonzero)
    assert len(payments) <= len(breakdown(totals))


def test_atlanta_10_2_plus_leaver_is_paid_first_by_the_most_minus() -> None:
    totals = {"Ann": F(6), "Bo": F(-4), "Cy": F(-3), "Di": F(1)}
    assert leaving_settlement(totals, "Ann") == [
        Transfer("Bo", "Ann", F(4), "Ann leaves: settle up (Atlanta 10.2)"),
        Transfer("Cy", "Ann", F(2), "Ann leaves: settle up (Atlanta 10.2)"),
    ]


def test_atlanta_10_2_minus_leaver_pays_each_player_he_owes() -> None:
    totals = {"Ann": F(-6), "Bo": F(4), "Cy": F(3), "Di": F(-1)}
    payments = leaving_settlement(totals, "Ann")
    assert [(p.payee, p.points) for p in payments] == [("Bo", F(4)), ("Cy", F(2))]
    assert all(p.points <= totals[p.payee] for p in payments)


def test_atlanta_10_2_leaving_settlement_keeps_the_sheet_balanced() -> None:
    sheet = ScoreSheet.of([[t("Ann", "Bo", 3), t("Cy", "Bo", 2), t("Di", "Cy", 4)]])
    after = sheet.record_payments(leaving_settlement(sheet.totals(), "Bo"))
    assert after.owed() == {"Ann": F(-2), "Bo": F(0), "Cy": F(2), "Di": F(0)}
    assert after.totals() == sheet.totals()  # the points won stay on the sheet
    assert after.breakdown() == [Transfer("Ann", "Cy", F(2), "settle up")]


def test_leaver_at_zero_pays_nothing() -> None:
    assert leaving_settlement({"Ann": F(0), "Bo": F(0)}, "Ann") == []


@given(st.lists(st.fractions(min_value=-50, max_value=50, max_denominator=2), min_size=1,
                max_size=8), st.integers(0, 8))
def test_leaving_settlement_brings_the_leaver_to_zero(
    points: list[Fraction], index: int
) -> None:
    totals = {f"p{i}": p for i, p in enumerate(points)}
    totals["last"] = -sum(points, F(0))
    leaver = list(totals)[index % len(totals)]
    payments = leaving_settlement(totals, leaver)
    moved = net(payments)
    assert moved.get(leaver, F(0)) == totals[leaver]
    for name, change in moved.items():
        if name != leaver:
            left = totals[name] - change
            assert abs(left) <= abs(totals[name]) and left * totals[name] >= 0
    after = ScoreSheet().record_payments(payments).owed()
    assert after.get(leaver, F(0)) == -totals[leaver]
