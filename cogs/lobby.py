"""The lobby: open a table (`bot.discord.opening`), join, leave, start, Partner, away, back,
proxy and the table's rules in words. Thin: each command becomes a table command."""

from __future__ import annotations

import re
import tomllib
from typing import Literal

import discord
from babel import Locale
from discord import app_commands

from bot.discord.asks import Question, ask_consent
from bot.discord.client import ChouetteBot
from bot.discord.opening import open_table
from bot.words.i18n import languages, table_language, tr, translate
from bot.words.markdown import escape, shown
from cogs import Subcommands, add, this_table
from rules.actions import refusal
from rules.commands import Away, Back, Join, Leave, Open, Partner, Proxy, Request, Stake
from rules.errors import BadOption, RuleError
from rules.preset import PRESETS, load_preset
from rules.ruleset import explain
from rules.state import TableState

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
        try:
            options = parse_overrides(overrides)
        except RuleError as exc:
            await self.bot.reply(interaction, self.bot.presenter.names(
                TableState(), exc, locale=interaction.locale))
            return
        await open_table(self.bot, interaction, Open(
            by=me, preset=preset, mode=mode, basic=basic, options=options,
            language=table_language(language, interaction.guild.preferred_locale)),
            Join(by=me, stake=stake, name=interaction.user.display_name))

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
        found = await self.bot.store.channels.find(channel_id=interaction.channel_id)
        locale: object = interaction.locale  # away from a table: the reader's language
        name: str = preset or "atlanta"
        rules = load_preset(name)
        if found is not None:  # at a table: its language, and its rules unless one is named
            state = await self.bot.service.state(found.table_id)
            locale = self.bot.presenter.boards.locale(state, found)
            if preset is None:
                rules, name = state.rules, state.preset
        lines = explain(rules, lambda text: translate(text, locale))
        await self.bot.reply(interaction, tr("**{preset}** ({presets} available)", locale,
                                             preset=name, presets=", ".join(PRESETS)) + "\n"
                             + "\n".join(f"- {line}" for line in lines))


async def setup(bot: ChouetteBot) -> None:
    """Add the lobby's subcommands to /chouette."""
    await add(bot, Lobby(bot))
