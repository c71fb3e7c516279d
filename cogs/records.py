"""Game records: a game or the whole session as a .mat file GNU Backgammon imports, and the
Position ID of any position (the logic is `bot/records.py`)."""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands

from bot import records
from bot.discord.client import ChouetteBot
from cogs.lobby import table_of


async def setup(bot: ChouetteBot) -> None:
    """Add /chouette record and /chouette position."""
    group = bot.chouette

    @group.command()
    @app_commands.describe(game="the game's number (default: every game of the session)")
    async def record(interaction: discord.Interaction,
                     game: app_commands.Range[int, 1] | None = None) -> None:
        """The game record as a .mat file for GNU Backgammon: one game or the session."""
        if table := await table_of(bot, interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            events = [s.event for s in await bot.store.events(table)]
            try:
                text = await asyncio.to_thread(records.export, events, game)
            except records.RecordError as exc:
                await bot.reply(interaction, str(exc))
                return
            name = f"chouette-game-{game}.mat" if game else "chouette-session.mat"
            what = f"Game {game}" if game else "Every game of the session"
            await interaction.followup.send(
                f"{what}, for GNU Backgammon (File > Import > Jellyfish .mat): the checker "
                "play and each result at cube 1; the score sheet has the cubes.",
                file=discord.File(io.BytesIO(text.encode()), filename=name), ephemeral=True)

    @group.command()
    @app_commands.describe(game="the game's number", turn="the turn: 1 is the opening roll")
    async def position(interaction: discord.Interaction, game: app_commands.Range[int, 1],
                       turn: app_commands.Range[int, 1]) -> None:
        """The Position ID before a turn of a game, with who was on roll and the dice."""
        if table := await table_of(bot, interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            events = [s.event for s in await bot.store.events(table)]
            try:
                text = records.describe(records.played(events), game, turn)
            except records.RecordError as exc:
                text = str(exc)
            await bot.reply(interaction, text)
