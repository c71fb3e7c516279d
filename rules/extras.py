"""Extras (Atlanta 5.7; Danish sell cube ¶16): a player who dropped the Box's double gives
the taker a cube of his own, and the taker answers the extras offered together.

`extra`: the dropper pays the taker the undoubled value and offers him a new cube at double
it. Several droppers may offer at once: the lone taker answers "the offered extras"
together, with `take`, `beaver` or `drop` naming the givers (`cubes`; all of them when none
is named: rules/doubling.py), or `retract`: he drops the Box's double instead, and every
extra he holds lapses, its premium back.
"""

from __future__ import annotations

from fractions import Fraction

from rules.cite import citation
from rules.commands import Extra, Retract, handles, sender
from rules.cube import Cube, Side
from rules.cube_state import CubeState
from rules.errors import CubeNotAvailable, NotYourTurn
from rules.events import CubeTurned, Event, PointsPaid
from rules.game import finish, in_game, no_pending
from rules.ledger import Transfer, pay
from rules.lone_taker import round_is_everyone
from rules.messages import Phrase, Player
from rules.roles import cube_of
from rules.state import Game, TableState


def _rule(state: TableState) -> str:
    return citation(state, "Atlanta 5.7", fibs="FIBS §2 ¶6", danish="Danish ¶16")


@handles(Extra)
def _extra(state: TableState, cmd: Extra) -> tuple[Event, ...]:
    """A player who dropped the Box's double gives an extra to a taker (Atlanta 5.7: the
    lone taker of a double of every cube; Danish: sells his cube to the highest-ranking
    taker): he pays the undoubled value and the taker holds a new cube against him at
    double it, which he takes, beavers or drops. Other extras may be waiting already: the
    taker answers them together."""
    game, seating = in_game(state)
    giver = sender(cmd)
    rules = state.rules
    if rules.extras == "none":
        why = citation(state, villages="Villages 8: a lone taker beavers instead",
                       euro="euro ¶10: only if agreed when the table is opened",
                       danish="Danish ¶16: a variation, agreed when the table is opened")
        raise CubeNotAvailable(code="no_extras", rule=why)
    if len(seating.players) < rules.extras_min_players:
        raise CubeNotAvailable(code="no_extras_under", players=rules.extras_min_players,
                               rule=citation(state, fibs="FIBS §2 ¶6"))
    if game.on_roll is Side.TEAM or game.dice is not None:
        raise NotYourTurn(code="extras_when")
    no_pending(state, Phrase("doing_extra"),
               but=lambda c: c.is_extra and c.state is CubeState.OFFERED)
    own = cube_of(game, giver)
    if own is None or giver not in game.box_round or own.winner is not Side.BOX:
        raise CubeNotAvailable(code="extras_givers")
    takers = [p for p in game.box_round if (c := cube_of(game, p)) is not None and c.live]
    if rules.extras == "lone_taker" and (len(takers) != 1
                                         or not round_is_everyone(game, seating)):
        raise CubeNotAvailable(code="extras_lone_taker", rule=_rule(state))
    if not takers:
        raise CubeNotAvailable(code="extras_no_taker")
    taker = takers[0]
    if cmd.to is not None and cmd.to != taker:
        raise CubeNotAvailable(code="extra_goes_to", taker=Player(taker))
    if any(c.team_player == taker and c.box_player == giver for c in game.cubes):
        raise CubeNotAvailable(code="extra_given", taker=Player(taker))
    cube, premium = Cube.extra(giver, taker, value=own.value, stake=own.stake)
    return (CubeTurned(cube, "extra", giver), PointsPaid(premium))


@handles(Retract)
def _retract(state: TableState, cmd: Retract) -> tuple[Event, ...]:
    """Atlanta 5.7: the lone taker, rather than accept the extras offered, drops the Box's
    double after all: he pays the value before it, and every extra he holds lapses (those
    he took already too: the extras are answered together, so he can't keep one and drop
    the cube they came with), each premium going back to the player who gave it."""
    game, _ = in_game(state)
    taker = sender(cmd)
    offered = [c for c in game.cubes if c.is_extra and not c.penalty and c.team_player == taker
               and c.state is CubeState.OFFERED]
    own = cube_of(game, taker)
    if not offered or own is None:
        raise CubeNotAvailable(code="retract_lone_taker", rule=_rule(state))
    held = [c for c in game.cubes if c.is_extra and not c.penalty and c.team_player == taker
            and c.live]
    dropped, paid = own.retract_take()
    events: list[Event] = [CubeTurned(dropped, "drop after all", taker), PointsPaid(paid)]
    for extra in held:
        giver = extra.box_player
        events += [CubeTurned(extra.void(), "extra lapses", taker),
                   *(PointsPaid(t) for t in pay(taker, giver, _premium(game, extra).points,
                                                f"{giver}'s premium back"))]
    return finish(state, events)


def _premium(game: Game, extra: Cube) -> Transfer:
    """The premium paid for `extra` when it was offered (its giver to its taker): the
    undoubled value of the cube it was offered at."""
    giver, taker = extra.box_player, extra.team_player
    found = next((t for t in game.transfers if t.payer == giver and t.payee == taker
                  and t.reason.startswith(f"{giver} gave {taker} an extra")), None)
    return found or Transfer(giver, taker, Fraction(max(1, extra.value // 2) * extra.stake))
