"""The state of a chouette table and how events fold into it (`evolve`, `replay`).

The state is built only by folding events: `evolve` applies results that `decide`
(rules/table.py and rules/game.py) already checked, so it needs no rule checks and never
raises. The commands are rules/commands.py.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace
from typing import Any

from rules.board import Position
from rules.cube import Cube, Side
from rules.events import (
    AnswersInOrder,
    Corrected,
    CorrectionAnswered,
    CorrectionProposed,
    CubeTurned,
    DiceRevealed,
    DoublesAnswered,
    Event,
    GameAbandoned,
    GameEnded,
    GameHeldOver,
    GameResumed,
    GameStarted,
    HalfAnswered,
    Moved,
    OddHalfRolled,
    PartnershipSettled,
    PointsPaid,
    ResignationAnswered,
    ResignationOffered,
    ResultProposed,
    Rolled,
    RollHeld,
    SaleOffered,
    TurnAsked,
)
from rules.game_state import evolve_game, no_undo
from rules.ledger import ScoreSheet, Transfer
from rules.preset import UNSTATED
from rules.ruleset import RuleSet
from rules.seating import Seating
from rules.table_events import (
    Blinded,
    JoinAnswered,
    JoinRequested,
    PartnerDeclined,
    PartnerInvited,
    PlayerAway,
    PlayerJoined,
    PlayerLeft,
    PlayerOut,
    ProxyAppointed,
    Seated,
    SessionEnded,
    StakeChanged,
    TableEvent,
    TableOpened,
)

MODES = ("play", "scorekeeper")


@dataclass(frozen=True)
class Member:
    """A player at the table and his standing arrangements."""

    player: str  # the player's key (on Discord, his user id)
    stake: int = 1
    waiting: bool = False  # joined during a game: sits down when it ends
    leaving: bool = False  # announced his leave: goes when the game ends
    away: bool = False  # stepped away: his proxy, or the rule set's stand-in, acts for him
    disconnected: bool = False  # cut off (FIBS §6): away, and may lose his place
    out: bool = False  # lost his place while disconnected: sits down again when back
    proxy: str | None = None  # the player he appointed to act for him (Atlanta 7.1)
    display: str = ""  # the name to show, if not the player's key itself

    @property
    def shown(self) -> str:
        """The name to show for this player."""
        return self.display or self.player


@dataclass(frozen=True)
class Game:
    """The game in progress: its cubes, the points already paid and, in play mode, the board.

    `position` is from the view of `on_roll`; `dice` are the roll waiting to be played.
    `shooters` lists the Team's Captain and every Acting Captain after him, in order.
    `box_round` names the Team players the Box doubled in his latest double.
    `resignations` maps a Team player's cube to the side that offered to resign on it and
    how (single, gammon, backgammon), waiting for the other side's answer.
    """

    number: int
    cubes: tuple[Cube, ...]
    shooters: tuple[str, ...]
    transfers: tuple[Transfer, ...] = ()
    position: Position | None = None
    on_roll: Side | None = None
    dice: tuple[int, int] | None = None
    answered: bool = False
    box_round: tuple[str, ...] = ()
    resignations: tuple[tuple[str, Side, str], ...] = ()
    holds: tuple[str, ...] = ()  # Team players who asked to hold the roll (Atlanta 5.9)
    dice_used: int = 0  # dice thrown so far, opening rolls included: the next die's index
    before: Game | None = None  # the game just before its last checker play (for an undo)
    shared_until: int | None = None  # transfers shared with the Partner, if they settled
    box_holder: str = ""  # who won the Box side's share when they settled ("": the Box)
    in_order: bool = False  # the Box insists on answers in rotation order (Atlanta 5.8)
    team_round: tuple[str, ...] = ()  # Team doublers waiting for the Box's answer, in turn
    half_answer: str = ""  # the Partner's own answer to them, for his half (FIBS §2 ¶11)
    half_share: bool = False  # since `shared_until` the Box side plays on with a half only
    own_paid: tuple[int, ...] = ()  # the transfers a Box-side player paid alone (not shared)
    # (points paid before it, its total) of the first roll after each new payment: the
    # "next roll" that gives an odd half point to the Box or his Partner (FIBS §2 ¶2)
    next_rolls: tuple[tuple[int, int], ...] = ()
    offer: ResultProposed | None = None  # one side's word on the result, for the other


@dataclass(frozen=True)
class TableState:
    """Everything the table knows; built only by folding events (`replay`)."""

    preset: str = ""
    mode: str = "play"
    rules: RuleSet = field(default_factory=RuleSet)
    members: tuple[Member, ...] = ()
    seating: Seating | None = None
    game: Game | None = None
    sheet: ScoreSheet = field(default_factory=ScoreSheet)
    games_played: int = 0
    board: tuple[Position, Side] | None = None  # the latest board and the side on roll
    game_roles: tuple[tuple[str, str], ...] = ()  # (Box, Captain) of every finished game
    ended: bool = False
    opened: bool = False
    basic: str = ""  # the basic stake written at the top of the sheet (Atlanta 2.1)
    carry: tuple[str, int] | None = None  # (Box, automatic doubles) for his next game
    # (game number, commitment, seed once revealed or "") of every game with seeded dice
    commitments: tuple[tuple[int, str, str], ...] = ()
    choices: tuple[tuple[str, str], ...] = ()  # seating choices open until the next start
    declined: tuple[str, ...] = ()  # who declined to be Partner since the last game
    invited: tuple[str, ...] = ()  # whom the Box invited to be Partner since the last game
    # raccoons and aardvarks waiting for the other player's consent (Atlanta 5.4), and games
    # offered for sale waiting for the buyer (4.4): each until answered or its cube moves on
    asked: tuple[TurnAsked, ...] = ()
    offers: tuple[SaleOffered, ...] = ()
    # games put on hold (FIBS §6 ¶2), each with its seating, and while one is played out
    # again the seating it interrupted, to go back to when it ends
    held: tuple[tuple[Game, Seating], ...] = ()
    resumed_from: Seating | None = None
    # newcomers waiting for the table's approval, each with the players who admitted him
    requests: tuple[tuple[JoinRequested, tuple[str, ...]], ...] = ()
    corrections: int = 0  # corrections proposed so far (the next one's number - 1)
    # the corrections waiting for consent, each with the players who agreed so far
    proposals: tuple[tuple[CorrectionProposed, tuple[str, ...]], ...] = ()
    host: str = ""  # who opened the table
    language: str = ""  # what everyone at the table reads in (`da`; "": the server's)
    blinded: tuple[str, ...] = ()  # kibitzers a moderator blinded
    # the last name known for every player who ever came to the table (or asked to), so a
    # player who left is still named on the sheet
    names: tuple[tuple[str, str], ...] = ()

    def proposal(self, number: int) -> tuple[CorrectionProposed, tuple[str, ...]] | None:
        """Correction `number` and its approvals, while it waits for consent."""
        return next((p for p in self.proposals if p[0].number == number), None)

    @property
    def unfinished(self) -> frozenset[int]:
        """The games still to be played out (in play, or on hold): their dice stay secret."""
        return frozenset([*(g.number for g, _ in self.held),
                          *([self.game.number] if self.game else [])])

    def member(self, name: str) -> Member | None:
        """The member called `name`, if any."""
        return next((m for m in self.members if m.player == name), None)

    def shown(self, name: str) -> str:
        """The name to show for the player keyed `name`."""
        member = self.member(name)
        if member is not None:
            return member.shown
        return next((shown for key, shown in reversed(self.names) if key == name), name)

    @property
    def present(self) -> tuple[str, ...]:
        """The players who sit down for the next game, in joining order."""
        return tuple(m.player for m in self.members if not m.waiting and not m.out)


# -- evolve ----------------------------------------------------------------------------------


def evolve(state: TableState, event: Event) -> TableState:
    """The state after `event`; never raises for an event `decide` produced."""
    match event:
        case (TableOpened() | PlayerJoined() | JoinRequested() | JoinAnswered() | PlayerLeft()
              | StakeChanged() | PlayerAway() | PlayerOut() | ProxyAppointed() | Blinded()
              | PartnerInvited() | PartnerDeclined() | Seated() | SessionEnded()):
            return _at_table(state, event)
        case GameStarted():
            return _started(state, event)
        case GameEnded(_, _, transfers, seating, choices, paid):
            # A game played out again was counted when it was put on hold.
            played = state.games_played + (state.resumed_from is None)
            gone = _game_gone(state, transfers, seating)
            return replace(gone, games_played=played, choices=choices, resumed_from=None,
                           sheet=gone.sheet.record_payments(paid))
        case GameHeldOver(_, transfers, seating) if state.game and state.seating:
            # Its points so far are on the sheet: the game goes on hold with none paid.
            shared = None if state.game.shared_until is None else 0
            on_hold = replace(state.game, transfers=(), before=None, own_paid=(),
                              next_rolls=(), shared_until=shared)
            return replace(_game_gone(state, transfers, seating), resumed_from=None,
                           held=(*state.held, (on_hold, state.seating)),
                           games_played=state.games_played + 1)
        case GameResumed(number):
            game, seating = next((g, s) for g, s in state.held if g.number == number)
            board = (game.position, game.on_roll) if game.position and game.on_roll else None
            return replace(state, game=game, seating=seating, resumed_from=state.seating,
                           board=board or state.board, choices=(),
                           held=tuple(h for h in state.held if h[0].number != number))
        case GameAbandoned(transfers):
            return replace(_game_gone(state, transfers, state.seating),
                           games_played=state.games_played + 1)
        case DiceRevealed(number, seed):
            return replace(state, commitments=tuple(
                (n, c, seed if n == number else s) for n, c, s in state.commitments))
        case CorrectionProposed() | CorrectionAnswered() | Corrected():
            return _corrections(state, event)
        case TurnAsked(_, player, across):
            return replace(state, asked=(*(a for a in state.asked
                                           if (a.player, a.across) != (player, across)), event))
        case SaleOffered(seller):
            return replace(state, offers=(*(o for o in state.offers if o.seller != seller),
                                          event))
        case CubeTurned(cube) if state.asked or state.offers:
            return evolve_game(_moved_on(state, cube), event)
        case (CubeTurned() | PointsPaid() | DoublesAnswered() | Rolled() | Moved()
              | ResignationOffered() | ResignationAnswered() | RollHeld() | PartnershipSettled()
              | HalfAnswered() | ResultProposed() | OddHalfRolled()
              | AnswersInOrder()):
            return evolve_game(state, event)
    return state  # pragma: no cover - every event type is matched above


def _at_table(state: TableState, event: TableEvent) -> TableState:
    """The table after an event around its games: who sits at it, and how."""
    match event:
        case TableOpened(preset, mode, options, basic, host, language):
            known = {f.name for f in fields(RuleSet)}  # an option since dropped is ignored
            opts: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v
                                    for k, v in options.items() if k in known}
            return replace(state, opened=True, preset=preset, mode=mode,
                           rules=RuleSet(**{**UNSTATED, **opts}), basic=basic, host=host,
                           language=language)
        case PlayerJoined(player, stake, waiting, display):
            member = Member(player, stake, waiting, display=display)
            return replace(_named(state, player, display), members=(*state.members, member),
                           requests=tuple(r for r in state.requests if r[0].player != player))
        case JoinRequested(player, _, display):
            return replace(_named(state, player, display),
                           requests=(*state.requests, (event, ())))
        case Blinded(player, blind, display):
            return _named(replace(state, blinded=tuple(
                p for p in (*state.blinded, player) if p != player or blind)), player, display)
        case JoinAnswered(player, by, admitted):
            return replace(state, requests=tuple(
                (r, (*agreed, by)) if r.player == player else (r, agreed)
                for r, agreed in state.requests if admitted or r.player != player))
        case PlayerLeft(player, after_game, payments):
            if after_game:
                return replace(state, members=tuple(
                    replace(m, leaving=True) if m.player == player else m
                    for m in state.members))
            return replace(state, members=tuple(m for m in state.members if m.player != player),
                           sheet=state.sheet.record_payments(payments))
        case StakeChanged(player, stake):
            return replace(state, members=tuple(
                replace(m, stake=stake) if m.player == player else m for m in state.members))
        case PlayerAway(player, away, disconnected):
            # One who lost his place sits down again as a newcomer, after a game in progress.
            return replace(state, members=tuple(
                replace(m, away=away, disconnected=disconnected, out=m.out and away,
                        waiting=m.waiting or (m.out and not away and state.game is not None))
                if m.player == player else m for m in state.members))
        case PlayerOut(player):
            return replace(state, members=tuple(
                replace(m, out=True) if m.player == player else m for m in state.members))
        case ProxyAppointed(player, proxy):
            return replace(state, members=tuple(
                replace(m, proxy=proxy) if m.player == player else m for m in state.members))
        case Seated(seating):
            return replace(state, seating=seating)
        case PartnerInvited(player):
            return replace(state, invited=(*state.invited, player))
        case PartnerDeclined(player):
            return replace(state, declined=(*state.declined, player))  # the next is asked
        case SessionEnded():
            return replace(state, ended=True)
    return state  # pragma: no cover - every table event is matched above


def _corrections(state: TableState,
                 event: CorrectionProposed | CorrectionAnswered | Corrected) -> TableState:
    """The table after a correction is proposed, answered or made."""
    match event:
        case CorrectionProposed():
            return replace(state, corrections=state.corrections + 1,
                           proposals=(*state.proposals, (event, ())))
        case CorrectionAnswered(number, player, approved):
            return replace(state, proposals=tuple(
                (p, (*agreed, player)) if p.number == number else (p, agreed)
                for p, agreed in state.proposals if approved or p.number != number))
        case Corrected(number):
            return _correct(state, number)
    return state  # pragma: no cover - every correction event is matched above


def _moved_on(state: TableState, cube: Cube) -> TableState:
    """The state without the consents and sales asked about `cube`, which has moved on."""
    players = {cube.team_player, cube.box_player, cube.player(Side.TEAM), cube.player(Side.BOX)}
    return replace(state, asked=tuple(a for a in state.asked
                                      if not {a.player, a.across} <= players),
                   offers=tuple(o for o in state.offers
                                if o.seller not in (cube.team_player, cube.player(Side.TEAM))))


def _named(state: TableState, player: str, display: str) -> TableState:
    """The state knowing `display` as the latest name of `player`."""
    if not display or (player, display) in state.names:
        return state
    return replace(state, names=(*((k, n) for k, n in state.names if k != player),
                                 (player, display)))


def _correct(state: TableState, number: int) -> TableState:
    """The state with correction `number` made (its consent already given)."""
    found = state.proposal(number)
    if found is None:
        return state
    proposal = found[0]
    state = replace(state, proposals=tuple(p for p in state.proposals if p[0] is not proposal))
    if proposal.transfer is not None:
        return replace(state, sheet=state.sheet.add_game((proposal.transfer,)))
    game = state.game
    if game is None or game.before is None:
        return state
    restored = replace(game.before, dice_used=game.dice_used)  # dice thrown stay thrown
    board = (restored.position, restored.on_roll) if restored.position and restored.on_roll \
        else state.board
    return replace(state, game=restored, board=board)


def _game_gone(state: TableState, transfers: tuple[Transfer, ...],
               seating: Seating | None) -> TableState:
    """The table once its game is over or put on hold: the sheet entry and its roles, the
    next seating; the leavers gone and the newcomers seated."""
    members = tuple(replace(m, waiting=False) for m in state.members if not m.leaving)
    board = state.board
    if state.game is not None and state.game.position is not None:
        board = (state.game.position, state.game.on_roll or Side.BOX)
    roles = state.game_roles
    if state.seating is not None and state.game is not None:
        roles = (*roles, (state.seating.box, state.game.shooters[0]))
    return replace(state, members=members, seating=seating, game=None, board=board,
                   sheet=state.sheet.add_game(transfers), game_roles=roles,
                   proposals=no_undo(state.proposals), choices=(), declined=(),
                   invited=(), asked=(), offers=())


def replay(events: Iterable[Event], state: TableState | None = None) -> TableState:
    """The state after folding `events` into `state` (a new table by default)."""
    current = state or TableState()
    for event in events:
        current = evolve(current, event)
    return current


def _started(state: TableState, event: GameStarted) -> TableState:
    """The table once its game has started (the Captain shoots first)."""
    seating = state.seating
    assert seating is not None
    game = Game(event.number, event.cubes, (seating.captain,), position=event.position,
                on_roll=event.on_roll, dice=event.dice, dice_used=2 * len(event.opening))
    board = (event.position, event.on_roll) if event.position and event.on_roll else None
    commitments = state.commitments
    if event.commitment:
        commitments = (*commitments, (event.number, event.commitment, ""))
    carry = (seating.box, event.carried_over) if event.carried_over else None
    return replace(state, game=game, board=board, commitments=commitments, choices=(),
                   carry=carry)
