"""The facts a chouette table records: what `decide` returns and `evolve` folds into state.

Each event is a frozen dataclass carrying results, not requests: a cube event carries the
cube as it now is, a game's end carries its transfers and the next seating, so folding an
event never needs a rule check and never raises. Every field is a plain value (str, int,
tuple, Fraction) or one of the rules' own values (Cube, Transfer, Seating, Position), which
`bot/store/__init__.py` serialises by type. The events of a game are here; those of the
table around its games (joining, leaving, seating, the session's end) are
rules/table_events.py. `Event` is every one of them, and `EVENT_TYPES` names them for that
codec.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import get_args

from rules.board import Position
from rules.cube import Cube, Side
from rules.ledger import Transfer
from rules.messages import Phrase
from rules.seating import Seating
from rules.table_events import TableEvent

# -- a game's start ------------------------------------------------------------------------


@dataclass(frozen=True)
class GameStarted:
    """A game began: its cubes (automatic doubles applied) and, in play mode, the board.

    `position` is from the view of `on_roll`, who moves first with `dice`. `opening` is
    every opening roll as [Box die, Team die], ties first; `commitment` is the SHA-256 of
    the secret seed the game's dice come from, published now and checked when the seed is
    revealed at the game's end (empty when the dice were not drawn from a seed).
    """

    number: int
    cubes: tuple[Cube, ...]
    automatic_doubles: int = 0
    position: Position | None = None
    on_roll: Side | None = None
    dice: tuple[int, int] | None = None
    opening: tuple[tuple[int, int], ...] = ()
    commitment: str = ""
    carried_over: int = 0  # automatic doubles the Box carries to his next game (Danish ¶15)


# -- the cubes -----------------------------------------------------------------------------


@dataclass(frozen=True)
class CubeTurned:
    """A cube changed: `action` is what happened, a plain word where it has no figures of
    its own (double, take, beaver, raccoon, drop, ...), else a `Phrase` of the catalogue
    (a settlement's points, a sale, a buy-out, a roll-off, a resignation accepted, a half
    dropped: `turned_*`). `by` is the player's key; `why`, when someone else answered for
    him, the catalogue's code of the reason (`answered_timed_out`, `answered_away`,
    `answered_late`). Events stored before both were data have the words as the rules wrote
    them in `action` (`"settle 3/2"`, read back as it is) and the reason in `by` (`"ann
    (timed out)"`, read back by `bot.store.codec` as the key and `why`)."""

    cube: Cube
    action: str | Phrase
    by: str
    why: str = ""


@dataclass(frozen=True)
class PointsPaid:
    """Points that changed hands during the game (a drop, a settlement, an extra's premium).
    `own`: a Box-side player's own payment, not shared with his partner (FIBS §2 ¶11)."""

    transfer: Transfer
    own: bool = False


@dataclass(frozen=True)
class PartnershipSettled:
    """The Box and his Partner settled between them (Atlanta 4.5; FIBS: one sells his share
    to the other): from now on the Box side's results are `holder`'s alone (the Box's when
    empty); a Partner who bought the Box out plays for the side, the Box his slave (FIBS).
    `half`: the other dropped his half of a double that `holder` took (FIBS §2 ¶11), so the
    side's later results are halved, `holder`'s half."""

    holder: str = ""
    half: bool = False


@dataclass(frozen=True)
class HalfAnswered:
    """The Partner answers a later Team double for his half, before the Box answers his
    (FIBS §2 ¶11: "one partner can accept and one drop")."""

    player: str
    action: str


@dataclass(frozen=True)
class OddHalfRolled:
    """FIBS §2 ¶2 in scorekeeper mode, where no rolls are entered: the bot's roll for the
    odd half point of a payment the Box and his Partner share ("determined by the next
    roll": even, the shooter's; odd, the Partner's). `dice` is empty only in events stored
    before a roll was required: the half was then the shooter's, as if even."""

    dice: tuple[int, ...] = ()


@dataclass(frozen=True)
class AnswersInOrder:
    """The Box insists that the Team answer his double in rotation order (Atlanta 5.8)."""


@dataclass(frozen=True)
class DoublesAnswered:
    """The Box has answered this turn's Team doubles: no more Team doubles until the roll."""


@dataclass(frozen=True)
class TurnAsked:
    """`player` asked `across`, the other player of their cube, to agree to his raccoon or
    aardvark (`turn`, Atlanta 5.4): pending until agreed or the cube moves on."""

    turn: str
    player: str
    across: str


@dataclass(frozen=True)
class SaleOffered:
    """`seller` offered his game to `buyer` for `points` (None: the rule set's price), Atlanta
    4.4: pending until bought or the seller's cube moves on."""

    seller: str
    buyer: str
    points: str | None


@dataclass(frozen=True)
class ResignationOffered:
    """`side` offers to resign the game on `player`'s cube for `kind` (single, gammon, ...)."""

    player: str
    side: Side
    kind: str


@dataclass(frozen=True)
class ResignationAnswered:
    """The other side answered the resignation on `player`'s cube (`accepted` or not)."""

    player: str
    accepted: bool


# -- the dice and the checkers -------------------------------------------------------------


@dataclass(frozen=True)
class RollHeld:
    """A Team player asked the Captain to hold the roll (Atlanta 5.9), or released it."""

    player: str
    held: bool = True


@dataclass(frozen=True)
class Rolled:
    """The side on roll rolled; with no legal play the turn passes (`passed`)."""

    side: Side
    dice: tuple[int, int]
    passed: bool = False


@dataclass(frozen=True)
class Moved:
    """The side on roll played: the play in notation and the position, from its view."""

    side: Side
    play: str
    position: Position


# -- a game's end --------------------------------------------------------------------------


@dataclass(frozen=True)
class ResultProposed:
    """A player's word on the result of the game, for the others to confirm (rules/results.py):
    under `result_agreement = "sides"` the Box side's or the Captain's (`side`), the game
    ending when the other side confirms it; under "everyone" the players who have agreed so
    far (`agreed`) and those still to agree (`waiting`)."""

    winner: Side
    kind: str
    by: str
    side: Side
    agreed: tuple[str, ...] = ()
    waiting: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameEnded:
    """The game is over: who won how, the last transfers, the sheet entry and who sits where.

    `transfers` is the whole game as it goes on the sheet (the Box/Partner split applied).
    `choices` are the seating choices the rotation leaves to a player before the next game,
    as (choice, player): ("captain", the Partner whose turn to captain came: Atlanta 6.4)
    and ("alone", a new Box who may play without the losing Box as Partner: 6.3).
    """

    winner: Side
    kind: str
    transfers: tuple[Transfer, ...]
    seating: Seating | None  # None when too few are left to seat: seats are drawn again
    choices: tuple[tuple[str, str], ...] = ()
    # the settlements of the players who announced their leave during the game (Atlanta
    # 10.2), paid on the sheet as it stands after this game
    paid: tuple[Transfer, ...] = ()


@dataclass(frozen=True)
class GameHeldOver:
    """The Box or the Captain (`player`) is gone and the game is put on hold to be played
    out later (FIBS §6 ¶2): the points paid so far go on the sheet (`transfers`, as
    booked), and the table goes on with `seating`, the rotation's as if the other won."""

    player: str
    transfers: tuple[Transfer, ...]
    seating: Seating | None


@dataclass(frozen=True)
class GameResumed:
    """A held-over game is played out now; afterwards the table sits as it was."""

    number: int


@dataclass(frozen=True)
class GameAbandoned:
    """A moderator ended the session during a game: the points paid in it so far go on the
    sheet (`transfers`), the cubes still in the game are void."""

    transfers: tuple[Transfer, ...]


@dataclass(frozen=True)
class DiceRevealed:
    """The secret seed of game `number`'s dice, revealed once the game is over: anyone can
    hash it against the commitment and recompute every roll (`python -m bot verify`)."""

    number: int
    seed: str  # hexadecimal


# -- corrections ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CorrectionProposed:
    """A moderator proposes correction `number`: a `score` transfer entered on the sheet,
    or an `undo` taking back the last checker play and all that followed it. `needs` are
    the players who must agree first ("moderator": any moderator but the proposer)."""

    number: int
    kind: str
    by: str
    reason: str
    transfer: Transfer | None = None
    needs: tuple[str, ...] = ()


@dataclass(frozen=True)
class CorrectionAnswered:
    """A player the correction needs agreed to it (`approved`) or refused it (it is dropped)."""

    number: int
    player: str
    approved: bool


@dataclass(frozen=True)
class Corrected:
    """Correction `number` is made: everyone it needed has agreed."""

    number: int


# -- every event ---------------------------------------------------------------------------


Event = (TableEvent | GameStarted | CubeTurned | PointsPaid | PartnershipSettled | HalfAnswered
         | OddHalfRolled | AnswersInOrder | DoublesAnswered | TurnAsked | SaleOffered
         | ResignationOffered | ResignationAnswered | RollHeld | Rolled | Moved | ResultProposed
         | GameEnded | GameHeldOver | GameResumed | GameAbandoned | DiceRevealed
         | CorrectionProposed | CorrectionAnswered | Corrected)

# every event type by its name, as the store writes it (bot/store/codec.py)
EVENT_TYPES: dict[str, type] = {cls.__name__: cls for cls in get_args(Event)}
