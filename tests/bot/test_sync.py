"""Where the slash commands go: the test server's copies are cleared when it changes."""

import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.discord.sync import SCOPE_KEY, command_ids, linked, sync_commands
from bot.store import EventStore


class Tree:
    """What sync_commands uses of a CommandTree, recording the calls."""

    def __init__(self, refuse: int | None = None) -> None:
        self.calls: list[tuple[str, int | None]] = []
        self.refuse = refuse  # a server whose sync fails (the bot was kicked)

    def copy_global_to(self, *, guild: discord.Object) -> None:
        self.calls.append(("copy", guild.id))

    def clear_commands(self, *, guild: discord.Object) -> None:
        self.calls.append(("clear", guild.id))

    async def sync(self, *, guild: discord.Object | None = None) -> list[Any]:
        if guild is not None and guild.id == self.refuse:
            raise discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"),
                                    {"code": 50001, "message": "Missing Access"})
        self.calls.append(("sync", guild.id if guild else None))
        return []


async def scope_after(store: EventStore, dev_guild: int | None, tree: Tree) -> str | None:
    await sync_commands(tree, store, dev_guild)  # type: ignore[arg-type]
    return await store.meta.get(SCOPE_KEY)


async def test_a_test_server_is_cleared_when_the_setting_changes_or_goes(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with EventStore(tmp_path / "c.db") as store:
        tree = Tree()
        assert await scope_after(store, 5, tree) == "5"
        assert tree.calls == [("copy", 5), ("sync", 5)]
        tree = Tree()
        assert await scope_after(store, 6, tree) == "6"  # another test server
        assert tree.calls == [("copy", 6), ("sync", 6), ("clear", 5), ("sync", 5)]
        tree = Tree()
        with caplog.at_level(logging.INFO, logger="bot.discord.sync"):
            assert await scope_after(store, None, tree) == "global"  # the setting removed
        assert tree.calls == [("sync", None), ("clear", 6), ("sync", 6)]
        assert "removed the commands copied to the test server 6" in caplog.text
        tree = Tree()
        assert await scope_after(store, None, tree) == "global"  # nothing to clear now
        assert tree.calls == [("sync", None)]


async def test_going_back_to_a_test_server_warns_of_the_global_copies(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with EventStore(tmp_path / "c.db") as store:
        await scope_after(store, None, Tree())
        with caplog.at_level(logging.WARNING, logger="bot.discord.sync"):
            await scope_after(store, 5, Tree())
    assert "server 5 lists them twice until CHOUETTE_DEV_GUILD_ID is removed" in caplog.text


async def test_a_server_that_cant_be_cleared_is_logged_with_what_to_do(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with EventStore(tmp_path / "c.db") as store:
        await scope_after(store, 5, Tree())
        with caplog.at_level(logging.WARNING, logger="bot.discord.sync"):
            assert await scope_after(store, None, Tree(refuse=5)) == "global"
    assert "could not remove the /chouette commands copied to the test server 5" in caplog.text
    assert "invite it again" in caplog.text


class Registering(Tree):
    """A tree whose sync answers as Discord does: the commands with the ids it gave them."""

    async def sync(self, *, guild: discord.Object | None = None) -> list[Any]:
        await super().sync(guild=guild)
        return [SimpleNamespace(name="chouette", id=900 + (guild.id if guild else 0))]


async def test_the_ids_discord_gave_the_commands_are_kept_for_mentions(tmp_path: Path) -> None:
    async with EventStore(tmp_path / "c.db") as store:
        assert await command_ids(store) == {}
        await sync_commands(Registering(), store, None)  # type: ignore[arg-type]
        assert await command_ids(store) == {"chouette": 900}
        await sync_commands(Registering(), store, 5)  # type: ignore[arg-type]
        assert await command_ids(store) == {"chouette": 905}  # the test server's copy


def test_commands_in_backticks_become_mentions_with_their_arguments_after() -> None:
    ids = {"chouette": 900}
    assert linked("`/chouette join` first.", ids) == "</chouette join:900> first."
    assert linked("`/chouette verify game:3` checks it.", ids) == (
        "</chouette verify:900> `game:3` checks it.")
    assert linked("join with `/chouette join stake:`.", ids) == (
        "join with </chouette join:900> `stake:`.")
    assert linked("`/chouette mod blind` and `docs/commands.md`", ids) == (
        "</chouette mod blind:900> and `docs/commands.md`")
    assert linked("`/chouette join` first.", {}) == "`/chouette join` first."  # never synced
