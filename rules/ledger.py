"""The ledger: every point won or lost is a Transfer, and the score sheet is their sum.

A `Transfer` moves points from one player to another, so a sheet built from transfers sums to
zero by construction; nothing here ever "fixes" a total. Points are exact `Fraction`s (FIBS
buy-outs are half points); rounding happens only when a total is shown (`format_points`).

Settling up: `breakdown` says who pays whom at the end in at most n - 1 payments, and
`leaving_settlement` pays off one player who leaves (Atlanta 10.2). The Box/Partner split of
Atlanta 4.2 is `split` (the arithmetic) and `split_game` (the game's transfers re-attributed).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from rules.errors import BadOption
from rules.messages import Player, Words, text

SplitMode = Literal["box_gets_odd", "halves", "box_gets_odd_half", "partner_gets_odd_half"]
RoundMode = Literal["exact", "half_up", "half_even", "down"]

_SPLIT_MODES = ("box_gets_odd", "halves", "box_gets_odd_half", "partner_gets_odd_half")
_ROUND_MODES = ("exact", "half_up", "half_even", "down")


@dataclass(frozen=True, slots=True)
class Transfer:
    """Points one player pays another, and why; always a positive amount."""

    payer: str
    payee: str
    points: Fraction
    reason: str = ""

    def __post_init__(self) -> None:
        points: object = self.points
        if isinstance(points, bool) or not isinstance(points, int | Fraction):
            raise TypeError(f"Transfer points must be an int or a Fraction, not {points!r}")
        if not isinstance(points, Fraction):
            object.__setattr__(self, "points", Fraction(points))
        if self.points <= 0:
            raise ValueError(f"A transfer moves a positive number of points, not {self.points}")
        if not self.payer or not self.payee or self.payer == self.payee:
            raise ValueError(f"A transfer needs two different players: {self.payer!r}, "
                             f"{self.payee!r}")

    def phrase(self, shown: Callable[[str], str] = str, rounding: RoundMode = "exact",
               words: Words = str) -> str:
        """The transfer in words, "Ann pays Bob 2½": the players as `shown` names them, the
        points as `format_points` writes them (without the plus sign), the sentence in
        `words`'s language (English by default: `rules.messages.text`)."""
        return text("transfer_pays", {"payer": Player(self.payer), "payee": Player(self.payee),
                                      "points": format_points(self.points, rounding).lstrip("+")},
                    shown, words)


def pay(payer: str, payee: str, points: Fraction | int, reason: str = "") -> tuple[Transfer, ...]:
    """The transfers for `payer` paying `payee`: none for zero points, an error if negative."""
    amount = Fraction(points)
    if amount < 0:
        raise ValueError(f"{payer} can't pay {payee} a negative amount ({amount})")
    return () if amount == 0 else (Transfer(payer, payee, amount, reason),)


