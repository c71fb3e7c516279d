"""A game's result given by the players: whose word ends the game (`result_agreement`).

`result` is a player's word on who won and how: how every game ends in scorekeeper mode
(the board is the players' own), and in play mode a game agreed before it is played out. A
moderator's word, or the table monitor's (a transcript's line), is the result at once.
Otherwise the rule set says who must agree: under "sides" (Atlanta silent: the project's
reading) the Box side gives it and the Captain confirms it, or the other way round; under
"everyone" (FIBS §4 ¶1c "everybody has agreed on the result") every player with a cube
still in the game agrees, each with the same `result` (the board's Confirm the result).
"""

from __future__ import annotations

from rules.authority import is_moderator
from rules.board import GameKind
from rules.cite import citation
from rules.commands import BadCommand, Result, handles
from rules.cube import Side
from rules.errors import NotYourTurn
from rules.events import Event, ResultProposed
from rules.game import game_over, in_game, no_pending
from rules.messages import Phrase, Player, Players
from rules.proxies import captain_now
from rules.roles import acting_captain
from rules.state import TableState


def result_side(state: TableState, player: str) -> Side | None:
    """The side whose word on a result `player` gives under "sides": the Box side (the Box
    or his Partner), or the Team's (the Captain, the Acting Captain once he is out)."""
    seating, game = state.seating, state.game
    if seating is None:
        return None
    if player in (seating.box, seating.partner):
        return Side.BOX
    captain = (acting_captain(seating, game.cubes) if game else None) or seating.captain
    return Side.TEAM if player == captain else None


def confirmers(state: TableState) -> tuple[str, ...]:
    """Who may still confirm the result given (none when none is given): under "everyone"
    those still to agree; under "sides" the other side's players."""
    game, seating = state.game, state.seating
    offer = game.offer if game is not None else None
    if offer is None or seating is None:
        return ()
    if state.rules.result_agreement == "everyone":
        return offer.waiting
    return tuple(p for p in seating.players if result_side(state, p) not in (None, offer.side))


def must_agree(state: TableState) -> tuple[str, ...]:
    """Who agrees on a result under "everyone": every player on either side of a cube still
    in the game (a buyer of a game, a giver of an extra too), and a Partner who shares the
    Box's cubes; the seated players in seating order, then any others."""
    game, seating = in_game(state)
    who = {p for c in game.cubes if c.live for p in (c.player(Side.TEAM), c.box_player)}
    if seating.partner is not None and seating.box in who:
        who.add(seating.partner)  # shared cubes: his share is at stake; own: his cubes are
    seated = [p for p in (seating.box, seating.partner, *seating.team) if p in who]
    return (*seated, *sorted(who - set(seated)))


def _waiting(state: TableState, agreed: tuple[str, ...]) -> tuple[str, ...]:
    """Who must still agree once `agreed` have. An away player with no proxy who "does what
    the captain does" (`default_proxy = "follow_captain"`, FIBS §5 ¶1) agrees with him."""
    follows = state.rules.default_proxy == "follow_captain" and captain_now(state) in agreed
    return tuple(p for p in must_agree(state) if p not in agreed and not (
        follows and (m := state.member(p)) is not None and m.away and not m.proxy))


@handles(Result)
def _result(state: TableState, cmd: Result) -> tuple[Event, ...]:
    in_game(state)  # in play mode too: a game resigned or agreed before it is played out
    no_pending(state, Phrase("doing_result"))
    winner, kind = cmd.winner, cmd.kind
    if winner not in ("box", "team") or kind not in ("single", "gammon", "backgammon"):
        raise BadCommand(code="result_form")
    won, how = Side(winner), GameKind[kind.upper()]
    if is_moderator(cmd):  # the monitor's or a moderator's word is the result
        return (game_over(state, won, how),)
    offer = state.game.offer if state.game else None
    same = offer if offer is not None and (offer.winner, offer.kind) == (won, kind) else None
    if state.rules.result_agreement == "everyone":
        return _everyone(state, cmd.by, won, kind, same)
    side = result_side(state, cmd.by)
    if side is None:
        raise NotYourTurn(code="result_givers")
    if same is not None and same.side is not side:
        return (game_over(state, won, how),)
    if same is not None:
        raise NotYourTurn(code="result_given_by_box" if side is Side.BOX
                          else "result_given_by_team", by=Player(same.by))
    return (ResultProposed(won, kind, cmd.by, side),)


def _everyone(state: TableState, by: str, won: Side, kind: str,
              same: ResultProposed | None) -> tuple[Event, ...]:
    """FIBS §4 ¶1c: `by` agrees to the result; the game ends once nobody is left to agree.
    A different result from anyone starts the agreement afresh; agreeing twice is refused,
    saying who is still to agree."""
    need = must_agree(state)
    rule = citation(state, fibs="FIBS §4 ¶1c")
    if by not in need:
        raise NotYourTurn(code="result_by_everyone", need=Players(need), rule=rule)
    if same is not None and by in same.agreed:
        raise NotYourTurn(code="result_agreed", waiting=Players(same.waiting), rule=rule)
    agreed = (*same.agreed, by) if same is not None else (by,)
    waiting = _waiting(state, agreed)
    if not waiting:
        return (game_over(state, won, GameKind[kind.upper()]),)
    seating = state.seating
    side = Side.BOX if seating is not None and by in (seating.box, seating.partner) else Side.TEAM
    return (ResultProposed(won, kind, by, side, agreed, waiting),)
