"""Game records: a game or the whole session as a .mat file GNU Backgammon imports, your own
cube's games as a match file of their own, and the Position ID of any position (the logic is
`bot/records/games.py` and `bot/records/cubes.py`)."""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands

from bot.discord.client import ChouetteBot
from bot.records import cubes, games
from cogs import Subcommands, add, table_games, this_table


class Records(Subcommands):
    """/chouette record and position."""

    @app_commands.command()
    @app_commands.describe(game="the game's number (default: every game of the session)",
                           mine="only your own cube's game against the Box, with its doubles "
                                "and answers (a Team player's)")
    @app_commands.autocomplete(game=table_games)
    async def record(self, interaction: discord.Interaction,
                     game: app_commands.Range[int, 1] | None = None,
                     mine: bool = False) -> None:
        """A .mat file for GNU Backgammon: a game, the session, or your own cube's game."""
        table = await this_table(self.bot, interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        events = [s.event for s in await self.bot.store.events.stored(table)]
        player = str(interaction.user.id)
        try:
            text = await (asyncio.to_thread(cubes.export, events, player, game) if mine
                          else asyncio.to_thread(games.export, events, game))
        except games.RecordError as exc:
            await self.bot.reply(interaction, str(exc))
            return
        name = (f"chouette-game-{game}" if game else "chouette-session") + (
            "-my-cube.mat" if mine else ".mat")
        what = f"Game {game}" if game else "Every game of the session"
        told = ("your own cube against the Box, as a money game: the checker play, its doubles, "
                "beavers and answers, and its result (the file says which gnubg settings to use)"
                if mine else "the checker play and each result at cube 1; the score sheet has "
                "the cubes")
        page = await self.bot.presenter.page_link(table, interaction.locale)  # (a private reply)
        await interaction.followup.send(
            f"{what}, for GNU Backgammon (File > Import > Jellyfish .mat): {told}.",
            file=discord.File(io.BytesIO(text.encode()), filename=name), ephemeral=True,
            view=page)  # a link to the session's page, where the pages have an address

    @app_commands.command()
    @app_commands.describe(game="the game's number", turn="the turn: 1 is the opening roll")
    @app_commands.autocomplete(game=table_games)
    async def position(self, interaction: discord.Interaction, game: app_commands.Range[int, 1],
                       turn: app_commands.Range[int, 1]) -> None:
        """The Position ID before a turn of a game, with who was on roll and the dice."""
        table = await this_table(self.bot, interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        events = [s.event for s in await self.bot.store.events.stored(table)]
        try:
            text = games.describe_turn(games.played(events), game, turn)
        except games.RecordError as exc:
            text = str(exc)
        await self.bot.reply(interaction, text)


async def setup(bot: ChouetteBot) -> None:
    """Add /chouette record and /chouette position."""
    await add(bot, Records(bot))
