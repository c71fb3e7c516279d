"""Fractions of a point and the dice that decide them (Atlanta 4.3, FIBS §2 ¶2).

Where the sheet keeps whole points (`whole_points`, Atlanta 4.2), every fraction a command
would write (a settlement, a sale at half the cube, a half-cube penalty, Box and Partner
settling their shares) is rolled off: both players throw two dice, the higher total wins the
fraction. The dice come in the command (`rolloff`), drawn by the bot, and the throws are
recorded in the event's action (a `Phrase`, `rolled_off`). The rules never draw.
"""

from __future__ import annotations

from fractions import Fraction

from rules.cite import citation
from rules.commands import BadCommand, Payment
from rules.messages import Phrase
from rules.state import TableState


def whole(state: TableState, cmd: Payment, points: Fraction, *,
          by_pays: bool) -> tuple[Fraction, Phrase | None]:
    """`points` as the sheet takes them, and a note of the roll-off if there was one: at a
    whole-point table a fraction is rolled off (`by_pays`: the command's sender pays)."""
    if not state.rules.whole_points or points.denominator == 1:
        return points, None
    return roll_off(state, cmd, points, by_pays=by_pays)


def roll_off(state: TableState, cmd: Payment, points: Fraction, *,
             by_pays: bool) -> tuple[Fraction, Phrase]:
    """Atlanta 4.3: the fraction is rolled off, both players throwing two dice, the higher
    total winning it (doubles count as their pips only); a tie throws again. `rolloff` lists
    the throws as [[sender's two dice], [other's two dice]], ties first."""
    rule = citation(state, "Atlanta 4.3")
    rounds = cmd.rolloff
    shape = BadCommand(code="rolloff_form", rule=rule, points=str(points))
    if rounds is None:
        raise shape
    totals = []
    for throw in rounds:
        if (not isinstance(throw, list | tuple) or len(throw) != 2
                or not all(isinstance(d, list | tuple) and len(d) == 2 and all(
                    isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 6 for x in d)
                    for d in throw)):
            raise shape
        totals.append((sum(throw[0]), sum(throw[1])))
    if not totals or totals[-1][0] == totals[-1][1] or any(a != b for a, b in totals[:-1]):
        raise shape
    sender_wins = totals[-1][0] > totals[-1][1]
    whole_part = points.numerator // points.denominator
    paid = Fraction(whole_part if sender_wins == by_pays else whole_part + 1)
    throws = ", ".join(f"{a} v {b}" for a, b in totals)
    return paid, Phrase("rolled_off", fraction=points, throws=throws, paid=paid)


def next_roll(state: TableState, cmd: Payment) -> tuple[int, int]:
    """The bot's roll for an odd half point in scorekeeper mode (FIBS §2 ¶2 "determined by
    the next roll": no rolls are entered there), from `next_roll` [d1, d2]; refused without
    one, as a fraction is without its roll-off at a table of whole points."""
    dice = cmd.next_roll
    if (not isinstance(dice, list | tuple) or len(dice) != 2 or not all(
            isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)):
        rule = citation(state, fibs="FIBS §2 ¶2")
        raise BadCommand(code="next_roll", rule=rule)
    return dice[0], dice[1]
