"""discord.py's floor: the bot's CPU for a click answered with the board and nothing else
(`bench/floor_bot.py`, its own process against the test suite's fake Discord, players
clicking at once on many boards). The load runner's figure for the bot itself
(`load_tables.py`, the README's load test) is this floor plus everything the bot does."""

from __future__ import annotations

import asyncio
import os
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "e2e" / "harness"))

from driver import Driver  # noqa: E402
from fake_discord import FakeDiscord  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def _cpu(pid: int) -> float:
    """A process's CPU seconds (user and system)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


async def _clicks(boards: int, clicks: int, image: bool) -> float:
    """The bot's CPU a click (ms): `boards` boards on their own channels, each clicked
    `clicks` times by its player, 0.3 to 1 s apart."""
    fake = FakeDiscord(users=())
    servers = [fake.guild_id] + [fake.add_guild(f"Server {k}")["id"]
                                 for k in range(1, (boards + 24) // 25)]
    seats = []
    for n in range(boards):
        server = servers[n % len(servers)]
        seats.append((fake.add_channel(f"board-{n}", guild=server)["id"],
                      fake.add_user(f"p{n}", guild=server)))
    python = sys.executable
    async with Driver(HERE.parent, python=python, cmd=[python, str(HERE / "floor_bot.py")],
                      fake=fake, guild_ready_timeout=0.2,
                      env={"BENCH_IMAGE": "1" if image else "0"}) as drv:
        for channel, player in seats:
            await drv.slash(player["username"], channel, "board")
        rng = random.Random(1)
        before = _cpu(drv.bot.pid)

        async def player(channel: str, name: str) -> None:
            await asyncio.sleep(rng.uniform(0, 1))
            for _ in range(clicks):
                await drv.click(name, drv.messages(channel)[0], label="Roll", settle=False)
                await asyncio.sleep(rng.uniform(0.3, 1.0))
        await asyncio.gather(*(player(c, p["username"]) for c, p in seats))
        return 1000 * (_cpu(drv.bot.pid) - before) / (boards * clicks)


def run(boards: int = 50, clicks: int = 12) -> list[tuple[str, str]]:
    rows = []
    for image in (True, False):
        ms = asyncio.run(_clicks(boards, clicks, image))
        what = "the board" if image else "the board without its image"
        rows.append((f"discord.py floor: a click answered with {what}, the bot's CPU",
                     f"{ms:.2f} ms ({boards} boards x {clicks} clicks)"))
    return rows
