"""Game records: every game played on a board, as data, as a Jellyfish .mat file that GNU
Backgammon imports, and the Position ID of any position in it.

Pure functions over a table's events in order (standard library and `rules/` only). A record
is the Box against the Team, whose checkers the Captain (or an Acting Captain) plays. In a
chouette every Team player has their own cube against the Box, so no single cube history fits
one gnubg game: a .mat carries the checker play and the result at cube 1 (1, 2 or 3 points
for a single game, a gammon or a backgammon); a game ended by the cubes (every cube dropped)
imports as the loser resigning a single game. Opening ties are not in a .mat: they are
listed in its header.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from rules.board import GameKind, Position
from rules.cube import Side
from rules.errors import RuleError
from rules.events import (
    Event,
    GameAbandoned,
    GameEnded,
    GameHeldOver,
    GameResumed,
    GameStarted,
    Moved,
    Rolled,
)
from rules.notation import position_id
from rules.state import TableState, evolve
from rules.table_events import TableOpened


class RecordError(RuleError):
    """A record that can't be made: no such game, or a game with no board."""


@dataclass(frozen=True)
class Turn:
    """One roll: the side on roll, its dice, the position before it (from the roller's
    view) and the play as gnubg writes it ("" when no play was legal; None while the dice
    wait to be played)."""

    side: Side
    dice: tuple[int, int] | None  # None: the side is to roll (the position a record ends on)
    position: Position
    play: str | None

    @property
    def position_id(self) -> str:
        """The gnubg Position ID before this turn, from the roller's view."""
        return position_id(self.position)


@dataclass(frozen=True)
class GameRecord:
    """A game played on the board: who sat where, the opening rolls, every turn, and the
    position now (`position`, from `on_roll`'s view). `winner` and `kind` are None while the
    game is in progress."""

    number: int
    box: str
    captain: str
    names: dict[str, str]  # player key -> name to show
    opening: tuple[tuple[int, int], ...]
    turns: tuple[Turn, ...]
    position: Position
    on_roll: Side
    winner: Side | None = None
    kind: str | None = None

    def shown(self, side: Side) -> str:
        """The name of the player who rolls for `side` (the Box, or the Team's Captain)."""
        player = self.box if side is Side.BOX else self.captain
        return self.names.get(player, player)


@dataclass
class BoardGame:
    """One game played on a board, as a table's events tell it: the table just before it
    started (`before`: the rules, the stakes, the seating), its `GameStarted`, and its own
    events after that, in order. A game held over (FIBS §6 ¶2) is one game: its events run
    to its `GameHeldOver`, then on from its `GameResumed` when it is played out, between
    other games (rules/holdover.py). `end` is "ended" (a result), "abandoned", "held" (on
    hold now) or None (in play); `ended_at` the index in the table's events of its
    `GameEnded`."""

    before: TableState
    started: GameStarted
    events: list[Event]
    end: str | None = None
    ended_at: int | None = None

    @property
    def number(self) -> int:
        """The game's number."""
        return self.started.number


def board_games(events: Iterable[Event], state: TableState | None = None) -> list[BoardGame]:
    """Every game played on a board, in the order they started (scorekeeper games have no
    board: none), each with its own events: the one walk over a session's games, for the
    records and for the analysis (`bot/analysis/transcript.py`). Each event is folded once,
    from `state` (the table before the first of `events`; a new table by default)."""
    state = TableState() if state is None else state
    found: list[BoardGame] = []
    current: BoardGame | None = None
    held: dict[int, BoardGame] = {}
    for index, event in enumerate(events):
        if isinstance(event, GameStarted):
            current = None
            if event.position is not None and state.seating is not None:
                current = BoardGame(state, event, [])
                found.append(current)
        elif isinstance(event, GameResumed):
            current = held.pop(event.number, None)
            if current is not None:
                current.events.append(event)
                current.end = None
        elif current is not None:
            current.events.append(event)
            if isinstance(event, GameEnded | GameAbandoned | GameHeldOver):
                current.end = ("ended" if isinstance(event, GameEnded) else "abandoned"
                               if isinstance(event, GameAbandoned) else "held")
                if isinstance(event, GameHeldOver):
                    held[current.number] = current
                else:
                    current.ended_at = index
                current = None
        state = evolve(state, event)
    return found


def games(events: Iterable[Event]) -> list[GameRecord]:
    """A record of every game played on a board, in order (scorekeeper games have none); a
    game held over and played out later is one record, its turns after the hold too."""
    return [_record(game) for game in board_games(events)]


def _record(played: BoardGame) -> GameRecord:
    seating, started = played.before.seating, played.started
    assert seating is not None and started.position is not None
    assert started.on_roll is not None
    position, on_roll, dice = started.position, started.on_roll, started.dice
    turns = [Turn(on_roll, dice, position, None)] if dice else []
    winner, kind = None, None
    for event in played.events:
        match event:
            case Rolled(side, dice, passed):
                turns.append(Turn(side, dice, position, "" if passed else None))
                if passed:
                    position, on_roll = position.swap(), side.other
            case Moved(side, play, after) if turns:
                turns[-1] = replace(turns[-1], play=play)
                position, on_roll = after.swap(), side.other
            case GameEnded(won, how):
                winner, kind = won, how
    return GameRecord(started.number, seating.box, seating.captain,
                      {m.player: m.shown for m in played.before.members}, started.opening,
                      tuple(turns), position, on_roll, winner, kind)


