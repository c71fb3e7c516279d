"""A session's page as data: what #board showed of it, put in tables for the template.

Pure functions of a table's stored events and its kept verdicts: the rule set, when and who,
the sheet (each game's running totals and changes, the losers marked, as on the image), who
pays whom, every game's result with each player's gnubg figures, and each game's dice
commitment and seed. Names are as the table names them, not escaped: the template escapes
every value it writes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from bot.analysis.text import Figures, rating, summed, totals
from bot.app.dice import games_dice
from bot.records.games import BoardGame
from bot.records.history import utc
from bot.render.sheet import entry_labels, losers
from bot.words.i18n import tr, translate
from bot.words.phrases import paid_line
from rules.cube import Side
from rules.events import Event, GameEnded
from rules.ledger import format_points
from rules.ruleset import explain
from rules.state import TableState

Words = Callable[[str], str]


@dataclass(frozen=True)
class Row:
    """One line of the sheet: its label (a game's number, or "fix"), each player's running
    total and change, and whether each lost the game (circled on the image)."""

    label: str
    totals: tuple[str, ...]
    changes: tuple[str, ...]
    lost: tuple[bool, ...]


@dataclass(frozen=True)
class PlayerFigures:
    """A player's gnubg figures in one game or over the session."""

    name: str
    checker: str
    cube: str
    overall: str
    rating: str


@dataclass(frozen=True)
class GameLine:
    """A game played on the board: who sat where, how it ended, the depth it was analysed
    at and each player's figures (None and empty until analysed)."""

    number: int
    box: str
    captain: str
    result: str
    plies: int | None
    figures: tuple[PlayerFigures, ...]


@dataclass(frozen=True)
class Seed:
    """A game's dice commitment, and its seed once revealed ("" before)."""

    number: int
    commitment: str
    seed: str


@dataclass(frozen=True)
class Session:
    """Everything the session's page shows."""

    preset: str
    mode: str
    language: str
    opened: str
    last: str
    ended: bool
    rules: tuple[str, ...]
    columns: tuple[str, ...]
    rows: tuple[Row, ...]
    final: tuple[str, ...]
    breakdown: tuple[str, ...]
    paid: tuple[str, ...]
    games: tuple[GameLine, ...]
    figures: tuple[PlayerFigures, ...]
    dice: tuple[Seed, ...]


def figures_of(found: Mapping[str, tuple[Figures, Figures]], name: Callable[[str], str],
               words: Words) -> tuple[PlayerFigures, ...]:
    """Each player's figures in words: checker and cube rates, overall rate and rating."""
    out = []
    for player, (checker, cube) in found.items():
        overall = checker + cube
        word = rating(overall)
        out.append(PlayerFigures(
            name(player),
            checker.per_decision if checker.decisions else "",
            cube.per_decision if cube.decisions else "",
            overall.per_decision if overall.decisions else "",
            words(word) if word else ""))
    return tuple(out)


def session(state: TableState, events: Sequence[Event], played: Sequence[BoardGame],
            times: tuple[int | None, int | None],
            verdicts: Mapping[int, tuple[int, Mapping[str, Any]]]) -> Session:
    """The page of a table from its state now, its events, its games played on a board
    (`board_games` of them), when its first and last events were stored, and its verdicts
    (game -> (depth, the worker's answer)), the words in the table's language."""
    locale = state.language or None

    def words(text: str) -> str:
        return translate(text, locale)

    name = state.shown
    order = (state.seating.players if state.seating
             else tuple(m.player for m in state.members))
    columns = tuple(dict.fromkeys([*order, *state.sheet.names()]))
    first, last = times
    return Session(
        preset=state.preset, mode=state.mode, language=state.language,
        opened=utc(first) if first else "", last=utc(last) if last else "",
        ended=state.ended, rules=tuple(explain(state.rules, words)),
        columns=tuple(name(p) for p in columns), rows=_rows(state, columns),
        final=tuple(format_points(state.sheet.totals().get(p, Fraction(0)))
                    for p in columns),
        breakdown=tuple(t.phrase(name, words=words)
                        for t in state.sheet.breakdown(state.rules.payoff)),
        paid=tuple(paid_line(t, name, locale) for t in state.sheet.paid),
        games=_games(played, verdicts, locale),
        figures=figures_of(summed(r for _, r in verdicts.values()), name, words),
        dice=tuple(Seed(d.number, d.commitment, d.seed) for d in games_dice(events)))


def _rows(state: TableState, columns: Sequence[str]) -> tuple[Row, ...]:
    sheet = state.sheet
    labels = entry_labels(sheet)
    rows = []
    for index, running in enumerate(sheet.running()):
        nets = sheet.game_net(index)
        roles = (state.game_roles[index] if index < len(state.game_roles) else None)
        lost = losers(sheet, index, roles)
        rows.append(Row(labels[index],
                        tuple(format_points(running.get(p, Fraction(0))) for p in columns),
                        tuple(format_points(nets[p]) if nets.get(p) else "" for p in columns),
                        tuple(p in lost for p in columns)))
    return tuple(rows)


def _games(played: Sequence[BoardGame], analysed: Mapping[int, tuple[int, Any]],
           locale: object) -> tuple[GameLine, ...]:
    lines = []
    for game in played:
        before, number = game.before, game.number
        assert before.seating is not None
        ended = next((e for e in reversed(game.events) if isinstance(e, GameEnded)), None)
        result = (translate("abandoned", locale) if game.end == "abandoned"
                  else translate("held over", locale) if game.end == "held"
                  else translate("in play", locale) if ended is None
                  else tr("The Box wins ({kind}).", locale, kind=translate(ended.kind, locale))
                  if ended.winner is Side.BOX
                  else tr("The Team wins ({kind}).", locale, kind=translate(ended.kind, locale)))
        plies, verdict = analysed.get(number, (None, None))
        found = totals(verdict) if verdict else {}
        lines.append(GameLine(number, before.shown(before.seating.box),
                              before.shown(before.seating.captain), result, plies,
                              figures_of(found, before.shown, lambda t: translate(t, locale))))
    return tuple(lines)
