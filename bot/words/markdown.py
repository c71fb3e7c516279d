"""Names in Discord's markdown, shown as they were typed.

Message text is markdown: a player called `**bo_ld**` would read bold and `@here` like a
mention. Every name the bot writes into a message goes through `escape` (the bot pings
nobody anyway: its client allows no mentions). Button and menu labels, and the images,
are not markdown: they take names as they are.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from rules.state import TableState

# Discord's markdown escapes any punctuation after a backslash, and shows it as typed.
_MARKUP = re.compile(r"([\\*_~`|>#\-\[\]()<:.!])")


def escape(text: str) -> str:
    """`text` as Discord shows it typed: markup escaped, no `@` that reads as a mention."""
    return _MARKUP.sub(r"\\\1", text).replace("@", "@\u200b")


def shown(state: TableState, player: str) -> str:
    """`player`'s name at the table, for a message."""
    return escape(state.shown(player))


def namer(state: TableState, users: Mapping[str, str] | None = None) -> Callable[[str], str]:
    """How a message written now names a player by his key: his name at the table (players
    who left too), else the name of a user the interaction names (by id), else the key."""
    def name(key: str) -> str:
        return shown(state, key) if state.shown(key) != key else (users or {}).get(key, key)
    return name