def net(transfers: Iterable[Transfer]) -> dict[str, Fraction]:
    """Each player's net result over some transfers (payees plus, payers minus)."""
    result: dict[str, Fraction] = {}
    for t in transfers:
        result[t.payer] = result.get(t.payer, Fraction(0)) - t.points
        result[t.payee] = result.get(t.payee, Fraction(0)) + t.points
    return result


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """The score sheet: the games played, each a tuple of Transfers, the seating order, and
    the money already paid at the table to settle a player up (`paid`: a leaver, Atlanta
    10.2), entered so that nobody is paid twice."""

    games: tuple[tuple[Transfer, ...], ...] = ()
    players: tuple[str, ...] = ()
    paid: tuple[Transfer, ...] = ()

    @classmethod
    def of(cls, games: Iterable[Iterable[Transfer]], players: Iterable[str] = ()) -> ScoreSheet:
        """A sheet from any iterables of games and players."""
        return cls(tuple(tuple(game) for game in games), tuple(players))

    def add_game(self, transfers: Iterable[Transfer]) -> ScoreSheet:
        """This sheet with one more game (or entry, such as a leaving settlement) at the end."""
        return ScoreSheet((*self.games, tuple(transfers)), self.players, self.paid)

    def names(self) -> tuple[str, ...]:
        """Every player on the sheet: the seating order first, then by first appearance."""
        seen = dict.fromkeys(self.players)
        for game in self.games:
            for t in game:
                seen.setdefault(t.payer)
                seen.setdefault(t.payee)
        return tuple(seen)

    def game_net(self, index: int) -> dict[str, Fraction]:
        """Each player's result in one game (0 for a player who moved no points)."""
        moved = net(self.games[index])
        return {name: moved.get(name, Fraction(0)) for name in self.names()}

    def running(self) -> list[dict[str, Fraction]]:
        """The totals after each game, in order: the rows of a paper score sheet."""
        names = self.names()
        total = dict.fromkeys(names, Fraction(0))
        rows = []
        for game in self.games:
            for name, points in net(game).items():
                total[name] += points
            rows.append(dict(total))
        return rows

    def totals(self) -> dict[str, Fraction]:
        """Each player's total; they sum to exactly zero because every point is a transfer."""
        moved = net(t for game in self.games for t in game)
        return {name: moved.get(name, Fraction(0)) for name in self.names()}

    def owed(self) -> dict[str, Fraction]:
        """What each player is still owed (plus) or still owes (minus): his total less the
        money already paid at the table (`paid`). Sums to zero like the totals."""
        owed = self.totals()
        for name, points in net(self.paid).items():
            owed[name] = owed.get(name, Fraction(0)) - points
        return owed

    def breakdown(self, payoff: str = "most_minus_first") -> list[Transfer]:
        """Who pays whom to settle what is still owed on this sheet (see `breakdown`)."""
        return breakdown(self.owed(), payoff)

    def record_payments(self, payments: Iterable[Transfer]) -> ScoreSheet:
        """This sheet with settling-up payments entered (Atlanta 10.2): the totals (points
        won) stay, and what is still `owed` falls by what was paid."""
        return ScoreSheet(self.games, self.players, (*self.paid, *payments))


def _check_balanced(totals: Mapping[str, Fraction]) -> None:
    off = sum(totals.values(), Fraction(0))
    if off != 0:
        raise ValueError(f"The totals don't sum to zero (off by {off}); the sheet has an error")


def _ordered(totals: Mapping[str, Fraction], sign: int) -> list[tuple[str, Fraction]]:
    """Players with `sign` (1 plus, -1 minus) by size, largest first; ties in sheet order."""
    order = {name: i for i, name in enumerate(totals)}
    chosen = [(n, abs(p)) for n, p in totals.items() if p * sign > 0]
    return sorted(chosen, key=lambda item: (-item[1], order[item[0]]))


def breakdown(totals: Mapping[str, Fraction],
              payoff: str = "most_minus_first") -> list[Transfer]:
    """Who pays whom at the end: the largest debtor pays the largest creditor, repeatedly
    (`most_minus_first`, Atlanta 10.2), or in as few payments as possible
    (`fewest_payments`, FIBS §7 ¶2 "as conveniently as possible": see `fewest_payments`).

    The transfers are payments in money, not sheet entries: a debtor pays a creditor what the
    sheet says he owes (`ScoreSheet.record_payments` enters them).

    Each payment brings at least one player to zero and the last brings two, so n players
    with a non-zero total settle in at most n - 1 payments. Totals that don't sum to zero are
    an error, never adjusted.
    """
    _check_balanced(totals)
    if payoff == "fewest_payments":
        return fewest_payments(totals)
    debtors = _ordered(totals, -1)
    creditors = _ordered(totals, 1)
    payments: list[Transfer] = []
    while debtors and creditors:
        (debtor, owed), (creditor, due) = debtors[0], creditors[0]
        amount = min(owed, due)
        payments.append(Transfer(debtor, creditor, amount, "settle up"))
        debtors = _reorder(debtors, debtor, owed - amount, totals)
        creditors = _reorder(creditors, creditor, due - amount, totals)
    return payments


