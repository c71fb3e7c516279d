"""The lobby: open a table (its category and four channels), join, leave, start, Partner,
away, back, proxy and the table's rules in words. Thin: each command becomes a table command."""

from __future__ import annotations

import re
import tomllib
from typing import Literal

import discord
from babel import Locale
from discord import app_commands

from bot.discord.asks import Question, ask_consent
from bot.discord.channels import missing
from bot.discord.client import ChouetteBot
from bot.store import Channels
from bot.words.i18n import languages, table_language, tr
from bot.words.markdown import escape, shown
from cogs import Subcommands, add, this_table
from rules.actions import refusal
from rules.commands import Away, Back, Join, Leave, Open, Partner, Proxy, Request, Stake
from rules.errors import BadOption, RuleError
from rules.preset import PRESETS, load_preset
from rules.ruleset import explain
from rules.state import TableState, replay
from rules.table import decide

Preset = Literal["atlanta", "fibs", "villages", "danish", "euro"]
Mode = Literal["play", "scorekeeper"]
LANGUAGES = [app_commands.Choice(name=(Locale.parse(code).get_display_name(code) or code)
                                 .capitalize(), value=code)
             for code in languages()]  # each language in its own words


def parse_overrides(text: str) -> dict[str, object]:
    """House-rule overrides typed as `name = value` pairs, separated by commas or lines;
    values are written as in the preset files (true, 5, "never", [1, 2])."""
    pieces = [p.strip() for p in re.split(r",(?![^\[]*\])|\n", text) if p.strip()]
    try:
        return tomllib.loads("\n".join(pieces))
    except tomllib.TOMLDecodeError as exc:
        raise BadOption(f"Can't read the overrides {text!r} ({exc}): write them as "
                        'name = value, like beavers = false, raccoons = "never".') from exc


async def make_channels(guild: discord.Guild, name: str, origin: int | None) -> Channels:
    """The table's category and channels: #board (read-only but for the bot), #kibitz,
    and the private #team and #box, which the seating opens to their players. Each
    overwrite grants only what the bot has itself (no Manage Permissions: Discord lets only
    an administrator grant that when making a channel); `reconcile` does the rest."""
    me, everyone = guild.me, guild.default_role
    bot_can = discord.PermissionOverwrite(view_channel=True, send_messages=True,
                                          attach_files=True)
    category = await guild.create_category(name)
    board = await category.create_text_channel("board", overwrites={
        everyone: discord.PermissionOverwrite(send_messages=False), me: bot_can})
    kibitz = await category.create_text_channel("kibitz")
    private: dict[discord.Role | discord.Member | discord.Object, discord.PermissionOverwrite]
    private = {everyone: discord.PermissionOverwrite(view_channel=False), me: bot_can}
    team = await category.create_text_channel("team", overwrites=private)
    box = await category.create_text_channel("box", overwrites=private)
    return Channels(str(category.id), guild.id, category.id, board.id, kibitz.id, team.id,
                    box.id, origin_id=origin)


async def may_open(bot: ChouetteBot, interaction: discord.Interaction) -> str | None:
    """Why a table can't be opened here now (None: it can), in the opener's language: the
    bot's permissions, a table already open from this channel, or the server's limit of
    open tables."""
    assert interaction.guild is not None
    locale = interaction.locale
    lacking = missing(interaction.guild.me.guild_permissions)
    if lacking:
        return tr("I can't open a table: this server must give the bot **{permissions}** "
                  "(Server Settings > Roles, the bot's role; or invite it again with the "
                  "README's link).", locale, permissions=", ".join(lacking))
    here = interaction.channel_id
    tables = await bot.store.channels.of_guild(interaction.guild.id)
    if table := next((t for t in tables if here in (t.origin_id, *t.all)), None):
        return tr("A table is already open from here: <#{board}>. End it with `/chouette end` "
                  "there, or open one from another channel.", locale, board=table.board_id)
    if len(tables) >= bot.settings.max_tables:
        return tr("This server has {count} open tables, its limit: end one with "
                  "`/chouette end` first.", locale, count=len(tables))
    return None


