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
from bot.records.history import corrections, discord_time, full_log
from bot.words.markdown import escape
from cogs import Subcommands, add, this_table
from rules.commands import Blind, Correct, Disconnect, Unblind
from rules.state import TableState


class Moderation(Subcommands):
    """/chouette mod blind, unblind, correct, undo and disconnected."""

    def group(self) -> app_commands.Group:
        """/chouette mod: Discord allows 25 subcommands a group."""
        return self.bot.moderation

    async def set_sight(self, interaction: discord.Interaction, member: discord.Member,
                        blind: bool) -> None:
        """The rules decide (moderators, kibitzers only: a moderator's command says so in
        `ChouetteBot.act`); the channels follow the state; the record names him."""
        table = await this_table(self.bot, interaction)
        await self.bot.act(interaction, table, (Blind if blind else Unblind)(
            by=str(interaction.user.id), player=str(member.id), name=member.display_name))

    @app_commands.command()
    @app_commands.describe(member="the kibitzer who loses sight of the table")
    async def blind(self, interaction: discord.Interaction, member: discord.Member) -> None:
        """Blind a kibitzer: they no longer see this table's channels (moderators)."""
        await self.set_sight(interaction, member, True)

    @app_commands.command()
    @app_commands.describe(member="the kibitzer who sees the table again")
    async def unblind(self, interaction: discord.Interaction, member: discord.Member) -> None:
        """Give a blinded kibitzer sight of this table again (moderators)."""
        await self.set_sight(interaction, member, False)

    @app_commands.command()
    @app_commands.describe(payer="the player who pays the points", payee="who receives them",
                           points="how many points (halves allowed: 1.5 or 3/2)",
                           reason="what went wrong: kept in the history")
    async def correct(self, interaction: discord.Interaction, payer: discord.Member,
                      payee: discord.Member, points: str, reason: str) -> None:
        """Moderators: correct the score with a new line on the sheet, once it is agreed to."""
        # The players it concerns agree, or a second moderator confirms, as the rules ask.
        table = await this_table(self.bot, interaction)
        await self.bot.act(interaction, table, Correct(
            by=str(interaction.user.id), kind="score", from_=str(payer.id), to=str(payee.id),
            points=points, reason=reason))

    @app_commands.command()
    @app_commands.describe(reason="what went wrong (a misclick, say): kept in the history")
    async def undo(self, interaction: discord.Interaction, reason: str) -> None:
        """Moderators: take back the last checker play and what followed it, if agreed to."""
        # The mover's opponent agrees, where the rule set allows an undo at all.
        table = await this_table(self.bot, interaction)
        await self.bot.act(interaction, table, Correct(
            by=str(interaction.user.id), kind="undo", reason=reason))

    @app_commands.command()
    @app_commands.describe(player="the player whose connection dropped")
    async def disconnected(self, interaction: discord.Interaction, player: discord.Member) -> None:
        """Moderators: a player was cut off: away now, and may lose the place (FIBS)."""
        table = await this_table(self.bot, interaction)  # the rules: moderators only
        await self.bot.act(interaction, table, Disconnect(
            by=str(interaction.user.id), player=str(player.id)))


class History(Subcommands):
    """/chouette mod history: what moderators and players read of the corrections (beside
    correct and undo; /chouette holds Discord's 25 subcommands a group already)."""

    def group(self) -> app_commands.Group:
        return self.bot.moderation

    @app_commands.command()
    async def history(self, interaction: discord.Interaction) -> None:
        """Every correction made or proposed at this table, and the whole log as a file."""
        table = await this_table(self.bot, interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        stored = await self.bot.store.events.stored(table)
        state = await self.bot.service.state(table)
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


async def setup(bot: ChouetteBot) -> None:
    """Add /chouette mod blind|unblind|correct|undo|disconnected|history."""
    await add(bot, Moderation(bot))
    await add(bot, History(bot))


def _who(state: TableState, key: str) -> str:
    """A player by his name; anyone else (a moderator who does not play) as a mention,
    which Discord shows as his name (and pings nobody: the bot allows no mentions)."""
    name = state.shown(key)
    return f"<@{key}>" if name == key and key.isdigit() else escape(name)
