"""The commands a table takes: one frozen dataclass each, with its typed arguments.

Every command says who sends it (`by`), for whom when a proxy acts for an absent player
(`for_`: the transcript's "for"), whether it is the table monitor's record of what was done
and agreed (`monitor`: a transcript line, whose sender's right is not asked; a command from
Discord never is) and whether a moderator sends it. Each class keeps its name (`verb`), so a
transcript line {"cmd": NAME, "by": PLAYER, ...arguments} (contract 2) is read by `parse`
(rules/transcript.py), and `handles` registers the rule that decides each class.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from rules.errors import RuleError

if TYPE_CHECKING:
    from rules.events import Event
    from rules.state import TableState


class BadCommand(RuleError):
    """A command that is missing an argument or names something that does not exist."""


@dataclass(frozen=True, kw_only=True)
class Command:
    """One request to the table; a subclass per command, its fields the arguments."""

    verb: ClassVar[str] = ""  # the command's name in a transcript ("cmd")
    # other transcript names of an argument -> its field ({"partner": "player"}): read, never
    # written; the field's own name wins where both are given
    spellings: ClassVar[Mapping[str, str]] = {}
    by: str = ""
    for_: str | None = None  # the absent player a proxy acts for
    monitor: bool = False
    moderator: bool = False  # sent by a moderator (Discord checks the role)

    def __init_subclass__(cls, verb: str = "", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if verb:
            cls.verb = verb
            COMMANDS[verb] = cls


COMMANDS: dict[str, type[Command]] = {}


def sender(cmd: Command) -> str:
    """Who sends `cmd`; BadCommand for a command that must name him and does not."""
    if not cmd.by:
        raise BadCommand(code="needs_by", verb=cmd.verb)
    return cmd.by


T = TypeVar("T")


def need(cmd: Command, key: str, value: T | None) -> T:
    """`value`, an argument `cmd` needs here (as the rule set or its other arguments say)."""
    if value is None:
        raise BadCommand(code="needs", verb=cmd.verb, key=repr(key))
    return value


def respelt(kind: type[Command], values: Mapping[str, Any]) -> dict[str, Any]:
    """`values` by their own names: another spelling of an argument (`Command.spellings`)
    gives its value where the argument's own name gives none."""
    out = {k: v for k, v in values.items() if k not in kind.spellings}
    for key, value in values.items():
        if key in kind.spellings and out.get(kind.spellings[key]) is None:
            out[kind.spellings[key]] = value
    return out


# -- the table's life ------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Open(Command, verb="open"):
    preset: str = "atlanta"
    mode: str = "play"
    options: Mapping[str, Any] = field(default_factory=dict)  # house-rule overrides
    basic: str = ""  # the basic stake written at the top of the sheet
    language: str = ""  # the table's language (`da`): its board, buttons and record


@dataclass(frozen=True, kw_only=True)
class Newcomer(Command):
    stake: int = 1
    name: str = ""  # the player's name as shown


class Join(Newcomer, verb="join"): ...
class Request(Newcomer, verb="request"): ...


@dataclass(frozen=True, kw_only=True)
class AboutPlayer(Command):
    """A command about another player, named by their key: a newcomer admitted or objected
    to, a kibitzer blinded, a disconnection reported, a decision's timer run out."""

    player: str


class Admit(AboutPlayer, verb="admit"): ...
class Object(AboutPlayer, verb="object"): ...
class Leave(Command, verb="leave"): ...


@dataclass(frozen=True, kw_only=True)
class Seat(Command, verb="seat"):
    order: Sequence[Any] | None = None  # [Box, Captain, rest of the Team]
    rolls: Mapping[str, Any] | None = None  # or seats by rolls, {player: [dice]}
    rerolls: Sequence[Any] = ()
    partner: str | None = None


class Decline(Command, verb="decline"): ...  # an invited player won't be Partner


@dataclass(frozen=True, kw_only=True)
class InvitePartner(Command, verb="invite_partner"):
    """The Box invites a Team player to be his Partner (Atlanta 1.2, 6.5); the player then
    accepts (`partner`) or declines (`decline`)."""

    spellings: ClassVar[Mapping[str, str]] = {"partner": "player"}  # as `partner` reads
    player: str


@dataclass(frozen=True, kw_only=True)
class Partner(Command, verb="partner"):
    spellings: ClassVar[Mapping[str, str]] = {"partner": "player"}  # a transcript's spelling
    player: str | None = None  # the sender by default


class Captain(Command, verb="captain"): ...  # the Partner captains instead (Atlanta 6.4)
class Alone(Command, verb="alone"): ...  # a new Box plays without a Partner (Atlanta 6.3)
class PassBox(Command, verb="pass_box"): ...


@dataclass(frozen=True, kw_only=True)
class Stake(Command, verb="stake"):
    stake: int
    player: str | None = None  # who asked (the Box sends it): the sender by default


class EndSession(Command, verb="end_session"): ...


@dataclass(frozen=True, kw_only=True)
class Blinding(AboutPlayer):
    name: str = ""  # the kibitzer's name as shown


class Blind(Blinding, verb="blind"): ...
class Unblind(Blinding, verb="unblind"): ...
class Away(Command, verb="away"): ...
class Back(Command, verb="back"): ...


@dataclass(frozen=True, kw_only=True)
class Proxy(Command, verb="proxy"):
    player: str | None = None  # None: the proxy is revoked


class Disconnect(AboutPlayer, verb="disconnect"): ...
class Timeout(AboutPlayer, verb="timeout"): ...


class HoldOver(Command, verb="hold_over"): ...  # the game waits for its shooter (FIBS §6)


