"""The one error family of the rules: every refusal a player can read and act on.

Each subclass is raised where a command breaks a rule; its message says what is allowed
instead, so the Discord layer can show it to the player as it is.
"""

from collections.abc import Callable

from rules import messages


class RuleError(ValueError):
    """A command the rules refuse; the message tells the player what is allowed instead.

    Raised with a `code` of rules/messages.py and its parameters (players marked `Player`),
    the words are written by `text`, with the players named by whoever shows it; `str()`
    is the same words with the players' keys. (The bot's own few refusals are raised with
    their words, which `text` gives as they are.)"""

    def __init__(self, message: str = "", *, code: str = "", **params: object) -> None:
        self.code, self.params = code, params
        super().__init__(message or messages.text(code, params))

    def text(self, name: Callable[[str], str] = str, words: messages.Words = str) -> str:
        """The refusal in words, each player named `name(key)`, its template in the
        reader's language (`words`)."""
        return messages.text(self.code, self.params, name, words) if self.code else str(self)


class BadNotation(RuleError):
    """Text that is not a play, a point or a Position ID at all (a typo, not a rule)."""


class IllegalPlay(RuleError):
    """A well-formed play that the dice and the position do not allow."""


class AmbiguousPlay(RuleError):
    """A play that fits more than one legal play; the message names them."""


class NotYourTurn(RuleError):
    """An action by a player who may not take it now; the message names who may."""


class CubeNotAvailable(RuleError):
    """A cube action the cube's state or the rule set forbids (double, take, beaver, ...)."""


class SeatingError(RuleError):
    """A join, leave, seat or partner request the table's size or the rule set refuses."""


class BadOption(RuleError):
    """An unknown preset or house-rule option, or a value out of its range."""
