"""What `/chouette analysis` shows: a player's figures and errors for a game or the session,
and one listed error's position as a board image with gnubg's numbers, in `locale`'s
language (the reader's: a private reply)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.analysis.queue import Stored
from bot.analysis.text import Decision, error_list, mark, numbers, side_to_move
from bot.records import games
from bot.render.picture import Picture, picture
from bot.words.i18n import Translation, tr, translate
from bot.words.markdown import escape
from rules.cube import Side
from rules.events import Event
from rules.notation import position_from_id
from rules.state import TableState

LIMIT = 1900  # a message's text, with room to spare under Discord's 2000


@dataclass(frozen=True)
class Shown:
    """The answer: its text, and the board of the error shown, if any (a `Picture`: the
    bot's drawing process draws it)."""

    text: str
    board: Picture | None = None


def not_ready(state: TableState, stored: Mapping[int, Stored], game: int | None,
              locale: object = None) -> str | None:
    """Why there is nothing to show yet, or None."""
    if game is not None and game not in stored:
        return tr("Game {game}'s analysis is not ready yet: GNU Backgammon is on it, and it is "
                  "posted in #board when done.", locale, game=game)
    if not stored:
        return translate("No game of this session has been analysed yet: each game's analysis "
                         "is posted in #board once the game is over.", locale)
    return None


def answer(state: TableState, events: list[Event], stored: Mapping[int, Stored],
           game: int | None, player: str | None, error: int | None,
           locale: object = None) -> Shown:
    """The list for `player` (None: everyone) in `game` (None: every game analysed), and
    error number `error` of it on its board (None: the worst)."""
    games = {n: s.result for n, s in stored.items()
             if (game is None or n == game) and s.failed is None}
    failed = [tr("Game {game} could not be analysed: {why}", locale, game=n, why=s.failed)
              for n, s in stored.items() if (game is None or n == game) and s.failed is not None]
    plies = {s.plies for s in stored.values()}
    text, errors = error_list(games, player, lambda p: escape(state.shown(p)), locale)
    depth = "/".join(f"{p}-ply" for p in sorted(plies))
    head = (tr("**GNU Backgammon on game {game}** ({depth}; each loss in equity normalised "
               "to a cube of 1)", locale, game=game, depth=depth) if game is not None
            else tr("**GNU Backgammon on this session's games** ({depth}; each loss in equity "
                    "normalised to a cube of 1)", locale, depth=depth))
    lines = [head, *text.splitlines(), *failed]
    if not errors:
        return Shown(_clip(lines, locale=locale))
    if error is not None and not 1 <= error <= len(errors):
        lines.append(tr("There is no error {error} in this list: 1 to {count}.", locale,
                        error=error, count=len(errors)))
        return Shown(_clip(lines, locale=locale))
    index = error or 1 + max(range(len(errors)), key=lambda i: float(errors[i]["loss"]))
    chosen = errors[index - 1]
    depth_of = stored[int(chosen["game"])].plies
    word = mark(float(chosen["loss"]), locale)
    detail = ("\n" + tr("**Error {index}**", locale, index=index)
              + (f" ({word})" if word else "") + ": " + numbers(chosen, depth_of, locale))
    return Shown(_clip(lines, LIMIT - len(detail), locale) + detail,
                 _board(state, events, chosen, locale))


def _board(state: TableState, events: list[Event], d: Decision,
           locale: object = None) -> Picture:
    """The position of decision `d` (as its Position ID, the side to move on roll)."""
    record = next((r for r in games.games(events) if r.number == d["game"]), None)
    box = record.box if record else ""
    side = side_to_move(d, box)
    dice = tuple(d["dice"]) if d.get("dice") else None
    if d["kind"] == "move":
        status = tr("{player} to play: {play} was played", locale,
                    player=state.shown(d["player"]), play=d["played"])
    else:
        cube = d["cube"]
        owner = {"centred": translate("centred", locale),
                 "team": translate("owned by the Team", locale),
                 "box": translate("owned by the Box", locale)}
        status = tr("{player}'s cube at {value}, {owner}: {played}", locale,
                    player=state.shown(cube["team"]), value=cube["value"],
                    owner=owner.get(cube["owner"], cube["owner"]),
                    played=translate(str(d["played"]), locale))
    names = {Side.BOX: translate("Box", locale), Side.TEAM: translate("Team", locale)}
    if record is not None:
        names = {Side.BOX: tr("Box ({player})", locale, player=state.shown(record.box)),
                 Side.TEAM: tr("Team ({player})", locale, player=state.shown(record.captain))}
    return picture(position_from_id(str(d["id"])), on_roll=side,
                   dice=dice if dice and len(dice) == 2 else None,
                   names=names, status=status, words=Translation.of(locale))


def _clip(lines: list[str], room: int = LIMIT, locale: object = None) -> str:
    """The lines that fit in `room` characters, saying how many were left out."""
    kept: list[str] = []
    for i, line in enumerate(lines):
        if sum(len(k) + 1 for k in kept) + len(line) > room - 80:
            kept.append(tr("... and {count} more lines: name a game or a player.", locale,
                           count=len(lines) - i))
            break
        kept.append(line)
    return "\n".join(kept)


def choose_player(result_players: Any, me: str, asked: str | None) -> str | None:
    """Whose list: the player asked for; else the one asking if he made decisions; else
    everyone's (None)."""
    if asked is not None:
        return asked
    return me if me in result_players else None
