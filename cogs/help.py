"""/chouette help: the table you are at (its preset, your seat, what you can do now), every
/chouette command as a mention Discord makes clickable, and where the manual is."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import discord
from discord import app_commands

from bot.discord.boards import status
from bot.discord.client import ChouetteBot
from bot.discord.sync import command_ids, linked, mention
from bot.effects import answerer
from bot.markdown import shown
from cogs import Subcommands
from rules.actions import doublers, holders
from rules.cube import CubeState, Side
from rules.game import shooter, waiting_for
from rules.results import confirmers
from rules.state import TableState

MANUAL = "docs/commands.md"


def seat(state: TableState, me: str) -> str:
    """Where `me` sits at the table, in a few words."""
    member, seating = state.member(me), state.seating
    if member is None:
        asked = any(request.player == me for request, _ in state.requests)
        return ("You asked to join: the players answer on the board." if asked
                else "You are not at this table: you can watch it from #board.")
    where = "You have joined the table"
    if seating is not None and me == seating.box:
        where = "You are the Box"
    elif seating is not None and me == seating.partner:
        where = "You are the Box's Partner"
    elif seating is not None and seating.team and me == seating.team[0]:
        where = "You are the Captain"
    elif seating is not None and me in seating.team:
        where = f"You are on the Team (seat {seating.team.index(me) + 1})"
    elif member.waiting:
        where = "You have joined: you sit down when this game ends"
    if member.away:
        by = answerer(state, me)
        where += (f"; you are away ({shown(state, by)} acts for you)" if by and by != me
                  else "; you are away")
    return f"{where}, at stake ×{member.stake}."


def doings(state: TableState, me: str) -> Iterator[str]:
    """What `me` can do now, each as the button or command he would use."""
    game, member = state.game, state.member(me)
    if state.ended:
        return
    if game is None:
        if member is None:
            yield "**Join** (on the board)"
        else:
            yield "**Start game** (on the board), once enough players have joined"
        return
    for player, cube in waiting_for(state):
        if answerer(state, player) != me:
            continue
        if cube.side_of(player) is Side.BOX and cube.state is CubeState.OFFERED \
                and not cube.is_extra:
            yield "**Answer the doubles** (on the board)"
        else:
            yield f"answer the cube question on {shown(state, cube.team_player)}'s cube " \
                  "(sent to you by DM)"
    if me in confirmers(state):
        yield "**Confirm the result** (on the board), or give another with `/chouette result`"
    if shooter(state) == me and not waiting_for(state) and not game.resignations:
        yield ("**Roll** (on the board)" if game.dice is None
               else "play your move: the menu on the board, or **Type a move**")
    if me in doublers(state):
        yield "**Double** (on the board)"
    if me in holders(state):
        yield "**Hold the roll** (on the board), to think about a double"
    if me in game.holds:
        yield "**Release the roll**, or double"


def table_part(state: TableState, me: str, status: str) -> str:
    """The lines about this table: preset and mode, his seat, the table now, his moves."""
    mode = "the bot runs the board" if state.mode == "play" else "scorekeeper: a real board"
    games = (f"game {state.game.number} in progress" if state.game is not None
             else "the session is over" if state.ended
             else f"{state.games_played} game(s) played" if state.games_played
             else "before the first game")
    can = list(dict.fromkeys(doings(state, me)))  # once each, in order
    now = ("**You can now:** " + "; ".join(can) + "." if can
           else "**You can now:** nothing: wait for the others (the board says who).")
    return "\n".join([
        f"**This table:** {state.preset} rules ({mode}), {games}. "
        "`/chouette rules` explains its house rules.",
        f"**You:** {seat(state, me)}",
        f"**Now:** {status}",
        now])


def command_lines(group: app_commands.Group, ids: Mapping[str, int]) -> list[str]:
    """Every /chouette command, one a line: its mention and what it does (the subgroups'
    after the rest)."""
    commands = [c for c in group.walk_commands() if isinstance(c, app_commands.Command)]
    commands.sort(key=lambda c: len(c.qualified_name.split()))
    return [f"{mention(c.qualified_name, ids)}: {c.description}" for c in commands]


class Help(Subcommands):
    """/chouette help."""

    @app_commands.command()
    async def help(self, interaction: discord.Interaction) -> None:
        """What you can do at this table now, and every /chouette command."""
        found = await self.bot.store.channels(channel_id=interaction.channel_id)
        ids = await command_ids(self.bot.store)
        if found is not None:
            state = await self.bot.service.state(found.table_id)
            head = table_part(state, str(interaction.user.id), status(state))
        else:
            head = ("You are not in a chouette table's channels: "
                    f"{mention('chouette open', ids)} makes a table here, and "
                    f"{mention('chouette help', ids)} in a table's channels explains it.")
        url = self.bot.settings.manual_url
        manual = (f"[The manual]({url}): every command and button, and who may use it." if url
                  else f"The manual: `{MANUAL}` in the bot's source, every command and button.")
        embed = discord.Embed(title="/chouette commands",
                              description="\n".join(command_lines(self.bot.chouette, ids)))
        await interaction.response.send_message(linked(f"{head}\n{manual}", ids), embed=embed,
                                                ephemeral=True)


async def setup(bot: ChouetteBot) -> None:
    """Add /chouette help."""
    await bot.add_cog(Help(bot))
