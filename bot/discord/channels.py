"""The table's channels on Discord: what the bot must be allowed, what each channel's
permission overwrites are for a state of the table, and making them so.

`overwrites(state, ...)` is a pure function of the table's state: #board is read-only but
for the bot; #team shows the seated Team (send as `team_voices` says); #box the Box and his
Partner; a blinded kibitzer sees none of the four; a player who is leaving loses #team and
#box at once; once the session is over every channel is read-only (an archive). `reconcile`
changes only what differs, so it is called after every action and at every start-up,
whatever a crash lost. Every overwrite grants only what the invite gives the bot (Discord
lets a bot without Administrator grant nothing else: discord-api-docs #2522).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

import discord
from discord.http import HTTPClient

from bot.store import Channels
from rules.game import team_voices
from rules.state import TableState

# What the bot uses, as Discord's settings name it; the README's invite asks for exactly
# these: to see the tables' channels, post the board, sheets and prompts with their images,
# make, archive and remove the channels, and open #team and #box to their players (Manage
# Roles is "Manage Permissions" on a channel).
NEEDED = {"view_channel": "View Channels", "send_messages": "Send Messages",
          "attach_files": "Attach Files", "manage_channels": "Manage Channels",
          "manage_roles": "Manage Roles"}
INVITE = discord.Permissions(**dict.fromkeys(NEEDED, True))

VIEW = discord.Permissions(view_channel=True)
SEND = discord.Permissions(send_messages=True)
BOT = discord.Permissions(view_channel=True, send_messages=True, attach_files=True)

Pair = tuple[int, int]  # (allow, deny) bits


def missing(permissions: discord.Permissions) -> list[str]:
    """The names, as Discord's settings show them, of what the bot needs and lacks."""
    if permissions.administrator:
        return []
    return [shown for name, shown in NEEDED.items() if not getattr(permissions, name)]


def overwrites(state: TableState, channels: Channels, bot_id: int
               ) -> dict[int, dict[int, Pair]]:
    """Every channel's overwrites, {channel id: {target id: (allow, deny)}}; the @everyone
    role's id is the server's."""
    everyone, seating = channels.guild_id, state.seating
    closed = SEND.value if state.ended else 0
    leaving = {m.player for m in state.members if m.leaving}
    team = [p for p in (seating.team if seating else ()) if p not in leaving]
    box = [p for p in ((seating.box, seating.partner) if seating else ()) if p and
           p not in leaving]
    voices = team_voices(state)
    blind = {int(p): (0, VIEW.value) for p in state.blinded if p.isdigit()}
    mine = {bot_id: (BOT.value, 0)}
    private = {everyone: (0, VIEW.value | closed), **mine}
    return {
        channels.board_id: {everyone: (0, SEND.value), **mine, **blind},
        channels.kibitz_id: {**({everyone: (0, closed)} if closed else {}), **blind},
        channels.team_id: {**private, **_players(team, voices if not closed else ())},
        channels.box_id: {**private, **_players(box, box if not closed else ())},
    }


def _players(seen: Iterable[str], voices: Iterable[str]) -> dict[int, Pair]:
    speak = set(voices)
    return {int(p): ((VIEW | SEND).value if p in speak else VIEW.value,
                     0 if p in speak else SEND.value) for p in seen if p.isdigit()}


class Reach(Protocol):
    """What `reconcile` needs of the bot: its user, its channels and Discord's API."""

    @property
    def user(self) -> discord.ClientUser | None: ...

    @property
    def http(self) -> HTTPClient: ...

    def get_channel(self, id: int, /) -> Any: ...


Known = dict[int, dict[int, Pair]]  # overwrites a channel was seen to have, by its id


async def reconcile(bot: Reach, state: TableState, channels: Channels,
                    known: Known | None = None) -> None:
    """Make the table's channels' overwrites what `state` says: change only what differs
    (nothing at all when they match), remove those of players no longer seated.

    `known` keeps what each channel was made to have, so that the next action, which
    mostly changes no overwrite, skips reading them (discord.py builds an object for each);
    the caller forgets a channel whenever Discord says it changed."""
    assert bot.user is not None
    for channel_id, wanted in overwrites(state, channels, bot.user.id).items():
        if known is not None and known.get(channel_id) == wanted:
            continue
        channel = bot.get_channel(channel_id)
        if not isinstance(channel, discord.abc.GuildChannel):
            continue
        have = {target.id: tuple(v.value for v in ow.pair())
                for target, ow in channel.overwrites.items()}
        for target, pair in wanted.items():
            if have.get(target) != pair:
                await bot.http.edit_channel_permissions(  # @everyone is a role (0)
                    channel_id, target, str(pair[0]), str(pair[1]),
                    0 if target == channels.guild_id else 1)
        stale = [t for t in have if t not in wanted and _is_member(channel, t)]
        for target in stale:
            await bot.http.delete_channel_permissions(channel_id, target)
        if known is not None:
            known[channel_id] = wanted


def _is_member(channel: discord.abc.GuildChannel, target: int) -> bool:
    """Whether an overwrite of `channel` is a member's (not a role's: those the server's
    admins set are theirs)."""
    return channel.guild.get_role(target) is None