def fewest_payments(totals: Mapping[str, Fraction]) -> list[Transfer]:
    """The fewest payments that settle `totals`: the players split into as many groups
    that sum to zero as possible, each settled by `breakdown` in one payment fewer than its
    size (k groups of n players: n - k payments, the least possible). Exact search over the
    subsets of the players with a non-zero total (at most ten at a table: 3^10 steps)."""
    _check_balanced(totals)
    names = [n for n, v in totals.items() if v != 0]
    size = len(names)
    sums = [Fraction(0)] * (1 << size)
    for mask in range(1, 1 << size):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + totals[names[low]]
    groups: dict[int, tuple[int, int]] = {0: (0, 0)}  # mask: (groups, first group's mask)
    for mask in range(1, 1 << size):
        if sums[mask] != 0:
            continue
        low = mask & -mask
        best = (1, mask)
        sub = (mask - 1) & mask
        while sub:  # zero-sum groups holding the lowest player, the rest split further
            if sub & low and sums[sub] == 0 and mask ^ sub in groups:
                best = max(best, (groups[mask ^ sub][0] + 1, sub))
            sub = (sub - 1) & mask
        groups[mask] = best
    payments: list[Transfer] = []
    mask = (1 << size) - 1
    while mask:
        group = groups[mask][1]
        payments += breakdown({n: totals[n] for i, n in enumerate(names) if group >> i & 1})
        mask ^= group
    return payments


def _reorder(
    queue: list[tuple[str, Fraction]], name: str, left: Fraction, totals: Mapping[str, Fraction]
) -> list[tuple[str, Fraction]]:
    order = {n: i for i, n in enumerate(totals)}
    rest = [item for item in queue if item[0] != name]
    if left > 0:
        rest.append((name, left))
    return sorted(rest, key=lambda item: (-item[1], order[item[0]]))


def leaving_settlement(totals: Mapping[str, Fraction], leaver: str) -> list[Transfer]:
    """The payments (in money, like `breakdown`) that pay off a leaving player (Atlanta 10.2).

    Reading of 10.2: a leaver who is plus is paid first by the most minus player, up to that
    player's minus, then by the next most minus, and so on until he is paid in full. A leaver
    who is minus pays the most plus player up to that player's plus, then the next most plus:
    he pays every player he owes and never one player more than that player is up ("if a
    player owes points to more than one player, they do not have the right to pay a single
    person"). Volunteers paying instead (10.2 "others may volunteer") is left to the table.
    The other players' totals stay on the sheet and still sum to zero.
    """
    _check_balanced(totals)
    if leaver not in totals:
        raise ValueError(f"{leaver} is not on the score sheet")
    left = totals[leaver]
    reason = f"{leaver} leaves: settle up (Atlanta 10.2)"
    others = {n: p for n, p in totals.items() if n != leaver}
    payments: list[Transfer] = []
    counterparts = _ordered(others, -1 if left > 0 else 1)
    remaining = abs(left)
    for name, amount in counterparts:
        if remaining == 0:
            break
        paid = min(remaining, amount)
        if left > 0:
            payments.append(Transfer(name, leaver, paid, reason))
        else:
            payments.append(Transfer(leaver, name, paid, reason))
        remaining -= paid
    return payments


def leavers_settlement(owed: Mapping[str, Fraction],
                       leavers: Iterable[str]) -> tuple[Transfer, ...]:
    """The payments that settle each of `leavers` in turn against what is still `owed`
    (Atlanta 10.2, as `leaving_settlement`); a leaver not on the sheet pays nothing."""
    left = dict(owed)
    payments: list[Transfer] = []
    for leaver in leavers:
        if leaver not in left:
            continue
        paid = leaving_settlement(left, leaver)
        for name, points in net(paid).items():
            left[name] -= points
        payments += paid
    return tuple(payments)


