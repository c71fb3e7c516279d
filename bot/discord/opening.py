"""A table opened from Discord: the rules try the opening and the opener's seat first, then
the server's limits are checked and the table's category and channels made, and the two
actions are stored and shown together. `cogs/lobby.py` only reads the command's options."""

from __future__ import annotations

import discord

from bot.discord.channels import missing
from bot.discord.client import ChouetteBot
from bot.store import Channels
from bot.words.i18n import tr
from bot.words.markdown import escape
from rules.actions import trial
from rules.commands import Join, Open
from rules.state import TableState


async def open_table(bot: ChouetteBot, interaction: discord.Interaction, opening: Open,
                     joining: Join) -> None:
    """Open a table as `opening` says and seat its opener (`joining`), answering the
    command: a refusal before any channel is made, in the opener's language."""
    assert interaction.guild is not None
    me = str(interaction.user.id)
    state, refused = trial(TableState(), opening, joining)
    if refused is not None:  # as any refusal: the opener's language, players named
        await bot.reply(interaction, bot.presenter.names(
            state, refused, {me: escape(interaction.user.display_name)}, interaction.locale))
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    async with bot.opening[interaction.guild.id]:  # the limits hold for opens at once
        if why := await may_open(bot, interaction):
            await bot.reply(interaction, why)
            return
        number = len(await bot.store.channels.of_guild(interaction.guild.id,
                                                       open_only=False)) + 1
        channels = await make_channels(interaction.guild, f"chouette {number} · {opening.preset}",
                                       interaction.channel_id)
        await bot.store.channels.save(channels)
        table = channels.table_id
        opened = await bot.service.handle(table, opening, key=f"{interaction.id}:open")
    joined = await bot.service.handle(table, joining, key=f"{interaction.id}:join")
    # each action shown as itself, the board there when the link is followed (the open was
    # deferred)
    await bot.presenter.show_all(table, [o for o in (opened, joined) if o.accepted])
    board = channels.board_id
    if not joined.accepted:
        state = await bot.service.state(table)
        why = bot.presenter.names(state, joined, locale=interaction.locale)
        done = tr("Table open in <#{board}> (you did not join: {why}).", interaction.locale,
                  board=board, why=why)
    else:
        done = tr("Table open in <#{board}>.", interaction.locale, board=board)
    await interaction.followup.send(done, ephemeral=True)


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
