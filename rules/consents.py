"""Raccoons and aardvarks by consent (Atlanta 5.4: "only if both players agree"): the player
who would turn the cube again asks (`ask_turn`), the table keeps the request, and the cube's
other player agrees (`agree_turn`), which makes the turn. A request ends with the turn, or
when its cube moves on otherwise (`TableState.asked`)."""

from __future__ import annotations

from rules.answers import respond
from rules.commands import (
    Aardvark,
    AgreeTurn,
    AskTurn,
    BadCommand,
    CubeAnswer,
    Raccoon,
    handles,
    sender,
)
from rules.errors import CubeNotAvailable, NotYourTurn
from rules.events import Event, TurnAsked
from rules.game import in_game
from rules.messages import Player
from rules.state import TableState

TURNS: dict[str, type[CubeAnswer]] = {"raccoon": Raccoon, "aardvark": Aardvark}
_NOT_ASKED = {"raccoon": "no_raccoon_asked", "aardvark": "no_aardvark_asked"}


def _turn(state: TableState, turn: str, by: str, across: str,
          face: int | None = None) -> tuple[Event, ...]:
    """What `by`'s raccoon or aardvark of the cube against `across` makes (refused as the
    cube answer itself would be)."""
    kind = TURNS.get(turn)
    if kind is None:
        raise BadCommand(code="turn_kind", turn=turn)
    return respond(state, kind(by=by, cubes=(across,), face=face))


@handles(AskTurn)
def _ask(state: TableState, cmd: AskTurn) -> tuple[Event, ...]:
    """A raccoon or an aardvark asked of the cube's other player, where it needs consent."""
    in_game(state)
    by = sender(cmd)
    rule = state.rules.raccoons if cmd.turn == "raccoon" else state.rules.aardvarks
    _turn(state, cmd.turn, by, cmd.across, cmd.face)  # would it be made now?
    if rule != "by_consent":
        raise CubeNotAvailable(code="turn_needs_no_consent")
    return (TurnAsked(cmd.turn, by, cmd.across),)


@handles(AgreeTurn)
def _agree(state: TableState, cmd: AgreeTurn) -> tuple[Event, ...]:
    """The other player's consent to a raccoon or an aardvark asked of him: it is made."""
    in_game(state)
    by = sender(cmd)
    if TurnAsked(cmd.turn, cmd.player, by) not in state.asked:
        if cmd.turn not in TURNS:
            raise BadCommand(code="turn_kind", turn=cmd.turn)
        raise NotYourTurn(code=_NOT_ASKED[cmd.turn], player=Player(cmd.player))
    return _turn(state, cmd.turn, cmd.player, by)
