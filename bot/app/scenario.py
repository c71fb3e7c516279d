"""Contract 2: run a session transcript (JSON lines, one command each) and report the table.

Each line is `{"cmd": NAME, "by": PLAYER, ...}`; a command the rules refuse is listed under
`rejected` with its 1-based line number and the reason, and the run goes on with the table as
it was. The report has the scores, the seating for the next game, every game's transfers, the
breakdown of who pays whom and, in play mode, the board.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path
from typing import Any

from bot.app.service import TableService
from bot.store import EventStore
from rules.cube import Side
from rules.errors import RuleError
from rules.events import Event
from rules.ledger import Transfer
from rules.notation import position_id
from rules.state import TableState, replay
from rules.table import decide
from rules.transcript import parse


def points(value: Fraction) -> int | float:
    """A number of points as JSON shows it: whole numbers as ints, halves as floats."""
    return int(value) if value.denominator == 1 else float(value)


def _transfers(transfers: Iterable[Transfer]) -> list[dict[str, Any]]:
    return [{"from": t.payer, "to": t.payee, "points": points(t.points)} for t in transfers]


def apply(lines: Iterable[str]) -> tuple[TableState, list[Event], list[dict[str, Any]]]:
    """Apply every line of a transcript in memory: the table at the end, the events of the
    lines the rules accepted, and the lines refused (`rejected` in the report)."""
    state, events = TableState(), list[Event]()
    rejected: list[dict[str, Any]] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            new = decide(state, parse(json.loads(line)))
        except (json.JSONDecodeError, RecursionError) as exc:  # (nested too deep: as bad)
            rejected.append({"line": number, "reason": f"Not a JSON command: {exc}"})
            continue
        except RuleError as exc:
            rejected.append({"line": number, "reason": str(exc)})
            continue
        events.extend(new)
        state = replay(new, state)
    return state, events, rejected


def run(lines: Iterable[str]) -> dict[str, Any]:
    """Apply every line of a transcript in memory and return the report."""
    state, _, rejected = apply(lines)
    return report(state, rejected)


def transcript(lines: Iterable[str]) -> list[Event]:
    """The events of a session transcript; the lines the rules refuse are left out."""
    return apply(lines)[1]


async def run_stored(text: str, db: Path | str) -> dict[str, Any]:
    """Apply a transcript through the TableService and the event store at `db`.

    The table is named after the transcript's content and every line's idempotency key is
    its number, so running the same file again (after a crash, say) applies only the lines
    not yet stored and reports exactly what an uninterrupted run reports.
    """
    table_id = "scenario-" + hashlib.sha256(text.encode()).hexdigest()[:16]
    rejected: list[dict[str, Any]] = []
    async with EventStore(db) as store:
        service = TableService(store)
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            key = f"line:{number}"
            try:
                command = parse(json.loads(line))
            except (json.JSONDecodeError, RecursionError) as exc:
                outcome = await service.refuse(table_id, key, f"Not a JSON command: {exc}")
            except RuleError as exc:
                outcome = await service.refuse(table_id, key, str(exc))
            else:
                outcome = await service.handle(table_id, command, key)
            if not outcome.accepted:
                rejected.append({"line": number, "reason": outcome.reason})
        return report(await service.state(table_id), rejected)


def report(state: TableState, rejected: list[dict[str, Any]]) -> dict[str, Any]:
    """The contract's report of a table."""
    totals = state.sheet.totals()
    names = [m.player for m in state.members] + [n for n in totals if not state.member(n)]
    seating = state.seating
    out: dict[str, Any] = {
        "scores": {n: points(totals.get(n, Fraction(0))) for n in names},
        "box": seating.box if seating else None,
        "partner": seating.partner if seating else None,
        "captain": seating.captain if seating else None,
        "team": list(seating.team) if seating else [],
        "games": [{"transfers": _transfers(game)} for game in state.sheet.games],
        "breakdown": _transfers(state.sheet.breakdown(state.rules.payoff)),
        "rejected": rejected,
    }
    if state.mode == "play" and state.board is not None:
        position, side = state.board
        out["board"] = {"id": position_id(position),
                        "on_roll": "box" if side is Side.BOX else "team"}
    return out
