"""The bot past one process, black-box (issue 23): two bot processes on shards 0 and 1 of 2
sharing one PostgreSQL database and one fake Discord. A table on a server of shard 1 is
played until the Box doubles; the Team's answers come by DM, which Discord delivers to
shard 0's process only: each is acknowledged there at once, applied once by shard 1's
process (through the store's inbox) and shown on the board in its server. Shard 1's process
is killed with kill -9 mid-game: shard 0's table plays on, a DM answer given meanwhile is
acknowledged within Discord's 3 s and applied when shard 1's process is back, and its table
resumes."""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import asyncpg

from tests.e2e.conftest import new_schema
from tests.e2e.session import choose, play_until_roll, seats, status
from tests.e2e.support import INVITE, PROJECT, Driver, FakeDiscord, time_answers

PLAYERS = ("alice", "bob", "carol", "dave")


def channel_of(fake: FakeDiscord, guild: dict[str, Any], name: str) -> str:
    """The id of a table's channel (`board`, `kibitz`) on the server `guild`."""
    (found,) = [c["id"] for c in fake.guild_channels(guild)
                if c["name"] == name and c.get("parent_id")]
    return str(found)


async def open_table(drv: Driver, guild: dict[str, Any]) -> str:
    """The players open a table on `guild` and start a game; its #board's id."""
    general = next(c["id"] for c in drv.fake.guild_channels(guild) if c["name"] == "general")
    r = await drv.slash(PLAYERS[0], general, "chouette open")
    assert "Table open" in r.text(), r
    for player in PLAYERS[1:]:
        assert (await drv.slash(player, channel_of(drv.fake, guild, "kibitz"),
                                "chouette join")).acked
    board = channel_of(drv.fake, guild, "board")
    await drv.click(PLAYERS[0], drv.messages(board)[0], label="Start game")
    return board


def asked(drv: Driver, player: str, table: str) -> dict[str, Any] | None:
    """The DM question about `table` that `player` may still answer (Take offered)."""
    live = [m for m in drv.dms(player) if any(
        b["label"] == "Take" and b["custom_id"].startswith(f"chouette:{table}:")
        for b in drv.buttons(m))]
    return live[-1] if live else None


def acknowledgement(fake: FakeDiscord, interaction: str) -> tuple[int | None, bool]:
    """Which process answered an interaction (at once: a deferred update, before the store
    is written), and whether that process then said the answer is recorded (an edit of the
    question's message)."""
    (callback,) = [c for c in fake.calls if c.path.startswith(f"interactions/{interaction}/")]
    assert callback.body.get("type") == 6  # DEFERRED_UPDATE_MESSAGE: the question kept
    token = fake.interactions[interaction].token
    edits = [c for c in fake.calls if c.method == "PATCH" and f"/{token}/messages/" in c.path]
    return callback.pid, any("Answer recorded" in str(c.body) for c in edits
                             if c.pid == callback.pid)


