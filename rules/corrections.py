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
from rules.roles import acting_captain
from rules.state import TableState

KINDS = ("score", "undo")
MODERATOR = "moderator"  # a `needs` entry: any moderator but the proposer


@handles(Correct)
def _correct(state: TableState, cmd: Correct) -> tuple[Event, ...]:
    by = sender(cmd)
    if not cmd.moderator:
        raise RuleError("Only a moderator corrects the table: ask one (they have the "
                        "moderator role), and say what went wrong.")
    kind = cmd.kind
    if kind not in KINDS:
        raise BadCommand(f"A correction is a score (points from one player to another) or "
                         f"an undo (take back the last checker play), not {kind!r}.")
    reason = cmd.reason.strip()
    if not reason:
        raise BadCommand("Give the reason for the correction: it is shown in the history.")
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
        raise BadCommand(f"{', '.join(strangers)} never sat at this table: a score "
                         "correction is between two of its players.")
    if payer == payee:
        raise BadCommand("A score correction moves points between two different players.")
    value = cmd.points
    try:
        points = Fraction(str(value)).limit_denominator(64)
    except (ValueError, ZeroDivisionError):
        raise BadCommand(f"points is a number (halves allowed), not {value!r}.") from None
    if points <= 0:
        raise BadCommand("points are what `from` pays `to`: more than 0 (swap the two "
                         "players to move points the other way).")
    if state.rules.whole_points and points.denominator != 1:
        raise BadCommand(f"This sheet keeps whole points ({citation(state, 'Atlanta 4.2')}): "
                         "correct it by whole points (a fraction is rolled off first).")
    return Transfer(payer, payee, points, f"correction: {reason}"), (payer, payee)


def _undo(state: TableState) -> tuple[str, ...]:
    if not state.rules.undo_plays:
        raise RuleError("Under these rules a checker play stands once made "
                        f"({citation(state, fibs='FIBS §4 ¶1: there is no way to recover')}); "
                        "a score correction is still possible.")
    game = state.game
    if game is None or state.seating is None:
        raise RuleError("There is no game on the board to take a play back in; correct the "
                        "score instead.")
    if game.before is None:
        raise NotYourTurn("No checker play to take back since the game began (or since the "
                          "last undo).")
    opponent = (state.seating.box if game.before.on_roll is Side.TEAM
                else acting_captain(state.seating, game.cubes))
    return (opponent,) if opponent else ()


@handles(Approve, Refuse)
def _answer(state: TableState, cmd: CorrectionAnswer) -> tuple[Event, ...]:
    by = sender(cmd)
    number = cmd.correction
    found = state.proposal(number)
    if found is None:
        raise BadCommand(f"No correction {number} is waiting for consent"
                         + (f" (waiting: {', '.join(str(p.number) for p, _ in state.proposals)})."
                            if state.proposals else "."))
    proposal, agreed = found
    slot = by if by in proposal.needs else None
    if slot is None and MODERATOR in proposal.needs and cmd.moderator:
        if by == proposal.by:
            raise NotYourTurn("A second moderator confirms a correction, not the one who "
                              "proposed it.")
        slot = MODERATOR
    if slot is None or slot in agreed:
        waiting = [p for p in proposal.needs if p not in agreed]
        raise NotYourTurn(f"Correction {number} waits for {', '.join(waiting)}"
                          + ("" if slot is None else "; you already agreed") + ".")
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