# -- positions on request --------------------------------------------------------------------


def find(records: Sequence[GameRecord], number: int) -> GameRecord:
    """Game `number`'s record; RecordError naming the games there are if there is none."""
    record = next((r for r in records if r.number == number), None)
    if record is None:
        there = ", ".join(str(r.number) for r in records) or "none yet"
        raise RecordError(f"There is no game {number} on the board at this table "
                          f"(games: {there}).")
    return record


def turn_at(records: Sequence[GameRecord], game: int, turn: int) -> Turn:
    """Turn `turn` (from 1) of game `game`; one past the last played turn is the position
    the record ends on, with the side to roll next and no dice."""
    record = find(records, game)
    turns = list(record.turns)
    if not turns or turns[-1].play is not None:
        turns.append(Turn(record.on_roll, None, record.position, None))
    if not 1 <= turn <= len(turns):
        raise RecordError(f"Game {game} has turns 1 to {len(turns)}, not {turn}.")
    return turns[turn - 1]


def position_at(records: Sequence[GameRecord], game: int, turn: int) -> str:
    """The Position ID before turn `turn` of game `game`, from the view of the side on roll."""
    return turn_at(records, game, turn).position_id


def describe_turn(records: Sequence[GameRecord], game: int, turn: int) -> str:
    """A line saying whose turn it was, with which dice, the Position ID and the play."""
    record = find(records, game)
    at = turn_at(records, game, turn)
    who = f"{record.shown(at.side)} ({'Box' if at.side is Side.BOX else 'Team'})"
    if at.dice is None:
        doing = "the game is over" if record.winner else f"{who} to roll"
        return (f"Game {game}, turn {turn}: {doing}. Position ID `{at.position_id}` "
                f"(from {who}'s side).")
    played = {None: "not played yet", "": "no legal play"}.get(at.play, f"played {at.play}")
    return (f"Game {game}, turn {turn}: {who} on roll with {at.dice[0]}-{at.dice[1]}. "
            f"Position ID `{at.position_id}`; {played}.")


# -- the .mat file ---------------------------------------------------------------------------

HEADER = """\
; [Site "chouette-bot"]
; A chouette's games: the Box (left) against the Team, whose checkers its Captain plays
; (right). Every Team player had their own cube against the Box, so this file carries the
; checker play and each result at cube 1: 1, 2 or 3 points for a single game, a gammon or a
; backgammon. A game the cubes ended is written as the loser resigning a single game. The
; score sheet has what each player won.
"""


def mat_name(text: str) -> str:
    """A player's name as a .mat file holds it: one line, no colon."""
    return " ".join(text.replace(":", " ").split()) or "?"


def mat_game(number: int, box: str, team: str, score: Mapping[Side, int],
             cells: Sequence[str]) -> list[str]:
    """One game of a .mat file: its number, the Box's side (gnubg's player 0, on the left)
    and the Team's with their scores so far, then `cells` two a line, left then right."""
    lines = [f" Game {number}", f" {mat_name(box)} : {score[Side.BOX]}".ljust(31)
             + f" {mat_name(team)} : {score[Side.TEAM]}"]
    for n in range(0, len(cells), 2):
        right = cells[n + 1] if n + 1 < len(cells) else ""
        lines.append(f"{n // 2 + 1:3d}) {cells[n]:<27} {right}".rstrip())
    return lines


def to_mat(records: Sequence[GameRecord]) -> str:
    """The games as a Jellyfish .mat money session ("0 point match") that gnubg imports: the
    Box is the left player, the Team (named by its Captain) the right; moves are written
    from the mover's side, as gnubg writes them; a game in progress stops at its last play."""
    lines = [HEADER.rstrip("\n")]
    lines += [f"; Game {r.number}: opening ties "
              + ", ".join(f"{a}-{b}" for a, b in r.opening[:-1]) + " (Box-Team)"
              for r in records if len(r.opening) > 1]
    lines += ["", " 0 point match", ""]
    score = {Side.BOX: 0, Side.TEAM: 0}
    for record in records:
        cells = [f"{t.dice[0]}{t.dice[1]}: {t.play}".rstrip() for t in record.turns
                 if t.dice is not None and t.play is not None]
        if record.turns and record.turns[0].side is Side.TEAM:
            cells.insert(0, "")
        lines += mat_game(record.number, f"{record.shown(Side.BOX)} (Box)",
                          f"{record.shown(Side.TEAM)} (Team)", score, cells)
        if record.winner is not None and record.kind is not None:
            points = GameKind[record.kind.upper()].value
            score[record.winner] += points
            indent = 6 if record.winner is Side.BOX else 34
            lines.append(" " * indent + f"Wins {points} point{'s' if points > 1 else ''}")
        lines.append("")
    return "\n".join(lines) + "\n"


def played(events: Iterable[Event]) -> list[GameRecord]:
    """The records of a table's games; RecordError when the table keeps score only or has
    played no game on the board yet."""
    events = list(events)
    if any(isinstance(e, TableOpened) and e.mode != "play" for e in events):
        raise RecordError("This table keeps score only: its games have no board, so there "
                          "is no game record.")
    records = games(events)
    if not records:
        raise RecordError("No game has been played on the board at this table yet.")
    return records


def export(events: Iterable[Event], game: int | None = None) -> str:
    """The .mat of game `game`, or of every game played on the board (RecordError as
    `played` and `find` say)."""
    records = played(events)
    return to_mat(records if game is None else [find(records, game)])
