"""GNU Backgammon's verdict on the games (issue 21): posted in #board after each game, and
`/chouette analysis` for a player's list and an error on its board.

The queue (`bot/analysis/queue.py`) is this extension's resource: one worker process for
the bot, made when the extension loads and ended when it unloads. What is analysed and
posted is in the store, never here. Who may see what when is the rules'
(`rules/review.py`).
"""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands

from bot.analysis import view, worker
from bot.analysis.queue import AnalysisQueue
from bot.app.tasks import spawn
from bot.discord.client import ChouetteBot
from bot.discord.presenter import message_nonce
from bot.words.i18n import translate
from cogs import Subcommands, add, this_table
from rules.errors import RuleError
from rules.review import may_see_analysis


class Analysis(Subcommands):
    """/chouette analysis, and the post-game message."""

    queue: AnalysisQueue

    async def cog_load(self) -> None:
        await super().cog_load()
        if not hasattr(self.bot, "store"):  # a tool listing the commands (tools/messages.py)
            return
        settings = self.bot.settings  # CHOUETTE_ANALYSIS, _PLIES and _TIMEOUT
        self.queue = AnalysisQueue(self.bot.store, self.bot.service.state, self._post,
                                   plies=settings.analysis_plies,
                                   locale=self.bot.presenter.table_locale,
                                   worker=worker.AnalysisWorker(
                                       timeout=settings.analysis_timeout),
                                   enabled=settings.analysis)
        self.bot.presenter.after_show.append(self.queue.notice)
        self._resuming = spawn(self._resume(), "analysis resume")

    async def cog_unload(self) -> None:
        await super().cog_unload()
        if not hasattr(self, "queue"):
            return
        if self.queue.notice in self.bot.presenter.after_show:
            self.bot.presenter.after_show.remove(self.queue.notice)
        self._resuming.cancel()
        await self.queue.close()

    async def _resume(self) -> None:
        await self.bot.wait_until_ready()  # the channels can be seen
        await self.queue.resume(self.bot.serves_table)
        self.queue.start()

    async def _post(self, table_id: str, game: int, text: str) -> None:
        """A verdict in #board (game 0: the session's figures), with a link to the game's
        replay (the session's page) where the pages have an address."""
        channels = await self.bot.store.channels.find(table_id=table_id)
        channel = self.bot.get_channel(channels.board_id) if channels else None
        if isinstance(channel, discord.TextChannel):
            state = await self.bot.service.state(table_id)
            locale = await self.bot.presenter.table_locale(table_id, state)
            await channel.send(text[:2000], view=await self.bot.presenter.page_link(
                table_id, locale, game), nonce=message_nonce(table_id, "analysis", str(game)))

    @app_commands.command()
    @app_commands.describe(
        game="the game's number (default: every game of the session analysed so far)",
        player="whose decisions (default: yours if you played, else everyone's)",
        error="the number of a listed error, to see on its board (default: the worst)")
    async def analysis(self, interaction: discord.Interaction,
                       game: app_commands.Range[int, 1] | None = None,
                       player: discord.Member | None = None,
                       error: app_commands.Range[int, 1] | None = None) -> None:
        """GNU Backgammon's verdict: a player's errors in a game or the session, on the board."""
        table = await this_table(self.bot, interaction)
        locale = interaction.locale  # a private reply: the reader's language
        if not self.bot.settings.analysis:  # CHOUETTE_ANALYSIS=off
            await self.bot.reply(interaction, translate(
                "GNU Backgammon's analysis is off on this bot", locale))
            return
        if not worker.available():
            await self.bot.reply(interaction, translate(worker.HOW_TO_ENABLE, locale))
            return
        state = await self.bot.service.state(table)
        try:
            may_see_analysis(state, game)
        except RuleError as exc:
            await self.bot.reply(interaction, self.bot.presenter.names(state, exc, locale=locale))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        stored = await self.queue.rows.games(table)
        waiting = view.not_ready(state, stored, game, locale)
        if waiting is not None:
            await self.bot.reply(interaction, waiting)
            return
        me = str(interaction.user.id)
        decided = {d["player"] for s in stored.values() if s.failed is None
                   for d in s.result["decisions"]}
        whose = view.choose_player(decided, me,
                                            str(player.id) if player is not None else None)
        data = await self.bot.store.events.data(table)  # decoded off the event loop

        def answer() -> view.Shown:
            events = self.bot.store.events.decoded(data)
            return view.answer(state, events, stored, game, whose, error, locale)

        shown = await asyncio.to_thread(answer)
        if shown.board is None:
            await interaction.followup.send(shown.text, ephemeral=True)
            return
        png = await self.bot.drawing.picture(shown.board)  # off the event loop
        await interaction.followup.send(
            shown.text, ephemeral=True, file=discord.File(io.BytesIO(png), filename="analysis.png"))


async def setup(bot: ChouetteBot) -> None:
    """Add /chouette analysis and the post-game analysis."""
    await add(bot, Analysis(bot))
