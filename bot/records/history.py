"""A table's history from its event log: every correction, and every event with its time.

Nothing here edits anything: the log is append-only, and a correction is read back as what
was proposed, by whom and why, who agreed or refused, and whether it was made, refused or
lapsed (an undo lapses when the board moves on before everyone has agreed).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from bot.store import StoredEvent
from bot.words.lines import event_line
from rules.corrections import MODERATOR, describe_correction
from rules.events import Corrected, CorrectionAnswered, CorrectionProposed, GameEnded, Moved

When = Callable[[int | None], str]


def utc(at: int | None) -> str:
    """A stored time as UTC text (for files)."""
    if at is None:
        return "(time not kept)"
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def discord_time(at: int | None) -> str:
    """A stored time as a Discord timestamp, shown in each reader's own time zone."""
    return "(time not kept)" if at is None else f"<t:{at}:f>"


def corrections(stored: Sequence[StoredEvent], when: When = utc,
                shown: Callable[[str], str] = str) -> list[str]:
    """One paragraph per correction, oldest first, the players named by `shown`."""
    lines: dict[int, list[str]] = {}
    status: dict[int, str] = {}
    undos: set[int] = set()  # undos still waiting: they lapse when the board moves on
    for item in stored:
        event, at = item.event, when(item.at)
        if isinstance(event, CorrectionProposed):
            needs = ", ".join("a second moderator" if n == MODERATOR else shown(n)
                              for n in event.needs) or "nobody"
            lines[event.number] = [
                f"Correction {event.number} ({event.kind}), proposed by {shown(event.by)} on {at}: "
                f"{describe_correction(event, shown)}. Reason: {event.reason}. Consent needed: "
                f"{needs}."]
            status[event.number] = "waiting for consent"
            if event.kind == "undo":
                undos.add(event.number)
        elif isinstance(event, CorrectionAnswered) and event.number in lines:
            who = "a second moderator" if event.player == MODERATOR else shown(event.player)
            verb = "agreed" if event.approved else "refused"
            lines[event.number].append(f"  {who} {verb} on {at}.")
            if not event.approved:
                status[event.number] = "refused"
                undos.discard(event.number)
        elif isinstance(event, Corrected) and event.number in lines:
            status[event.number] = f"made on {at}"
            undos.discard(event.number)
        elif isinstance(event, Moved | GameEnded):
            for number in undos:
                status[number] = f"lapsed on {at}: the board moved on first"
            undos.clear()
    return ["\n".join([*lines[n], f"  Status: {status[n]}."]) for n in sorted(lines)]


def full_log(stored: Sequence[StoredEvent], when: When = utc) -> str:
    """Every event of the table that a player would see announced, with its time."""
    return "\n".join(f"{when(item.at)}  #{item.version}  {text}" for item in stored
                     if (text := event_line(item.event)))
