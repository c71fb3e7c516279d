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

import logging
from collections.abc import Iterable, Mapping, Set
from dataclasses import dataclass
from typing import Any, Protocol

import discord

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
MANAGE_ROLES = discord.Permissions(manage_roles=True)

Pair = tuple[int, int]  # (allow, deny) bits
log = logging.getLogger(__name__)


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
    """What `reconcile` needs of the bot: its user and its channels."""

    @property
    def user(self) -> discord.ClientUser | None: ...

    def get_channel(self, id: int, /) -> Any: ...


Known = dict[int, dict[int, Pair]]  # overwrites a channel was seen to have, by its id


async def reconcile(bot: Reach, state: TableState, channels: Channels,
                    known: Known | None = None) -> None:
    """Make the table's channels' overwrites what `state` says: change only what differs
    (nothing at all when they match), remove those of players no longer seated.

    One change is one call (the overwrite set or removed); more in one channel (the seats
    drawn: every Team player in #team) are one `PATCH` of the channel's whole list, the
    overwrites the bot does not own (roles', set by the server's admins) in it as the
    channel has them, when the bot may send that list (`may_send_whole`), else a call each.

    `known` keeps what each channel was made to have, so that the next action, which
    mostly changes no overwrite, skips reading them (discord.py builds an object for each);
    the caller forgets a channel whenever Discord says it changed."""
    assert bot.user is not None
    for channel_id, wanted in overwrites(state, channels, bot.user.id).items():
        if known is not None and known.get(channel_id) == wanted:
            continue
        channel = bot.get_channel(channel_id)
        if not isinstance(channel, discord.TextChannel):  # the table's four are text channels
            continue
        have = {target.id: _pair(ow) for target, ow in channel.overwrites.items()}
        change = diff(have, wanted, {t for t in have if not _is_member(channel, t)})
        whole = {**wanted, **change.kept}
        if change.count > 1 and may_send_whole(channel, whole.values()):
            # @everyone and the kept ones are roles, the rest members
            roles = {channels.guild_id, *change.kept}
            await channel.edit(overwrites={
                discord.Object(target, type=discord.Role if target in roles else discord.Member):
                _overwrite(pair) for target, pair in whole.items()})
        else:
            for target, pair in [*change.put.items(), *((t, None) for t in change.delete)]:
                who = channel.guild.get_role(target) or channel.guild.get_member(target)
                if who is None:  # a player who left the server: nothing of theirs to set
                    log.debug("no member %s in %s: overwrite left", target, channel_id)
                    continue
                await channel.set_permissions(
                    who, overwrite=None if pair is None else _overwrite(pair))
        if known is not None:
            known[channel_id] = wanted


@dataclass(frozen=True)
class Change:
    """What makes a channel's overwrites the wanted ones: those to set (`put`), the
    members' to remove (`delete`), and the roles' the bot does not own, kept as they are
    (`kept`)."""

    put: dict[int, Pair]
    delete: tuple[int, ...]
    kept: dict[int, Pair]

    @property
    def count(self) -> int:
        """How many overwrites change (a call each, or one for them all)."""
        return len(self.put) + len(self.delete)


def diff(have: Mapping[int, Pair], wanted: Mapping[int, Pair], roles: Set[int]) -> Change:
    """From the overwrites a channel `have`s to the `wanted` ones: a member's overwrite
    not wanted is stale (a player no longer seated), a role's (one of `roles`) is the
    server's own."""
    return Change(put={t: pair for t, pair in wanted.items() if have.get(t) != pair},
                  delete=tuple(t for t in have if t not in wanted and t not in roles),
                  kept={t: pair for t, pair in have.items() if t not in wanted and t in roles})


def may_send_whole(channel: discord.abc.GuildChannel, whole: Iterable[Pair]) -> bool:
    """Whether the bot may set `channel`'s `whole` list of overwrites at once (Modify
    Channel: Manage Channels, and Manage Roles for overwrites). Discord lets a bot without
    Administrator allow or deny only what it has in the server or the channel's category,
    Manage Roles never (discord-api-docs #2522); whether it checks the overwrites a list
    leaves as they are (an admin's role's, say) is not documented, so a list holding one
    the bot could not set itself is not sent: a call an overwrite changed does instead."""
    me = channel.guild.me
    here = channel.permissions_for(me)
    if not (here.manage_channels and here.manage_roles):
        return False
    has = me.guild_permissions
    if has.administrator:
        return True
    if channel.category is not None:
        has = has | channel.category.permissions_for(me)
    grantable = has.value & ~MANAGE_ROLES.value
    return all((allow | deny) & ~grantable == 0 for allow, deny in whole)


def _overwrite(pair: Pair) -> discord.PermissionOverwrite:
    return discord.PermissionOverwrite.from_pair(discord.Permissions(pair[0]),
                                                 discord.Permissions(pair[1]))


def _pair(overwrite: discord.PermissionOverwrite) -> Pair:
    allow, deny = overwrite.pair()
    return allow.value, deny.value


def _is_member(channel: discord.abc.GuildChannel, target: int) -> bool:
    """Whether an overwrite of `channel` is a member's (not a role's: those the server's
    admins set are theirs)."""
    return channel.guild.get_role(target) is None
