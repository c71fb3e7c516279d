"""Corrections: a moderator's score correction or undo, made with the consent the rule set asks.

History is never edited: a correction is new events. A moderator proposes it with a reason
(`correct`); the players it concerns agree or refuse (`approve`, `refuse`), or a second
moderator confirms it (FIBS §7: one scorekeeper announces, the other confirms); once all
have agreed it is made (`Corrected`). Two kinds:

- `score`: points from one player to another, entered on the sheet as their own line;
  it concerns the payer and the payee.
- `undo`: takes back the last checker play and everything after it (the opponent's cube
  actions and roll: he rolls again, Atlanta 8.4), where the rule set allows it
  (`undo_plays`; FIBS §4: a play stands). It concerns the mover's opponent (Villages 16:
  the opponent may require the correction). An undo lapses if the board moves on first.

Whether someone is a moderator is the Discord layer's to say: it passes `moderator`.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from rules.cite import citation
from rules.commands import (
    Approve,
    BadCommand,
    Correct,
    CorrectionAnswer,
    Refuse,
    handles,
    need,
    sender,
)
from rules.cube import Side
from rules.errors import NotYourTurn, RuleError
from rules.events import Corrected, CorrectionAnswered, CorrectionProposed, Event
from rules.ledger import Transfer
from rules.messages import Players
from rules.roles import acting_captain
from rules.state import TableState

KINDS = ("score", "undo")
MODERATOR = "moderator"  # a `needs` entry: any moderator but the proposer


@handles(Correct)
def _correct(state: TableState, cmd: Correct) -> tuple[Event, ...]:
    by = sender(cmd)
    if not cmd.moderator:
        raise RuleError(code="correct_moderators")
    kind = cmd.kind
    if kind not in KINDS:
        raise BadCommand(code="correction_kind", kind=kind)
    reason = cmd.reason.strip()
    if not reason:
        raise BadCommand(code="correction_reason")
    transfer, concerned = (_score(state, cmd, reason) if kind == "score"
                           else (None, _undo(state)))
    rules = state.rules
    needs: tuple[str, ...] = ()
    if rules.correction_consent == "moderator":
        needs = (MODERATOR,)
    elif rules.correction_consent == "affected":
        needs = tuple(p for p in dict.fromkeys(concerned) if p != by)
    proposal = CorrectionProposed(state.corrections + 1, kind, by, reason, transfer, needs)
    return (proposal, Corrected(proposal.number)) if not needs else (proposal,)


def _score(state: TableState, cmd: Correct, reason: str) -> tuple[Transfer, tuple[str, str]]:
    payer, payee = need(cmd, "from", cmd.from_), need(cmd, "to", cmd.to)
    known = {m.player for m in state.members} | set(state.sheet.names())
    strangers = [p for p in (payer, payee) if p not in known]
    if strangers:
        raise BadCommand(code="correction_strangers", strangers=Players(strangers))
    if payer == payee:
        raise BadCommand(code="correction_same_player")
    value = cmd.points
    try:
        points = Fraction(str(value)).limit_denominator(64)
    except (ValueError, ZeroDivisionError):
        raise BadCommand(code="correction_points", points=value) from None
    if points <= 0:
        raise BadCommand(code="correction_positive")
    if state.rules.whole_points and points.denominator != 1:
        raise BadCommand(code="correction_whole", rule=citation(state, "Atlanta 4.2"))
    return Transfer(payer, payee, points, f"correction: {reason}"), (payer, payee)


def _undo(state: TableState) -> tuple[str, ...]:
    if not state.rules.undo_plays:
        raise RuleError(code="undo_not_here", rule=citation(
            state, fibs="FIBS §4 ¶1: there is no way to recover"))
    game = state.game
    if game is None or state.seating is None:
        raise RuleError(code="undo_no_game")
    if game.before is None:
        raise NotYourTurn(code="undo_nothing")
    opponent = (state.seating.box if game.before.on_roll is Side.TEAM
                else acting_captain(state.seating, game.cubes))
    return (opponent,) if opponent else ()


@handles(Approve, Refuse)
def _answer(state: TableState, cmd: CorrectionAnswer) -> tuple[Event, ...]:
    by = sender(cmd)
    number = cmd.correction
    found = state.proposal(number)
    if found is None:
        if state.proposals:
            raise BadCommand(code="no_such_correction_waiting", number=number, waiting=", ".join(
                str(p.number) for p, _ in state.proposals))
        raise BadCommand(code="no_such_correction", number=number)
    proposal, agreed = found
    slot = by if by in proposal.needs else None
    if slot is None and MODERATOR in proposal.needs and cmd.moderator:
        if by == proposal.by:
            raise NotYourTurn(code="second_moderator")
        slot = MODERATOR
    if slot is None or slot in agreed:
        waiting = [p for p in proposal.needs if p not in agreed]
        raise NotYourTurn(code="correction_waits" if slot is None else "correction_agreed",
                          number=number, waiting=Players(waiting))
    approved = isinstance(cmd, Approve)
    answered = CorrectionAnswered(number, slot, approved)
    if approved and set(proposal.needs) <= {*agreed, slot}:
        return (answered, Corrected(number))
    return (answered,)


def describe_correction(proposal: CorrectionProposed,
                        shown: Callable[[str], str] = str) -> str:
    """What a correction does, in words, the players named by `shown`."""
    t = proposal.transfer
    if t is None:
        return "take back the last checker play and what followed it"
    return t.phrase(shown)
