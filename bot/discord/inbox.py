"""DM answers for a table another process serves (issue 23: shards).

Discord sends every DM interaction (the question buttons of `asks.py`) to shard 0, while a
table is served by the process of its server's shard: that process alone writes the table,
runs its timers and keeps its state in memory. So the process that got the click does not
apply it: `post` acknowledges the click at once (inside Discord's 3 s), then writes the
command to the store's inbox under the interaction's id and says so; the serving process
picks it up (`run`: woken by PostgreSQL's NOTIFY, a poll besides, and at start-up for what
was posted while it was down), applies it with `service.handle` under that id (so once,
however often it is picked up), shows the outcome as any other (the question's message
edited, or the refusal sent to the player by DM) and marks it applied. A row it can't apply
is tried again a few times (`TRIES`: the store's errors may pass), then set aside (kept in
`inbox` with `failed` = 1 and why, for an operator) and its player told by DM; the rows after
it go on.

Only a process that does not serve every shard uses it (`Settings.serves_all`): one process
alone, or on SQLite, never polls.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Mapping
from typing import Any, Protocol

import discord

from bot.app.effects import Announce, Outcome
from bot.app.service import TableService
from bot.config import Settings
from bot.discord.presenter import Presenter, done_text
from bot.store import EventStore, StoreError
from bot.store.codec import CodecError, command_dumps, command_loads
from bot.words.i18n import translate
from rules.commands import Command

log = logging.getLogger(__name__)

POLL_SECONDS = 0.5  # without NOTIFY (or besides it, in case one was missed: 5 s)
TRIES = 3  # a row the store fails to apply this often is set aside


class Host(Protocol):
    """What the inbox needs of the bot (named here, so that it does not import the client)."""

    @property
    def settings(self) -> Settings: ...

    @property
    def store(self) -> EventStore: ...

    @property
    def service(self) -> TableService: ...

    @property
    def presenter(self) -> Presenter: ...

    def get_partial_messageable(self, id: int, /) -> discord.PartialMessageable: ...

    def get_user(self, id: int, /) -> discord.User | None: ...

    async def fetch_user(self, user_id: int, /) -> discord.User: ...

    async def wait_until_ready(self) -> None: ...

    async def quietly(self, job: Awaitable[Any], what: str) -> None: ...


class Inbox:
    """Commands handed between processes through the store."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.woken = asyncio.Event()
        self._draining = asyncio.Lock()

    async def post(self, interaction: discord.Interaction, table_id: str, command: Command,
                   key: str, names: Mapping[str, str]) -> None:
        """Acknowledge the click at once (the store may be slow: Discord forgets a click after
        3 s), leave `command` for the process serving the table, then say so: its
        question's message says the answer is recorded (its buttons stay, in case the rules
        refuse it)."""
        message = interaction.message
        on_message = (interaction.type is discord.InteractionType.component
                      and message is not None)
        if on_message:  # a deferred update: the question's message stays as it is
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        reply = {"user": str(interaction.user.id), "names": dict(names),
                 "locale": str(interaction.locale),
                 "channel": str(interaction.channel_id or ""),
                 "message": str(message.id) if message is not None else "",
                 "content": message.content if message is not None else ""}
        await self.bot.store.inbox.post(table_id, key, command_dumps(command), json.dumps(reply))
        self.bot.service.forget(table_id)  # its state moves on elsewhere
        recorded = translate("Answer recorded: the table shows it in a moment.",
                             interaction.locale)
        if on_message and message is not None:
            await interaction.edit_original_response(
                content=f"{message.content}\n> {recorded}"[:2000])
        else:
            await interaction.followup.send(recorded, ephemeral=True)

    async def run(self) -> None:
        """Apply what the inbox holds for this process's tables: now (what was posted while
        it was down), then whenever woken, and every so often in case a wake-up was lost."""
        await self.bot.wait_until_ready()
        try:
            heard = await self.bot.store.inbox.listen(self.woken.set)
        except Exception:  # PostgreSQL out of reach now: read it every so often instead
            log.exception("can't LISTEN for the inbox: reading it every %s s", POLL_SECONDS)
            heard = False
        every = 5.0 if heard else POLL_SECONDS
        while True:
            self.woken.clear()
            try:
                await self.drain()
            except Exception:  # a lost connection: the next round tries again
                log.exception("the inbox could not be read")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.woken.wait(), every)

    async def drain(self) -> None:
        """Apply every command waiting for a table this process serves, oldest first. A row
        left for the next round holds back the later rows of its table (their order kept),
        never another table's."""
        async with self._draining:
            waiting: set[str] = set()
            pending = await self.bot.store.inbox.pending()
            for table_id, key, command, reply, guild_id, tries in pending:
                if table_id in waiting or not self.bot.settings.serves(guild_id):
                    continue
                try:
                    loaded, answer = command_loads(command), json.loads(reply)
                except (CodecError, ValueError) as exc:  # a newer version's: never applied
                    log.exception("table %s: the inbox's command %s can't be read: set aside",
                                  table_id, key)
                    await self.bot.store.inbox.tried(table_id, key, _why(exc), set_aside=True)
                    with contextlib.suppress(ValueError):
                        if isinstance(told := json.loads(reply), dict):
                            await self._give_up(table_id, told)
                    continue
                if not await self._apply(table_id, key, loaded, answer, tries):
                    waiting.add(table_id)

    async def _apply(self, table_id: str, key: str, command: Command, reply: dict[str, Any],
                     tries: int) -> bool:
        """Apply one row, show it and mark it done; False if it is left for the next round.
        The store's errors (the table moved on meanwhile, its events unreadable) are tried
        again, up to `TRIES` times; any other (not a refusal: a bug, say) would repeat. A row
        that fails for good is set aside (`store.inbox.set_aside`: kept, with why) and its player
        told; while the store is out of reach, recording the try fails too and `run` tries
        again."""
        try:
            outcome = await self.bot.service.handle(table_id, command, key)
        except Exception as exc:
            again = isinstance(exc, StoreError) and tries + 1 < TRIES
            await self.bot.store.inbox.tried(table_id, key, _why(exc), set_aside=not again)
            if again:
                log.warning("table %s: the inbox's command %s (interaction %s) failed (%s): "
                            "tried again next round", table_id, command.verb, key, exc)
                return False
            log.exception("table %s: the inbox's command %s (interaction %s, by %s) failed: "
                          "set aside, not applied, the player told", table_id, command.verb,
                          key, reply.get("user"))
            await self._give_up(table_id, reply)
            return True
        try:
            await self._show(table_id, outcome, reply)
        except Exception:  # stored: the outbox shows it again (redelivered at start-up)
            log.exception("table %s: the inbox's command %s (interaction %s) was applied but "
                          "not shown", table_id, command.verb, key)
        await self.bot.store.inbox.applied(table_id, key)
        return True

    async def _show(self, table_id: str, outcome: Outcome, reply: dict[str, Any]) -> None:
        if not outcome.accepted:
            await self.bot.quietly(self._refused(table_id, outcome, reply),
                                   f"a refusal for table {table_id}")
            return
        if reply.get("message"):  # the question answered: its message, without buttons
            state = await self.bot.service.state(table_id)
            locale = await self.bot.presenter.table_locale(table_id, state)
            lines = [e.words(state, locale) for e in outcome.effects
                     if isinstance(e, Announce) and e.channel == "board"]
            message = self.bot.get_partial_messageable(int(reply["channel"])).get_partial_message(
                int(reply["message"]))
            await self.bot.quietly(message.edit(content=done_text(reply["content"], lines,
                                                                  reply.get("locale")),
                                                view=None), "a question's message")
        await self.bot.quietly(self.bot.presenter.show(table_id, outcome),
                               f"table {table_id}'s action")

    async def _refused(self, table_id: str, outcome: Outcome, reply: dict[str, Any]) -> None:
        state = await self.bot.service.state(table_id)
        await self._tell(reply, self.bot.presenter.names(state, outcome, reply.get("names") or {},
                                                         reply.get("locale")))

    async def _give_up(self, table_id: str, reply: dict[str, Any]) -> None:
        """Tell the player his answer was set aside, not applied (or log that he can't be)."""
        try:
            await self.bot.quietly(self._failed(reply), f"a failure for table {table_id}")
        except Exception:  # not told: the log has it
            log.exception("table %s: could not tell %s", table_id, reply.get("user"))

    async def _failed(self, reply: dict[str, Any]) -> None:
        await self._tell(reply, translate(
            "Your answer could not be applied: something went wrong on the bot's side. If the "
            "table does not show it, answer again (here or on the board), or tell a moderator.",
            reply.get("locale")))

    async def _tell(self, reply: dict[str, Any], text: str) -> None:
        """A DM to the player who clicked."""
        user = (self.bot.get_user(int(reply["user"]))
                or await self.bot.fetch_user(int(reply["user"])))
        await user.send(text[:2000])


def _why(exc: BaseException) -> str:
    """An error as the inbox keeps it for an operator."""
    return f"{type(exc).__name__}: {exc}"[:1000]
