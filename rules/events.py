"""The facts a chouette table records: what `decide` returns and `evolve` folds into state.

Each event is a frozen dataclass carrying results, not requests: a cube event carries the
cube as it now is, a game's end carries its transfers and the next seating, so folding an
event never needs a rule check and never raises. Every field is a plain value (str, int,
tuple, Fraction) or one of the rules' own values (Cube, Transfer, Seating, Position), which
`bot/store/__init__.py` serialises by type. `EVENT_TYPES` names them for that codec.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.board import Position
from rules.cube import Cube, Side
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
class DiceRevealed:
    """The secret seed of game `number`'s dice, revealed once the game is over: anyone can
    hash it against the commitment and recompute every roll (`python -m bot verify`)."""

    number: int
    seed: str  # hexadecimal


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
class GameAbandoned:
    """A moderator ended the session during a game: the points paid in it so far go on the
    sheet (`transfers`), the cubes still in the game are void."""

    transfers: tuple[Transfer, ...]


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


Event = (TableOpened | PlayerJoined | JoinRequested | JoinAnswered | PlayerLeft | StakeChanged
         | PlayerAway | PlayerOut | ProxyAppointed | PartnerInvited | PartnerDeclined
         | TurnAsked | SaleOffered | Seated
         | GameStarted | CubeTurned | PointsPaid | PartnershipSettled | HalfAnswered
         | OddHalfRolled
         | AnswersInOrder
         | DoublesAnswered
         | ResignationOffered
         | ResignationAnswered | RollHeld | Rolled | Moved | GameEnded | GameHeldOver
         | GameResumed | DiceRevealed
         | CorrectionProposed | CorrectionAnswered | Corrected | SessionEnded
         | ResultProposed | GameAbandoned | Blinded)

EVENT_TYPES: dict[str, type] = {cls.__name__: cls for cls in (
    TableOpened, PlayerJoined, JoinRequested, JoinAnswered, PlayerLeft, StakeChanged,
    PlayerAway, PlayerOut, ProxyAppointed, PartnerInvited, PartnerDeclined, TurnAsked,
    SaleOffered, Seated,
    GameStarted,
    CubeTurned, PointsPaid, PartnershipSettled, HalfAnswered, AnswersInOrder,
    OddHalfRolled,
    ResignationOffered,
    ResignationAnswered,
    DoublesAnswered, RollHeld, Rolled, Moved, GameEnded, GameHeldOver, GameResumed,
    DiceRevealed,
    CorrectionProposed, CorrectionAnswered, Corrected, SessionEnded, ResultProposed,
    GameAbandoned, Blinded)}
