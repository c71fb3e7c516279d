"""Citations in refusals: the rule of the table's own rule set, never another's.

A refusal names the rule behind it so a player can look it up; at a FIBS table that is the
FIBS paragraph, not an Atlanta number. Where the table's document is silent and its preset
follows Atlanta (docs/rules.md), the citation says so ("as Atlanta 4.3").
"""

from __future__ import annotations

from rules.state import TableState


def citation(state: TableState, atlanta: str, **others: str) -> str:
    """The rule behind a refusal in the table's own rule set: `others[preset]` where its
    document has the rule, else Atlanta's, marked "as" where the preset only follows it."""
    own = others.get(state.preset)
    if own:
        return own
    return atlanta if state.preset in ("atlanta", "") else f"as Atlanta {atlanta.split()[-1]}"
