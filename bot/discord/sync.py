"""Where the slash commands are registered: everywhere, or on one test server while
`CHOUETTE_DEV_GUILD_ID` is set. The store remembers where they went last, so that commands
copied to a test server are taken off it when the setting is removed or changed; otherwise
that server's members would see `/chouette` twice. It also remembers the ids Discord gave
the commands, for clickable command mentions (`</chouette join:ID>`).

The commands' descriptions (and names, where a catalogue gives them) are sent to Discord in
every language of `locale/` (`Translator`); Discord shows each user his own. The commands
are synced at every start, so a changed catalogue reaches Discord with the next start."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping

import discord
from discord import app_commands

from bot.store import EventStore
from bot.words.i18n import translation

log = logging.getLogger(__name__)

SCOPE_KEY = "commands_scope"  # in the store's meta table: "global" or a server id
IDS_KEY = "command_ids"  # in the store's meta table: {command name: id} as JSON
GLOBAL = "global"
NAME = "command name"  # the msgctxt of a command's, a group's or an option's name
Where = app_commands.TranslationContextLocation
NAMES = (Where.command_name, Where.group_name, Where.parameter_name)
DESCRIPTIONS = (Where.command_description, Where.group_description,
                Where.parameter_description)


class Translator(app_commands.Translator):
    """The /chouette commands in the catalogues' languages: names (msgctxt "command name")
    and descriptions; None (Discord's default, the English) where a catalogue has none."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        if context.location in NAMES:
            return translation(string.message, locale, NAME)
        if context.location in DESCRIPTIONS:
            return translation(string.message, locale)
        return None  # choices: the rule sets' and the modes' own names


async def sync_commands(tree: app_commands.CommandTree[discord.Client], store: EventStore,
                        dev_guild_id: int | None) -> None:
    """Register the tree's commands globally or on the test server, and clear the copies
    an earlier start left on another test server."""
    before = await store.meta.get(SCOPE_KEY)
    if dev_guild_id:
        guild = discord.Object(id=dev_guild_id)
        tree.copy_global_to(guild=guild)
        synced = await tree.sync(guild=guild)
        now = str(dev_guild_id)
        log.info("commands synced to the test server %s only (CHOUETTE_DEV_GUILD_ID)", now)
        if before == GLOBAL:
            log.warning("the global /chouette commands of earlier starts stay on every "
                        "server, so server %s lists them twice until CHOUETTE_DEV_GUILD_ID "
                        "is removed again", now)
    else:
        synced = await tree.sync()
        now = GLOBAL
    await store.meta.set(IDS_KEY, json.dumps({c.name: c.id for c in synced}))
    if before not in (None, GLOBAL, now):
        await _clear_guild(tree, int(before))
    if before != now:
        await store.meta.set(SCOPE_KEY, now)


async def _clear_guild(tree: app_commands.CommandTree[discord.Client], guild_id: int) -> None:
    old = discord.Object(id=guild_id)
    tree.clear_commands(guild=old)
    try:
        await tree.sync(guild=old)
    except discord.HTTPException as exc:  # the bot left that server, or lost the scope
        log.warning("could not remove the /chouette commands copied to the test server %s "
                    "(%s); if its members see /chouette twice, kick the bot from that server "
                    "and invite it again", guild_id, exc)
    else:
        log.info("removed the commands copied to the test server %s earlier", guild_id)


async def command_ids(store: EventStore) -> dict[str, int]:
    """{command name: id} as Discord registered them at the last start ({} before any)."""
    raw = await store.meta.get(IDS_KEY)
    return {str(k): int(v) for k, v in json.loads(raw).items()} if raw else {}


def mention(name: str, ids: Mapping[str, int]) -> str:
    """`</chouette join:ID>`, which Discord shows as a clickable command, where the id of the
    command's root is known (synced at start-up); else the command as text."""
    root = ids.get(name.split()[0])
    return f"</{name}:{root}>" if root else f"`/{name}`"


_COMMAND = re.compile(r"`/(chouette(?: [a-z_]+)*)((?: [a-z_]+:[^`]*)?)`")


def linked(text: str, ids: Mapping[str, int]) -> str:
    """`text` with each `/chouette X` in backticks as a clickable mention where the
    command's id is known, its arguments after it ("</chouette verify:ID> `game:3`")."""
    def link(found: re.Match[str]) -> str:
        if not ids.get("chouette"):
            return found[0]
        args = found[2].strip()
        return mention(found[1], ids) + (f" `{args}`" if args else "")
    return _COMMAND.sub(link, text)
