"""Cube actions at a chouette table: doubles, answers, beavers, raccoons, and their rules.

The Team doubles one by one before the Captain's roll and the Box answers the doubles as a
set, so the acceptance rules of the rule set can be checked as a whole (Atlanta 5.10-5.11,
Danish same level, euro at least half, FIBS all or none); the Box doubles all or some of the
cubes (Atlanta 5.6, Danish same level) and each Team player answers his own, in rotation
order where the rule set says so (Atlanta 5.8, Danish). Where a Partner has cubes of his own
(`partner_cubes = "own"`: Danish ¶19, euro ¶9) the Box side is a side of several players
like the Team: a Team player's double turns his cube against each of them, and the Partner
doubles and answers his own cubes as the Box does his (`boxer` below is either).
"""

from __future__ import annotations

from rules.answers import awaiting, extras_waiting
from rules.cite import citation
from rules.commands import (
    Aardvark,
    Answer,
    BadCommand,
    Beaver,
    CubeAnswer,
    Double,
    Drop,
    Raccoon,
    Take,
    Withdraw,
    handles,
    sender,
)
from rules.cube import STATES, Cube, CubeState, Side, verb
from rules.errors import CubeNotAvailable, NotYourTurn
from rules.events import (
    AnswersInOrder,
    CubeTurned,
    DoublesAnswered,
    Event,
    PointsPaid,
)
from rules.game import finish, in_game, no_pending
from rules.lone_taker import lone_taker, lone_taker_beavers
from rules.messages import Phrase, Player, Players
from rules.one_cube import half_answer, half_answerable, halves_answered, team_turns_the_cube
from rules.proxies import absent_decisions, unnamed_absentees
from rules.roles import (
    acting_captain,
    box_cubes,
    box_decider,
    boxer_of,
    cube_between,
    cubes_of,
    team_doubles,
)
from rules.seating import Seating
from rules.state import Game, TableState, replay

_TEAM_ANSWERS = ("take", "beaver", "drop")


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


# -- answers ---------------------------------------------------------------------------------


@handles(Answer)
def _answer(state: TableState, cmd: Answer) -> tuple[Event, ...]:
    game, seating = in_game(state)
    boxer = boxer_of(state, cmd.by)
    decisions: dict[str, str] = {}
    for action, players in zip(_TEAM_ANSWERS, (cmd.take, cmd.beaver, cmd.drop), strict=True):
        for player in players:
            if player in decisions:
                raise BadCommand(code="answered_twice", player=Player(player))
            decisions[player] = action
    if boxer is None and cmd.by == seating.partner and half_answerable(state):
        return half_answer(state, game, seating, decisions)
    if boxer is None:
        raise NotYourTurn(code="box_answers_only", decider=Player(box_decider(state)))
    return _box_answers(state, game, seating, decisions, whole=True, boxer=boxer)


def _box_answers(state: TableState, game: Game, seating: Seating, decisions: dict[str, str],
                 whole: bool, boxer: str) -> tuple[Event, ...]:
    offered = team_doubles(game, seating, boxer)
    if not offered:
        raise CubeNotAvailable(code="no_team_double")
    strays = [p for p in decisions if p not in offered]
    if strays:
        raise BadCommand(code="no_double_waiting", strays=Players(strays),
                         offered=Players(offered))
    missing = [p for p in offered if p not in decisions]
    constrained = state.rules.box_take_rule != "free" and len(offered) > 1
    if missing and (whole or constrained):
        raise CubeNotAvailable(code="answer_together", offered=Players(offered),
                               missing=Players(missing))
    actions = set(decisions.values())
    if game.half_answer and actions != {game.half_answer}:
        if missing or actions not in ({"take"}, {"drop"}):
            raise CubeNotAvailable(code="partner_half", answer=verb(game.half_answer),
                                   rule=citation(state, fibs="FIBS §2 ¶11"))
        return finish(state, halves_answered(state, game, seating, offered, "take" in actions))
    if not missing:
        _check_box_takes(state, game, seating, offered, decisions, boxer)
    events: list[Event] = []
    for player in offered:
        if player in decisions:
            cube = cube_between(game, player, boxer)
            assert cube is not None
            events += _apply(state, cube, decisions[player], boxer)
    if not missing and state.mode == "play" and not _still_offered(state, events):
        events.append(DoublesAnswered())
    return finish(state, events)