def test_two_processes_on_two_shards_share_one_postgresql(postgres: Any) -> None:
    url = new_schema(postgres)

    async def main(tmp: str) -> None:
        log_dir = Path(os.environ.get("E2E_LOG_DIR") or tmp)
        fake = FakeDiscord(bot_permissions=INVITE, recommended_shards=2)
        guilds = [fake.add_guild(f"Guild {s}", shard=(s, 2), bot_permissions=INVITE,
                                 members=list(PLAYERS)) for s in (0, 1)]
        for g in guilds:
            fake.add_channel("general", guild=g)
        await fake.start()
        answered = time_answers(fake)

        def driver(shard: int) -> Driver:
            return Driver(PROJECT, python=sys.executable, fake=fake, guild_ready_timeout=0.2,
                          log_path=log_dir / f"e2e-test_shards-{shard}.log",
                          env={"CHOUETTE_DATABASE_URL": url,
                               "CHOUETTE_DB": f"{tmp}/shard{shard}.sqlite3",  # its heartbeat
                               "CHOUETTE_ENV_FILE": f"{tmp}/none.env",
                               "CHOUETTE_AUTOROLL": "0", "CHOUETTE_ANALYSIS_PLIES": "0",
                               "CHOUETTE_SHARD_COUNT": "2", "CHOUETTE_SHARD_IDS": str(shard)})
        a, b = driver(0), driver(1)
        db = None
        try:
            await a.start()  # one at a time: both migrate the new schema otherwise (tested)
            await b.start()
            db = await asyncpg.connect(url)
            board1 = await open_table(a, guilds[1])  # served by b: its server is on shard 1
            board0 = await open_table(a, guilds[0])
            table1 = await db.fetchval(
                "SELECT table_id FROM discord_tables WHERE board_id = $1", int(board1))
            assert table1 and {c.pid for c in fake.calls
                                     if f"channels/{board1}/" in c.path} == {b.bot.pid}

            # the Box of shard 1's table doubles every cube: each Team player is asked by DM
            box, team = seats(a, board1)
            while (shooter := await play_until_roll(a, board1)) != box:
                await a.click(shooter, a.messages(board1)[0], label="Roll")
            menu = await a.click(box, a.messages(board1)[0], label="Double")
            await choose(a, box, menu, {"double": team})
            await a.wait_for(lambda: all(asked(a, p, table1) for p in team), timeout=10,
                             what="the Team's DM questions")

            # the first answer reaches shard 0's process, which acknowledges it and leaves it
            # to shard 1's: applied once, shown in guild 1 and in the DM
            first = asked(a, team[0], table1)
            first_text = first["content"]
            r = await a.click(team[0], first, label="Take")
            assert r.acked and r.response_type == 6
            assert acknowledgement(fake, r.id) == (a.bot.pid, True)
            took = f"{team[0]}: take ({team[0]} v {box}, cube 2)"
            await a.wait_for(lambda: took in a.messages(board1)[0]["content"], timeout=10,
                             what="the take on guild 1's board")
            await a.wait_for(lambda: not a.buttons(r.message), timeout=5,
                             what="the answered question without buttons")
            assert r.message["content"] == f"{first_text}\n> {took}."
            assert await db.fetchval("SELECT COUNT(*) FROM commands WHERE key = $1",
                                     str(r.id)) == 1
            assert await db.fetchval("SELECT done FROM inbox WHERE key = $1", str(r.id)) == 1
            edits = [c.pid for c in fake.calls if c.method == "PATCH"
                     and f"channels/{board1}/messages" in c.path]
            assert edits and set(edits) == {b.bot.pid}

            # shard 1's process dies mid-game; shard 0's table plays on meanwhile
            await b.kill_bot()
            shooter = await play_until_roll(a, board0)
            await a.click(shooter, a.messages(board0)[0], label="Roll")
            assert "to play" in status(a, board0) or "to roll" in status(a, board0)

            # a DM answer while shard 1 is down: acknowledged at once, applied on its return
            second = asked(a, team[1], table1)
            r2 = await a.click(team[1], second, label="Take")
            assert acknowledgement(fake, r2.id) == (a.bot.pid, True) and answered[r2.id] < 3
            assert "Answer recorded" in r2.content and a.buttons(r2.message)
            assert await db.fetchval("SELECT done FROM inbox WHERE key = $1", str(r2.id)) == 0
            assert await db.fetchval("SELECT COUNT(*) FROM commands WHERE key = $1",
                                     str(r2.id)) == 0
            await b.start_bot()
            await b.wait_ready(require_commands=False)
            await a.wait_for(lambda: not a.buttons(r2.message), timeout=15,
                             what="the answer given while down, applied")
            assert f"{team[1]}: take" in r2.message["content"]
            assert await db.fetchval("SELECT COUNT(*) FROM commands WHERE key = $1",
                                     str(r2.id)) == 1

            # its table resumes: the last answer, then the Box rolls on
            r3 = await a.click(team[2], asked(a, team[2], table1), label="Take")
            assert acknowledgement(fake, r3.id) == (a.bot.pid, True)
            await a.wait_for(lambda: f"Waiting for {box} to roll" in status(a, board1),
                             timeout=15, what="the Box to roll after every answer")
            await a.click(box, a.messages(board1)[0], label="Roll")
            assert f"Waiting for {box} to play" in status(a, board1)
            late = [i for i in fake.interactions.values()
                    if any(why == "late" for why, _ in i.rejected)]
            assert not late and not fake.unrouted, (late, fake.unrouted)
        finally:
            if db is not None:
                await db.close()
            await asyncio.gather(a.stop(), b.stop())
            await fake.stop()

    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(main(tmp))
