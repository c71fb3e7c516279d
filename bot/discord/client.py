"""The Discord client: a typed Bot that connects Discord to the tables. It owns the store,
the service, the game's flow (`bot.app.flow`) and the presenter, loads the cogs and turns every
interaction into one table command (`act`, `start_game`).

Resources are made in `setup_hook` and injected into the cogs through the bot; nothing is
global. Every `/chouette` subcommand lives on one app-command group that the cogs fill in.
A refusal is an ephemeral reply with the rules' own words; an error of Discord's or of the
bot's, in a command (`on_app_command_error`) or a button, menu or form (`guarded`, by the
`Router` that dispatches them), is an ephemeral reply saying what to do and one log line.
The bot pings nobody unless it names a player to act.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from typing import Any

import discord
from aiohttp import web
from discord import app_commands
from discord.ext import commands

from bot import health
from bot.app.dice import Dice
from bot.app.effects import Outcome
from bot.app.flow import Flow
from bot.app.service import TableService
from bot.app.tasks import spawn
from bot.config import Settings
from bot.discord import startup
from bot.discord.actions import ROUTES
from bot.discord.channels import reconcile
from bot.discord.failures import private, tell
from bot.discord.inbox import Inbox
from bot.discord.presenter import Presenter
from bot.discord.router import Router
from bot.discord.sync import Translator, command_ids, linked, sync_commands
from bot.render.drawing import Drawing
from bot.store import EventStore
from bot.words.markdown import escape
from rules.commands import Command

log = logging.getLogger(__name__)

INITIAL_EXTENSIONS = ("cogs.lobby", "cogs.play", "cogs.scores", "cogs.moderation", "cogs.stats",
                      "cogs.records", "cogs.help", "cogs.analysis", "cogs.pages")


class ChouetteBot(commands.Bot):
    """The chouette bot: settings, dice, the event store, the table service and flow."""

    store: EventStore
    service: TableService
    presenter: Presenter
    flow: Flow

    def __init__(self, settings: Settings, *, dice: Dice | None = None) -> None:
        shards: dict[str, Any] = {}
        if settings.sharded:  # an AutoShardedBot (build_bot): these shards of the gateway
            shards = {"shard_count": settings.shard_count,
                      "shard_ids": list(settings.shard_ids) if settings.shard_ids else None}
        intents = discord.Intents.default()
        intents.members = True  # to set channel permissions for seated players
        # Players act through interactions, never messages: without these the gateway does
        # not send the bot every message of its servers and DMs (its own board edits too).
        intents.guild_messages = intents.dm_messages = False
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None, allowed_mentions=discord.AllowedMentions.none(),
                         **shards)
        self.settings = settings
        self.inbox = Inbox(self)  # DM answers for tables another process serves
        self._inbox: asyncio.Task[None] | None = None  # others' DM answers, when sharded
        self._tidy: asyncio.Task[None] | None = None  # the start's tidying up (`tidy_up`)
        self.dice = dice or Dice()
        self.drawing = Drawing(settings.draw_processes)  # boards and sheets drawn off the loop
        self.pages: web.AppRunner | None = None  # the club's pages, where the bot serves them
        # Opens on one server take turns: its limits are checked and its channels made
        # with nothing in between (a lock is no table state; the store holds the tables).
        self.opening: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.chouette = app_commands.Group(name="chouette",
                                           description="Run a backgammon chouette.",
                                           guild_only=True)
        # Discord allows 25 subcommands a group: the moderators' have a group of their own.
        self.moderation = app_commands.Group(name="mod", parent=self.chouette,
                                             description="Moderators: blind, correct, undo.")

    async def setup_hook(self) -> None:
        """Open the store, serve the club's pages (CHOUETTE_WEB_BIND), resume every open
        table, load the cogs, sync the commands."""
        await self.drawing.start()
        self.store = await EventStore(self.settings.database).open()
        self.pages = await startup.serve_pages(self.store, self.drawing, self.settings.web_bind)
        self.service = TableService(self.store, outbox=True)
        self.presenter = Presenter(self)
        self.flow = Flow(self)
        self.service.deadlines = self.flow.deadlines
        resumed = await self.service.resume(self.serves_table)
        log.info("resumed %d open tables", len(resumed))
        for extension in INITIAL_EXTENSIONS:
            await self.load_extension(extension)
        self.presenter.after_show.append(self.flow.advance)  # last: the others see it first
        self.add_listener(Router(ROUTES).dispatch, "on_interaction")
        self._tidy = spawn(self.tidy_up(resumed), "tidy up")
        self.tree.add_command(self.chouette)
        self.tree.error(self.on_app_command_error)
        await self.tree.set_translator(Translator())
        await sync_commands(self.tree, self.store, self.settings.dev_guild_id)

    async def tidy_up(self, table_ids: list[str]) -> None:
        """Once connected: every open table made true again from the store (what it had
        still to show, delivered; its channels what its state says, whatever a crash lost),
        what a table ended as the bot stopped had still to show (its final sheet), and
        ended tables' channels archived or removed when their time comes."""
        await self.wait_until_ready()  # Discord's cache is there: channels can be seen
        await self.flow.resume(table_ids)
        for table_id in table_ids:
            channels = await self.store.channels.find(table_id=table_id)
            if channels is None:
                continue
            await self.quietly(reconcile(self, await self.service.state(table_id), channels),
                               f"table {table_id}'s channels")
            await self.quietly(self.presenter.redeliver(table_id),
                               f"table {table_id}'s pending effects")
        for table_id in set(await self.store.outbox.tables()) - set(table_ids):
            if await self.serves_table(table_id):  # ended as the bot stopped: its last words
                await self.quietly(self.presenter.redeliver(table_id),
                                   f"ended table {table_id}'s pending effects")
        for channels, ended in await self.store.channels.ended():
            if (self.settings.serves(channels.guild_id)
                    and self.get_channel(channels.board_id) is not None):
                state = await self.service.state(channels.table_id)
                await self.quietly(reconcile(self, state, channels), "an ended table")
                self.presenter.retire(channels, ended or time.time())
        if not self.settings.serves_all:  # others' DM answers (answers given while down first)
            self._inbox = spawn(self.inbox.run(), "inbox")

    async def serves_table(self, table_id: str) -> bool:
        """Whether this process serves the table (`Settings.serves` of its server): resumes
        it, runs its timers, applies its commands. Without shards, every table."""
        if self.settings.serves_all:
            return True
        channels = await self.store.channels.find(table_id=table_id)  # kept once read
        if channels is None:  # not on Discord (yet): no server, shard 0's
            return self.settings.serves(None)
        return self.settings.serves(channels.guild_id)

    async def on_guild_channel_update(self, before: discord.abc.GuildChannel,
                                      after: discord.abc.GuildChannel) -> None:
        """A channel changed (mostly by the bot itself): its overwrites are read again at
        the next action, and set back if they are not what the table says."""
        self.presenter.overwrites.pop(after.id, None)

    async def quietly(self, job: Awaitable[Any], what: str) -> None:
        """Run `job`; a refusal from Discord is one log line, not a stopped bot."""
        try:
            await job
        except discord.HTTPException as exc:
            log.warning("Discord refused %s: %s %s", what, exc.status, exc.text)

    async def act(self, interaction: discord.Interaction, table_id: str,
                  command: Command, *, key: str | None = None) -> Outcome | None:
        """Send `command` to the table as the user who clicked or typed it (a moderator's
        says so: the rules decide what he may do); a refusal is an ephemeral reply. A DM
        answer for a table another process serves goes to it through the store (`Inbox`)."""
        if self.is_moderator(interaction.user):
            command = replace(command, moderator=True)
        if interaction.guild_id is None and not await self.serves_table(table_id):
            # a DM answer (Discord sends them all to shard 0) for a table served elsewhere
            await self.inbox.post(interaction, table_id, command, key or str(interaction.id),
                                  _named_in(interaction))
            return None
        return await self.apply(table_id, command, key or str(interaction.id), interaction)

    async def apply(self, table_id: str, command: Command, key: str | None = None,
                    interaction: discord.Interaction | None = None) -> Outcome | None:
        """The one path of a command to a table, whoever sends it (a user's click or command,
        `interaction`; or the bot's own, the flow's): stored by the service, then shown, the
        click answered first; once shown, the flow and the analysis hear of the table as it
        is (`Presenter.after_show`). A user's refusal is a private reply in their language;
        the bot's own means a player got there first. None: refused."""
        outcome = await self.service.handle(table_id, command, key=key)
        if not outcome.accepted:
            if interaction is not None:
                state = await self.service.state(table_id)
                await self.reply(interaction, self.presenter.names(
                    state, outcome, _named_in(interaction), interaction.locale))
            return None
        await self.presenter.show(table_id, outcome, interaction)
        return outcome

    def is_moderator(self, user: discord.User | discord.Member) -> bool:
        """Manage Server, or the moderator role of the settings (by id, else by name)."""
        return isinstance(user, discord.Member) and (
            user.guild_permissions.manage_guild
            or any(self.settings.moderator_role_matches(role.id, role.name)
                   for role in user.roles))

    async def reply(self, interaction: discord.Interaction, text: str) -> None:
        """An ephemeral answer (in pieces if long), answered already or not."""
        pieces: list[str] = [""]
        for line in linked(text, await command_ids(self.store)).splitlines():
            for part in [line[i:i + 1900] for i in range(0, len(line), 1900)] or [""]:
                if len(pieces[-1]) + len(part) + 1 > 1900:
                    pieces.append("")
                pieces[-1] += part + "\n"
        for piece in (p for p in pieces if p.strip()):
            await private(interaction, piece)

    async def start_game(self, interaction: discord.Interaction, table_id: str) -> None:
        """Start the next game for the user who clicked or typed it (`Flow.start`): each
        stored action is shown as itself (its outbox row, its nonces), the first answering
        the click with the table as it now is; a refusal is an ephemeral reply."""
        start = await self.flow.start(table_id, str(interaction.user.id), str(interaction.id),
                                      self.is_moderator(interaction.user))
        await self.presenter.show_all(table_id, [o for o in (start.seated, start.started)
                                                 if o is not None and o.accepted], interaction)
        if start.refused is not None:  # on trial (nothing stored), or the table moved on since
            await self.reply(interaction, self.presenter.names(
                start.state, start.refused, _named_in(interaction), interaction.locale))

    async def close(self) -> None:
        """Close Discord, the club's pages, then the store (inside the loop: its thread
        answers to the loop); the start's tidying up, if still going, stops (the next start
        does it again)."""
        for task in (self._inbox, self._tidy):  # not left reading a store being closed
            if task is not None:
                task.cancel()
        try:
            await super().close()
        finally:
            pages, self.pages = self.pages, None
            if pages is not None:
                await pages.cleanup()
            await self.drawing.close()
            if hasattr(self, "store"):
                await self.store.close()

    async def on_app_command_error(self, interaction: discord.Interaction,
                                   error: app_commands.AppCommandError) -> None:
        """A command's error: a private reply saying what to do, and one log line."""
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        name = interaction.command.qualified_name if interaction.command else "a command"
        await tell(interaction, cause, f"/{name}")


