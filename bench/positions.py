"""A fixed, seeded mix of positions for benchmarks and engine cross-checks."""

from __future__ import annotations

import random

from rules.board import Position, legal_plays

ROLLS = tuple((a, b) for a in range(1, 7) for b in range(a, 7))


def _scatter(rng: random.Random, home_only: bool, bar: bool) -> Position:
    """Fifteen checkers a side dropped at random on free points (some on the bar, some off)."""
    player, opponent = [0] * 25, [0] * 25
    for side, other in ((player, opponent), (opponent, player)):
        on_board = rng.randint(1, 15) if home_only else 15
        for _ in range(on_board):
            while True:
                p = rng.randrange(6) if home_only else rng.randrange(24)
                if bar and rng.random() < 0.08:
                    p = 24
                if p == 24 or not other[23 - p]:
                    side[p] += 1
                    break
    return Position(tuple(player), tuple(opponent))


def _played(rng: random.Random) -> Position:
    """A position reached by random legal plays from the start: contact, races, bear-offs."""
    pos = Position.initial()
    for _ in range(rng.randrange(1, 60)):
        plays = legal_plays(pos, (rng.randint(1, 6), rng.randint(1, 6)))
        nxt = rng.choice(plays).position
        if nxt.outcome():
            break
        pos = nxt.swap()
    return pos


def mix(count: int, seed: int = 2026) -> list[Position]:
    """`count` positions: half from random games, the rest scattered (contact, bar, home)."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        kind = i % 4
        if kind < 2:
            out.append(_played(rng))
        else:
            out.append(_scatter(rng, home_only=kind == 3, bar=kind == 2))
    return out
