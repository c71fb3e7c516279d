"""Answers to the cube: takes, drops, beavers, raccoons and aardvarks, and their rules.

The Box answers the Team's doubles as a set, so the acceptance rules of the rule set can be
checked as a whole (Atlanta 5.10-5.11, Danish same level, euro at least half, FIBS all or
none); each Team player answers the Box's double on his own cube, in rotation order where
the rule set says so (Atlanta 5.8, Danish); an away player's answer is the rule set's
(`absentee_answers`). `boxer` below is the Box, or a Partner with cubes of his own, who
answers them as the Box does his. The doubles themselves are rules/doubling.py.

A player may have several cubes waiting at once: his own, a game he bought (FIBS §2, Atlanta
4.4) against the same Box, extras offered to him (Atlanta 5.7). He names one by the player
across it, or by its seat where two are against the same player; a refusal lists them in his
own words ("your cube against ann", "the game you bought from di").
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.cite import citation
from rules.commands import (
    Aardvark,
    Answer,
    BadCommand,
    Beaver,
    CubeAnswer,
    Drop,
    Raccoon,
    Take,
    handles,
    sender,
)
from rules.cube import Cube, Side
from rules.cube_state import STATES, CubeState, verb
from rules.errors import CubeNotAvailable, NotYourTurn
from rules.events import CubeTurned, DoublesAnswered, Event, PointsPaid
from rules.game import finish, in_game
from rules.lone_taker import lone_taker, lone_taker_beavers
from rules.messages import Phrase, Phrases, Player, Players
from rules.one_cube import half_answer, half_answerable, halves_answered
from rules.proxies import absent_decisions
from rules.roles import (
    acting_captain,
    box_cubes,
    box_decider,
    boxer_of,
    cube_between,
    cube_of,
    team_doubles,
)
from rules.seating import Seating
from rules.state import Game, TableState, replay

_TEAM_ANSWERS = ("take", "beaver", "drop")


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
def _answer_sent(state: TableState, cmd: CubeAnswer) -> tuple[Event, ...]:
    """An answer to a cube as a player sends it: a raccoon or an aardvark that needs the
    other player's consent is refused (the consent is asked: `rules/consents.py`, which
    makes it with `respond` once given)."""
    rule = (state.rules.raccoons if isinstance(cmd, Raccoon)
            else state.rules.aardvarks if isinstance(cmd, Aardvark) else None)
    if rule == "by_consent":
        raise CubeNotAvailable(code="raccoon_needs_consent" if isinstance(cmd, Raccoon)
                               else "aardvark_needs_consent")
    return respond(state, cmd)


def respond(state: TableState, cmd: CubeAnswer) -> tuple[Event, ...]:
    """An answer to a cube, by the cube rules alone (any consent it needs was given)."""
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


def answered_as_a_set(player: str, cube: Cube) -> bool:
    """Whether `player`'s answer to `cube` is given with the others, as a set (the Box side
    answering the Team's doubles: `answer`), not as the cube's own question (a Team
    player's answer, an extra's)."""
    return cube.side_of(player) is Side.BOX and cube.state is CubeState.OFFERED and (
        not cube.is_extra)


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


# -- which cube an answer is for -----------------------------------------------------------


def extras_waiting(game: Game, taker: str, givers: Sequence[str] | None) -> list[Cube]:
    """The extras offered to `taker` that an answer of his names (all when `givers` is
    None), when nothing else waits for him; an empty list otherwise."""
    waiting = [c for c in game.cubes if c.to_act is not None and c.player(c.to_act) == taker]
    if not waiting or not all(c.is_extra and c.team_player == taker for c in waiting):
        return []
    return [c for c in waiting if givers is None or c.box_player in givers]


def awaiting(game: Game, player: str, others: Sequence[str] | None) -> Cube:
    """The one cube waiting for `player`'s answer (his own, or an extra he gave or holds);
    `others` names it when several wait: by the player across it, or by its seat (a game he
    bought is named by its seller, his own cube by himself)."""
    involved = [c for c in game.cubes if player in (c.player(Side.TEAM), c.box_player)]
    if not involved:
        raise NotYourTurn(code="no_cube_in_game", player=Player(player))
    waiting = [c for c in involved if c.to_act is not None and c.player(c.to_act) == player]
    labels = _labels(waiting, player)
    if others is not None:
        named = [c for c in waiting if labels[id(c)] in others
                 or (c.team_player in others and not c.is_extra)]
        if waiting and not named:
            raise NotYourTurn(code="no_cube_waiting" if others else "no_cube_waiting_nobody",
                              players=Players(map(str, others)),
                              waiting=_listed(waiting, player))
        waiting = named
    if not waiting:
        own = cube_of(game, player) or involved[0]
        raise NotYourTurn(code="nothing_waits_status", status=_status(own, own.side_of(player)))
    if len(waiting) > 1:
        raise BadCommand(code="several_wait", waiting=_listed(waiting, player))
    return waiting[0]


def _labels(cubes: list[Cube], player: str) -> dict[int, str]:
    """The name `player` gives each cube in `cubes`: the player across it, or where two are
    against the same player (his own cube and a game he bought), its seat."""
    across = {id(c): c.player(c.side_of(player).other) for c in cubes}
    twice = {name for name in across.values() if list(across.values()).count(name) > 1}
    return {id(c): c.team_player if across[id(c)] in twice and not c.is_extra else across[id(c)]
            for c in cubes}


def _listed(cubes: list[Cube], player: str) -> Phrases:
    """The cubes waiting for `player`, each in words and with the name that picks it."""
    labels = _labels(cubes, player)
    return Phrases(Phrase("cube_label", cube=c.named(c.side_of(player)),
                          label=Player(labels[id(c)])) for c in cubes)


def _status(cube: Cube, viewer: Side) -> Phrase:
    """Where `cube` stands, in words, to the player on `viewer`'s side."""
    if cube.to_act is not None:
        return cube.waiting(viewer)
    named = cube.named(viewer)
    if not cube.live:
        return Phrase("cube_is", cube=named, state=STATES[cube.state])
    if cube.owner is None:
        return Phrase("cube_centred", cube=named, face=cube.face)
    if cube.owner is viewer:
        return Phrase("cube_held_by_you", cube=named, face=cube.face)
    return Phrase("cube_held", cube=named, face=cube.face, owner=Player(cube.player(cube.owner)))
