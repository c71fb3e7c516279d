"""The start of a game: the seats settled, the opening rolls, the automatic doubles and the
dice commitment; and the dice seed revealed once the game is over.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import replace

from rules import seating as sit
from rules.authority import check_runs_table
from rules.board import Position
from rules.commands import BadCommand, Reveal, Start, handles, need
from rules.cube import Cube, Side
from rules.errors import RuleError, SeatingError
from rules.events import DiceRevealed, Event, GameStarted
from rules.game import dice_pair
from rules.messages import Phrase, Player, Players, Ties
from rules.roles import between_games, take_partner, without
from rules.seating import Seating
from rules.state import TableState
from rules.table_events import PlayerOut, Seated


@handles(Start)
def _start(state: TableState, cmd: Start) -> tuple[Event, ...]:
    check_runs_table(state, cmd, Phrase("doing_start"))
    seating, events = _seats(state, between_games(state), cmd)
    rules = state.rules
    pairs, ties = _opening(state, cmd)
    autos = _automatic_doubles(state, seating, cmd, ties)
    carry = state.carry[1] if state.carry and state.carry[0] == seating.box else 0
    if carry:  # Danish ¶15: the double the Box carried over, if he is still the Box
        autos = {p: autos.get(p, 0) + carry for p in seating.team}
    limit = rules.automatic_double_limit
    carried_over = int(bool(rules.automatic_carry_over and limit and ties > limit and autos
                            and cmd.carry))
    started = GameStarted(state.games_played + 1, _cubes(state, seating, autos),
                          max(autos.values(), default=0), carried_over=carried_over)
    if state.mode == "play":
        box_die, team_die = pairs[-1]
        side = Side.BOX if box_die > team_die else Side.TEAM
        dice = (box_die, team_die) if side is Side.BOX else (team_die, box_die)
        commitment = cmd.commitment
        if commitment and not re.fullmatch(r"[0-9a-f]{64}", commitment):
            raise BadCommand(code="commitment_form")
        started = replace(started, position=Position.initial(), on_roll=side, dice=dice,
                          opening=tuple(pairs), commitment=commitment)
    return (*events, started)


def players_missing(state: TableState) -> int:
    """How many more players must be seated before the next game can start (0: enough):
    the rule set's least against the seats (the players present, before any seating)."""
    seated = state.seating.players if state.seating is not None else state.present
    return max(0, state.rules.min_players - len(seated))


def _seats(state: TableState, seating: Seating, cmd: Start) -> tuple[Seating, list[Event]]:
    """The seats for the game about to start, and the events that settle them: the players
    still disconnected lose their place (FIBS §6 ¶1), the newcomers are ordered by their
    rolls (Atlanta 6.5), a Partner is taken where the rule set requires one."""
    rules = state.rules
    events: list[Event] = []
    gone = [p for p in seating.players if (m := state.member(p)) and m.disconnected]
    rest = without(seating, gone) if rules.disconnected_loses_place else None
    if gone and rest is not None and len(rest.players) >= rules.min_players:
        seating = rest  # FIBS §6 ¶1: not back by the start (with too few left he stays)
        events += [*(PlayerOut(p) for p in gone), Seated(
            seating, Phrase("seated_lost_place", players=Players(gone)))]
    if len(seating.players) < rules.min_players:
        raise SeatingError(code="too_few_seated", least=rules.min_players,
                           seated=len(seating.players))
    rolled = _newcomers_by_rolls(state, seating, cmd)
    if rolled is not None:
        seating = rolled
        events.append(Seated(seating, "the newcomers' order by their rolls (Atlanta 6.5)"))
    if (rules.partner == "required" and seating.partner is None
            and len(seating.players) >= rules.partner_min_players):
        candidate = sit.partner_candidates(seating, partner_from=rules.partner_from)[0]
        seating = take_partner(state, seating, candidate)
        events.append(Seated(seating, Phrase("seated_partner_required", player=Player(candidate))))
    return seating, events


