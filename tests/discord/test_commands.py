"""The /chouette commands as the real bot registers them: every subcommand and every option
has help text (what Discord shows under the command as it is typed), and docs/commands.md
names every subcommand and its options, so the doc cannot fall behind the bot."""

import re
from pathlib import Path
from typing import Any

from discord import app_commands

DOC = Path(__file__).resolve().parents[2] / "docs" / "commands.md"
PLACEHOLDER = "…"  # discord.py's description when a command or an option has none


def subcommands(env: Any) -> list[app_commands.Command[Any, ..., Any]]:
    """Every /chouette subcommand on the started bot's tree (the one it syncs)."""
    group = env.bot.tree.get_command("chouette")
    assert isinstance(group, app_commands.Group), "the bot registers no /chouette group"
    found = [c for c in group.walk_commands() if isinstance(c, app_commands.Command)]
    assert found, "/chouette has no subcommands"
    return found


def lacking(text: str) -> bool:
    return not text.strip() or text.strip() == PLACEHOLDER


async def test_every_subcommand_and_option_has_help_text(simcord_env: Any) -> None:
    missing: list[str] = []
    for command in subcommands(simcord_env):
        if lacking(command.description):
            missing.append(f"/{command.qualified_name} (the command)")
        elif command.description.endswith(PLACEHOLDER):  # cut at Discord's 100 characters
            missing.append(f"/{command.qualified_name} (cut short: {command.description!r})")
        missing += [f"/{command.qualified_name} {p.name}" for p in command.parameters
                    if lacking(p.description)]
    assert not missing, (
        "These /chouette commands or options have no description (Discord shows "
        f"'{PLACEHOLDER}'): {', '.join(missing)}. Give the command a docstring and each "
        "option an @app_commands.describe(...) entry.")


def doc_text() -> str:
    assert DOC.exists(), f"{DOC} is missing: it documents the Discord commands"
    return DOC.read_text(encoding="utf-8")


def name(command: app_commands.Command[Any, ..., Any]) -> str:
    """The command as typed after /chouette: `sheet`, or `mod blind` in a subgroup."""
    return command.qualified_name.removeprefix("chouette ")


GROUPS = ("mod",)  # subgroups of /chouette
NAMED = r"/chouette ((?:mod )?[a-z][\w-]*)"


async def test_the_doc_names_every_subcommand_and_no_other(simcord_env: Any) -> None:
    names = {name(c) for c in subcommands(simcord_env)}
    text = doc_text()
    undocumented = sorted(n for n in names
                          if not re.search(rf"/chouette {re.escape(n)}(?![\w-])", text))
    assert not undocumented, (
        f"docs/commands.md does not mention {', '.join(f'/chouette {n}' for n in undocumented)}"
        ": add them (python tools/commands_doc.py prints what the bot registers).")
    named = set(re.findall(NAMED, text)) - set(GROUPS)
    stale = sorted(named - names)
    assert not stale, (
        f"docs/commands.md describes {', '.join(f'/chouette {n}' for n in stale)}, which the "
        "bot no longer registers.")


async def test_the_doc_gives_every_subcommand_its_options(simcord_env: Any) -> None:
    """Each command's usage line (`/chouette NAME option ...` in backquotes) names all its
    options, required ones bare and optional ones in [brackets], as the bot declares them."""
    usages: dict[str, list[str]] = {}
    for m in re.finditer(rf"`{NAMED}[^`]*`", doc_text()):
        usages.setdefault(m[1], []).append(m[0])
    wrong: list[str] = []
    for command in subcommands(simcord_env):
        shown = [p.name if p.required else f"[{p.name}]" for p in command.parameters]
        if not any(all(re.search(rf"(?<![\w\[]){re.escape(s)}(?![\w\]])", usage)
                       for s in shown) for usage in usages.get(name(command), [])):
            wrong.append(" ".join([f"/chouette {name(command)}", *shown]))
    assert not wrong, (
        "docs/commands.md has no usage line (`/chouette NAME option [optional]`, in "
        "backquotes) with every option for: " + "; ".join(wrong))
