"""/chouette help: the table you are at (its preset, your seat, what you can do now), every
/chouette command as a mention Discord makes clickable, and where the manual is; in the
language of the user who asked (`interaction.locale`), English where there is none."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import discord
from discord import app_commands

from bot.discord.actions import ACTIONS, usable
from bot.discord.boards import status
from bot.discord.client import ChouetteBot
from bot.discord.sync import command_ids, linked, mention
from bot.words.i18n import tr, translate, trn
from bot.words.markdown import shown
from cogs import Subcommands, add
from rules.answers import answered_as_a_set
from rules.game import waiting_for
from rules.proxies import answerer
from rules.start import players_missing
from rules.state import TableState

MANUAL = "docs/commands.md"


def seat(state: TableState, me: str, locale: object = None) -> str:
    """Where `me` sits at the table, in a few words."""
    member, seating = state.member(me), state.seating
    if member is None:
        asked = any(request.player == me for request, _ in state.requests)
        return (translate("You asked to join: the players answer on the board.", locale)
                if asked else
                translate("You are not at this table: you can watch it from #board.", locale))
    where = translate("You have joined the table", locale)
    if seating is not None and me == seating.box:
        where = translate("You are the Box", locale)
    elif seating is not None and me == seating.partner:
        where = translate("You are the Box's Partner", locale)
    elif seating is not None and seating.team and me == seating.team[0]:
        where = translate("You are the Captain", locale)
    elif seating is not None and me in seating.team:
        where = tr("You are on the Team (seat {seat})", locale, seat=seating.team.index(me) + 1)
    elif member.waiting:
        where = translate("You have joined: you sit down when this game ends", locale)
    if member.away:
        by = answerer(state, me)
        where += (tr("; you are away ({player} acts for you)", locale, player=shown(state, by))
                  if by and by != me else translate("; you are away", locale))
    return tr("{where}, at stake ×{stake}.", locale, where=where, stake=member.stake)


def doings(state: TableState, me: str, locale: object = None,
           board: object = None) -> Iterator[str]:
    """What `me` can do now: the cube questions waiting for their answer by DM, then each
    board button they may use, asked of the board's own table of actions (`usable`), named
    as the board names it (in `board`'s language, the table's)."""
    for player, cube in waiting_for(state):
        if answerer(state, player) == me and not answered_as_a_set(player, cube):  # (a button)
            yield tr("answer the cube question on {player}'s cube (sent to you by DM)", locale,
                     player=shown(state, cube.team_player))
    short = players_missing(state)
    for action in usable(state, me):
        yield doing(action, translate(ACTIONS[action].label, board), locale, short)


def doing(action: str, button: str, locale: object = None, short: int = 0) -> str:
    """A board button `button` (its label) as a thing to do now; `short`: the players still
    missing for a game (Start)."""
    match action:
        case "start" if short:
            return trn("**{button}** (on the board), once {count} more player has joined",
                       "**{button}** (on the board), once {count} more players have joined",
                       short, locale, button=button, count=short)
        case "confirm":
            return tr("**{button}** (on the board), or give another with `/chouette result`",
                      locale, button=button)
        case "type":
            return tr("play your move: the menu on the board, or **{button}**", locale,
                      button=button)
        case "hold":
            return tr("**{button}** (on the board), to think about a double", locale,
                      button=button)
        case "release":
            return tr("**{button}**, or double", locale, button=button)
    return tr("**{button}** (on the board)", locale, button=button)


def table_part(state: TableState, me: str, status: str, locale: object = None,
               board: object = None) -> str:
    """The lines about this table: preset and mode, their seat, the table now (`status`),
    their moves (the buttons named in `board`'s language, the table's)."""
    mode = (translate("the bot runs the board", locale) if state.mode == "play"
            else translate("scorekeeper: a real board", locale))
    games = (tr("game {number} in progress", locale, number=state.game.number)
             if state.game is not None
             else translate("the session is over", locale) if state.ended
             else trn("{count} game played", "{count} games played", state.games_played,
                      locale, count=state.games_played)
             if state.games_played
             else translate("before the first game", locale))
    can = list(dict.fromkeys(doings(state, me, locale, board)))  # once each, in order
    now = (tr("**You can now:** {doings}.", locale, doings="; ".join(can))
           if can else translate("**You can now:** nothing: wait for the others (the board "
                                 "says who).", locale))
    return "\n".join([
        tr("**This table:** {preset} rules ({mode}), {games}. `/chouette rules` explains its "
           "house rules.", locale, preset=state.preset, mode=mode, games=games),
        tr("**You:** {seat}", locale, seat=seat(state, me, locale)),
        tr("**Now:** {status}", locale, status=status),
        now])


def command_lines(group: app_commands.Group, ids: Mapping[str, int],
                  locale: object = None) -> list[str]:
    """Every /chouette command, one a line: its mention and what it does (the subgroups'
    after the rest)."""
    commands = [c for c in group.walk_commands() if isinstance(c, app_commands.Command)]
    commands.sort(key=lambda c: len(c.qualified_name.split()))
    return [f"{mention(c.qualified_name, ids)}: {translate(c.description, locale)}"
            for c in commands]


class Help(Subcommands):
    """/chouette help."""

    @app_commands.command()
    async def help(self, interaction: discord.Interaction) -> None:
        """What you can do at this table now, and every /chouette command."""
        found = await self.bot.store.channels.find(channel_id=interaction.channel_id)
        ids = await command_ids(self.bot.store)
        locale = interaction.locale
        if found is not None:
            state = await self.bot.service.state(found.table_id)
            head = table_part(state, str(interaction.user.id), status(state, locale=locale),
                              locale, self.bot.presenter.boards.locale(state, found))
        else:
            head = tr("You are not in a chouette table's channels: {open} makes a table here, "
                      "and {help} in a table's channels explains it.", locale,
                      open=mention("chouette open", ids), help=mention("chouette help", ids))
        url = self.bot.settings.manual_url
        manual = (tr("[The manual]({url}): every command and button, and who may use it.",
                     locale, url=url) if url
                  else tr("The manual: `{path}` in the bot's source, every command and button.",
                          locale, path=MANUAL))
        lines = command_lines(self.bot.chouette, ids, locale)
        embed = discord.Embed(title=translate("/chouette commands", locale),
                              description="\n".join(lines))
        await interaction.response.send_message(linked(f"{head}\n{manual}", ids), embed=embed,
                                                ephemeral=True)


async def setup(bot: ChouetteBot) -> None:
    """Add /chouette help."""
    await add(bot, Help(bot))
