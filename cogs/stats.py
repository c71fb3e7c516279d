"""A player's statistics over every table of the server: /chouette stats."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.analysis import worker
from bot.analysis.queue import AnalysisStore
from bot.analysis.text import Analysed, Figures
from bot.discord.client import ChouetteBot
from bot.records.stats import Cache, PlayerStats, read_stats
from bot.words.i18n import tr, translate
from bot.words.markdown import escape
from cogs import Subcommands, add
from rules.ledger import format_points


def stats_embed(record: PlayerStats, analysed: Analysed | None = None, locale: object = None,
                *, analysis_on: bool = True) -> discord.Embed:
    """The record as an embed: sessions, seats, results, points and when; then GNU
    Backgammon's error rates over his analysed games (`analysed`), in `locale`'s language."""
    embed = discord.Embed(title=tr("{name}: chouette statistics", locale, name=record.shown))
    best, worst = record.best_session, record.worst_session
    fields = {
        translate("Sessions", locale): str(record.sessions),
        translate("Games", locale): str(record.games),
        translate("Boxes held", locale): str(record.boxes),
        translate("Captain", locale): str(record.captain),
        translate("Partner", locale): str(record.partner),
        translate("Games won / lost", locale): f"{record.won} / {record.lost}",
        translate("Gammons won / lost", locale): f"{record.gammons_won} / {record.gammons_lost}",
        translate("Points", locale): format_points(record.points),
        translate("Best / worst session", locale): (
            f"{format_points(best)} / {format_points(worst)}"
            if best is not None and worst is not None else "-"),
        translate("Stakes", locale): ", ".join(
            tr("×{stake}: {games} games", locale, stake=s, games=n)
            for s, n in sorted(record.stakes.items())) or "-",
    }
    for name, value in fields.items():
        embed.add_field(name=name, value=value)
    if record.last_played is not None:
        embed.add_field(name=translate("Last played", locale),
                        value=f"<t:{record.last_played}:R>")
    for name, value in analysis_fields(analysed or Analysed(), locale, analysis_on).items():
        embed.add_field(name=name, value=value)
    if analysed is not None and analysed.games:
        embed.set_footer(text=translate(
            "Error rates are GNU Backgammon's, as in its message after each game: the "
            "equity lost per decision, in thousandths (mEMG), over every analysed game on "
            "this server.", locale))
    return embed


def analysis_fields(analysed: Analysed, locale: object, analysis_on: bool) -> dict[str, str]:
    """The error rates' fields: checker and cube apart, the decisions and games they are
    over and the depth (each depth's games when they were mixed); one field saying there
    are none, or that the analysis is off."""
    if not analysed.games:
        return {translate("Error rates", locale): "-" if analysis_on else translate(
            "GNU Backgammon's analysis is off on this bot", locale)}

    def rate(figures: Figures) -> str:
        return figures.per_decision if figures.decisions else "-"

    def at(plies: int, games: int) -> str:
        return tr("{games} at {plies}-ply", locale, games=games, plies=plies)

    depths = sorted(analysed.depths.items())
    games = (at(*depths[0]) if len(depths) == 1 else tr(
        "{games}, mixed depths: {depths}", locale, games=analysed.games,
        depths=", ".join(at(p, g) for p, g in depths)))
    return {
        translate("Checker error rate", locale): rate(analysed.checker),
        translate("Cube error rate", locale): rate(analysed.cube),
        translate("Analysed decisions", locale): tr(
            "checker {checker} · cube {cube}", locale, checker=analysed.checker.decisions,
            cube=analysed.cube.decisions),
        translate("Analysed games", locale): games,
    }


class Stats(Subcommands):
    """/chouette stats, with the results of closed tables kept (they never change)."""

    def __init__(self, bot: ChouetteBot) -> None:
        super().__init__(bot)
        self.cache: Cache = {}

    @app_commands.command()
    @app_commands.describe(player="whose statistics (default: yours)")
    async def stats(self, interaction: discord.Interaction,
                    player: discord.Member | None = None) -> None:
        """A player's record over every chouette of this server: games, boxes, points,
        error rates."""
        assert interaction.guild_id is not None
        who, locale = player or interaction.user, interaction.locale
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await read_stats(self.bot.store, guild_id=interaction.guild_id,
                                 player=str(who.id), cache=self.cache)
        record = found.get(str(who.id))
        if record is None:
            await interaction.followup.send(
                tr("{player} has not played a chouette on this server yet.", locale,
                   player=escape(who.display_name)), ephemeral=True)
            return
        analysed = await AnalysisStore(self.bot.store).analysed(
            str(who.id), guild_id=interaction.guild_id)
        await interaction.followup.send(embed=stats_embed(
            record, analysed, locale, analysis_on=worker.available()), ephemeral=True)


async def setup(bot: ChouetteBot) -> None:
    """Add /chouette stats."""
    await add(bot, Stats(bot))
