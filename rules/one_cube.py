"""FIBS's one cube (§2): the Captain turns the initial cube for the whole Team, and a Box
side of two answers a later double each for his half (¶11).

The cubes stay one per Team player (`Cube`); with `single_cube` they are turned together.
"""

from __future__ import annotations

from rules.commands import BadCommand
from rules.cube import Cube, Side
from rules.cube_state import verb
from rules.errors import NotYourTurn, RuleError
from rules.events import (
    CubeTurned,
    DoublesAnswered,
    Event,
    HalfAnswered,
    PartnershipSettled,
    PointsPaid,
)
from rules.ledger import Transfer
from rules.messages import Phrase, Player, Players
from rules.roles import acting_captain, cube_between, team_doubles
from rules.seating import Seating
from rules.state import Game, TableState


def team_turns_the_cube(game: Game, seating: Seating, cube: Cube,
                         by: str) -> tuple[Event, ...]:
    """§2 ¶2, ¶8: the Captain alone turns the initial cube; a later cube any player may turn.
    Either way it turns for every Team player still in the game with it (a player who
    disagrees sells his game: `rules/settlement.py`)."""
    initial = cube.owner is None
    captain = acting_captain(seating, game.cubes)
    if initial and by != captain:
        raise NotYourTurn(code="one_cube_captain", captain=Player(str(captain)))
    cube.offer(Side.TEAM)  # the cube's own refusal, if any, for the player who asked
    together = [c for p in seating.team if (c := cube_between(game, p, seating.box))
                is not None and c.live and c.may_double(Side.TEAM) and c.value == cube.value]
    return tuple(CubeTurned(c.offer(Side.TEAM), "double", by) for c in together)


def half_answerable(state: TableState) -> list[str]:
    """FIBS §2 ¶11: Team players whose redouble of a later cube waits for a Box side that
    shares one cube and has not settled between them: the Partner may answer his half
    (empty where he may not)."""
    game, seating = state.game, state.seating
    if (game is None or seating is None or seating.partner is None
            or not state.rules.single_cube or state.rules.partner_cubes == "own"
            or game.box_holder or game.shared_until is not None):
        return []
    offered = team_doubles(game, seating, seating.box)
    return offered if all(cube_between(game, p, seating.box).owner  # type: ignore[union-attr]
                          for p in offered) else []


def half_answer(state: TableState, game: Game, seating: Seating,
                 decisions: dict[str, str]) -> tuple[Event, ...]:
    """The Partner answers a later Team double for his half, before the Box answers his."""
    offered = half_answerable(state)
    actions = set(decisions.values())
    if set(decisions) != set(offered) or len(actions) != 1 or actions - {"take", "drop"}:
        raise BadCommand(code="half_together", players=Players(offered))
    if game.half_answer:
        raise RuleError(code="half_answered", answer=verb(game.half_answer))
    return (HalfAnswered(seating.partner or "", actions.pop()),)


def halves_answered(state: TableState, game: Game, seating: Seating, offered: list[str],
                     taken: bool) -> list[Event]:
    """FIBS §2 ¶11: the Box and his Partner answered differently: the one who takes plays
    on alone for his half of the doubled cubes, the other pays his half of the drop (and a
    Box who dropped is his Partner's slave)."""
    partner = seating.partner or ""
    taker, dropper = (seating.box, partner) if taken else (partner, seating.box)
    events: list[Event] = []
    for player in offered:
        cube = cube_between(game, player, seating.box)
        assert cube is not None
        _, paid = cube.drop()
        events += [CubeTurned(cube.take(), Phrase("turned_half_dropped",
                                                  dropper=Player(dropper)), taker),
                   PointsPaid(Transfer(dropper, paid.payee, paid.points / 2,
                                       f"{dropper} dropped their half of the double"), own=True)]
    events.append(PartnershipSettled(taker, half=True))
    if state.mode == "play":
        events.append(DoublesAnswered())
    return events