class Lobby(Subcommands):
    """/chouette open, join, stake, leave, start, partner, away, back, proxy and rules."""

    @app_commands.command(name="open")
    @app_commands.describe(preset="the club rule set", mode="play: the bot runs the board; "
                           "scorekeeper: you enter results", stake="your stake multiple",
                           overrides='house rules that differ, like "beavers = false, '
                                     'max_players = 6" (see /chouette rules)',
                           basic='the basic stake agreed, like "$5 a point": on the sheet',
                           language="the board's, its buttons' and its record's language "
                                    "(default: the server's)")
    @app_commands.choices(language=LANGUAGES)
    async def open_(self, interaction: discord.Interaction, preset: Preset = "atlanta",
                    mode: Mode = "play", stake: int = 1, overrides: str = "",
                    basic: str = "", language: str = "") -> None:
        """Open a chouette table: a category with #board, #kibitz, #team and #box."""
        assert interaction.guild is not None
        me = str(interaction.user.id)
        joining = Join(by=me, stake=stake, name=interaction.user.display_name)
        state = TableState()
        try:  # the rules check the whole opening, and the opener's seat, before any channel
            opening = Open(by=me, preset=preset, mode=mode, basic=basic,
                           options=parse_overrides(overrides),
                           language=table_language(language,
                                                   interaction.guild.preferred_locale))
            state = replay(decide(state, opening))
            decide(state, joining)
        except RuleError as exc:  # as any refusal: the opener's language, players named
            await self.bot.reply(interaction, self.bot.presenter.names(
                state, exc, {me: interaction.user.display_name}, interaction.locale))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.bot.opening[interaction.guild.id]:  # the limits hold for opens at once
            if refused := await may_open(self.bot, interaction):
                await self.bot.reply(interaction, refused)
                return
            number = len(await self.bot.store.channels.of_guild(interaction.guild.id,
                                                                open_only=False)) + 1
            channels = await make_channels(interaction.guild,
                                           f"chouette {number} · {preset}",
                                           interaction.channel_id)
            await self.bot.store.channels.save(channels)
            table = channels.table_id
            opened = await self.bot.service.handle(table, opening, key=f"{interaction.id}:open")
        joined = await self.bot.service.handle(table, joining, key=f"{interaction.id}:join")
        # each action shown as itself, the board there when the link is followed (the open
        # was deferred)
        await self.bot.presenter.show_all(table, [o for o in (opened, joined) if o.accepted])
        board = channels.board_id
        if not joined.accepted:
            state = await self.bot.service.state(table)
            why = self.bot.presenter.names(state, joined, locale=interaction.locale)
            done = tr("Table open in <#{board}> (you did not join: {why}).", interaction.locale,
                      board=board, why=why)
        else:
            done = tr("Table open in <#{board}>.", interaction.locale, board=board)
        await interaction.followup.send(done, ephemeral=True)

    @app_commands.command()
    @app_commands.describe(stake="your stake multiple (1 = the basic stake)")
    async def join(self, interaction: discord.Interaction, stake: int = 1) -> None:
        """Sit down at this table; once it is under way, the players approve as its rules say."""
        table = await this_table(self.bot, interaction)
        await self.bot.act(interaction, table, Request(
            by=str(interaction.user.id), stake=stake, name=interaction.user.display_name))

    @app_commands.command()
    @app_commands.describe(multiple="your new stake multiple, like 2 for double stakes")
    async def stake(self, interaction: discord.Interaction, multiple: int) -> None:
        """Change your stake between games; the Box agrees to it by DM (Atlanta 2.3)."""
        table = await this_table(self.bot, interaction)
        state = await self.bot.service.state(table)
        me = str(interaction.user.id)
        box = state.seating.box if state.seating is not None else me  # none: the rules refuse
        command = Stake(by=box, player=me, stake=multiple)
        if why := refusal(state, command):  # from the Box? (nothing stored until agreed)
            await self.bot.reply(interaction, self.bot.presenter.names(  # he may not sit
                state, why, {me: escape(interaction.user.display_name)}, interaction.locale))
            return
        locale = await self.bot.presenter.table_locale(table, state)  # the Box's DM
        await ask_consent(interaction, box,
                          tr("{player} asks to play at {stake}x stakes from the next game "
                             "(Atlanta 2.3).", locale, player=shown(state, me), stake=multiple),
                          tr("Asked {box}: your stake changes when the Box agrees.",
                             interaction.locale, box=shown(state, box)),
                          Question(table, "stake", player=me, stake=str(multiple)),
                          locale=locale)

    @app_commands.command()
    async def leave(self, interaction: discord.Interaction) -> None:
        """Leave the table (at the end of the game in progress, if any)."""
        table = await this_table(self.bot, interaction)
        await self.bot.act(interaction, table, Leave(by=str(interaction.user.id)))

    @app_commands.command()
    async def start(self, interaction: discord.Interaction) -> None:
        """Start the next game (the first one draws the seats with the dice)."""
        table = await this_table(self.bot, interaction)
        await self.bot.start_game(interaction, table)

    @app_commands.command()
    @app_commands.describe(player="the Team player the Box invites (yourself to accept)")
    async def partner(self, interaction: discord.Interaction, player: discord.Member) -> None:
        """Make a Team player the Box's Partner for the next game."""
        table = await this_table(self.bot, interaction)
        await self.bot.act(interaction, table, Partner(
            by=str(interaction.user.id), player=str(player.id)))

    @app_commands.command()
    async def away(self, interaction: discord.Interaction) -> None:
        """Step away: your proxy, or the rule set's stand-in, decides for you."""
        table = await this_table(self.bot, interaction)
        await self.bot.act(interaction, table, Away(by=str(interaction.user.id)))

    @app_commands.command()
    async def back(self, interaction: discord.Interaction) -> None:
        """Come back from being away."""
        table = await this_table(self.bot, interaction)
        await self.bot.act(interaction, table, Back(by=str(interaction.user.id)))

    @app_commands.command()
    @app_commands.describe(player="who acts for you (leave empty to act for yourself again)")
    async def proxy(self, interaction: discord.Interaction,
                    player: discord.Member | None = None) -> None:
        """Appoint a proxy to handle your cube while you are away (Atlanta 7.1)."""
        table = await this_table(self.bot, interaction)
        await self.bot.act(interaction, table, Proxy(
            by=str(interaction.user.id), player=str(player.id) if player else None))

    @app_commands.command()
    @app_commands.describe(preset="a rule set to describe (default: this table's)")
    async def rules(self, interaction: discord.Interaction, preset: Preset | None = None) -> None:
        """The table's house rules in plain words."""
        if preset is None:
            found = await self.bot.store.channels.find(channel_id=interaction.channel_id)
            if found is not None:
                state = await self.bot.service.state(found.table_id)
                lines, name = explain(state.rules), state.preset
            else:
                lines, name = explain(load_preset("atlanta")), "atlanta"
        else:
            lines, name = explain(load_preset(preset)), preset
        await self.bot.reply(interaction, f"**{name}** ({', '.join(PRESETS)} available)\n"
                             + "\n".join(f"- {line}" for line in lines))


async def setup(bot: ChouetteBot) -> None:
    """Add the lobby's subcommands to /chouette."""
    await add(bot, Lobby(bot))
