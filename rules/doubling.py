"""Doubles at a chouette table: the Team's, the Box's, and a double taken back.

The Team doubles one by one before the Captain's roll, in rotation order where the rule set
says so (Villages 11, euro ¶4), and the Box answers them as a set; the Box doubles all or
some of the cubes (Atlanta 5.6, Danish same level) and each Team player answers his own.
Where a Partner has cubes of his own (`partner_cubes = "own"`: Danish ¶19, euro ¶9) the Box
side is a side of several players like the Team: a Team player's double turns his cube
against each of them, and the Partner doubles and answers his own cubes as the Box does his
(`boxer` below is either). The answers and their rules are rules/answers.py.
"""

from __future__ import annotations

from rules.answers import absentee_answers
from rules.cite import citation
from rules.commands import BadCommand, Double, Withdraw, handles, sender
from rules.cube import Side
from rules.cube_state import CubeState
from rules.errors import CubeNotAvailable, NotYourTurn
from rules.events import AnswersInOrder, CubeTurned, Event
from rules.game import finish, in_game, no_pending
from rules.messages import Phrase, Player, Players
from rules.one_cube import team_turns_the_cube
from rules.proxies import unnamed_absentees
from rules.roles import box_cubes, box_decider, boxer_of, cube_between, cubes_of
from rules.seating import Seating
from rules.state import Game, TableState


@handles(Double)
def _double(state: TableState, cmd: Double) -> tuple[Event, ...]:
    game, seating = in_game(state)
    by = sender(cmd)
    boxer = boxer_of(state, by)
    if boxer is None and by in (seating.box, seating.partner):
        raise NotYourTurn(code="box_side_turns", decider=Player(box_decider(state)),
                          box=Player(seating.box))
    side = Side.BOX if boxer else Side.TEAM
    if state.mode == "play":
        if game.on_roll is not side:
            raise NotYourTurn(code="box_on_roll" if game.on_roll is Side.BOX
                              else "team_on_roll")
        if game.dice is not None:
            raise NotYourTurn(code="double_before_roll")
    if boxer is not None:  # the other Box-side player's doubles may still wait for answers
        no_pending(state, Phrase("doing_new_double"), but=lambda c: c.state is CubeState.OFFERED
                   and c.offered_by is Side.BOX and c.box_player != boxer)
        return _box_double(state, game, seating, cmd, boxer)
    mine = cubes_of(game, by)  # his own and the games he bought, against each Box-side player
    if not mine:
        raise NotYourTurn(code="no_cube_in_game", player=Player(by))
    if others := [p for p in cmd.cubes or () if p not in {c.team_player for c in mine}]:
        raise BadCommand(code="double_own_cube", others=Players(others))
    cube = next((c for c in mine if c.may_double(Side.TEAM)), mine[0])
    # Other Team doubles may wait for the Box's answer: he answers them together.
    no_pending(state, Phrase("doing_new_double"), but=lambda c: c.state is CubeState.OFFERED
               and c.offered_by is Side.TEAM)
    if game.answered:
        raise CubeNotAvailable(code="box_answered")
    if state.rules.single_cube:
        return team_turns_the_cube(game, seating, cube, by)
    _in_rotation(state, game, seating, cube.team_player)
    cube.offer(Side.TEAM)  # the cube's own refusal, if none may be doubled
    return tuple(CubeTurned(c.offer(Side.TEAM), "double", by) for c in mine
                 if c.may_double(Side.TEAM))


def _in_rotation(state: TableState, game: Game, seating: Seating, by: str) -> None:
    """The Team's doubles of one turn in rotation order, Captain first: a player above one
    who has doubled has let his turn pass. `team_double_order = "rotation"` (euro ¶4 "Cube
    actions are made in Team order"): every double of the turn; `"after_opener"` (Villages
    11 "once ... any member of his Crew doubles, every member (in order) shall decide"): the
    doubles after the first, whoever made it (he said "wait"). Players are their seats (`by`
    of a game sold is its seat)."""
    rule = state.rules.team_double_order
    later = game.team_round[1:] if rule == "after_opener" else game.team_round
    if rule not in ("rotation", "after_opener") or not later or by not in seating.team:
        return
    order = list(seating.team)
    last = order.index(later[-1])
    if order.index(by) < last:
        still = [p for p in order[last + 1:] if p not in game.team_round
                 and (c := cube_between(game, p, seating.box)) is not None and c.live]
        raise NotYourTurn(code="rotation_passed" if still else "rotation_passed_all",
                          by=Player(by), doubler=Player(later[-1]), still=Players(still))


def _box_double(state: TableState, game: Game, seating: Seating,
                cmd: Double, boxer: str) -> tuple[Event, ...]:
    cubes = box_cubes(game, seating, boxer)
    eligible = [p for p, c in cubes.items() if c.may_double(Side.BOX)]
    names = cmd.cubes
    if names is None or state.rules.single_cube:  # with one cube the Box turns it for all
        names = tuple(eligible)
    for name in names:
        if name not in cubes:
            raise BadCommand(code="no_cube_against_you", player=Player(name),
                             team=Players(seating.team))
        if name not in eligible:
            cubes[name].offer(Side.BOX)  # raises the cube's own reason
            raise CubeNotAvailable(code="cannot_double_his", player=Player(name))
    if not names:
        raise CubeNotAvailable(code="no_cube_to_double")
    chosen = [p for p in seating.team if p in names]
    unnamed_absentees(state, chosen, [p for p, c in cubes.items() if c.live])
    rule = state.rules.box_double_rule
    if rule == "captain_first":
        centred = [p for p in eligible if cubes[p].owner is None]
        initial = [p for p in chosen if cubes[p].owner is None]
        if initial != centred[:len(initial)]:
            raise CubeNotAvailable(code="captain_first", players=Players(centred[:len(initial)]),
                                   rule=citation(state, "Atlanta 5.6"))
    elif rule == "same_level":
        for p in chosen:
            level = [q for q in eligible if cubes[q].value == cubes[p].value]
            if not set(level) <= set(chosen):
                raise CubeNotAvailable(code="double_same_level", players=Players(level),
                                       face=cubes[p].face)
    events: list[Event] = [CubeTurned(cubes[p].offer(Side.BOX), "double", boxer)
                           for p in chosen]
    if cmd.in_order:
        if state.rules.team_answer_order != "box_choice":
            raise BadCommand(code="box_orders_answers", rule=citation(state, "Atlanta 5.8"))
        events.append(AnswersInOrder())
    return finish(state, events + absentee_answers(state, events))


@handles(Withdraw)
def _withdraw(state: TableState, cmd: Withdraw) -> tuple[Event, ...]:
    """The doubler takes back a double not yet answered, where the rule set allows it (FIBS
    "if a player accidentally turns the cube ... that can be recovered")."""
    game, seating = in_game(state)
    by = sender(cmd)
    if not state.rules.withdraw_double:
        raise CubeNotAvailable(code="double_stands")
    boxer = boxer_of(state, by)
    side = Side.BOX if boxer else Side.TEAM
    names = [by]
    if side is Side.BOX or state.rules.single_cube:  # one cube: taken back for all
        names = list(cmd.cubes or seating.team)
    mine = [c for c in game.cubes if {c.team_player, c.player(Side.TEAM)} & set(names)
            and not c.is_extra
            and c.state is CubeState.OFFERED and c.offered_by is side
            and (side is Side.TEAM or c.box_player == boxer)]
    if not mine:
        raise NotYourTurn(code="nothing_to_withdraw")
    return tuple(CubeTurned(c.withdraw(), "double withdrawn", by) for c in mine)
