"""The score sheet as an image, and the end of the session with who pays whom."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord.client import ChouetteBot
from bot.discord.sheets import sheet_file
from cogs import Subcommands, add, this_table
from rules.commands import EndSession


class Scores(Subcommands):
    """/chouette sheet and end."""

    @app_commands.command()
    async def sheet(self, interaction: discord.Interaction) -> None:
        """The score sheet so far, as an image."""
        table = await this_table(self.bot, interaction)
        state = await self.bot.service.state(table)
        await interaction.response.defer(ephemeral=True, thinking=True)
        file = await sheet_file(self.bot.drawing, state, interaction.locale)  # a private reply
        await interaction.followup.send(file=file, ephemeral=True)

    @app_commands.command()
    async def end(self, interaction: discord.Interaction) -> None:
        """End the session: the final sheet and who pays whom, posted in #board."""
        table = await this_table(self.bot, interaction)
        await self.bot.act(interaction, table, EndSession(by=str(interaction.user.id)))


async def setup(bot: ChouetteBot) -> None:
    """Add /chouette sheet and /chouette end."""
    await add(bot, Scores(bot))
