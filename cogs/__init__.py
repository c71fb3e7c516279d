"""Thin discord.py cogs: Discord input -> table command -> service -> effects as messages.

Each module is an extension whose `setup` adds one `Subcommands` cog (or two) with `add`;
the cogs' slash commands are subcommands of the bot's `/chouette` group (or `/chouette mod`),
moved there when a cog is added and taken off when it unloads, so `bot.reload_extension`
works. A command that needs "this channel's table" asks `this_table`, which raises a
`Refusal` that the tree's error handler tells the user (`bot/discord/failures.tell`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.failures import Refusal
from bot.words.i18n import translate

if TYPE_CHECKING:
    from bot.discord.client import ChouetteBot

NOT_A_TABLE = ("This isn't a chouette table's channel: use one of its channels, or "
               "`/chouette open` to make a table.")  # in the catalogues: tools/messages.py

AppCommand = app_commands.Command[Any, ..., Any] | app_commands.Group


async def table_games(interaction: discord.Interaction,
                      current: str) -> list[app_commands.Choice[int]]:
    """A `game:` option's suggestions: the games of this channel's table, the latest first,
    those whose number begins with what was typed (none outside a table)."""
    bot = cast("ChouetteBot", interaction.client)
    found = await bot.store.channels.find(channel_id=interaction.channel_id)
    if found is None:
        return []
    state = await bot.service.state(found.table_id)
    last = max(state.games_played, state.game.number if state.game else 0)
    numbers = [n for n in range(last, 0, -1) if str(n).startswith(current.strip())]
    return [app_commands.Choice(name=f"Game {n}", value=n) for n in numbers[:25]]


async def this_table(bot: ChouetteBot, interaction: discord.Interaction) -> str:
    """The id of the table whose channels the interaction comes from; a `Refusal` if none."""
    found = await bot.store.channels.find(channel_id=interaction.channel_id)
    if found is None:
        raise Refusal(translate(NOT_A_TABLE, interaction.locale))
    return found.table_id


class Subcommands(commands.Cog):
    """A cog whose slash commands are subcommands of one of the bot's groups (`group`):
    the groups are the bot's, made once in client.py, and shared by every cog. Added with
    `add` (not `bot.add_cog`)."""

    def __init__(self, bot: ChouetteBot) -> None:
        self.bot = bot
        self.added: list[AppCommand] = []

    def group(self) -> app_commands.Group:
        """The group this cog's commands belong to: /chouette unless the cog says otherwise."""
        return self.bot.chouette

    async def cog_unload(self) -> None:
        """Take the commands off the group, so that the extension can be loaded again."""
        group = self.group()
        for command in self.added:
            if group.get_command(command.name) is command:
                group.remove_command(command.name)


async def add(bot: ChouetteBot, cog: Subcommands) -> None:
    """Add `cog`, its slash commands in its group, in the order they are written. discord.py
    adds a cog's commands to the top of the tree: they are moved into the group, all or none
    (the cog is removed again if one can't be)."""
    await bot.add_cog(cog)
    cog.added = cog.get_app_commands()
    try:
        for command in cog.added:
            bot.tree.remove_command(command.name)
            cog.group().add_command(command)
    except Exception:
        await bot.remove_cog(cog.qualified_name)
        raise
