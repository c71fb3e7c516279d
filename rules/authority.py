"""Who may run a table: start its games, end its session, enter a result, blind a kibitzer.

The table's monitor may do whatever the rules allow: a command that names no sender (the
bot's own timers) or that is the monitor's record (`Command.monitor`: a transcript's line).
On Discord every command names the user who sent it, and the Discord layer adds
`moderator: true` for a moderator of the server (Manage Server, or the moderator role).
"""

from __future__ import annotations

from rules.commands import Blind, Command, Unblind, handles, sender
from rules.errors import NotYourTurn, RuleError
from rules.events import Event
from rules.messages import Phrase, Player
from rules.state import TableState
from rules.table_events import Blinded


def is_moderator(cmd: Command) -> bool:
    """Whether the command comes from a moderator or from the table's monitor."""
    return not cmd.by or cmd.monitor or cmd.moderator


def runs_table(state: TableState, player: str) -> bool:
    """Whether `player` runs the table (starts its games, ends it): a player at it, or its
    host (a moderator too: `check_runs_table`)."""
    return player == state.host or state.member(player) is not None


def check_runs_table(state: TableState, cmd: Command, doing: Phrase) -> None:
    """Refuse `doing` unless the sender is a player at the table, its host or a moderator."""
    if is_moderator(cmd) or runs_table(state, cmd.by):
        return
    if state.host:
        raise NotYourTurn(code="runs_table_host", host=Player(state.host), doing=doing)
    raise NotYourTurn(code="runs_table", doing=doing)


@handles(Blind, Unblind)
def _blind(state: TableState, cmd: Blind | Unblind) -> tuple[Event, ...]:
    """A moderator blinds a kibitzer, who loses the sight of the table's channels, or gives
    it back; a player at the table is never blinded."""
    sender(cmd)
    player = cmd.player
    if not is_moderator(cmd):
        raise NotYourTurn(code="blind_moderators")
    blind = isinstance(cmd, Blind)
    if blind and state.member(player) is not None:
        raise RuleError(code="blind_a_player", player=Player(player))
    if blind == (player in state.blinded):
        raise RuleError(code="already_blinded" if blind else "not_blinded", player=Player(player))
    return (Blinded(player, blind, cmd.name),)