@dataclass(frozen=True, kw_only=True)
class Resume(Command, verb="resume"):
    game: int | None = None


@dataclass(frozen=True, kw_only=True)
class Correct(Command, verb="correct"):
    kind: str  # "score" or "undo"
    reason: str = ""
    from_: str | None = None
    to: str | None = None
    points: Any = None


@dataclass(frozen=True, kw_only=True)
class CorrectionAnswer(Command):
    correction: int


class Approve(CorrectionAnswer, verb="approve"): ...
class Refuse(CorrectionAnswer, verb="refuse"): ...


# -- the game ----------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Start(Command, verb="start"):
    opening: Sequence[Any] | None = None  # play mode: [Box die, Team die] pairs
    ties: int = 0  # scorekeeper mode: the opening ties
    carry: bool = True
    commitment: str = ""
    newcomer_rolls: Mapping[str, Any] | None = None
    newcomer_rerolls: Sequence[Any] = ()
    automatic: bool = True
    automatic_with: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Reveal(Command, verb="reveal"):
    game: int
    seed: str


@dataclass(frozen=True, kw_only=True)
class Roll(Command, verb="roll"):
    dice: Sequence[Any]
    die: int | None = None  # the index of the first die drawn for it


@dataclass(frozen=True, kw_only=True)
class Move(Command, verb="move"):
    play: str


@dataclass(frozen=True, kw_only=True)
class Result(Command, verb="result"):
    winner: str
    kind: str = "single"


@dataclass(frozen=True, kw_only=True)
class Double(Command, verb="double"):
    cubes: tuple[str, ...] | None = None  # the Box names the cubes he doubles
    in_order: bool = False


@dataclass(frozen=True, kw_only=True)
class Answer(Command, verb="answer"):
    take: tuple[str, ...] = ()
    beaver: tuple[str, ...] = ()
    drop: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class CubeAnswer(Command):
    cubes: tuple[str, ...] | None = None
    face: int | None = None  # the value the question was about (a prompt's)


class Take(CubeAnswer, verb="take"): ...
class Drop(CubeAnswer, verb="drop"): ...
class Beaver(CubeAnswer, verb="beaver"): ...
class Raccoon(CubeAnswer, verb="raccoon"): ...
class Aardvark(CubeAnswer, verb="aardvark"): ...


@dataclass(frozen=True, kw_only=True)
class AskTurn(Command, verb="ask_turn"):
    """A raccoon or an aardvark (`turn`) asked of the cube's other player (`across`), where
    it needs his consent (Atlanta 5.4): he agrees (`agree_turn`); `face` as a cube answer's."""

    turn: str
    across: str
    face: int | None = None


@dataclass(frozen=True, kw_only=True)
class AgreeTurn(Command, verb="agree_turn"):
    """The cube's other player agrees to the raccoon or aardvark (`turn`) `player` asked of
    him (Atlanta 5.4): it is made."""

    turn: str
    player: str
class Hold(Command, verb="hold"): ...  # a Team player asks the Captain to hold his roll
class Release(Command, verb="release"): ...


@dataclass(frozen=True, kw_only=True)
class Withdraw(Command, verb="withdraw"):
    cubes: tuple[str, ...] | None = None


@dataclass(frozen=True, kw_only=True)
class Extra(Command, verb="extra"):
    to: str | None = None


class Retract(Command, verb="retract"): ...  # the lone taker drops after all (Atlanta 5.7)


@dataclass(frozen=True, kw_only=True)
class Payment(Command):
    """A command that may pay points: a fraction rolled off, an odd half by the next roll."""

    rolloff: Sequence[Any] | None = None
    next_roll: Any = None


@dataclass(frozen=True, kw_only=True)
class Settle(Payment, verb="settle"):
    with_: str
    points: Any = None  # what the sender pays (less than 0: receives), halves allowed


@dataclass(frozen=True, kw_only=True)
class Sell(Payment, verb="sell"):
    to: str
    from_: str | None = None  # the seller: the sender by default
    points: Any = None  # the price: half the cube's value before a double by default


@dataclass(frozen=True, kw_only=True)
class OfferSale(Command, verb="offer_sale"):
    """A Team player offers his game to `to` (Atlanta 4.4; FIBS §2 ¶2) for `points` (None:
    the rule set's price): the buyer accepts (`buy`)."""

    to: str
    points: Any = None


@dataclass(frozen=True, kw_only=True)
class Buy(Payment, verb="buy"):
    """The buyer accepts the game `from_` offered him, at the price offered."""

    from_: str


@dataclass(frozen=True, kw_only=True)
class Penalty(Payment, verb="penalty"):
    player: str
    action: str


@dataclass(frozen=True, kw_only=True)
class Resign(Command, verb="resign"):
    kind: str = "single"
    cubes: tuple[str, ...] | None = None


@dataclass(frozen=True, kw_only=True)
class ResignationAnswer(Command):
    cubes: tuple[str, ...] | None = None


class Accept(ResignationAnswer, verb="accept"): ...
class Reject(ResignationAnswer, verb="reject"): ...


# -- the handlers' registry --------------------------------------------------------------------


H = TypeVar("H", bound="Callable[..., tuple[Event, ...]]")
HANDLERS: dict[type[Command], Callable[[TableState, Any], tuple[Event, ...]]] = {}


def handles(*kinds: type[Command]) -> Callable[[H], H]:
    """Register a handler for the given command classes (used by every rules module)."""
    def register(fn: H) -> H:
        for kind in kinds:
            HANDLERS[kind] = fn
        return fn
    return register
