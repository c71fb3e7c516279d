"""A player's statistics across sessions, folded from the tables' event logs.

Pure folding (`session_stats`, `fold`): each table's events are replayed with the rules' own
`evolve`, and every `GameEnded` is read against the state just before it, where the seating
says who was Box, Partner and Team and the game says who captained and whose cube was still
in. Points are the table's sheet totals, exact `Fraction`s: a session in progress counts
what has been played so far. Scorekeeper and play mode count alike.

`read_stats` reads the tables of an `EventStore` (all of them, or one guild's). A closed
table never changes, so a caller may keep its per-player results in a cache, and then only
open tables are read again.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Iterable, MutableMapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeVar

from bot.store import EventStore, StoredEvent
from rules.cube import Side
from rules.events import GameEnded, Moved, Rolled
from rules.ledger import net
from rules.roles import cube_of
from rules.state import TableState, evolve
from rules.table_events import PlayerJoined

_GAMMONS = ("gammon", "backgammon")  # GameEnded.kind
T = TypeVar("T", int, Fraction)
# The board's rolls and moves, nearly every event of a play-mode table, change nothing the
# statistics read (seating, cubes, members, sheet): `read_stats` leaves them in the store.
BOARD_EVENTS = (Rolled.__name__, Moved.__name__)


@dataclass
class PlayerStats:
    """One player's record; `name` is the latest display name he joined a table under.

    `won`/`lost` count games whose net result for him (all his cubes, drops included) was
    above/below zero. `gammons_won`/`gammons_lost` count gammons and backgammons on the
    winning/losing side while his cube (the Box's: any cube) was still in the game.
    `stakes` counts games by the stake multiple he played them at. Times are Unix seconds
    of the first and last event of his sessions (None where the store kept no times).
    """

    player: str
    name: str = ""
    sessions: int = 0
    games: int = 0
    boxes: int = 0
    partner: int = 0
    captain: int = 0
    won: int = 0
    lost: int = 0
    gammons_won: int = 0
    gammons_lost: int = 0
    points: Fraction = Fraction(0)
    best_session: Fraction | None = None
    worst_session: Fraction | None = None
    stakes: dict[int, int] = field(default_factory=dict)
    first_played: int | None = None
    last_played: int | None = None

    @property
    def shown(self) -> str:
        """The name to show."""
        return self.name or self.player

    def as_json(self) -> dict[str, Any]:
        """The record as JSON values: points whole, or as a float (halves are exact)."""
        out = dataclasses.asdict(self) | {"name": self.shown}
        for key in ("points", "best_session", "worst_session"):
            if out[key] is not None:
                out[key] = int(out[key]) if out[key].denominator == 1 else float(out[key])
        return out

    def merge(self, other: PlayerStats) -> None:
        """Add `other` (the same player, a later session) to this record."""
        self.name = other.name or self.name
        for counter in ("sessions", "games", "boxes", "partner", "captain", "won", "lost",
                        "gammons_won", "gammons_lost"):
            setattr(self, counter, getattr(self, counter) + getattr(other, counter))
        self.points += other.points
        self.best_session = _pick(max, self.best_session, other.best_session)
        self.worst_session = _pick(min, self.worst_session, other.worst_session)
        for stake, games in other.stakes.items():
            self.stakes[stake] = self.stakes.get(stake, 0) + games
        self.first_played = _pick(min, self.first_played, other.first_played)
        self.last_played = _pick(max, self.last_played, other.last_played)


def _pick(choose: Callable[[T, T], T], a: T | None, b: T | None) -> T | None:
    return b if a is None else a if b is None else choose(a, b)


def session_stats(events: Sequence[StoredEvent]) -> dict[str, PlayerStats]:
    """Each player's record in one table's session (every player who joined it)."""
    stats: dict[str, PlayerStats] = {}
    state = TableState()
    for stored in events:
        event = stored.event
        if isinstance(event, PlayerJoined):
            record = stats.setdefault(event.player, PlayerStats(event.player, sessions=1))
            record.name = event.display or record.name
        elif isinstance(event, GameEnded):
            _count_game(stats, state, event)
        state = evolve(state, event)
    times = [e.at for e in events if e.at is not None]
    totals = state.sheet.totals()
    for player, record in stats.items():
        record.points = record.best_session = record.worst_session = totals.get(
            player, Fraction(0))
        record.first_played, record.last_played = (min(times), max(times)) if times else (
            None, None)
    return stats


def _count_game(stats: dict[str, PlayerStats], state: TableState, end: GameEnded) -> None:
    seating, game = state.seating, state.game
    if seating is None or game is None:  # pragma: no cover - a game always has both
        return
    moved = net(end.transfers)
    gammon = end.kind in _GAMMONS
    for player in seating.players:
        record = stats.setdefault(player, PlayerStats(player, sessions=1))
        box_side = player in (seating.box, seating.partner)
        record.games += 1
        record.boxes += player == seating.box
        record.partner += player == seating.partner
        record.captain += player == game.shooters[0]
        points = moved.get(player, Fraction(0))
        record.won += points > 0
        record.lost += points < 0
        cube = cube_of(game, player)
        if gammon and (box_side or (cube is not None and cube.live)):
            won = (end.winner is Side.BOX) == box_side
            record.gammons_won += won
            record.gammons_lost += not won
        member = state.member(player)
        stake = member.stake if member else 1
        record.stakes[stake] = record.stakes.get(stake, 0) + 1


def fold(sessions: Iterable[dict[str, PlayerStats]]) -> dict[str, PlayerStats]:
    """Every player's record across sessions (each from `session_stats`), oldest first."""
    out: dict[str, PlayerStats] = {}
    for session in sessions:
        for player, record in session.items():
            out.setdefault(player, PlayerStats(player)).merge(record)
    return out


Cache = MutableMapping[str, dict[str, PlayerStats]]


async def read_stats(store: EventStore, *, guild_id: int | None = None,
                     player: str | None = None, cache: Cache | None = None,
                     ) -> dict[str, PlayerStats]:
    """Every player's record over the store's tables (those of `guild_id` if given), or
    only `player`'s (an empty dict if he never joined a table there).

    Each table is replayed (but its `BOARD_EVENTS`) in a worker thread; closed tables'
    results are kept in `cache` (table id to `session_stats`), which a long-running caller
    keeps between calls.
    """
    ids = (await store.events.table_ids(open_only=False) if guild_id is None
           else [t.table_id for t in await store.channels.of_guild(guild_id, open_only=False)])
    still_open = set(await store.events.table_ids())
    sessions = []
    for table_id in ids:
        session = cache.get(table_id) if cache is not None else None
        if session is None:
            events = await store.events.stored(table_id, BOARD_EVENTS)
            session = await asyncio.to_thread(session_stats, events)
            if cache is not None and table_id not in still_open:
                cache[table_id] = session
        sessions.append(session if player is None else
                        {player: session[player]} if player in session else {})
    return fold(sessions)
