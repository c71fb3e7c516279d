"""Absent players at a chouette table: away and back, proxies, acting for another, timeouts.

A Team player who steps away may appoint a proxy, who may appoint another, and so on
(Atlanta 7.1); any command may then be sent by a proxy `for` the player. With no proxy an
away player is looked after as the rule set says: the Captain acts for him (Atlanta 7.1,
euro), he does what the Captain does (FIBS), or his cube is deemed to take (Villages 13).
A decision that times out is handled by `timeout_action`: the player is treated as away
(then as above), or takes, or drops.
"""

from __future__ import annotations

from rules import seating as sit
from rules.answers import absentee_answers, decided, waiting_on
from rules.authority import is_moderator
from rules.commands import Away, Back, Disconnect, Proxy, Timeout, handles, sender
from rules.errors import NotYourTurn, RuleError, SeatingError
from rules.events import Event
from rules.game import finish, in_game, shooter, waiting_for
from rules.holdover import shooter_timed_out
from rules.messages import Phrase, Player
from rules.proxies import proxy_chain
from rules.state import TableState, replay
from rules.table_events import PlayerAway, ProxyAppointed, Seated


@handles(Away, Back)
def _away(state: TableState, cmd: Away | Back) -> tuple[Event, ...]:
    player = sender(cmd)
    member = state.member(player)
    if member is None:
        raise SeatingError(code="not_at_table", player=Player(player))
    away = isinstance(cmd, Away)
    if member.away == away:
        raise RuleError(code="already_away" if away else "already_back", player=Player(player))
    if away or not member.out or state.game is not None or state.seating is None:
        return (PlayerAway(player, away),)
    return (PlayerAway(player, False), Seated(sit.join(state.seating, [player]),
                                              Phrase("seated_back", player=Player(player))))


@handles(Proxy)
def _proxy(state: TableState, cmd: Proxy) -> tuple[Event, ...]:
    player = sender(cmd)
    if state.member(player) is None:
        raise SeatingError(code="not_at_table", player=Player(player))
    proxy = cmd.player
    if proxy is not None:
        if proxy == player or state.member(proxy) is None:
            raise SeatingError(code="proxy_not_a_player", proxy=Player(proxy))
        seating = state.seating
        box_side = (seating.box, seating.partner) if seating else ()
        if seating is not None and (player in box_side) != (proxy in box_side) and (
                proxy in seating.players):
            raise SeatingError(code="proxy_other_side", proxy=Player(proxy))
        if player in [proxy, *proxy_chain(state, proxy)]:
            raise SeatingError(code="proxy_circle", proxy=Player(proxy))
    return (ProxyAppointed(player, proxy),)


@handles(Disconnect)
def _disconnect(state: TableState, cmd: Disconnect) -> tuple[Event, ...]:
    """`player` was cut off (FIBS §6; on Discord a moderator reports it): he is away, his
    stand-in or the rule set acts for him, and where `disconnected_loses_place` he loses
    his place if he is not back when the next game starts. Only a moderator (or the
    table's monitor) reports it: a player can't have another marked away."""
    sender(cmd)
    if not is_moderator(cmd):
        raise NotYourTurn(code="disconnect_moderators")
    player = cmd.player
    member = state.member(player)
    if member is None:
        raise SeatingError(code="not_at_table", player=Player(player))
    if member.disconnected:
        raise RuleError(code="already_disconnected", player=Player(player))
    away: list[Event] = [PlayerAway(player, True, disconnected=True)]
    return finish(state, away + absentee_answers(state, away)) if state.game else tuple(away)


@handles(Timeout)
def _timeout(state: TableState, cmd: Timeout) -> tuple[Event, ...]:
    """A player's decision timer ran out (the service sends this, not a player): he is
    treated as away (his proxy or the rule set's stand-in acts), or takes, or drops. If he
    is away already, nobody answered for him in time either: his cube is dropped."""
    game, _ = in_game(state)
    player = cmd.player
    waiting = waiting_on(game, player)
    if not waiting and player == shooter(state) and not waiting_for(state):
        return shooter_timed_out(state, player)  # his time to roll or play ran out
    if not waiting:
        raise NotYourTurn(code="no_decision_waiting", player=Player(player))
    action, why = state.rules.timeout_action, "answered_timed_out"
    if action == "proxy":
        member = state.member(player)
        if member is None or not member.away:
            away: list[Event] = [PlayerAway(player, True)]
            return finish(state, away + absentee_answers(state, away))
        # nobody answered for him in time either: the table can't wait for ever, and a
        # drop risks no more than the cube's value (a reading)
        action, why = "drop", "answered_late"
    events: list[Event] = []
    for cube in waiting:
        events += decided(replay(events, state), cube, action, player, why)
    return finish(state, events)
