"""A shooter gone from the table: the game waits, or is held over (FIBS §6 ¶2).

`shooter_absent = "wait"`: a Box or Captain whose time to roll or play runs out is treated
as away, so that his stand-in rolls and plays for him (the Team's, Atlanta 7.1; the Box's
proxy, if he named one); with nobody to stand in, the game waits for him.
`shooter_absent = "suspend"` (FIBS): when the Box or the Captain is disconnected, or his
time runs out, the game is put on hold: the points paid so far go on the sheet, the table
goes on with the rotation as if the other side had won, the one gone at the bottom, and
the game is played out later (`resume`) when its players are back; after it the table sits
as it did before.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from rules.commands import BadCommand, HoldOver, Resume, handles, sender
from rules.cube import Side
from rules.errors import NotYourTurn, RuleError, SeatingError
from rules.events import Event, GameHeldOver, GameResumed
from rules.game import booked, in_game, next_seats, summarize
from rules.messages import Player, Players
from rules.proxies import captain_now
from rules.roles import acting_box, acting_captain
from rules.state import TableState, replay
from rules.table_events import PlayerAway


def shooter_timed_out(state: TableState, player: str) -> tuple[Event, ...]:
    """`player`, who must roll or play, let his time run out (`shooter_timeout_seconds`)."""
    member = state.member(player)
    if member is None:
        raise SeatingError(code="not_at_table", player=Player(player))
    if (state.rules.shooter_absent == "suspend" and state.resumed_from is None
            and player in _shooters(state)):
        gone: tuple[Event, ...] = (
            () if member.disconnected else (PlayerAway(player, True, disconnected=True),))
        return (*gone, held_over(replay(gone, state), player))
    if member.away:
        raise NotYourTurn(code="away_already_stand_in", player=Player(player))
    return (PlayerAway(player, True),)


def _shooters(state: TableState) -> tuple[str, ...]:
    """Whose absence holds a game over: the Box (or the Partner shooting for his side),
    the Captain (or the Acting Captain)."""
    game, seating = in_game(state)
    return tuple(p for p in (seating.box, acting_box(seating, game), captain_now(state)) if p)


def held_over(state: TableState, gone: str) -> GameHeldOver:
    """The game put on hold because `gone` (the Box or the Captain) is gone."""
    game, seating = in_game(state)
    box_side = (seating.box, seating.partner)
    winner = Side.TEAM if gone in box_side else Side.BOX  # assumed, for the rotation
    transfers = booked(state, game.transfers)
    summary = replace(summarize(state, winner, transfers),
                      box_net=Fraction(1 if winner is Side.BOX else -1))
    seats, _ = next_seats(state, summary)
    if seats is not None and gone in seats.team:  # "dropped to the bottom of the rotation"
        seats = replace(seats, team=(*(p for p in seats.team if p != gone), gone))
    return GameHeldOver(gone, transfers, seats)


@handles(HoldOver)
def _hold_over(state: TableState, cmd: HoldOver) -> tuple[Event, ...]:
    if state.rules.shooter_absent != "suspend":
        raise RuleError(code="hold_over_waits")
    if state.resumed_from is not None:
        raise RuleError(code="held_over_once")
    shooters = _shooters(state)
    gone = next((p for p in shooters if (m := state.member(p)) is not None and m.disconnected),
                None)
    if gone is None:
        raise NotYourTurn(code="hold_over_nobody_gone", shooters=Players(dict.fromkeys(shooters)))
    return (held_over(state, gone),)


@handles(Resume)
def _resume(state: TableState, cmd: Resume) -> tuple[Event, ...]:
    if state.member(sender(cmd)) is None:
        raise NotYourTurn(code="resume_players_only")
    if state.game is not None:
        raise RuleError(code="resume_between_games")
    if not state.held:
        raise BadCommand(code="none_on_hold")
    on_hold = [g.number for g, _ in state.held]
    number = on_hold[0] if cmd.game is None else cmd.game
    found = next(((g, s) for g, s in state.held if g.number == number), None)
    if found is None:
        raise BadCommand(code="not_on_hold", game=number, on_hold=", ".join(map(str, on_hold)))
    game, seating = found
    # The Box and the Captain must be back; a player in the game who is not (even one who
    # left the table) does what his side's shooter does, as any away player (FIBS §6 ¶2).
    shooters = [acting_box(seating, game), acting_captain(seating, game.cubes) or seating.captain]
    missing = [p for p in dict.fromkeys(shooters)
               if (m := state.member(p)) is None or m.out or m.away]
    if missing:
        raise SeatingError(code="resume_waits_for", game=number, missing=Players(missing))
    return (GameResumed(number),)