def split(box: str, partner: str, points: Fraction | int, mode: SplitMode) -> dict[str, Fraction]:
    """How the Box side's result for one game is shared between the Box and the Partner.

    `points` is what the Box side won in the game (negative when it lost). In "halves" each
    gets exactly half. In "box_gets_odd" (Atlanta 4.2) the Partner gets half rounded to whole
    points towards zero and the Box the rest: the Box receives the odd point of a win and
    loses the odd point of a loss (and keeps any fraction, which Atlanta 4.3 never records).
    In "box_gets_odd_half" and "partner_gets_odd_half" (FIBS §2 ¶2, by the next roll) the
    shares are kept in half points and the odd half goes to (or is paid by) the one named.
    """
    amount = Fraction(points)
    if mode == "halves":
        return {box: amount / 2, partner: amount / 2}
    if mode == "box_gets_odd":
        partner_share = Fraction(math.trunc(amount / 2))
        return {box: amount - partner_share, partner: partner_share}
    if mode in ("box_gets_odd_half", "partner_gets_odd_half"):
        other = Fraction(math.trunc(amount), 2)  # half of the whole points: in halves
        gets, rest = (box, partner) if mode == "box_gets_odd_half" else (partner, box)
        return {gets: amount - other, rest: other}
    raise BadOption(code="split_mode", mode=repr(mode), modes=", ".join(_SPLIT_MODES))


def split_game(
    game: Sequence[Transfer], box: str, partner: str, mode: SplitMode
) -> tuple[Transfer, ...]:
    """A game's transfers with the Box side's points shared with the Partner (Atlanta 4.2).

    `game` names the whole Box side as `box`. Each transfer between `box` and another player
    (not the Partner) is halved between the Box and the Partner; then one transfer between
    them moves the odd point as `split` says. Transfers between the Box and the Partner
    themselves (their own settlements, Atlanta 4.5) and those not involving the Box (extras)
    are kept as they are. Every other player's result is unchanged.
    """
    shared: list[Transfer] = []
    won = Fraction(0)
    for t in game:
        if partner in (t.payer, t.payee) or box not in (t.payer, t.payee):
            shared.append(t)
            continue
        half = t.points / 2
        if t.payee == box:
            won += t.points
            shared += [Transfer(t.payer, box, half, t.reason),
                       Transfer(t.payer, partner, half, f"{t.reason} (Partner's half)")]
        else:
            won -= t.points
            shared += [Transfer(box, t.payee, half, t.reason),
                       Transfer(partner, t.payee, half, f"{t.reason} (Partner's half)")]
    odd = split(box, partner, won, mode)[box] - won / 2
    reason = ("odd half by the next roll (FIBS §2 ¶2)" if mode.endswith("_half")
              else "odd point to the Box (Atlanta 4.2)" if won > 0 else "odd point lost by the Box")
    if odd > 0:
        shared.append(Transfer(partner, box, odd, reason))
    elif odd < 0:
        shared.append(Transfer(box, partner, -odd, reason))
    return tuple(shared)


def round_points(points: Fraction | int, mode: RoundMode) -> Fraction:
    """A total rounded for display: "exact", "half_up" (halves away from zero), "half_even"
    or "down" (towards zero). Stored totals are never rounded."""
    amount = Fraction(points)
    if mode == "exact":
        return amount
    if mode == "half_even":
        return Fraction(round(amount))
    if mode == "down":
        return Fraction(math.trunc(amount))
    if mode == "half_up":
        whole = math.floor(abs(amount) + Fraction(1, 2))
        return Fraction(whole if amount >= 0 else -whole)
    raise BadOption(code="round_mode", mode=repr(mode), modes=", ".join(_ROUND_MODES))


def format_points(points: Fraction | int, mode: RoundMode = "exact") -> str:
    """A total as a player reads it: "+3", "-2½", "0", "+7/3"."""
    amount = round_points(points, mode)
    if amount == 0:
        return "0"
    sign = "+" if amount > 0 else "-"
    size = abs(amount)
    whole, part = divmod(size, 1)
    if part == 0:
        return f"{sign}{whole}"
    if part == Fraction(1, 2):
        return f"{sign}{whole or ''}½"
    return f"{sign}{size.numerator}/{size.denominator}"
