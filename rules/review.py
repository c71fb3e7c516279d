"""Who may see GNU Backgammon's verdict on a game, and when (issue 21).

Anyone at the table's channels may see a game's analysis (players and kibitzers alike), but
only once the game is over: during play it would be advice. The analysis itself is made by
the bot's worker; this module only says when it may be shown.
"""

from __future__ import annotations

from rules.errors import RuleError
from rules.messages import Phrase
from rules.state import TableState


class NotOverYet(RuleError):
    """The game asked about is still being played (or is on hold): no analysis yet."""


def may_see_analysis(state: TableState, game: int | None) -> None:
    """Whether game `game`'s analysis (None: the session's, the games over so far) may be
    seen now; a RuleError saying what may be seen instead if not."""
    if game is None:
        return
    if game in state.unfinished:
        raise NotOverYet(code="analysis_in_play", game=game, over=_over(state))
    started = max([state.games_played, *state.unfinished], default=0)
    if game > started:
        raise RuleError(code="analysis_no_game", game=game, over=_over(state))


def _over(state: TableState) -> Phrase:
    """How many games are over, in words."""
    done = state.games_played - len(state.held)
    return (Phrase("none_over") if done <= 0 else Phrase("one_over") if done == 1
            else Phrase("games_over", count=done))
