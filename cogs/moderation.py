"""Moderation: blind and unblind a kibitzer (he loses sight of the table's four channels),
correct the score or take back a play (with the consent the rule set asks), and the
history of every correction. Moderators are members with Manage Server or the configured
moderator role; the rules decide whose consent a correction needs."""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands

from bot.discord.client import ChouetteBot
from bot.history import corrections, discord_time, full_log
from bot.markdown import escape
from cogs.lobby import table_of
from rules.state import Command, TableState


async def setup(bot: ChouetteBot) -> None:
    """Add /chouette mod blind|unblind|correct|undo|disconnected and /chouette history."""
    group, chouette = bot.moderation, bot.chouette

    async def set_sight(interaction: discord.Interaction, member: discord.Member,
                        blind: bool) -> None:
        """The rules decide (moderators, kibitzers only: a moderator's command says so in
        `bot.act`); the channels follow the state; the record names him."""
        if table := await table_of(bot, interaction):
            await bot.act(interaction, table, Command(
                "blind" if blind else "unblind", str(interaction.user.id),
                {"player": str(member.id), "name": member.display_name}))

    @group.command()
    @app_commands.describe(member="the kibitzer who loses sight of the table")
    async def blind(interaction: discord.Interaction, member: discord.Member) -> None:
        """Blind a kibitzer: he can no longer see this table's channels (moderators)."""
        await set_sight(interaction, member, True)

    @group.command()
    @app_commands.describe(member="the kibitzer who sees the table again")
    async def unblind(interaction: discord.Interaction, member: discord.Member) -> None:
        """Give a blinded kibitzer his sight of this table back (moderators)."""
        await set_sight(interaction, member, False)

    @group.command()
    @app_commands.describe(payer="the player who pays the points", payee="who receives them",
                           points="how many points (halves allowed: 1.5 or 3/2)",
                           reason="what went wrong: kept in the history")
    async def correct(interaction: discord.Interaction, payer: discord.Member,
                      payee: discord.Member, points: str, reason: str) -> None:
        """Moderators: correct the score with a new line on the sheet, once it is agreed to."""
        # The players it concerns agree, or a second moderator confirms, as the rules ask.
        if table := await table_of(bot, interaction):
            await bot.act(interaction, table, Command(
                "correct", str(interaction.user.id),
                {"kind": "score", "from": str(payer.id), "to": str(payee.id), "points": points,
                 "reason": reason}))

    @group.command()
    @app_commands.describe(reason="what went wrong (a misclick, say): kept in the history")
    async def undo(interaction: discord.Interaction, reason: str) -> None:
        """Moderators: take back the last checker play and what followed it, if agreed to."""
        # The mover's opponent agrees, where the rule set allows an undo at all.
        if table := await table_of(bot, interaction):
            await bot.act(interaction, table, Command(
                "correct", str(interaction.user.id),
                {"kind": "undo", "reason": reason}))

    @group.command()
    @app_commands.describe(player="the player whose connection dropped")
    async def disconnected(interaction: discord.Interaction, player: discord.Member) -> None:
        """Moderators: a player was cut off; he is away, and may lose his place (FIBS)."""
        if table := await table_of(bot, interaction):  # the rules: moderators only
            await bot.act(interaction, table, Command(
                "disconnect", str(interaction.user.id), {"player": str(player.id)}))

    @chouette.command()
    async def history(interaction: discord.Interaction) -> None:
        """Every correction made or proposed at this table, and the whole log as a file."""
        if table := await table_of(bot, interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            stored = await bot.store.events(table)
            state = await bot.service.state(table)
            shown = corrections(stored, discord_time, lambda key: _who(state, key))
            text, left = "", len(shown)
            while left and len(text) + len(shown[left - 1]) < 1800:  # the latest that fit
                left -= 1
                text = shown[left] + "\n" + text
            text = (text or "No corrections at this table.\n") + (
                f"({left} earlier in the file.)" if left else "")
            log = "\n\n".join([*corrections(stored, shown=state.shown), "Every event:",
                                full_log(stored)])
            data = await asyncio.to_thread(log.encode)
            await interaction.followup.send(text, file=discord.File(io.BytesIO(data),
                                                                     "history.txt"),
                                            ephemeral=True)


def _who(state: TableState, key: str) -> str:
    """A player by his name; anyone else (a moderator who does not play) as a mention,
    which Discord shows as his name (and pings nobody: the bot allows no mentions)."""
    name = state.shown(key)
    return f"<@{key}>" if name == key and key.isdigit() else escape(name)