def _still_offered(state: TableState, events: list[Event]) -> bool:
    """Whether Team doubles still wait for an answer once `events` are in (the other
    Box-side player's, where the Partner has cubes of his own)."""
    after = replay(events, state).game
    return after is not None and any(c.state is CubeState.OFFERED and c.offered_by is Side.TEAM
                                     for c in after.cubes)


def _check_box_takes(state: TableState, game: Game, seating: Seating, offered: list[str],
                     decisions: dict[str, str], boxer: str) -> None:
    """The Box's acceptance constraints over a whole set of Team doubles (Atlanta 5.10,
    5.10a, 5.11; Danish same level; euro at least half; FIBS all or none)."""
    rules = state.rules
    taken = [p for p in offered if decisions[p] != "drop"]
    cubes = {p: c for p in offered if (c := cube_between(game, p, boxer)) is not None}
    initial = all(c.owner is None for c in cubes.values())
    live = [p for p, c in box_cubes(game, seating, boxer).items() if c.live]
    from_centre = initial and len(offered) >= 2 and set(offered) == set(live)
    three = rules.three_handed_initial
    if from_centre and len(seating.players) == 3 and three != "as_box_take_rule":
        if three == "both" and len(taken) != 2:
            raise CubeNotAvailable(code="three_take_both", rule=citation(state, euro="euro ¶6"))
        if three == "both_or_none" and len(taken) == 1:
            raise CubeNotAvailable(code="three_both_or_none",
                                   rule=citation(state, "Atlanta 5.10a", euro="euro ¶6"))
        return
    rule = rules.box_take_rule
    if rule == "same_level":
        for p in offered:
            level = [q for q in offered if cubes[q].value == cubes[p].value]
            if len({decisions[q] == "drop" for q in level}) > 1:
                raise CubeNotAvailable(code="take_same_level", players=Players(level),
                                       rule=citation(state, danish="Danish ¶7"))
    elif rule == "all_or_none" and initial and 0 < len(taken) < len(offered):
        raise CubeNotAvailable(code="all_or_none", rule=citation(state, fibs="FIBS §2 ¶4"))
    elif rule in ("half", "half_captain_first") and from_centre and taken:
        if 2 * len(taken) < len(offered):
            half = citation(state, "Atlanta 5.10", euro="euro ¶6")
            raise CubeNotAvailable(code="take_half", least=(len(offered) + 1) // 2,
                                   count=len(offered), rule=half)
        if rule == "half_captain_first" and taken != offered[:len(taken)]:
            raise CubeNotAvailable(code="take_captain_first", players=Players(offered[:len(taken)]),
                                   rule=citation(state, "Atlanta 5.10"))


def _apply(state: TableState, cube: Cube, action: str, by: str, why: str = "") -> list[Event]:
    """One player's answer to a pending turn of `cube`, as events (`why`: the reason
    someone else gave it for him)."""
    rules = state.rules
    if action == "take":
        return [CubeTurned(cube.take(), "take", by, why)]
    if action == "beaver":
        return [CubeTurned(cube.beaver(allowed=rules.beavers), "beaver", by, why)]
    if action == "raccoon":
        return [CubeTurned(cube.raccoon(allowed=rules.raccoons != "never"), "raccoon", by, why)]
    if action == "aardvark":
        return [CubeTurned(cube.aardvark(allowed=rules.aardvarks != "never"), "aardvark", by,
                           why)]
    dropped, transfer = cube.drop()
    return [CubeTurned(dropped, "drop", by, why), PointsPaid(transfer)]


@handles(Take, Drop, Beaver, Raccoon, Aardvark)
def _respond(state: TableState, cmd: CubeAnswer) -> tuple[Event, ...]:
    game, seating = in_game(state)
    by = sender(cmd)
    action = cmd.verb
    if (boxer := boxer_of(state, by)) is not None:
        return _box_responds(state, game, seating, cmd, boxer)
    extras = extras_waiting(game, by, cmd.cubes)
    if len(extras) > 1:  # Atlanta 5.7: the offered extras are answered together
        events: list[Event] = []
        for extra in extras:
            events += _apply(replay(events, state), extra, action, by)
        return finish(state, events)
    cube = awaiting(game, by, cmd.cubes)
    asked = cmd.face
    if asked is not None and asked != cube.face:
        raise CubeNotAvailable(code="question_moved_on", asked=asked, face=cube.face,
                               state=STATES[cube.state])
    if cube.state is CubeState.OFFERED and cube.offered_by is Side.BOX and not cube.is_extra:
        seat = cube.team_player  # whoever holds its game now (a sold game: FIBS, 4.4)
        order = state.rules.team_answer_order
        if (order == "rotation" or (order == "box_choice" and game.in_order)) and (
                seat in seating.team):
            ahead = [c.player(Side.TEAM) for p in seating.team[:seating.team.index(seat)]
                     if (c := cube_between(game, p, cube.box_player)) is not None
                     and c.to_act is Side.TEAM]
            if ahead and ahead[0] == by:  # his own cube comes before the game he bought
                raise NotYourTurn(code="own_cube_first")
            if ahead:
                raise NotYourTurn(code="decides_first", player=Player(ahead[0]))
        if action == "take" and lone_taker(state, game, seating, seat):
            raise CubeNotAvailable(code="lone_taker_beavers",
                                   rule=citation(state, villages="Villages 8"))
    events = decided(state, cube, action, by)
    return finish(state, events + absentee_answers(state, events))


