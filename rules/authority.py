"""Who may run a table: start its games, end its session, enter a result, blind a kibitzer.

The table's monitor may do whatever the rules allow: a command that names no sender (the
bot's own timers) or that is the monitor's record (`Command.monitor`: a transcript's line).
On Discord every command names the user who sent it, and the Discord layer adds
`moderator: true` for a moderator of the server (Manage Server, or the moderator role).
"""

from __future__ import annotations

from rules.commands import Blind, Command, Unblind, handles, sender
from rules.errors import NotYourTurn, RuleError
from rules.events import Blinded, Event
from rules.state import TableState


def is_moderator(cmd: Command) -> bool:
    """Whether the command comes from a moderator or from the table's monitor."""
    return not cmd.by or cmd.monitor or cmd.moderator


def check_runs_table(state: TableState, cmd: Command, doing: str) -> None:
    """Refuse `doing` unless the sender is a player at the table, its host or a moderator."""
    if is_moderator(cmd) or cmd.by == state.host or state.member(cmd.by) is not None:
        return
    host = f", its host ({state.host})" if state.host else ""
    raise NotYourTurn(f"Only the players at this table{host} or a moderator may {doing}; "
                      "to play, `/chouette join` first.")


@handles(Blind, Unblind)
def _blind(state: TableState, cmd: Blind | Unblind) -> tuple[Event, ...]:
    """A moderator blinds a kibitzer, who loses the sight of the table's channels, or gives
    it back; a player at the table is never blinded."""
    sender(cmd)
    player = cmd.player
    if not is_moderator(cmd):
        raise NotYourTurn("Only a moderator blinds or unblinds a kibitzer.")
    blind = isinstance(cmd, Blind)
    if blind and state.member(player) is not None:
        raise RuleError(f"{player} plays at this table: moderators blind kibitzers only. A "
                        "player who consults out of turn answers to the rule set's "
                        "penalties (`/chouette penalty`).")
    if blind == (player in state.blinded):
        raise RuleError(f"{player} is {'already' if blind else 'not'} blinded here.")
    return (Blinded(player, blind, cmd.name),)
