"""Print the /chouette commands as the bot registers them, as Markdown: each command's usage
line (required options bare, optional ones in [brackets]), its description, and its options
with their choices and defaults. A starting point for docs/commands.md, which groups them the
way a club reads them (tests/discord/test_commands.py keeps the two in step).

    .venv/bin/python tools/commands_doc.py > /tmp/commands.md

No Discord connection and no database: it builds the bot and runs the cogs' `setup`, which
only add subcommands to the /chouette group.
"""

from __future__ import annotations

import asyncio
import importlib
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from discord import app_commands
from discord.utils import MISSING

from bot.config import Settings
from bot.discord.client import INITIAL_EXTENSIONS, ChouetteBot


async def chouette_group() -> app_commands.Group:
    """The /chouette group filled in by every cog, as `setup_hook` would."""
    bot = ChouetteBot(Settings(discord_token="unused", database=Path("unused.sqlite3")))
    for extension in INITIAL_EXTENSIONS:
        await importlib.import_module(extension).setup(bot)
    return bot.chouette


def usage(command: app_commands.Command[Any, ..., Any]) -> str:
    shown = [p.name if p.required else f"[{p.name}]" for p in command.parameters]
    return " ".join([f"/{command.qualified_name}", *shown])


def option_line(p: app_commands.Parameter) -> str:
    kind = p.type.name.replace("number", "decimal number").replace("user", "member")
    extra = []
    if p.choices:
        extra.append("one of " + ", ".join(f"`{c.name}`" for c in p.choices))
    if p.min_value is not None:
        extra.append(f"at least {p.min_value}")
    if not p.required and p.default is not MISSING and p.default not in (None, ""):
        extra.append(f"default `{p.default}`")
    notes = f" ({'; '.join(extra)})" if extra else ""
    return f"  - `{p.name}`, {kind}{notes}: {p.description}"


def markdown(group: app_commands.Group) -> str:
    lines = [f"# /{group.name}: {group.description}", ""]
    for command in sorted(group.walk_commands(), key=lambda c: c.qualified_name):
        if not isinstance(command, app_commands.Command):
            continue
        lines.append(f"- `{usage(command)}`: {command.description}")
        lines += [option_line(p) for p in command.parameters]
    return "\n".join(lines) + "\n"


def main() -> None:
    sys.stdout.write(markdown(asyncio.run(chouette_group())))


if __name__ == "__main__":
    main()
