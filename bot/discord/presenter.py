"""The presenter: carries out a command's effects on Discord for one table.

One board message per table, edited in place: its text says whose decision the table is
waiting for and what just happened, its image is the board, its buttons are the actions
open now; what happened is also posted once in #board (the public record). Prompts go by
DM to Team players (in #board, mentioning them, when their DMs are closed) and to the Box
in #box; the channels' overwrites follow the state (`channels.reconcile`). Everything here
is derived from the table's state and its outbox: no game state is kept. Once an action is
shown, whoever listens is told (`after_show`): the analysis, and the flow, which does what
the bot does by itself next (a forced play, the autoroll) down the client's one path.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from functools import partial
from typing import Any, Protocol

import discord

from bot.app.effects import Announce, Outcome, PostSheet, Prompt, Refusal
from bot.app.flow import Flow
from bot.app.service import TableService
from bot.app.tasks import Timer, Timers
from bot.config import Settings
from bot.discord.asks import ASKS, prompt_view
from bot.discord.boards import Boards, countdown
from bot.discord.channels import Known, reconcile
from bot.discord.sheets import page_link, sheet_file, sheet_text
from bot.discord.sync import command_ids, linked
from bot.render.drawing import Drawing
from bot.store import Channels, EventStore
from bot.web.links import Links
from bot.words.i18n import tr, translate
from bot.words.markdown import namer, shown
from rules.game import waiting_for
from rules.state import TableState

log = logging.getLogger(__name__)


RETRY_SECONDS = 3.0  # after Discord refused a request, deliver what is left again


class Host(Protocol):
    """What the presenter needs of the bot: Discord's lookups, the table's store, service
    and flow (told when an action is shown), and the client's `quietly` (named here, so
    that the presenter does not import the client)."""

    @property
    def settings(self) -> Settings: ...

    @property
    def store(self) -> EventStore: ...

    @property
    def drawing(self) -> Drawing: ...

    @property
    def service(self) -> TableService: ...

    @property
    def user(self) -> discord.ClientUser | None: ...

    def get_channel(self, id: int, /) -> Any: ...

    def get_user(self, id: int, /) -> discord.User | None: ...

    async def fetch_user(self, user_id: int, /) -> discord.User: ...

    @property
    def flow(self) -> Flow: ...

    async def quietly(self, job: Awaitable[Any], what: str) -> None:
        """Run `job`; a refusal from Discord is one log line."""


class Presenter:
    """Executes effects against Discord; one per bot."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.timers = Timers()  # deliveries retried, ended tables removed
        self.boards = Boards(bot)
        self.overwrites: Known = {}  # what the tables' channels were made to have (a cache)
        self.links = Links(bot.store)  # the club's pages' paths (bot.web.links)
        # who hears of a table once an action is shown: the analysis (issue 21), then the
        # flow (what the bot does by itself next)
        self.after_show: list[Callable[[str, TableState], Awaitable[None]]] = []

    def names(self, state: TableState, refusal: Refusal,
              users: Mapping[str, str] | None = None, locale: object = None) -> str:
        """A refusal in words, the players it names by their names now (`namer`), in
        `locale`'s language (a Discord locale: the player's own)."""
        return refusal.text(namer(state, users), lambda template: translate(template, locale))

    async def table_locale(self, table_id: str, state: TableState) -> str:
        """What the table reads in (`Boards.locale`), its channels looked up."""
        return self.boards.locale(state, await self.bot.store.channels.find(table_id=table_id))

    async def page_link(self, table_id: str, locale: object, game: int = 0) -> discord.ui.View:
        """A link button to the table's session page (or game `game`'s replay), labelled in
        `locale`'s language; none where the pages have no public address (CHOUETTE_WEB_URL)."""
        return await page_link(self.links, self.bot.settings.web_url, table_id, locale, game)

    async def show(self, table_id: str, outcome: Outcome,
                   interaction: discord.Interaction | None = None) -> None:
        """Carry out `outcome`'s effects, answering `interaction` first (the board itself
        when it was clicked on the board), before anything waits on a channel. If Discord
        refuses a request, what is left in the outbox is delivered again shortly (each
        message once: its nonce)."""
        await self.show_all(table_id, [outcome], interaction)

    async def show_all(self, table_id: str, outcomes: list[Outcome],
                       interaction: discord.Interaction | None = None) -> None:
        """Show actions stored one after the other (an open and the opener's seat; the
        seats drawn and the first game) together, the first answering `interaction`: the
        board drawn once, with the table as it now is and the last action's lines; their
        record lines in one message (`_record`); each action's own messages as its own."""
        if outcomes:
            await self._retried(table_id, self._show(table_id, outcomes, interaction))

    async def redeliver(self, table_id: str) -> None:
        """Show what the table's outbox still holds (after a restart or a refused request),
        each action as itself; record lines Discord shows already (in the message of
        actions shown together: `_record`) are not posted again."""
        shown = ""
        for version, effects in await self.bot.store.outbox.undelivered(table_id):
            shown = await self._retried(table_id, self._show(
                table_id, [Outcome(True, effects=effects, version=version)], None, shown))

    async def _retried(self, table_id: str, showing: Awaitable[str]) -> str:
        """`showing`; if Discord refuses a request, what is left in the outbox is delivered
        again shortly (each message once: its nonce)."""
        try:
            return await showing
        except discord.HTTPException:
            self.timers.after(RETRY_SECONDS, Timer("redeliver", table_id),
                              partial(self._redeliver, table_id))
            raise

    async def _redeliver(self, table_id: str) -> None:
        await self.bot.quietly(self.redeliver(table_id), f"table {table_id}'s effects")

    async def _show(self, table_id: str, outcomes: list[Outcome],
                    interaction: discord.Interaction | None, shown: str = "") -> str:
        """Show `outcomes`; `shown`: record lines Discord shows already, from a message
        of actions shown together (`_record`). Returns the lines it shows past these
        actions' own."""
        state = await self.bot.service.state(table_id)
        channels = await self.bot.store.channels.find(table_id=table_id)
        versions = [outcome.version for outcome in outcomes]
        if channels is None:
            if interaction is not None and not interaction.response.is_done():
                await answered(interaction, [])
            await self.bot.store.outbox.delivered(table_id, *versions)
            return ""
        await self.bot.flow.time(table_id, state)  # before the board shows the countdowns
        ids = await command_ids(self.bot.store)  # commands named become clickable
        locale = self.boards.locale(state, channels)  # what the table reads in now
        notes = [_notes(outcome, ids, state, locale) for outcome in outcomes]
        for version, these in zip(versions, notes, strict=True):  # the first board quotes the last
            self.boards.note(table_id, version, _board_lines(these))
        if interaction is not None and not interaction.response.is_done():  # first, at once
            lines = _board_lines(notes[0])
            if self.boards.on_board(interaction, channels):
                await self.boards.answer(interaction, channels, versions[0], lines)
            else:
                await answered(interaction, lines)
        for version, these in zip(versions, notes, strict=True):
            if lines := _board_lines(these):
                await self.boards.show(channels, version, lines)
        tags = [f"{table_id}:{version}" for version in versions]  # what was shown, once
        record = [e.text for these in notes for e in these if e.channel == "board" and e.record]
        if record:  # the public record: what happened, never edited
            shown = await self._record(channels, record, tags[0], shown)
        box = self.bot.get_channel(channels.box_id)
        for tag, these in zip(tags, notes, strict=True):
            for note in (e for e in these if e.channel == "box"):
                if isinstance(box, discord.TextChannel):
                    await box.send(note.text, nonce=message_nonce(tag, "box", note.text))
        await reconcile(self.bot, state, channels, self.overwrites)  # who sees and speaks where
        for outcome, tag in zip(outcomes, tags, strict=True):
            for effect in outcome.effects:
                if isinstance(effect, Prompt):
                    await self._prompt(state, channels, effect, tag)
                elif isinstance(effect, PostSheet):
                    await self._post_sheet(state, channels, effect, tag)
        if state.ended:
            self.retire(channels, time.time())
        await self.bot.store.outbox.delivered(table_id, *versions)
        for hook in self.after_show:  # a game over queued for analysis; the flow's next move
            await hook(table_id, state)
        return shown

    async def _record(self, channels: Channels, lines: list[str], tag: str,
                      shown: str = "") -> str:
        """Post `lines` in #board, in pieces of Discord's 2,000 characters, each piece's
        nonce made of `tag` (the first action's whose lines they are) and where it starts;
        not when they begin what Discord `shown` already. Returns what the message Discord
        shows holds past them.

        Actions shown together post their lines in one message and leave the outbox
        together, once all of theirs is shown (`store.outbox.delivered`). If the bot stops, or
        Discord refuses a request, before that message, each action is shown again as
        itself (`redeliver`): nothing is lost. If it stops after the message and before the
        outbox is told, each is shown again too: the first action's lines begin the
        message, so their nonce finds it (Discord keeps nonces a few minutes and answers
        with the message it has), and the later actions' lines are what it holds past
        them (`shown`): none is posted twice. Past those minutes, the lines are posted
        again, one message an action: shown twice, never lost."""
        text = "\n".join(lines)
        if shown == "\n" + text or shown.startswith("\n" + text + "\n"):
            return shown[len(text) + 1:]
        channel = self.bot.get_channel(channels.board_id)
        if not isinstance(channel, discord.TextChannel):
            return ""
        past = ""
        for start in range(0, len(text), 2000):
            piece = text[start:start + 2000]
            posted = await channel.send(piece, nonce=message_nonce(tag, "record", str(start)))
            content = posted.content
            past = content[len(piece):] if content.startswith(piece) else ""
        return past

    def retire(self, channels: Channels, ended: float) -> None:
        """An ended table's channels stay as a read-only archive; where the settings say
        so, they are removed that many hours after the end (the timer is re-armed at
        start-up). What their overwrites were made to have is forgotten: an ended table's
        channels change no more, and what its board shows is not kept either (a bot up for
        months must not keep every table's)."""
        self._forget(channels)
        self.boards.forget(channels.table_id)
        hours = self.bot.settings.delete_after_hours
        if hours > 0:
            wait = max(0.0, ended + hours * 3600 - time.time())
            self.timers.after(wait, Timer("retire", channels.table_id),
                              partial(self._remove, channels))

    def _forget(self, channels: Channels) -> None:
        for channel_id in channels.all:
            self.overwrites.pop(channel_id, None)

    async def _remove(self, channels: Channels) -> None:
        self._forget(channels)  # shown again after it retired, say
        for channel_id in (*channels.all, channels.category_id):
            channel = self.bot.get_channel(channel_id)
            if isinstance(channel, discord.abc.GuildChannel):
                await self.bot.quietly(channel.delete(reason="the chouette session ended"),
                                       f"removing {channel.name}")

    async def ask(self, table_id: str, player: str, text: str, view: discord.ui.View,
                  nonce: str | None = None) -> None:
        """A question with buttons for one player: by DM, else (DMs closed) in #board,
        mentioning them; only they, or who may act for them, can answer it. A `nonce` makes
        Discord post it once, however often it is delivered."""
        nonce = nonce or message_nonce(table_id, player, text, str(time.time()))  # (asked anew)
        try:
            user = self.bot.get_user(int(player)) or await self.bot.fetch_user(int(player))
            await user.send(text, view=view, nonce=nonce)
            return
        except (discord.Forbidden, discord.NotFound, ValueError):
            pass
        channels = await self.bot.store.channels.find(table_id=table_id)
        channel = self.bot.get_channel(channels.board_id) if channels else None
        if isinstance(channel, discord.TextChannel):
            await channel.send(f"<@{player}> {text}", view=view, nonce=nonce,
                               allowed_mentions=_pinging(player))

    async def _prompt(self, state: TableState, channels: Channels, prompt: Prompt,
                      tag: str) -> None:
        if not _still_asked(state, prompt):  # answered meanwhile (an effect delivered late)
            return
        locale = self.boards.locale(state, channels)  # the table's language: no click yet
        across = shown(state, prompt.across)
        whose = (tr("{player}'s cube", locale, player=shown(state, prompt.player))
                 if prompt.to else translate("Your cube", locale))
        what = (f"{across} {prompt.resignation(locale)}" if prompt.is_resignation
                else tr("{whose} against {across} is turned to {face}", locale, whose=whose,
                        across=across, face=prompt.face))
        text = f"{what}: {', '.join(_answer(a, locale) for a in prompt.actions)}?"
        due = self.bot.flow.timers.due(Timer("decision", channels.table_id, prompt.player))
        if prompt.private and not prompt.is_resignation and due is not None:  # theirs or proxy's
            text += " " + tr("Answer {when}.", locale, when=countdown(due))
        view = prompt_view(channels.table_id, prompt.player, prompt.actions,
                           "" if prompt.is_resignation else prompt.across,
                           None if prompt.is_resignation else prompt.face, locale)
        recipient = prompt.to or prompt.player
        nonce = message_nonce(tag, "ask", prompt.player, prompt.across, recipient)
        if prompt.private:
            await self.ask(channels.table_id, recipient, text, view, nonce)
            return
        where = self.bot.get_channel(channels.box_id)
        if isinstance(where, discord.TextChannel):
            mention = f"<@{recipient}>" if recipient.isdigit() else recipient
            await where.send(f"{mention} {text}", view=view, nonce=nonce,
                             allowed_mentions=_pinging(recipient))

    async def _post_sheet(self, state: TableState, channels: Channels, effect: PostSheet,
                          tag: str) -> None:
        channel = self.bot.get_channel(channels.board_id)
        if not isinstance(channel, discord.TextChannel):
            return
        locale = self.boards.locale(state, channels)  # everyone's: the table's language
        title, text = sheet_text(state, locale, effect.final, effect.correction)
        file = await sheet_file(self.bot.drawing, state, locale)
        if effect.final:  # with a link to the session's page, where the pages have an address
            await channel.send(text, files=[file], nonce=message_nonce(tag, "sheet", title),
                               view=await self.page_link(channels.table_id, locale))
            return
        await channel.send(text, files=[file], nonce=message_nonce(tag, "sheet", title))