def decided(state: TableState, cube: Cube, action: str, player: str,
            why: str = "") -> list[Event]:
    """`player`'s answer on `cube` and what follows from it, whoever gives it (he, his
    stand-in, a timeout: `why` is then the reason's code, `CubeTurned.why`): a lone taker
    beavered (Villages 8), the FIBS Captain's drop binding the Team. A frozen cube answered
    for its player is taken (euro ¶13)."""
    action = "take" if why and cube.frozen and cube.frozen is cube.to_act else action
    events = _apply(state, cube, action, player, why)
    if action == "drop" and state.game is not None and state.seating is not None:
        events += lone_taker_beavers(state, state.seating, events)
        events += _captain_drops_for_all(state, state.game, state.seating, cube, player)
    return events


def absentee_answers(state: TableState, events: list[Event]) -> list[Event]:
    """The answers the rule set gives for away players once `events` have happened."""
    extra: list[Event] = []
    after = replay(events, state)
    for player, action in absent_decisions(after):
        for cube in waiting_on(after.game, player) if after.game else []:
            if not cube.pending:  # answered already by what came before (a binding drop)
                continue
            done = decided(after, cube, action, player, "answered_away")
            extra += done
            after = replay(done, after)
    return extra


def waiting_on(game: Game, player: str) -> list[Cube]:
    """A Team player's own cubes waiting for his answer (against the Box, and a Partner
    with cubes of his own)."""
    return [c for c in game.cubes if c.player(Side.TEAM) == player and not c.is_extra
            and c.to_act is Side.TEAM]


def _captain_drops_for_all(state: TableState, game: Game, seating: Seating, cube: Cube,
                           by: str) -> list[Event]:
    """FIBS, one cube: when the Captain drops the Box's initial double, the Team drops."""
    if not (state.rules.single_cube and cube.owner is None and cube.offered_by is Side.BOX
            and by == acting_captain(seating, game.cubes)):
        return []
    events: list[Event] = []
    for player in seating.team:
        other = cube_between(game, player, seating.box)
        if other is not None and other is not cube and other.to_act is Side.TEAM:
            events += _apply(state, other, "drop", by)
    return events


def _box_responds(state: TableState, game: Game, seating: Seating,
                  cmd: CubeAnswer, boxer: str) -> tuple[Event, ...]:
    awaiting = [p for p, c in box_cubes(game, seating, boxer).items() if c.to_act is Side.BOX]
    names = awaiting if cmd.cubes is None else list(cmd.cubes)
    if not names:
        raise NotYourTurn(code="nothing_waits")
    strays = [p for p in names if p not in awaiting]
    if strays:
        raise NotYourTurn(code="nothing_of_waits" if awaiting else "nothing_of_waits_none",
                          strays=Players(map(str, strays)), waiting=Players(awaiting))
    doubles = team_doubles(game, seating, boxer)
    fresh = [p for p in names if p in doubles]
    if fresh:
        if isinstance(cmd, Raccoon | Aardvark):
            raise CubeNotAvailable(code="raccoon_answers" if isinstance(cmd, Raccoon)
                                   else "aardvark_answers")
        if len(fresh) != len(names):
            raise BadCommand(code="beavers_apart")
        return _box_answers(state, game, seating, dict.fromkeys(fresh, cmd.verb), whole=False,
                            boxer=boxer)
    events: list[Event] = []
    for player in names:
        cube = cube_between(game, player, boxer)
        assert cube is not None
        events += _apply(state, cube, cmd.verb, boxer)
    return finish(state, events)


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
