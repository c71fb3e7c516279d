"""The club's pages on Discord (issue 37): `/chouette mod standings`, the server's standings
page, its link for anyone while it is on, turned on or off by a moderator (the link kept in
the store: `bot.web.links`). The pages themselves are `bot/web/`; the link buttons on the
final sheet, the record and the verdicts, `bot.discord.sheets.page_link`."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.discord.client import ChouetteBot
from bot.words.i18n import tr, translate
from cogs import Subcommands, add

Turn = Literal["on", "off"]


class Standings(Subcommands):
    """/chouette mod standings (/chouette holds Discord's 25 subcommands a group already)."""

    def group(self) -> app_commands.Group:
        return self.bot.moderation

    @app_commands.command()
    @app_commands.describe(turn="moderators: on to open the page (at a new link if it was "
                                "off), off to close it")
    async def standings(self, interaction: discord.Interaction,
                        turn: Turn | None = None) -> None:
        """The server's standings page: its link while on; moderators turn it on or off."""
        await self.bot.reply(interaction, await standings_answer(self.bot, interaction, turn))


async def standings_answer(bot: ChouetteBot, interaction: discord.Interaction,
                           turn: Turn | None) -> str:
    """The server's standings page turned on or off (`turn`: a moderator's), or as it is:
    its link (the pages' public address and its path), or that it is off; in the reader's
    language."""
    locale, links = interaction.locale, bot.presenter.links
    if turn is not None and not bot.is_moderator(interaction.user):
        return translate("Only a moderator can turn the server's standings page on or off.",
                         locale)
    guild = interaction.guild_id or 0  # (/chouette is for servers only)
    path = (await links.club(guild) if turn is None
            else await links.turn_club(guild, turn == "on"))
    if path is None:
        return (translate("The server's standings page is now off: its link no longer "
                          "works.", locale) if turn == "off"
                else translate("The server's standings page is off: a moderator turns it "
                               "on with `/chouette mod standings turn:on`.", locale))
    url = bot.settings.web_url.rstrip("/")
    if not url:
        return tr("The server's standings page is on, at {path} on the bot's web server "
                  "(its public address, CHOUETTE_WEB_URL, is not set).", locale, path=path)
    return tr("The server's standings page is on: {url}", locale, url=url + path)


async def setup(bot: ChouetteBot) -> None:
    """Add /chouette mod standings."""
    await add(bot, Standings(bot))
