"""A player's statistics over every table of the server: /chouette stats."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass

import discord
from discord import app_commands

from bot.analysis import worker
from bot.analysis.queue import AnalysisStore
from bot.analysis.text import RATINGS, Analysed, Figures, kept, rating
from bot.discord.client import ChouetteBot
from bot.records.stats import Cache, PlayerStats, read_stats
from bot.render.chart import render_chart
from bot.render.drawing import Drawing
from bot.store import EventStore
from bot.words.i18n import Translation, tr, translate, trn
from bot.words.markdown import escape
from cogs import Subcommands, add
from rules.ledger import format_points

SESSIONS = 10  # the last sessions listed and drawn
CHART = "rates.png"
# gnubg's rating words as the chart's bands: each limit (mEMG, gnubg's sign) and the word of
# the rates above it; under the last, "Beginner"
BANDS = (*((-limit * 1000, word) for limit, word in RATINGS), (-math.inf, "Beginner"))


@dataclass(frozen=True)
class Session:
    """A player's figures in one session (a table) as stored: when it was opened (Unix
    seconds, or None), his analysed games, his checker and cube figures."""

    opened: int | None
    games: int
    checker: Figures
    cube: Figures

    @property
    def overall(self) -> Figures:
        return self.checker + self.cube


async def sessions(store: EventStore, player: str, guild_id: int | None) -> list[Session]:
    """`player`'s figures in each session with an analysed game of his, oldest first (on
    the server `guild_id`'s tables, if given)."""
    return [Session(opened, games, *kept(figures))
            for _, opened, games, figures in await store.analyses.sessions(guild_id, player)]


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

    overall = analysed.checker + analysed.cube

    def at(plies: int, games: int) -> str:
        return tr("{games} at {plies}-ply", locale, games=games, plies=plies)

    depths = sorted(analysed.depths.items())
    games = (at(*depths[0]) if len(depths) == 1 else tr(
        "{games}, mixed depths: {depths}", locale, games=analysed.games,
        depths=", ".join(at(p, g) for p, g in depths)))
    return {
        translate("Checker error rate", locale): rate(analysed.checker),
        translate("Cube error rate", locale): rate(analysed.cube),
        translate("Overall error rate", locale): tr(
            "{rate} ({rating})", locale, rate=overall.per_decision,
            rating=translate(rating(overall) or "-", locale)),
        translate("Analysed decisions", locale): tr(
            "checker {checker} · cube {cube}", locale, checker=analysed.checker.decisions,
            cube=analysed.cube.decisions),
        translate("Analysed games", locale): games,
    }


def sessions_embed(name: str, found: Sequence[Session], locale: object = None
                   ) -> discord.Embed:
    """The last `SESSIONS` of `found` (oldest first, numbered as the chart numbers them):
    each one's date, analysed games, checker, cube and overall rates with gnubg's rating
    word; the chart under them (`CHART`)."""
    shown = found[-SESSIONS:]
    lines = [translate("Error rates in mEMG (gnubg's sign): checker · cube · overall",
                       locale)]
    for number, session in enumerate(shown, 1):
        when = f"<t:{session.opened}:d>" if session.opened else "-"  # the reader's own date
        lines.append(tr("`{number}.` {date} · {games} · {checker} · {cube} · **{overall}** "
                        "({rating})", locale, number=number, date=when,
                        games=trn("1 game", "{count} games", session.games, locale,
                                  count=session.games),
                        checker=_bare(session.checker), cube=_bare(session.cube),
                        overall=_bare(session.overall),
                        rating=translate(rating(session.overall) or "-", locale)))
    embed = discord.Embed(title=tr("{name}: error rates by session", locale, name=name),
                          description="\n".join(lines))
    embed.set_footer(text=tr("The last {shown} of {count} sessions with an analysed game, "
                             "oldest first.", locale, shown=len(shown), count=len(found)))
    return embed.set_image(url=f"attachment://{CHART}")


def _bare(figures: Figures) -> str:
    """A rate as gnubg writes it, without its unit ("-4.8"), or "-" without a decision."""
    return figures.per_decision.removesuffix(" mEMG") if figures.decisions else "-"


async def chart(drawing: Drawing, name: str, found: Sequence[Session],
                locale: object = None) -> discord.File:
    """The chart of the overall rate over the last `SESSIONS` of `found`, drawn in
    `drawing`'s process, its words in `locale`'s language."""
    points = [(str(number), -session.overall.rate)
              for number, session in enumerate(found[-SESSIONS:], 1)
              if session.overall.decisions]
    data = await drawing.run(render_chart, points, name, bands=BANDS,
                             words=Translation.of(locale))
    return discord.File(io.BytesIO(data), CHART)


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
        embed = stats_embed(record, analysed, locale,
                            analysis_on=self.bot.settings.analysis and worker.available())
        by_session = await sessions(self.bot.store, str(who.id), interaction.guild_id)
        if not by_session:
            await interaction.followup.send(embed=embed, ephemeral=True)
            return
        await interaction.followup.send(
            embeds=[embed, sessions_embed(record.shown, by_session, locale)],
            file=await chart(self.bot.drawing, record.shown, by_session, locale),
            ephemeral=True)


async def setup(bot: ChouetteBot) -> None:
    """Add /chouette stats."""
    await add(bot, Stats(bot))
