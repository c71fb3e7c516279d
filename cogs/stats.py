"""A player's statistics over every table of the server: /chouette stats."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord.client import ChouetteBot
from bot.markdown import escape
from bot.stats import Cache, PlayerStats, read_stats
from cogs import Subcommands
from rules.ledger import format_points


def stats_embed(record: PlayerStats) -> discord.Embed:
    """The record as an embed: sessions, seats, results, points and when."""
    embed = discord.Embed(title=f"{record.shown}: chouette statistics")
    best, worst = record.best_session, record.worst_session
    fields = {
        "Sessions": str(record.sessions),
        "Games": str(record.games),
        "Boxes held": str(record.boxes),
        "Captain": str(record.captain),
        "Partner": str(record.partner),
        "Games won / lost": f"{record.won} / {record.lost}",
        "Gammons won / lost": f"{record.gammons_won} / {record.gammons_lost}",
        "Points": format_points(record.points),
        "Best / worst session": (f"{format_points(best)} / {format_points(worst)}"
                                 if best is not None and worst is not None else "-"),
        "Stakes": ", ".join(f"×{s}: {n} games" for s, n in sorted(record.stakes.items()))
                  or "-",
    }
    for name, value in fields.items():
        embed.add_field(name=name, value=value)
    if record.last_played is not None:
        embed.add_field(name="Last played", value=f"<t:{record.last_played}:R>")
    return embed


class Stats(Subcommands):
    """/chouette stats, with the results of closed tables kept (they never change)."""

    def __init__(self, bot: ChouetteBot) -> None:
        super().__init__(bot)
        self.cache: Cache = {}

    @app_commands.command()
    @app_commands.describe(player="whose statistics (default: yours)")
    async def stats(self, interaction: discord.Interaction,
                    player: discord.Member | None = None) -> None:
        """A player's record over every chouette of this server: games, boxes, points."""
        assert interaction.guild_id is not None
        who = player or interaction.user
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await read_stats(self.bot.store, guild_id=interaction.guild_id,
                                 player=str(who.id), cache=self.cache)
        record = found.get(str(who.id))
        if record is None:
            await interaction.followup.send(
                f"{escape(who.display_name)} has not played a chouette on this server yet.",
                ephemeral=True)
            return
        await interaction.followup.send(embed=stats_embed(record), ephemeral=True)


async def setup(bot: ChouetteBot) -> None:
    """Add /chouette stats."""
    await bot.add_cog(Stats(bot))
