"""The cogs are discord.py `Cog`s: each extension reloads with /chouette as Discord sees it
unchanged, and a command used outside a table's channels is refused by one check, told by
the tree's one error handler."""

import logging
from typing import Any

import pytest
from discord import app_commands

from bot.discord.client import INITIAL_EXTENSIONS
from cogs import NOT_A_TABLE
from tests.discord.test_lobby import open_table

SUBCOMMAND, GROUP = 1, 2  # option types: a subcommand, a subgroup


def in_any_order(command: dict[str, Any]) -> dict[str, Any]:
    """A command as Discord receives it, its subcommands by name: a reloaded cog's come
    last in the group until the next start (Discord lists them by name; only a start syncs)."""
    options = command.get("options", [])
    if options and all(o["type"] in (SUBCOMMAND, GROUP) for o in options):
        options = sorted((in_any_order(o) for o in options), key=lambda o: o["name"])
    return {**command, "options": options}


def tree(env: Any) -> list[dict[str, Any]]:
    """What the bot syncs: every command of its tree as Discord receives it."""
    return [in_any_order(c.to_dict(env.bot.tree)) for c in env.bot.tree.get_commands()]


def subcommands(env: Any) -> set[str]:
    group = env.bot.tree.get_command("chouette")
    assert isinstance(group, app_commands.Group)
    return {c.qualified_name for c in group.walk_commands()}


@pytest.mark.parametrize("extension", INITIAL_EXTENSIONS)
async def test_each_extension_reloads_with_the_tree_unchanged(simcord_env: Any,
                                                              extension: str) -> None:
    before = tree(simcord_env)
    await simcord_env.bot.reload_extension(extension)
    await simcord_env.bot.reload_extension(extension)  # twice: nothing is left behind
    assert tree(simcord_env) == before


async def test_an_unloaded_extension_takes_its_subcommands_with_it(simcord_env: Any) -> None:
    every = subcommands(simcord_env)
    await simcord_env.bot.unload_extension("cogs.moderation")
    assert every - subcommands(simcord_env) == {
        "chouette mod history", "chouette mod blind", "chouette mod unblind",
        "chouette mod correct", "chouette mod undo", "chouette mod disconnected"}
    await simcord_env.bot.load_extension("cogs.moderation")
    assert subcommands(simcord_env) == every


async def test_a_reloaded_cog_still_runs_the_table(simcord_env: Any) -> None:
    guild, (ann, _bo), board = await open_table(simcord_env, "ann", "bo")
    await simcord_env.bot.reload_extension("cogs.lobby")
    cy = guild.add_member(simcord_env.create_user("cy"))
    joined = await cy.slash(board, "chouette join")
    assert joined.ephemeral
    await simcord_env.bot.reload_extension("cogs.scores")
    sheet = await ann.slash(board, "chouette sheet")
    assert sheet.ephemeral and sheet.response.attachments


@pytest.mark.parametrize("command", ["chouette leave", "chouette sheet", "chouette mod history",
                                     "chouette record", "chouette mod undo"])
async def test_outside_a_table_every_table_command_says_so_privately(
        simcord_env: Any, command: str, caplog: pytest.LogCaptureFixture) -> None:
    guild = simcord_env.create_guild()
    lobby = guild.create_text_channel("lobby")
    ann = guild.add_member(simcord_env.create_user("ann"))
    options = {"reason": "a misclick"} if command.endswith("undo") else {}
    with caplog.at_level(logging.WARNING):
        answer = await ann.slash(lobby, command, **options)
    assert answer.ephemeral
    root = {c.name: c.id for c in await simcord_env.bot.tree.fetch_commands()}["chouette"]
    assert answer.response.content.strip() == NOT_A_TABLE.replace(  # a clickable command
        "`/chouette open`", f"</chouette open:{root}>")
    assert not caplog.records  # a refusal, not a failure: nothing to log
