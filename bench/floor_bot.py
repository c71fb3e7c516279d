"""The least a bot can do for a click on the board, as its own process: answer it with the
board message (its text, a board PNG, a 25-play menu and five buttons) and nothing else: no
store, no rules, no drawing, no record. What it spends a click is discord.py's and aiohttp's
share of the bot's CPU (and the test harness' probe's), the floor under every figure of the
load runner (`bench.floor`). `BENCH_IMAGE=0`: the same answer without the image."""

from __future__ import annotations

import asyncio
import io
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord
import uvloop
from discord.ext import commands

from bot.discord.router import Inert, Route, Router
from bot.render.board import board_png
from bot.render.palette import sample_picture

PNG = board_png(sample_picture())
IMAGE = os.environ.get("BENCH_IMAGE", "1") == "1"
TEXT = ("**Box** Cy · **Team** Ann, Bo, Dee\nCubes: Ann 1 (centred); Bo 1 (centred); Dee 1 "
        "(centred)\n**Waiting for Ann to roll (or a double before the roll).**\n"
        "> Cy plays 13/10 13/9.")


async def click(interaction: discord.Interaction, match: re.Match[str]) -> None:
    """A click on a button of the board, routed as the bot's (`bot.discord.router`)."""
    files = [discord.File(io.BytesIO(PNG), "board.png")] if IMAGE else []
    await interaction.response.edit_message(content=TEXT, attachments=files,
                                            view=view(match["n"]))


def view(n: str) -> discord.ui.View:
    """The board's components: the plays' menu and five buttons."""
    out = Inert()
    out.add_item(discord.ui.Select(custom_id=f"m:{n}", options=[
        discord.SelectOption(label=f"13/{10 - i % 9} 8/{5 - i % 4} ({i})", value=str(i))
        for i in range(25)]))
    for action in ("roll", "double", "type", "extra", "hold"):
        out.add_item(discord.ui.Button(label=action.capitalize(), custom_id=f"b:{n}:{action}"))
    return out


class Floor(commands.Bot):
    async def setup_hook(self) -> None:
        self.add_listener(Router([Route(r"b:(?P<n>\d+):(?P<a>\w+)", click)]).dispatch,
                          "on_interaction")

        @self.tree.command(description="Post a board.")
        async def board(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(
                TEXT, view=view(str(interaction.channel_id)),
                file=discord.File(io.BytesIO(PNG), "board.png"))
        await self.tree.sync()


async def main() -> None:
    intents = discord.Intents.default()
    intents.members = True  # as the bot's
    intents.guild_messages = intents.dm_messages = False
    async with Floor(command_prefix=commands.when_mentioned, intents=intents) as bot:
        await bot.start(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:  # as the bot's
        runner.run(main())
