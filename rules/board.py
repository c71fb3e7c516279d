"""Backgammon positions, plays and legal play generation: the engine under every chouette rule.

Points are numbered from the side on roll's view, 1 to 24 towards his home; 25 is his bar and 0
his tray (borne off). A `Position` holds both sides, each from its own view, exactly as gnubg's
`anBoard` does: `player` is the side on roll (gnubg's `anBoard[1]`), `opponent` the other side
(`anBoard[0]`). The side on roll's point p faces the opponent's point 25 - p.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import NamedTuple

from rules.errors import RuleError

CHECKERS = 15
BAR = 25
OFF = 0
_START = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


class GameKind(Enum):
    """How a game was won; the value is the multiple of the cube it is worth."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game read off the board: who won (from the position's view) and how."""

    player_won: bool
    kind: GameKind


@dataclass(frozen=True, slots=True)
class Position:
    """A board from the view of the side on roll; immutable and hashable.

    `player` and `opponent` are 25 checker counts each, from that side's own view: index i is
    its point i + 1 and index 24 its bar. Checkers not on the board are borne off.
    """

    player: tuple[int, ...]
    opponent: tuple[int, ...]

    def __post_init__(self) -> None:
        # tuples, whatever sequences were given: a Position is hashed (legal_plays's cache)
        object.__setattr__(self, "player", tuple(self.player))
        object.__setattr__(self, "opponent", tuple(self.opponent))
        for side in (self.player, self.opponent):
            if len(side) != 25 or any(c < 0 for c in side) or sum(side) > CHECKERS:
                raise RuleError(code="position_counts", most=CHECKERS, side=str(side))
        for i in range(24):
            if self.player[i] and self.opponent[23 - i]:
                raise RuleError(code="point_shared", point=i + 1)

    @classmethod
    def initial(cls) -> Position:
        """The starting position."""
        return cls(_START, _START)

    @classmethod
    def from_points(cls, player: Mapping[int, int], opponent: Mapping[int, int]) -> Position:
        """A position from {point: checkers} for each side, in its own numbering (25 = bar)."""
        sides = []
        for points in (player, opponent):
            counts = [0] * 25
            for point, n in points.items():
                if not 1 <= point <= BAR:
                    raise RuleError(code="points_run", point=point)
                counts[point - 1] = n
            sides.append(tuple(counts))
        return cls(sides[0], sides[1])

    def swap(self) -> Position:
        """The same board from the other side's view (his turn next)."""
        return _trusted(self.opponent, self.player)

    @property
    def pips(self) -> tuple[int, int]:
        """Pip counts (side on roll, opponent); a checker on the bar counts 25."""
        return _pips(self.player), _pips(self.opponent)

    @property
    def off(self) -> tuple[int, int]:
        """Checkers borne off (side on roll, opponent)."""
        return CHECKERS - sum(self.player), CHECKERS - sum(self.opponent)

    def outcome(self) -> Outcome | None:
        """Who has won and how, or None while both sides still have checkers to bear off."""
        for won, winner, loser in ((True, self.player, self.opponent),
                                   (False, self.opponent, self.player)):
            if sum(winner) == 0:
                if sum(loser) < CHECKERS:
                    kind = GameKind.SINGLE
                elif loser[24] or any(loser[18:24]):
                    kind = GameKind.BACKGAMMON
                else:
                    kind = GameKind.GAMMON
                return Outcome(won, kind)
        return None

    def __repr__(self) -> str:
        from rules.notation import position_id  # notation builds on this module

        return f"Position.from_id({position_id(self)!r})"

    @classmethod
    def from_id(cls, pid: str) -> Position:
        """The position of a gnubg Position ID (see `rules.notation.position_from_id`)."""
        from rules.notation import position_from_id

        return position_from_id(pid)


def _pips(side: tuple[int, ...]) -> int:
    return sum((i + 1) * c for i, c in enumerate(side))


def _trusted(player: tuple[int, ...], opponent: tuple[int, ...]) -> Position:
    """Build a Position known to be valid without checking it again (the generator's hot path)."""
    pos = object.__new__(Position)
    object.__setattr__(pos, "player", player)
    object.__setattr__(pos, "opponent", opponent)
    return pos


class Move(NamedTuple):
    """One checker moved by one die: from `src` (25 = bar) to `dst` (0 = off), maybe hitting."""

    src: int
    dst: int
    hit: bool = False


class Play(NamedTuple):
    """A whole turn: the checker moves in the order made, and the position they reach.

    `position` is still from the mover's view (not swapped). An empty `moves` is a pass.
    """

    moves: tuple[Move, ...]
    position: Position


