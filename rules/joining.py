"""Joining a table: a newcomer sits down, or asks to and is admitted.

Before the first seats are drawn anyone sits down (`join`); a table in session asks its
approval where the rule set wants it (`join_approval`): the Box's, no objection, or every
seated player's, and the Box's word on a stake above the basic one (Atlanta 2.2, 6.5).
A newcomer nobody objected to joins as the next game starts (`unopposed`, called by
`decide`).
"""

from __future__ import annotations

from rules import seating as sit
from rules.cite import citation
from rules.commands import Admit, BadCommand, Join, Object, Request, handles, sender
from rules.errors import NotYourTurn, RuleError, SeatingError
from rules.events import Event
from rules.messages import Phrase, Player
from rules.state import TableState, replay
from rules.table_events import JoinAnswered, JoinRequested, PlayerJoined, Seated


@handles(Join)
def _join(state: TableState, cmd: Join | Request) -> tuple[Event, ...]:
    """A player sits down: with the table's approval already given (a transcript, or the
    end of a `request`), or before the first seats are drawn."""
    player, stake, display = _newcomer(state, cmd)
    if state.game is not None:
        return (PlayerJoined(player, stake, waiting=True, display=display),)
    events: list[Event] = [PlayerJoined(player, stake, display=display)]
    if state.seating is not None:
        events.append(Seated(sit.join(state.seating, [player]),
                             Phrase("seated_joins", player=Player(player))))
    return tuple(events)


def _newcomer(state: TableState, cmd: Join | Request) -> tuple[str, int, str]:
    """The player, stake and name of a join or a request, checked against the table."""
    player = sender(cmd)
    if state.member(player):
        raise SeatingError(code="already_at_table", player=Player(player))
    if player in state.blinded:
        raise SeatingError(code="blinded_joins", player=Player(player))
    stake = cmd.stake
    if stake not in state.rules.stake_multiples:
        raise SeatingError(code="stake_not_played", stake=stake,
                           stakes=", ".join(map(str, state.rules.stake_multiples)))
    if len(state.members) >= state.rules.max_players:
        raise SeatingError(code="table_full", players=state.rules.max_players)
    return player, stake, cmd.name


def needs_approval(state: TableState) -> bool:
    """Whether a newcomer asks the table first: a table in session whose rule set wants
    approval (before the first seats are drawn, anyone sits down)."""
    return state.rules.join_approval != "open" and (
        state.seating is not None or state.games_played > 0)


@handles(Request)
def _request(state: TableState, cmd: Request) -> tuple[Event, ...]:
    """A newcomer asks to join (Atlanta 6.5 at the discretion of the Box or any player,
    FIBS §8 ¶1 unanimous, Villages 4 the Box's, Danish ¶4 if nobody objects)."""
    player, stake, display = _newcomer(state, cmd)
    if not needs_approval(state):
        return _join(state, cmd)
    if any(r.player == player for r, _ in state.requests):
        raise SeatingError(code="asked_already", player=Player(player))
    return (JoinRequested(player, stake, display),)


@handles(Admit, Object)
def _answer_request(state: TableState, cmd: Admit | Object) -> tuple[Event, ...]:
    by = sender(cmd)
    player = cmd.player
    found = next(((r, agreed) for r, agreed in state.requests if r.player == player), None)
    if found is None:
        raise BadCommand(code="not_asked", player=Player(player))
    request, agreed = found
    rule, seating = state.rules.join_approval, state.seating
    if by not in state.present:
        raise NotYourTurn(code="admit_players_only")
    if rule == "box" and seating is not None and by != seating.box:
        raise NotYourTurn(code="box_admits", box=Player(seating.box),
                          rule=citation(state, villages="Villages 4"))
    if by in agreed:
        raise NotYourTurn(code="admitted_already", player=Player(player))
    if isinstance(cmd, Object):
        return (JoinAnswered(player, by, False),)
    answered = JoinAnswered(player, by, True)
    if rule == "unanimous" and not set(state.present) <= {*agreed, by}:
        return (answered,)
    if not _stake_agreed(state, request, {*agreed, by}):
        return (answered,)  # Atlanta 2.2: a higher stake waits for the Box's word
    return (answered, *_admitted(state, request))


def _stake_agreed(state: TableState, request: JoinRequested, agreed: set[str]) -> bool:
    """A newcomer at more than the basic stake needs the Box's agreement (Atlanta 2.2)."""
    return request.stake == 1 or state.seating is None or state.seating.box in agreed


def _admitted(state: TableState, request: JoinRequested) -> tuple[Event, ...]:
    return _join(state, Join(by=request.player, stake=request.stake, name=request.display))


def unopposed(state: TableState) -> tuple[Event, ...]:
    """The joins of the newcomers nobody objected to, when the next game starts (the rule
    sets where a newcomer joins unless someone objects)."""
    events: list[Event] = []
    if state.rules.join_approval == "no_objection":
        for request, agreed in state.requests:
            if _stake_agreed(state, request, set(agreed)):
                try:
                    events += _admitted(replay(events, state), request)
                except RuleError:
                    continue  # the table filled up: he waits for a seat (asks again)
    return tuple(events)
