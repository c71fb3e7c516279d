"""Citations in refusals: the rule of the table's own rule set, never another's.

A refusal names the rule behind it so a player can look it up; at a FIBS table that is the
FIBS paragraph, not an Atlanta number. Where the table's document is silent and its preset
follows Atlanta (docs/rules.md), the citation says so ("as Atlanta 4.3").
"""

from __future__ import annotations

from rules.state import TableState


def citation(state: TableState, atlanta: str = "", **others: str) -> str:
    """The rule behind a refusal in the table's own rule set: `others[preset]` (keyed by
    preset name) where its document has the rule; else Atlanta's, written "as Atlanta ..."
    at another preset's table (docs/rules.md: a silent document follows Atlanta); else,
    for an option the table took from another rule set, "this table's rules"."""
    own = others.get(state.preset)
    if own:
        return own
    if atlanta:
        return atlanta if state.preset in ("atlanta", "") else f"as {atlanta}"
    return "this table's rules"
