"""Server dice: drawn here (never in `rules/`) and passed to the table in commands, so every
roll is stored in the events and a replay never rolls again.

Every game's dice come from a secret seed of 32 random bytes, committed to before the game
(its SHA-256 is published with the opening roll) and revealed when the game ends. The dice
are the seed's stream, which anyone can recompute with the standard library alone:

    for block in 0, 1, 2, ...:
        for byte in sha256(seed + block as 8 bytes big-endian).digest():
            if byte < 252: the next die is byte % 6 + 1   (252 = 42 * 6: no face favoured)

The opening rolls are the stream's first pairs ([Box die, Team die], ties first), and each
later roll the next two dice, in the order they were drawn. `verify` checks a game's record.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import count, islice

from rules.events import DiceRevealed, Event, GameEnded, GameStarted, Rolled


def commitment(seed: bytes) -> str:
    """The published commitment to `seed`: its SHA-256, in hexadecimal."""
    return hashlib.sha256(seed).hexdigest()


def stream(seed: bytes) -> Iterator[int]:
    """The dice of the game whose seed is `seed`, in order (see the module docstring)."""
    for block in count():
        for byte in hashlib.sha256(seed + block.to_bytes(8, "big")).digest():
            if byte < 252:
                yield byte % 6 + 1


def verify(seed_hex: str, committed: str, dice: Sequence[int]) -> list[str]:
    """What is wrong with a game whose dice were `dice` (every die in the order thrown,
    opening rolls first) under the revealed `seed_hex` and the published `committed` hash.
    An empty list: the seed matches the commitment and every die is the seed's."""
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        return [f"the seed {seed_hex!r} is not hexadecimal"]
    problems = []
    if commitment(seed) != committed:
        problems.append(f"the seed hashes to {commitment(seed)}, not to the commitment "
                        f"{committed}")
    for index, (thrown, due) in enumerate(zip(dice, stream(seed), strict=False)):
        if thrown != due:
            problems.append(f"die {index + 1} ({_roll_of(index)}) was {thrown}; the seed "
                            f"gives {due}")
    return problems


@dataclass(frozen=True)
class GameDice:
    """A game's dice as the event log records them: its commitment, its seed once revealed,
    and every die thrown in order (opening rolls first, then each roll as drawn)."""

    number: int
    commitment: str
    seed: str
    dice: tuple[int, ...]

    def problems(self) -> list[str]:
        """What fails verification; empty when every die is the seed's."""
        if not self.seed:
            return [f"game {self.number}'s seed is not revealed yet (it is, when the game "
                    "ends)"]
        return verify(self.seed, self.commitment, self.dice)

    def verdict(self) -> str:
        """One line: OK with how many dice, or what fails."""
        problems = self.problems()
        if problems:
            return "FAILS: " + "; ".join(problems)
        return (f"OK: the seed hashes to the commitment and gives all {len(self.dice)} dice "
                "thrown")


def games_dice(events: Iterable[Event]) -> list[GameDice]:
    """Every game of a table's event log whose dice came from a committed seed."""
    games: dict[int, GameDice] = {}
    current: int | None = None
    for event in events:
        if isinstance(event, GameStarted):
            current = event.number if event.commitment else None
            if current is not None:
                games[current] = GameDice(current, event.commitment, "",
                                          tuple(d for pair in event.opening for d in pair))
        elif isinstance(event, Rolled) and current is not None:
            games[current] = replace(games[current], dice=games[current].dice + event.dice)
        elif isinstance(event, DiceRevealed) and event.number in games:
            games[event.number] = replace(games[event.number], seed=event.seed)
        elif isinstance(event, GameEnded):
            current = None
    return list(games.values())


def _roll_of(index: int) -> str:
    return f"throw {index // 2 + 1}, {'first' if index % 2 == 0 else 'second'} die"


class Dice:
    """Dice from each game's seed; seats are rolled with `secrets` (tests override
    `faces` and `draw` to throw chosen faces)."""

    def __init__(self, draw: Callable[[], int] | None = None) -> None:
        self._draw = draw or (lambda: secrets.randbelow(6) + 1)

    def new_seed(self) -> bytes:
        """A fresh secret seed for a game."""
        return secrets.token_bytes(32)

    def faces(self, seed: bytes, start: int, number: int) -> list[int]:
        """Dice `start` to `start + number - 1` of the seed's stream."""
        return list(islice(stream(seed), start, start + number))

    def roll(self, seed: bytes, used: int) -> list[int]:
        """The next roll of the game: the two dice after the `used` already thrown."""
        return self.faces(seed, used, 2)

    def opening(self, seed: bytes) -> list[list[int]]:
        """Opening rolls as [Box die, Team die] pairs: ties first, the last pair unequal."""
        pairs = [self.faces(seed, 0, 2)]
        while pairs[-1][0] == pairs[-1][1]:
            pairs.append(self.faces(seed, 2 * len(pairs), 2))
        return pairs

    def pair(self) -> list[int]:
        """Two dice outside any game's seed: the roll for an odd half point in scorekeeper
        mode (FIBS §2 ¶2)."""
        return [self._draw(), self._draw()]

    def rolloff(self) -> list[list[list[int]]]:
        """A roll-off of a fraction (Atlanta 4.3): both throw two dice until the totals
        differ, as [[sender's dice], [other's dice]] rounds."""
        rounds = [[[self._draw(), self._draw()], [self._draw(), self._draw()]]]
        while sum(rounds[-1][0]) == sum(rounds[-1][1]):
            rounds.append([[self._draw(), self._draw()], [self._draw(), self._draw()]])
        return rounds

    def seats(self, players: list[str], number: int) -> dict[str, tuple[int, ...]]:
        """Each player's roll of `number` dice for seats."""
        return {p: tuple(self._draw() for _ in range(number)) for p in players}
