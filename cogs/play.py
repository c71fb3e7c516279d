"""Play by command as well as by button: a move in notation, a result, a settlement.
Rolls, doubles and answers are buttons on the board and in DMs (bot/views.py)."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.app.dice import games_dice
from bot.app.flow import play_options
from bot.discord.asks import Question, ask_consent
from bot.discord.client import ChouetteBot
from bot.words.i18n import tr
from bot.words.markdown import escape, shown
from cogs import Subcommands, add, table_games, this_table
from rules.commands import Move, OfferSale, Penalty, Resign, Result, Settle


class Play(Subcommands):
    """/chouette move, result, settle, resign, verify, sell and penalty."""

    @app_commands.command()
    @app_commands.describe(play="your play in standard notation, like 24/18 13/11 or bar/22*")
    async def move(self, interaction: discord.Interaction,
                   play: app_commands.Range[str, 1, 60]) -> None:
        """Play the roll (the Box or the Captain), in notation."""
        table = await this_table(self.bot, interaction)
        await self.bot.act(interaction, table, Move(by=str(interaction.user.id), play=play))

    @move.autocomplete("play")
    async def plays(self, interaction: discord.Interaction,
                    current: str) -> list[app_commands.Choice[str]]:
        """The legal plays of the roll on the board, those holding what was typed."""
        found = await self.bot.store.channels.find(channel_id=interaction.channel_id)
        game = (await self.bot.service.state(found.table_id)).game if found else None
        if game is None or game.position is None or game.dice is None:
            return []
        typed = " ".join(current.split())
        plays = [p for p in play_options(game.position, game.dice) if typed in p]
        return [app_commands.Choice(name=p, value=p) for p in plays[:25]]

    @app_commands.command()
    @app_commands.describe(winner="who won", kind="single, gammon or backgammon")
    async def result(self, interaction: discord.Interaction, winner: Literal["box", "team"],
                     kind: Literal["single", "gammon", "backgammon"] = "single") -> None:
        """Enter the result of the game (scorekeeper mode, or a game resigned or agreed)."""
        table = await this_table(self.bot, interaction)
        await self.bot.act(interaction, table, Result(
            by=str(interaction.user.id), winner=winner, kind=kind))

    @app_commands.command()
    @app_commands.describe(player="the other player of the cube",
                           points="what you pay them (negative: what they pay you); halves ok")
    async def settle(self, interaction: discord.Interaction, player: discord.Member,
                     points: float) -> None:
        """Settle your cube with another player for agreed points; a fraction may be rolled off."""
        # Atlanta 4.5; where the sheet keeps whole points the bot's dice roll it off (4.3).
        table = await this_table(self.bot, interaction)
        await self.bot.act(interaction, table, Settle(
            by=str(interaction.user.id), with_=str(player.id), points=points,
            rolloff=self.bot.dice.rolloff(), next_roll=self.bot.dice.pair()))

    @app_commands.command()
    @app_commands.describe(kind="what you concede: single, gammon or backgammon")
    async def resign(self, interaction: discord.Interaction,
                     kind: Literal["single", "gammon", "backgammon"] = "single") -> None:
        """Offer to resign: the Box on every cube, a Team player on their own cube."""
        # Each cube's other player accepts or rejects (DM buttons).
        table = await this_table(self.bot, interaction)
        await self.bot.act(interaction, table, Resign(by=str(interaction.user.id), kind=kind))

    @app_commands.command()
    @app_commands.describe(game="the game's number (the log says 'Game N begins')")
    @app_commands.autocomplete(game=table_games)
    async def verify(self, interaction: discord.Interaction, game: int) -> None:
        """Check a finished game's dice against the seed revealed at its end (docs/dice.md)."""
        # The seed must hash to the commitment published when the game began, and every
        # roll of the game must be the seed's.
        table = await this_table(self.bot, interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = [g for g in games_dice(s.event for s in await self.bot.store.events.stored(table))
                 if g.number == game]
        if not found:
            text = f"Game {game} has no committed dice here (not played on the board yet)."
        elif not found[0].seed:
            text = (f"Game {game} is still being played: its seed is revealed when it "
                    f"ends. Its commitment is `{found[0].commitment}`.")
        else:
            g = found[0]
            text = (f"Game {game}: {g.verdict()}.\nCheck it yourself: `python -m bot verify "
                    f"--seed {g.seed} --commitment {g.commitment} --dice "
                    f"{' '.join(map(str, g.dice))}` (or the recipe in docs/dice.md).")
        await self.bot.reply(interaction, text)

    @app_commands.command()
    @app_commands.describe(buyer="the Box (a buy-out), a teammate or a spectator (Atlanta 4.4)",
                           points='the price, like 1/2 (FIBS: always half the cube)')
    async def sell(self, interaction: discord.Interaction, buyer: discord.Member,
                   points: str = "") -> None:
        """Offer your game (your interest in your cube) for points; the buyer accepts by DM."""
        table = await this_table(self.bot, interaction)
        me = str(interaction.user.id)
        offered = OfferSale(by=me, to=str(buyer.id), points=points or None)
        if await self.bot.act(interaction, table, offered) is None:
            return  # refused (a sale would be now?): the seller was told why
        state = await self.bot.service.state(table)  # the table keeps the offer, its price
        locale = await self.bot.presenter.table_locale(table, state)  # the buyer's DM
        offer = (tr("{player} offers to sell you their game for {points} points.", locale,
                    player=shown(state, me), points=points) if points else
                 tr("{player} offers to sell you their game for half the cube's value.", locale,
                    player=shown(state, me)))
        await ask_consent(interaction, str(buyer.id), offer,
                          tr("Offered to {buyer}: the sale is made when they accept.",
                             interaction.locale, buyer=escape(buyer.display_name)),
                          Question(table, "buy", seller=me, buyer=str(buyer.id)),
                          locale=locale)

    @app_commands.command()
    @app_commands.describe(player="the player who consulted without the right",
                           action="award or wash their cube; half, cube or stake from a player "
                                  "out of the game; partner (Atlanta 3.6); freeze (euro)")
    async def penalty(self, interaction: discord.Interaction, player: discord.Member,
                      action: Literal["award", "wash", "half", "cube", "partner", "freeze",
                                      "stake"]) -> None:
        """Claim the rule set's penalty from a player who consulted out of turn."""
        table = await this_table(self.bot, interaction)
        await self.bot.act(interaction, table, Penalty(
            by=str(interaction.user.id), player=str(player.id), action=action,
            rolloff=self.bot.dice.rolloff(), next_roll=self.bot.dice.pair()))


async def setup(bot: ChouetteBot) -> None:
    """Add the play subcommands to /chouette."""
    await add(bot, Play(bot))