# The generator works on each side packed into an int, a byte a point: byte i of the mover
# holds his point i (0 = tray, 25 = bar); byte j of the opponent his own point j.
_ONE = tuple(1 << (8 * i) for i in range(26))
_HOME_SHIFT = 8 * 7  # the mover's bytes 7..25 are empty <=> all his checkers are home or off


def _pack(side: tuple[int, ...]) -> int:
    return int.from_bytes(bytes((CHECKERS - sum(side), *side)), "little")


def _unpack(packed: int) -> tuple[int, ...]:
    return tuple(packed.to_bytes(26, "little")[1:])


_Step = tuple[int, int, Move]


def _steps(m: int, o: int, die: int, blocked: frozenset[int], top: int = BAR) -> list[_Step]:
    """Every way to move one checker `die` pips from (m, o), from points up to `top`."""
    out: list[_Step] = []
    if m >> 200:  # on the bar: enter first
        d = 25 - die
        if d not in blocked:
            if (o >> (8 * die)) & 255 == 1:
                out.append((m - _ONE[25] + _ONE[d], o - _ONE[die] + _ONE[25], Move(25, d, True)))
            else:
                out.append((m - _ONE[25] + _ONE[d], o, Move(25, d)))
        return out
    counts = m.to_bytes(26, "little")
    hi = (m.bit_length() - 1) >> 3  # the mover's highest occupied point (0: all off)
    home = not m >> _HOME_SHIFT
    for s in range(min(hi, top), 0, -1):
        if not counts[s]:
            continue
        d = s - die
        if d > 0:
            if d in blocked:
                continue
            j = 25 - d
            if (o >> (8 * j)) & 255 == 1:
                out.append((m - _ONE[s] + _ONE[d], o - _ONE[j] + _ONE[25], Move(s, d, True)))
            else:
                out.append((m - _ONE[s] + _ONE[d], o, Move(s, d)))
        elif home and (d == 0 or s == hi):
            out.append((m - _ONE[s] + 1, o, Move(s, OFF)))
    return out


@lru_cache(maxsize=512)  # a roll's plays are asked for by the roll, the menu and the play
def legal_plays(position: Position, dice: tuple[int, int]) -> tuple[Play, ...]:
    """Every distinct legal play of `dice` from `position`, one per position reached.

    Full rules: the bar is entered first; both dice are played if at all possible, else the
    larger one if it can be, else the smaller; doubles move up to four times; bearing off needs
    every checker home, and a die larger than needed bears off only from the highest point.
    With no legal move the result is the single empty play (a pass).
    """
    d1, d2 = dice
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise RuleError(code="dice_run", dice=f"{d1}-{d2}")
    m, o = _pack(position.player), _pack(position.opponent)
    blocked = frozenset(25 - j for j in range(1, 25) if position.opponent[j - 1] >= 2)
    found: dict[tuple[int, int], tuple[Move, ...]]
    if d1 == d2:
        # Any legal doubles play can be reordered to move from the highest source point
        # down (the bar first, checkers come home before bearing off), so each move starts
        # no higher than the one before: one ordering per play instead of up to 24.
        frontier: list[tuple[int, int, tuple[Move, ...]]] = [(m, o, ())]
        for _ in range(4):
            deeper = [(m2, o2, (*path, mv)) for m1, o1, path in frontier
                      for m2, o2, mv in _steps(m1, o1, d1, blocked,
                                               path[-1].src if path else BAR)]
            if not deeper:
                break
            frontier = deeper
        found = {}
        for m2, o2, path in frontier:
            found.setdefault((m2, o2), path)
    else:
        found = {}
        single: dict[int, dict[tuple[int, int], tuple[Move, ...]]] = {d1: {}, d2: {}}
        for a, b in ((d1, d2), (d2, d1)):
            for m1, o1, mv1 in _steps(m, o, a, blocked):
                single[a].setdefault((m1, o1), (mv1,))
                for m2, o2, mv2 in _steps(m1, o1, b, blocked):
                    if (m2, o2) not in found:
                        found[(m2, o2)] = (mv1, mv2)
        if not found:
            found = single[max(d1, d2)] or single[min(d1, d2)] or {(m, o): ()}
    if len(found) == 1 and () in found.values():
        return (Play((), position),)
    opponents: dict[int, tuple[int, ...]] = {}  # most plays hit nothing: share those tuples
    for _, po in found:
        if po not in opponents:
            opponents[po] = _unpack(po)
    return tuple(Play(path, _trusted(_unpack(pm), opponents[po]))
                 for (pm, po), path in found.items())

