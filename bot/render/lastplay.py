"""The last checker play, as the board marks it: the points it left and the points it reached.

The rules keep the game as it was before its last checker play (`Game.before`, for an undo);
the play is the difference between that position and the one now, read from the mover's view.
A checker that came from the bar has left point 25; one borne off has reached point 0.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.board import Position
from rules.cube import Side
from rules.state import Game

BAR, OFF = 25, 0


@dataclass(frozen=True)
class LastPlay:
    """Who played last and which points his checkers left and reached, in his numbering
    (1-24, 25 the bar, 0 off)."""

    side: Side
    left: tuple[int, ...]
    reached: tuple[int, ...]

    @classmethod
    def between(cls, side: Side, before: Position, after: Position) -> LastPlay | None:
        """The play of `side` from `before` to `after` (both from `side`'s view); None when
        his checkers did not move."""
        left, reached = [], []
        for index in range(25):
            point = BAR if index == 24 else index + 1
            change = after.player[index] - before.player[index]
            if change < 0:
                left.append(point)
            elif change > 0:
                reached.append(point)
        off = after.off[0] - before.off[0]
        if off > 0:
            reached.append(OFF)
        if not left and not reached:
            return None
        return cls(side, tuple(left), tuple(reached))


def last_play(game: Game | None) -> LastPlay | None:
    """The last checker play of `game`, or None before its first one."""
    if game is None or game.position is None or game.on_roll is None:
        return None
    before = game.before
    if before is None or before.position is None or before.on_roll is None:
        return None
    mover = before.on_roll
    now = game.position if game.on_roll is mover else game.position.swap()
    return LastPlay.between(mover, before.position, now)
