"""The lean REST path (bot/discord/rest.py) does what discord.py's calls did for the bot: a
message posted (what Discord sent back), edited, a click answered by editing its message,
the interaction then answered (followups work, a second answer is refused), a deferred
click's message edited, Discord's refusals raised as `discord.HTTPException`s. (That nothing
is read back, the fake Discord of tests/e2e shows: SimCord answers every callback with its
body.)"""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.discord import rest
from bot.discord.router import Inert, Route, Router

seen: list[str] = []


def view(label: str) -> Inert:
    """A view of one routed button (as the bot's: discord.py keeps nothing of it)."""
    out = Inert()
    out.add_item(discord.ui.Button(label=label, custom_id=f"chouette:{label.lower()}"))
    return out


async def go(interaction: discord.Interaction, _: re.Match[str]) -> None:
    await rest.update(interaction, content="went", view=view("Later"))
    seen.append(f"done:{interaction.response.is_done()}")
    try:
        await rest.reply(interaction, "twice")
    except discord.InteractionResponded:
        seen.append("refused")
    await interaction.followup.send("after the answer", ephemeral=True)


async def later(interaction: discord.Interaction, _: re.Match[str]) -> None:
    await rest.defer(interaction)
    await rest.edit_original(interaction, content="deferred, then edited", view=None)
    seen.append("later")


class Lean(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.router = Router([Route("chouette:go", go), Route("chouette:later", later)])

        @self.tree.command(name="post")
        async def post(interaction: discord.Interaction) -> None:
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            posted = await rest.post(channel, "a board", view=view("Go"), nonce="n1")
            await rest.reply(interaction, f"posted {posted['id']}", ephemeral=True)

        @self.tree.command(name="edit")
        async def edit(interaction: discord.Interaction, message: str) -> None:
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            await rest.edit(channel.get_partial_message(int(message)), content="edited")
            await rest.reply(interaction, "ok", ephemeral=True)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await self.router.dispatch(interaction)


@pytest.fixture
def simcord_bot() -> discord.Client:
    seen.clear()
    return Lean()


@pytest.mark.simcord(strict_sync=False)
async def test_posts_edits_and_answers_as_discord_py_did(simcord_env: Any) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("board")
    ann = guild.add_member(simcord_env.create_user("ann"))

    told = await ann.slash(channel, "post")
    (board,) = channel.history()
    assert told.ephemeral and told.response.content == f"posted {board.id}"
    assert board.content == "a board"

    clicked = await ann.click(board, label="Go")
    assert channel.history()[0].content == "went"
    assert seen == ["done:True", "refused"]
    assert [m.content for m in clicked.followups] == ["after the answer"]

    clicked = await ann.click(channel.history()[0], label="Later")  # routed
    assert clicked.acknowledged and seen[-1] == "later"
    assert channel.history()[0].content == "deferred, then edited"
    assert not channel.history()[0].components

    await ann.slash(channel, "edit", message=str(board.id))
    assert channel.history()[0].content == "edited"
    simcord_env.raise_errors()


@pytest.mark.simcord(strict_sync=False)
async def test_discords_refusal_is_raised_as_before(simcord_env: Any) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("board")
    ann = guild.add_member(simcord_env.create_user("ann"))
    simcord_env.inject_error("POST", "/channels/*/messages", status=403, code=50013,
                             message="Missing Permissions")
    await ann.slash(channel, "post")
    (error,) = simcord_env.errors
    cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    assert isinstance(cause, discord.Forbidden) and cause.code == 50013
    assert not channel.history()
    simcord_env.errors.clear()
