"""Server dice: drawn here (never in `rules/`) and passed to the table in commands, so every
roll is stored in the events and a replay never rolls again."""

from __future__ import annotations

import secrets
from collections.abc import Callable


class Dice:
    """Fair dice from `secrets`; tests inject a `draw` that returns chosen faces."""

    def __init__(self, draw: Callable[[], int] | None = None) -> None:
        self._draw = draw or (lambda: secrets.randbelow(6) + 1)

    def die(self) -> int:
        """One die, 1 to 6."""
        return self._draw()

    def roll(self) -> tuple[int, int]:
        """Two dice."""
        return self.die(), self.die()

    def opening(self) -> list[list[int]]:
        """Opening rolls as [Box die, Team die] pairs: ties first, the last pair unequal."""
        pairs = [[self.die(), self.die()]]
        while pairs[-1][0] == pairs[-1][1]:
            pairs.append([self.die(), self.die()])
        return pairs

    def seats(self, players: list[str], count: int) -> dict[str, tuple[int, ...]]:
        """Each player's roll of `count` dice for seats."""
        return {p: tuple(self.die() for _ in range(count)) for p in players}
