"""What `/chouette analysis` shows: a player's figures and errors for a game or the session,
and one listed error's position as a board image with gnubg's numbers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot import records
from bot.analysis_queue import Stored
from bot.analysis_text import Decision, error_list, mark, numbers, side_to_move
from bot.markdown import escape
from bot.render.board import render_board
from rules.cube import Side
from rules.events import Event
from rules.notation import position_from_id
from rules.state import TableState

LIMIT = 1900  # a message's text, with room to spare under Discord's 2000


@dataclass(frozen=True)
class Shown:
    """The answer: its text, and the board of the error shown (PNG), if any."""

    text: str
    board: bytes | None = None


def not_ready(state: TableState, stored: Mapping[int, Stored], game: int | None) -> str | None:
    """Why there is nothing to show yet, or None."""
    if game is not None and game not in stored:
        return (f"Game {game}'s analysis is not ready yet: GNU Backgammon is on it, and it is "
                "posted in #board when done.")
    if not stored:
        return ("No game of this session has been analysed yet: each game's analysis is "
                "posted in #board once the game is over.")
    return None


def answer(state: TableState, events: list[Event], stored: Mapping[int, Stored],
           game: int | None, player: str | None, error: int | None) -> Shown:
    """The list for `player` (None: everyone) in `game` (None: every game analysed), and
    error number `error` of it on its board (None: the worst)."""
    games = {n: s.result for n, s in stored.items()
             if (game is None or n == game) and s.failed is None}
    failed = [f"Game {n} could not be analysed: {s.failed}" for n, s in stored.items()
              if (game is None or n == game) and s.failed is not None]
    plies = {s.plies for s in stored.values()}
    text, errors = error_list(games, player, lambda p: escape(state.shown(p)))
    where = f"game {game}" if game is not None else "this session's games"
    head = (f"**GNU Backgammon on {where}** ({'/'.join(f'{p}-ply' for p in sorted(plies))}; "
            "each loss in equity normalised to a cube of 1)")
    lines = [head, *text.splitlines(), *failed]
    if not errors:
        return Shown(_clip(lines))
    if error is not None and not 1 <= error <= len(errors):
        lines.append(f"There is no error {error} in this list: 1 to {len(errors)}.")
        return Shown(_clip(lines))
    index = error or 1 + max(range(len(errors)), key=lambda i: float(errors[i]["loss"]))
    chosen = errors[index - 1]
    depth = stored[int(chosen["game"])].plies
    word = mark(float(chosen["loss"]))
    detail = (f"\n**Error {index}**" + (f" ({word})" if word else "") + ": "
              + numbers(chosen, depth))
    return Shown(_clip(lines, LIMIT - len(detail)) + detail, _board(state, events, chosen))


def _board(state: TableState, events: list[Event], d: Decision) -> bytes:
    """The position of decision `d` (as its Position ID, the side to move on roll)."""
    record = next((r for r in records.games(events) if r.number == d["game"]), None)
    box = record.box if record else ""
    side = side_to_move(d, box)
    dice = tuple(d["dice"]) if d.get("dice") else None
    if d["kind"] == "move":
        status = f"{state.shown(d['player'])} to play: {d['played']} was played"
    else:
        cube = d["cube"]
        owner = {"centred": "centred", "team": "owned by the Team", "box": "owned by the Box"}
        status = (f"{state.shown(cube['team'])}'s cube at {cube['value']}, "
                  f"{owner.get(cube['owner'], cube['owner'])}: {d['played']}")
    names = {Side.BOX: "Box", Side.TEAM: "Team"}
    if record is not None:
        names = {Side.BOX: f"Box ({state.shown(record.box)})",
                 Side.TEAM: f"Team ({state.shown(record.captain)})"}
    return render_board(position_from_id(str(d["id"])), on_roll=side,
                        dice=dice if dice and len(dice) == 2 else None,
                        names=names, status=status)


def _clip(lines: list[str], room: int = LIMIT) -> str:
    """The lines that fit in `room` characters, saying how many were left out."""
    kept: list[str] = []
    for i, line in enumerate(lines):
        if sum(len(k) + 1 for k in kept) + len(line) > room - 80:
            kept.append(f"... and {len(lines) - i} more lines: name a game or a player.")
            break
        kept.append(line)
    return "\n".join(kept)


def choose_player(result_players: Any, me: str, asked: str | None) -> str | None:
    """Whose list: the player asked for; else the one asking if he made decisions; else
    everyone's (None)."""
    if asked is not None:
        return asked
    return me if me in result_players else None
