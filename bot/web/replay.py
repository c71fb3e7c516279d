"""A game's replay as data: one step for each line #board showed of it, the table as it stood
after that line (for the board drawn on demand), every cube's state, and gnubg's verdict on
each decision made there.

A decision belongs to the step where it was made, as the verdict lists them in order: a
checker play to its move, a double made to the line of that double, an answer to the line of
that answer; a decision that left no line (no double, say) to the step the board showed when
it was made (the last one matched).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.analysis.text import mark, what
from bot.records.games import BoardGame
from bot.render.cubes import Roles, card_words
from bot.words.i18n import Translation, tr, translate
from bot.words.lines import announced, event_line
from rules.events import CubeTurned, Event, Moved
from rules.state import TableState, evolve


@dataclass(frozen=True)
class Verdict:
    """gnubg on one decision, in words: who, what was done (and, for an error, what was
    best), the loss ("-0.317", or "" for none) and gnubg's mark ("very bad", or "")."""

    player: str
    done: str
    loss: str
    mark: str


@dataclass(frozen=True)
class Step:
    """One line of the game as #board showed it, and the table after it."""

    line: str
    state: TableState
    cubes: tuple[str, ...]
    verdicts: tuple[Verdict, ...]


def steps(game: BoardGame, decisions: Sequence[Mapping[str, Any]],
          locale: object = None) -> tuple[Step, ...]:
    """The steps of a game played on a board, each with the verdicts of `decisions` (the
    game's, in order; none before it is analysed)."""
    state = evolve(game.before, game.started)
    shown: list[tuple[Event, TableState]] = [(game.started, state)]
    for event in game.events:
        state = evolve(state, event)
        if announced(event):
            shown.append((event, state))
    found: list[list[Mapping[str, Any]]] = [[] for _ in shown]
    at = 0  # the step of the last decision that left a line
    for d in decisions:
        at = next((i for i in range(at + 1, len(shown)) if _made(d, shown[i][0])), at)
        found[at].append(d)
    return tuple(Step(event_line(event, after.shown, locale) or "", after,
                      _cubes(after, locale), tuple(_verdict(d, after.shown, locale)
                                                    for d in found[i]))
                 for i, (event, after) in enumerate(shown))


def _made(d: Mapping[str, Any], event: Event) -> bool:
    """Whether `event` is the line of decision `d`: its move, its double, its answer."""
    if d["kind"] == "move":
        return isinstance(event, Moved)
    doubled = d["kind"] == "double" and d["played"] == "double"
    answered = d["kind"] == "take"
    return ((doubled or answered) and isinstance(event, CubeTurned)
            and event.cube.team_player == d["cube"]["team"]
            and str(event.action) == ("double" if doubled else d["played"]))


def _cubes(state: TableState, locale: object) -> tuple[str, ...]:
    game, seating = state.game, state.seating
    if game is None or seating is None:
        return ()
    roles = Roles(seating.box, seating.captain, seating.partner, None,
                  state.rules.single_cube)
    words = Translation.of(locale)
    return tuple(tr("{team} v {box}, cube {face}: {state}", locale,
                    team=state.shown(c.team_player), box=state.shown(c.box_player),
                    face=c.face,
                    state=card_words(c, state.shown, words, roles))
                 for c in game.cubes)


def _verdict(d: Mapping[str, Any], name: Callable[[str], str], locale: object) -> Verdict:
    loss = float(d["loss"])
    return Verdict(name(d["player"]), what(d, name, locale) if loss else _done(d, locale),
                   f"-{loss:.3f}" if loss >= 0.0005 else "", mark(loss, locale))


def _done(d: Mapping[str, Any], locale: object) -> str:
    """What was done, when it was right (`what` says what was wrong)."""
    if d["kind"] == "move":
        dice = "-".join(str(n) for n in d.get("dice") or ())
        return tr("played {play} with {dice}", locale, play=d["played"], dice=dice)
    return translate(str(d["played"]), locale)
