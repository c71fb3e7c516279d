"""The table's basic stake read as money ("$5 a point", "€5 a point", "5 kr pr. point").

The stake is free text (Atlanta 2.1: written at the top of the sheet); an amount with a currency
sign or code before or after it is the money a point is worth, and the sheet then shows every
total in that money too. Text with no currency (or no amount) leaves the sheet in points.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

_CURRENCY = r"[$€£¥₩₹₽₺]|kr\.?|CHF|EUR|USD|GBP|DKK|SEK|NOK|AUD|CAD|PLN|zł"
_BEFORE = re.compile(rf"(?P<cur>{_CURRENCY})\s?(?P<amount>\d+(?:[.,]\d{{1,2}})?)", re.I)
_AFTER = re.compile(rf"(?P<amount>\d+(?:[.,]\d{{1,2}})?)\s?(?P<cur>{_CURRENCY})", re.I)


@dataclass(frozen=True)
class Stake:
    """Money a point is worth: `amount` of `currency`, written before the amount or after."""

    amount: Fraction
    currency: str
    before: bool

    @classmethod
    def parse(cls, text: str) -> Stake | None:
        """The stake in `text`, or None when it names no amount with a currency."""
        for pattern, before in ((_BEFORE, True), (_AFTER, False)):
            found = pattern.search(text)
            if found:
                amount = Fraction(found["amount"].replace(",", "."))
                if amount > 0:
                    return cls(amount, found["cur"], before)
        return None

    def of(self, points: Fraction) -> str:
        """`points` in money: "$12.50", "€5", "60 kr"."""
        return self.format(points * self.amount)

    def format(self, money: Fraction, signed: bool = False) -> str:
        """An amount of money as players write it: "-$12.50", "+€5" (a plus only when
        `signed`), "60 kr"."""
        sign = "-" if money < 0 else "+" if signed and money > 0 else ""
        size = abs(money)
        cents = round(size * 100)
        number = f"{cents // 100}" if cents % 100 == 0 else f"{cents // 100}.{cents % 100:02d}"
        return (f"{sign}{self.currency}{number}" if self.before
                else f"{sign}{number} {self.currency}")
