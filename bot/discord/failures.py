"""What the user is told when Discord or the bot fails him: a private reply saying what to
do, and one log line (a traceback only for the bot's own bugs). Commands get it from the
tree's error handler, buttons, menus and forms from `guarded` (the router wraps each
handler). A `Refusal` (a command used where it can't be: outside a table's channels) is told
in its own words."""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.discord.channels import missing
from bot.discord.sync import command_ids, linked

log = logging.getLogger(__name__)


class Refusal(app_commands.AppCommandError):
    """A command that can't be done here, for a reason the user can act on: its message is
    the whole reply (no log beyond a debug line: nothing failed)."""


async def tell(interaction: discord.Interaction, error: BaseException, where: str) -> None:
    """Tell the user privately what went wrong and what to do; log it in one line."""
    if isinstance(error, Refusal):
        store = getattr(interaction.client, "store", None)  # the bot's, once set up
        text = linked(str(error), await command_ids(store) if store else {})
        log.debug("%s by %s refused: %s", where, interaction.user.id, text)
    elif isinstance(error, discord.Forbidden):
        lacking = missing(_permissions_here(interaction))
        need = (f"this server must give the bot **{', '.join(lacking)}**" if lacking
                else "a channel's permissions keep the bot out: a server admin can fix them")
        text = (f"Discord refused the bot ({error.text or 'Missing Permissions'}): {need}. "
                "What the table recorded is kept.")
        log.warning("%s by %s: Discord refused (%s %s)", where, interaction.user.id,
                    error.status, error.text)
    elif isinstance(error, discord.HTTPException):
        text = (f"Discord did not take the bot's request ({error.status}): what the table "
                "recorded is kept; try again in a moment.")
        log.warning("%s by %s: Discord error %s %s", where, interaction.user.id,
                    error.status, error.text)
    else:
        text = "Something went wrong on the bot's side; nothing more was recorded. Try again."
        log.error("%s by %s failed", where, interaction.user.id, exc_info=error)
    try:
        await private(interaction, text)
    except discord.HTTPException as exc:  # the interaction expired: the log has it
        log.warning("could not tell %s: %s", interaction.user.id, exc)


async def private(interaction: discord.Interaction, content: str) -> None:
    """A message only the user sees: the interaction's answer, or a followup once it is
    answered."""
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True)
    else:
        await interaction.response.send_message(content, ephemeral=True)


Callback = TypeVar("Callback", bound=Callable[..., Awaitable[None]])
SEEN = "chouette_seen"  # interaction.extras: `time.monotonic()` when its handler was entered
SANE_AGE = 3.0  # a click's age by its id past this is the host's clock's (Discord forgot it)


def guarded(handler: Callback) -> Callback:
    """A click's, pick's or form's handler (`handler(interaction, ...)`) whose errors reach
    the user as a private reply (`tell`) instead of Discord's "This interaction failed";
    when the bot first saw the interaction is noted (`waited`)."""
    @functools.wraps(handler)
    async def run(interaction: discord.Interaction, *rest: Any) -> None:
        interaction.extras.setdefault(SEEN, time.monotonic())
        try:
            await handler(interaction, *rest)
        except Exception as exc:  # told to the user and logged
            await tell(interaction, exc, handler.__name__)
    return run  # type: ignore[return-value]


def waited(interaction: discord.Interaction) -> float:
    """Seconds since Discord made `interaction` (its id's time) when this host's clock
    agrees that it was under `SANE_AGE` ago, else since the bot first saw it (this host's
    monotonic clock, noted by `guarded`): a click queued on a busy bot before `guarded`
    ran has waited longer than that says, and a host clock ahead of Discord's by seconds
    would make every click look late."""
    made = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    seen = interaction.extras.get(SEEN)
    if not isinstance(seen, float):
        return max(0.0, made)
    here = max(0.0, time.monotonic() - seen)
    return max(here, made) if 0.0 <= made < SANE_AGE else here


def _permissions_here(interaction: discord.Interaction) -> discord.Permissions:
    """The bot's permissions where the interaction happened (in a DM: none to lack)."""
    if interaction.guild is None:
        return discord.Permissions.all()
    channel, me = interaction.channel, interaction.guild.me
    if isinstance(channel, discord.abc.GuildChannel):
        return channel.permissions_for(me)
    return me.guild_permissions