def _opening(state: TableState, cmd: Start) -> tuple[list[tuple[int, int]], int]:
    """The opening rolls, ties first (play mode; none in scorekeeper mode), and the ties."""
    if state.mode != "play":
        if cmd.ties < 0:
            raise BadCommand(code="ties_form")
        return [], cmd.ties
    opening = need(cmd, "opening", cmd.opening)
    pairs = [dice_pair(p, Phrase("what_opening_roll")) for p in opening]
    if not pairs or pairs[-1][0] == pairs[-1][1] or any(a != b for a, b in pairs[:-1]):
        raise BadCommand(code="opening_form")
    return pairs, len(pairs) - 1


def _cubes(state: TableState, seating: Seating, autos: dict[str, int]) -> tuple[Cube, ...]:
    """Every Team player's cube against the Box (and against the Partner, where he has cubes
    of his own: Danish ¶19, euro ¶9), each at its stake and automatic doubles."""
    across = [seating.box]
    if seating.partner is not None and state.rules.partner_cubes == "own":
        across.append(seating.partner)
    cubes = []
    for box_player in across:
        for player in seating.team:
            member = state.member(player)
            cube = Cube(player, box_player, stake=member.stake if member else 1)
            for _ in range(autos.get(player, 0)):
                cube = cube.auto_double()
            cubes.append(cube)
    return tuple(cubes)


@handles(Reveal)
def _reveal(state: TableState, cmd: Reveal) -> tuple[Event, ...]:
    """The bot reveals a finished game's dice seed; it must hash to the game's commitment."""
    number, seed = cmd.game, cmd.seed
    found = next((c for c in state.commitments if c[0] == number), None)
    if found is None:
        raise BadCommand(code="no_commitment", game=number)
    if found[2]:
        raise RuleError(code="seed_revealed", game=number)
    if number in state.unfinished:
        raise RuleError(code="seed_secret", game=number)
    try:
        digest = hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    except ValueError:
        raise BadCommand(code="seed_form") from None
    if digest != found[1]:
        raise RuleError(code="seed_mismatch", game=number, commitment=found[1])
    return (DiceRevealed(number, seed),)


def _newcomers_by_rolls(state: TableState, seating: Seating, cmd: Start) -> Seating | None:
    """Atlanta 6.5: players who joined at the same game roll two dice for their order at
    the end of the Team (`newcomer_rolls` {player: [d1, d2]}, `newcomer_rerolls` for ties).
    None when there is nothing to order, or no rolls were sent (they keep the joining order)."""
    newcomers = [p for p in seating.team if p in seating.newcomers]
    if (state.rules.newcomer_order != "rolls" or len(newcomers) < 2
            or cmd.newcomer_rolls is None):
        return None
    levels = [cmd.newcomer_rolls, *cmd.newcomer_rerolls]
    if not all(isinstance(level, dict) and all(isinstance(d, list | tuple) for d in
                                               level.values()) for level in levels):
        raise BadCommand(code="newcomer_rolls_form")
    rolls, *rerolls = [{p: tuple(d) for p, d in level.items()} for level in levels]
    if set(rolls) != set(newcomers):
        raise BadCommand(code="newcomer_rolls_each", players=Players(newcomers))
    order = sit.order_by_rolls(rolls, rerolls)
    if isinstance(order, sit.Reroll):
        raise SeatingError(code="newcomers_tied", tied=Ties(map(Players, order.groups)))
    places = iter(order)
    return replace(seating, team=tuple(next(places) if p in newcomers else p
                                       for p in seating.team))


def _automatic_doubles(state: TableState, seating: Seating, cmd: Start,
                       ties: int) -> dict[str, int]:
    """How many automatic doubles each Team player's cube takes for `ties` opening ties."""
    rules = state.rules
    limit = rules.automatic_double_limit or ties
    count = min(ties, limit)
    if rules.automatic_doubles == "none" or count == 0:
        return {}
    if rules.automatic_doubles == "box_option" and not cmd.automatic:
        return {}
    agreed = seating.team
    if rules.automatic_doubles == "by_agreement":
        agreed = cmd.automatic_with
        strangers = [p for p in agreed if p not in seating.team]
        if strangers:
            raise BadCommand(code="automatic_strangers", players=Players(map(str, strangers)))
    return {p: count for p in agreed}
