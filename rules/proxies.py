"""Who acts for an absent player: his proxy, that proxy's proxy, the Team's stand-in, or the
rule set's own answer for him (Atlanta 7.1, FIBS, Villages 13, euro ¶14).

Questions of the state only; the commands of absence (away, back, proxy, a disconnection, a
timeout) are rules/absence.py.
"""

from __future__ import annotations

from dataclasses import replace

from rules.cite import citation
from rules.commands import Command
from rules.cube import Side
from rules.cube_state import CubeState
from rules.errors import CubeNotAvailable, NotYourTurn, SeatingError
from rules.messages import Player, Players
from rules.roles import acting_captain, cube_of
from rules.state import TableState


def proxy_chain(state: TableState, player: str) -> list[str]:
    """Who may act for `player`: his proxy, that proxy's proxy, and so on."""
    chain: list[str] = []
    member = state.member(player)
    while member is not None and member.proxy and member.proxy not in chain:
        chain.append(member.proxy)
        member = state.member(member.proxy)
    return chain


def captain_now(state: TableState) -> str | None:
    """The Team's shooter now: the Acting Captain in a game, else the Captain."""
    if state.seating is None:
        return None
    if state.game is None:
        return state.seating.captain
    return acting_captain(state.seating, state.game.cubes)


def team_stand_in(state: TableState, player: str) -> str | None:
    """Who acts for an away Team `player` with no proxy, where the rule set names someone
    (`default_proxy = "captain"`): the Captain (the Acting Captain in a game), or when he is
    away too, the next Team player in order who is here (Atlanta 7.1, euro ¶14)."""
    captain = captain_now(state)
    if (state.rules.default_proxy != "captain" or captain is None or state.seating is None
            or player not in state.seating.team):
        return None
    team = list(state.seating.team)
    start = team.index(captain) if captain in team else 0
    return next((p for p in team[start:] + team[:start] if p != player
                 and (m := state.member(p)) is not None and not m.away), None)


def stand_in(state: TableState, player: str) -> str | None:
    """Who answers for an away `player`: the end of his proxy chain, else the Team's
    stand-in above (None where the rule set answers by itself)."""
    chain = proxy_chain(state, player)
    return chain[-1] if chain else team_stand_in(state, player)


def answerer(state: TableState, player: str) -> str | None:
    """Who is asked for `player`'s decision: his stand-in while he is away (None if nobody
    stands in), else he."""
    member = state.member(player)
    return stand_in(state, player) if member is not None and member.away else player


def may_act_for(state: TableState, by: str, player: str) -> bool:
    """Whether `by` may send commands for `player` (a proxy, or the Team's stand-in)."""
    if by == player or by in proxy_chain(state, player):
        return True
    member = state.member(player)
    return (member is not None and member.away and not member.proxy
            and by == team_stand_in(state, player))


def on_behalf(state: TableState, command: Command) -> Command:
    """The command as its principal's own when it is sent `for` someone by a proxy."""
    principal = command.for_
    if principal is None:
        return command
    if state.member(principal) is None:
        raise SeatingError(code="not_at_table_quoted", player=Player(principal))
    if not may_act_for(state, command.by, principal):
        who = proxy_chain(state, principal)
        if not who:
            raise NotYourTurn(code="not_his_proxy_nobody", by=Player(command.by),
                              player=Player(principal))
        raise NotYourTurn(code="not_his_proxy", by=Player(command.by), player=Player(principal),
                          proxy=Player(who[0]))
    return replace(command, by=principal, for_=None)


def unnamed_absentees(state: TableState, doubled: list[str], live: list[str]) -> None:
    """Refuse a Box double of an away player who named nobody to control his cube unless it
    goes to the entire Team still in the game (`live`), where the rule set deems his take
    (Villages 13: "The Cube of an absent player cannot be offered in their absence unless
    someone has been nominated"; offered "to the entire team", it is "deemed to be accepted")."""
    if state.rules.default_proxy != "take" or set(live) <= set(doubled):
        return
    absent = [p for p in doubled if (m := state.member(p)) is not None and m.away
              and not m.proxy]
    if absent:
        raise CubeNotAvailable(code="absent_cube_unnamed", absent=Players(absent),
                               live=Players(live), rule=citation(state, villages="Villages 13"))


def absent_decisions(state: TableState) -> list[tuple[str, str]]:
    """The answers the rule set gives for away Team players with no proxy, as (player,
    action): deemed to take (Villages 13), or the Captain's own answer once he has given it
    (FIBS). Where the Captain acts for them (Atlanta 7.1) there are none: he answers."""
    game = state.game
    rule = state.rules.default_proxy
    if game is None or rule == "captain":
        return []
    captain = captain_now(state)
    lead = cube_of(game, captain) if captain else None
    decisions = []
    # A Team player who left the table since (a game held over, FIBS §6 ¶2) counts as away.
    for name in state.seating.team if state.seating else ():
        member, cube = state.member(name), cube_of(game, name)
        if ((member is not None and (not member.away or member.proxy)) or cube is None
                or (name == captain and rule == "follow_captain")
                or cube.to_act is not Side.TEAM or cube.state is not CubeState.OFFERED):
            continue
        if rule == "take":
            decisions.append((name, "take"))
        elif lead is not None and lead.state is not CubeState.OFFERED:
            decisions.append((name, "drop" if lead.state is CubeState.DROPPED else "take"))
    return decisions
