"""The facts of the table around its games: who sits at it and how.

A table opens, players join (or ask to, and are admitted), change their stakes, step away,
name proxies, are invited to be Partner, leave; a seating is drawn for each game, and the
session ends with the final breakdown. Like every event (rules/events.py, which names them
all in `Event` and `EVENT_TYPES`), each is a frozen dataclass of results, folded by
`rules/state.py` without a rule check.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.ledger import Transfer
from rules.messages import Phrase
from rules.seating import Seating


@dataclass(frozen=True)
class TableOpened:
    """A table opened with a preset, a mode and every option's value (overrides applied)."""

    preset: str
    mode: str
    options: dict[str, Any] = field(default_factory=dict)
    basic: str = ""  # the basic stake, as the players agreed it ("$5 a point": Atlanta 2.1)
    host: str = ""  # who opened the table: they may start, end and run it without a seat
    language: str = ""  # the board's, the buttons' and the record's language ("": unset)


@dataclass(frozen=True)
class PlayerJoined:
    """A player sat down (`waiting`: he joins at the end of the game in progress)."""

    player: str
    stake: int = 1
    waiting: bool = False
    display: str = ""  # the name to show (the Discord layer keys players by user id)


@dataclass(frozen=True)
class JoinRequested:
    """A newcomer asks to join a table in session, where the rule set wants the table's
    approval (`join_approval`: the Box's, no objection, or every seated player's)."""

    player: str
    stake: int = 1
    display: str = ""


@dataclass(frozen=True)
class JoinAnswered:
    """A seated player admits the newcomer (`admitted`) or objects (the request is dropped)."""

    player: str
    by: str
    admitted: bool


@dataclass(frozen=True)
class PlayerLeft:
    """A player left (`after_game`: announced now, he leaves when the game ends).

    `payments` settle him up as the rule set says (Atlanta 10.2): money paid at the table,
    entered on the score sheet (`ScoreSheet.paid`) so that the final breakdown pays only
    what is still owed. One who leaves during a game is settled when it ends (`GameEnded`).
    """

    player: str
    after_game: bool = False
    payments: tuple[Transfer, ...] = ()


@dataclass(frozen=True)
class StakeChanged:
    """A player's stake multiple changed between games (Atlanta 2.3)."""

    player: str
    stake: int


@dataclass(frozen=True)
class PlayerAway:
    """A player stepped away (`away`) or came back; `disconnected`: he was cut off (FIBS
    §6), which may cost him his place (`PlayerOut`)."""

    player: str
    away: bool = True
    disconnected: bool = False


@dataclass(frozen=True)
class PlayerOut:
    """A player still disconnected when the next game started lost his place (FIBS §6 ¶1):
    he sits down again at the end of the rotation when he is back."""

    player: str


@dataclass(frozen=True)
class ProxyAppointed:
    """A player named a proxy to act for him (None: he revoked it)."""

    player: str
    proxy: str | None


@dataclass(frozen=True)
class PartnerInvited:
    """The Box invited a player to be his Partner for the next game (Atlanta 1.2, 6.5)."""

    player: str


@dataclass(frozen=True)
class PartnerDeclined:
    """An invited player declined to be the Box's Partner (recorded and announced only)."""

    player: str


@dataclass(frozen=True)
class Seated:
    """The seating for the next game: by roll, by order, a Partner, a rotation or a leave.

    None when too few players are left to seat a game.
    """

    seating: Seating | None
    reason: str | Phrase = ""  # a Phrase where it names players
    # the dice each player threw for his seat, and each round of the tied rolling again
    rolls: tuple[tuple[tuple[str, tuple[int, ...]], ...], ...] = ()


@dataclass(frozen=True)
class Blinded:
    """A moderator blinded a kibitzer (`blind`), or gave him his sight back: he loses (or
    gets back) the sight of the table's channels."""

    player: str
    blind: bool = True
    display: str = ""  # his name, to show (a kibitzer is no member: the table learns it)


@dataclass(frozen=True)
class SessionEnded:
    """The session is over: the final breakdown of who pays whom."""

    breakdown: tuple[Transfer, ...]


TableEvent = (TableOpened | PlayerJoined | JoinRequested | JoinAnswered | PlayerLeft
              | StakeChanged | PlayerAway | PlayerOut | ProxyAppointed | PartnerInvited
              | PartnerDeclined | Seated | Blinded | SessionEnded)
