"""What may be done now, asked of the rules themselves (a dry run of `decide`): the board
shows an action only while someone may take it, and a refusal can be said before a form
or a menu is opened."""

from __future__ import annotations

from collections.abc import Iterator

from rules.commands import Command, Double, Hold
from rules.errors import RuleError
from rules.roles import box_doublable, boxer_of
from rules.state import TableState, replay
from rules.table import decide


def refusal(state: TableState, command: Command) -> RuleError | None:
    """Why the rules would refuse `command` now (None: they would take it)."""
    try:
        decide(state, command)
    except RuleError as exc:
        return exc
    return None


def trial(state: TableState, *commands: Command) -> tuple[TableState, RuleError | None]:
    """`commands` tried one after the other from `state`, nothing stored: the state they
    reach, and why the rules would refuse one of them (None: they would take them all; else
    the state is the one the refusal is about)."""
    for command in commands:
        try:
            state = replay(decide(state, command), state)
        except RuleError as exc:
            return state, exc
    return state, None


def allowed(state: TableState, command: Command) -> bool:
    """Whether the rules would take `command` now."""
    return refusal(state, command) is None


def box_doubles(state: TableState, player: str) -> list[str]:
    """The Team players whose cubes `player` may double for the Box side now (as a menu
    offers them: each cube that may be turned; empty when he may not double)."""
    game, seating = state.game, state.seating
    boxer = boxer_of(state, player)
    if game is None or seating is None or boxer is None:
        return []
    return box_doublable(game, seating, boxer)


def holders(state: TableState) -> tuple[str, ...]:
    """The Team players who may hold the Team's roll now (to think about a double)."""
    seating = state.seating
    if seating is None or state.game is None:
        return ()
    return tuple(p for p in seating.team if allowed(state, Hold(by=p)))


def doublers(state: TableState) -> Iterator[str]:
    """Who may turn a cube now: each Team player who may double his own, and whoever turns
    the Box side's cubes, where the rules would take the double. Asked one by one (each is
    a dry run of the rules): whether anyone may stops at the first."""
    seating = state.seating
    if seating is None or state.game is None:
        return
    yield from (p for p in seating.team if allowed(state, Double(by=p)))
    yield from (p for p in (seating.box, seating.partner) if p is not None
                and (cubes := box_doubles(state, p))
                and allowed(state, Double(by=p, cubes=tuple(cubes))))
