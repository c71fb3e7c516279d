"""Moderation: blind a kibitzer (he loses sight of the table's four channels) and unblind him.
Moderators are members with Manage Server or the configured moderator role."""

from __future__ import annotations

import discord

from bot.discord_app import ChouetteBot


def is_moderator(bot: ChouetteBot, member: discord.Member) -> bool:
    """Manage Server, or the moderator role named in the settings."""
    return member.guild_permissions.manage_guild or any(
        role.name == bot.settings.moderator_role for role in member.roles)


async def setup(bot: ChouetteBot) -> None:
    """Add /chouette blind and /chouette unblind."""
    group = bot.chouette

    async def set_sight(interaction: discord.Interaction, member: discord.Member,
                        blind: bool) -> None:
        if not isinstance(interaction.user, discord.Member) or not is_moderator(
                bot, interaction.user):
            await bot.reply(interaction, "Only moderators (Manage Server, or the "
                                         f"{bot.settings.moderator_role} role) may do that.")
            return
        found = await bot.store.channels(channel_id=interaction.channel_id)
        if found is None:
            await bot.reply(interaction, "Use this in one of the table's channels.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        for channel_id in found.all:
            channel = bot.get_channel(channel_id)
            if isinstance(channel, discord.TextChannel):
                if blind:
                    await channel.set_permissions(member, view_channel=False)
                else:
                    await channel.set_permissions(member, overwrite=None)
        state = await bot.service.state(found.table_id)
        if not blind and str(member.id) in state.present:
            await bot.presenter.sync_channels(state, found)
        verb = "blinded: he no longer sees" if blind else "unblinded: he sees"
        await interaction.followup.send(f"{member.display_name} is {verb} the table.",
                                        ephemeral=True)

    @group.command()
    async def blind(interaction: discord.Interaction, member: discord.Member) -> None:
        """Blind a kibitzer: he can no longer see this table's channels (moderators)."""
        await set_sight(interaction, member, True)

    @group.command()
    async def unblind(interaction: discord.Interaction, member: discord.Member) -> None:
        """Give a blinded kibitzer his sight of this table back (moderators)."""
        await set_sight(interaction, member, False)
