"""The score sheet as an image, and the end of the session with who pays whom."""

from __future__ import annotations

import asyncio

import discord

from bot.discord.client import ChouetteBot
from bot.discord.presenter import sheet_file
from cogs.lobby import table_of
from rules.state import Command


async def setup(bot: ChouetteBot) -> None:
    """Add /chouette sheet and /chouette end."""
    group = bot.chouette

    @group.command()
    async def sheet(interaction: discord.Interaction) -> None:
        """The score sheet so far, as an image."""
        if table := await table_of(bot, interaction):
            state = await bot.service.state(table)
            await interaction.response.defer(ephemeral=True, thinking=True)
            file = await asyncio.to_thread(sheet_file, state)
            await interaction.followup.send(file=file, ephemeral=True)

    @group.command()
    async def end(interaction: discord.Interaction) -> None:
        """End the session: the final sheet and who pays whom, posted in #board."""
        if table := await table_of(bot, interaction):
            await bot.act(interaction, table, Command("end_session", str(interaction.user.id)))