def _notes(outcome: Outcome, ids: Mapping[str, int], state: TableState,
           locale: object) -> list[Announce]:
    """What `outcome` announces, in words (`locale`'s, the players named as `state` names
    them), the commands it names clickable (`ids`)."""
    return [Announce(linked(e.words(state, locale), ids), e.channel, e.record)
            for e in outcome.effects if isinstance(e, Announce)]


def _board_lines(notes: list[Announce]) -> list[str]:
    """What `notes` say on the board."""
    return [e.text for e in notes if e.channel == "board"]


def _answer(action: str, locale: object) -> str:
    """An answer named in a question: the action (`take`), or its button's label in
    `locale`'s language where there is one (`tag`)."""
    label = translate(ASKS[action].label, locale)
    return action if label == ASKS[action].label else label[:1].lower() + label[1:]


async def answered(interaction: discord.Interaction, lines: list[str]) -> None:
    """Answer an accepted action that is not on the board: a question's message (a DM, a
    prompt in #box) is edited to show what was done and loses its buttons, so it can't be
    answered twice; a command gets a private "Done." with what was done."""
    message = interaction.message
    if interaction.type is discord.InteractionType.component and message is not None:
        await interaction.response.edit_message(
            content=done_text(message.content, lines, interaction.locale), view=None)
        return
    done = translate("Done.", interaction.locale)  # a private reply: the clicker's language
    await interaction.response.send_message("\n".join([done, *lines])[:2000], ephemeral=True)


def done_text(content: str, lines: list[str], locale: object = None) -> str:
    """An answered question's message: what it asked, then what was done."""
    done = "\n".join(f"> {line}" for line in lines) or "> " + translate("Done.", locale)
    return f"{content}\n{done}"[:2000]


def _still_asked(state: TableState, prompt: Prompt) -> bool:
    """Whether the decision `prompt` asks for still waits (a cube's answer, or an answer to
    a resignation)."""
    if prompt.is_resignation:
        game = state.game
        return game is not None and bool(game.resignations)
    return any(p == prompt.player and cube.face == prompt.face
               for p, cube in waiting_for(state))


def message_nonce(*parts: str) -> str:
    """A message's nonce (Discord's `enforce_nonce`): the same parts, the same 25
    characters, so a message delivered again after a crash or a failed request is posted
    once (Discord keeps nonces a few minutes)."""
    return hashlib.sha256(":".join(parts).encode()).hexdigest()[:25]


def _pinging(player: str) -> discord.AllowedMentions:
    """Mentions that ping `player` only (the bot names them to act), nobody else."""
    users = [discord.Object(int(player))] if player.isdigit() else False
    return discord.AllowedMentions(everyone=False, roles=False, users=users)