class ShardedChouetteBot(ChouetteBot, commands.AutoShardedBot):
    """The bot on some shards of Discord's gateway (CHOUETTE_SHARD_COUNT, CHOUETTE_SHARD_IDS),
    one connection each; the same bot otherwise."""


def _named_in(interaction: discord.Interaction) -> Mapping[str, str]:
    """The users an interaction names (its sender, a command's member options), by id."""
    users = [interaction.user, *(v for v in vars(interaction.namespace).values()
                                 if isinstance(v, discord.User | discord.Member))]
    return {str(u.id): escape(u.display_name) for u in users}


def build_bot(settings: Settings, *, dice: Dice | None = None) -> ChouetteBot:
    """A ready-to-start bot (tests pass it to SimCord; `run` logs it in)."""
    startup.quiet_voice()
    bot = (ShardedChouetteBot if settings.sharded else ChouetteBot)(settings, dice=dice)

    async def on_ready() -> None:
        log.info("%s", startup.ready_line(bot))

    bot.add_listener(on_ready)
    return bot


def run(settings: Settings) -> None:
    """Log in and run until SIGINT or SIGTERM. The database is checked before Discord is
    called; start-up failures are raised for `startup.failure` to tell in one line."""
    startup.setup_logging(settings.log_level_number)
    with asyncio.Runner(loop_factory=_loop_factory()) as runner:
        runner.run(_serve(settings, settings.require_token()))


def _loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop (libuv's: less CPU a click than asyncio's own), where it is
    installed (every platform but Windows); else asyncio's."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


async def _serve(settings: Settings, token: str) -> None:
    async with EventStore(settings.database) as store:  # opened, migrated, writable
        if store.backed_up is not None:
            log.info("backed up %s to %s before updating its schema", store.path,
                     store.backed_up)
    bot = build_bot(settings)
    loop = asyncio.get_running_loop()
    stopping: list[asyncio.Task[None]] = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, lambda: stopping.append(loop.create_task(bot.close())))
    alive = health.heartbeat_file(settings.database_file)
    beating = spawn(health.beat(bot, lambda: bot.store.database.answers(), alive),
                    "heartbeat")
    try:
        async with bot:
            await bot.start(token)
    finally:
        beating.cancel()
        await bot.close()  # the store too, before the loop ends
        await asyncio.gather(*stopping, return_exceptions=True)
        log.info("stopped")
