"""A table played at random as its players would, black-box, and checked against the store:
the bot's own database says what Discord must show (`check`)."""

import asyncio
import random
import re
import sqlite3
from typing import Any

from bot.discord.boards import status as status_of
from bot.discord.channels import overwrites
from bot.store import Channels
from bot.store.codec import loads
from rules.cube_state import CubeState
from rules.game import waiting_for
from rules.state import TableState, replay
from tests.e2e.session import board

PLAYERS = ("alice", "bob", "carol", "dave")


def stored(drv: Any) -> tuple[TableState, Channels, int]:
    """The table as the bot's database holds it, its channels, and what is still to show."""
    db = sqlite3.connect(f"file:{drv.extra_env['CHOUETTE_DB']}?mode=ro", uri=True)
    try:
        row = db.execute("SELECT * FROM discord_tables").fetchone()
        events = [loads(d) for (d,) in db.execute(
            "SELECT data FROM events WHERE table_id = ? ORDER BY version", (row[0],))]
        pending = db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0]
    finally:
        db.close()
    return replay(events), Channels(*row), pending


async def restarted(drv: Any) -> None:
    """kill -9, start again, and wait until the bot has shown what it had still to show."""
    await drv.restart()
    await delivered(drv)


async def delivered(drv: Any) -> None:
    """Wait until the bot has shown what it had still to show (its outbox is empty)."""
    for _ in range(200):
        await drv.settle()
        if stored(drv)[2] == 0:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the outbox was not delivered after the restart")


def check(drv: Any) -> None:
    """Discord shows what the store says."""
    state, channels, _ = stored(drv)
    where = f"{drv.channel(channels.board_id)['parent_id']}"
    shown = re.sub(r" Time runs out <t:\d+:R>\.", "",  # the timers' countdown, and
                   re.sub(r"</(chouette[a-z ]*):\d+>", r"`/\1`",  # commands as links
                          board(drv, channels.board_id)["content"]))
    assert f"**{status_of(state)}**" in shown, where
    bot = int(drv.fake.app_id)
    for channel_id, wanted in overwrites(state, channels, bot).items():
        have = {int(t): (int(o["allow"]), int(o["deny"]))
                for t, o in drv.overwrites(channel_id).items()}
        assert {t: p for t, p in have.items() if t in wanted} == wanted, channel_id
        assert not {t for t in have if t not in wanted and t != channels.guild_id}
    for player, cube in waiting_for(state):
        if player == (state.seating.box if state.seating else None):
            if cube.state is CubeState.OFFERED:
                continue  # the Box answers the Team's doubles from the board's menu
            asked = {c["custom_id"] for m in drv.messages(channels.box_id)
                     for c in drv.buttons(m)}  # a beaver: asked in #box
            live = rf"chouette:{channels.table_id}:\w+:{player}:{cube.team_player}@{cube.face}"
            assert any(re.fullmatch(live, i) for i in asked), (player, cube.face, asked)
            continue
        member = state.member(player)
        who = player if member is None or not member.away else None
        if who is None:
            continue  # his stand-in is asked: the same button, in the stand-in's DMs
        asked = {c["custom_id"] for m in drv.dms(_name(drv, who)) for c in drv.buttons(m)}
        live = rf"chouette:{channels.table_id}:\w+:{player}(:\d+)?@{cube.face}"
        assert any(re.fullmatch(live, i) for i in asked), (player, cube.face, asked)
    texts = [m["content"] for m in drv.messages(channels.board_id)[1:]]
    sheets = [t.split("\n")[0] for t in texts if t.startswith("**Score after game")]
    assert len(sheets) == len(set(sheets)) == state.games_played, sheets
    for sheet in (t for t in texts if t.startswith("**Score after game")):
        points = [float(p.replace("½", ".5").replace("+", "").replace("−", "-"))
                  for p in re.findall(r": ([−+-]?[\d½.]+)$", sheet, re.M)]
        assert points == sorted(points, reverse=True), sheet  # highest first
    begun = [n for t in texts for n in re.findall(r"Game (\d+) begins", t)]
    assert len(begun) == len(set(begun)), begun
    revealed = [n for t in texts for n in re.findall(r"Game (\d+)'s dice seed was", t)]
    assert sorted(revealed) == sorted(str(n) for n, _, seed in state.commitments if seed)


def _name(drv: Any, player_id: str) -> str:
    return next(u["username"] for u in drv.fake.users.values() if u["id"] == player_id)


async def act(drv: Any, rng: random.Random, settle: bool, doubling: float = 0.25) -> None:
    """One action a player would take now, chosen at random among those open (a double
    before a roll with the chance `doubling`)."""
    if stored(drv)[2]:  # a request Discord refused is sent again shortly: wait, as players do
        await delivered(drv)
    state, channels, _ = stored(drv)
    message = board(drv, channels.board_id)
    labels = drv.button_labels(message)
    line = status_of(state)
    seating = state.seating
    if "Start game" in labels and (state.game is None):
        await drv.click(rng.choice(PLAYERS[:3]), message, label="Start game", settle=settle)
        return
    if playing := re.match(r"Waiting for (\w+) to play", line):
        (menu,) = drv.selects(message)
        value = rng.choice(menu["options"])["value"]
        chosen = await drv.select(playing[1], message, menu["custom_id"], [value])
        if menu["custom_id"].endswith(":first") and drv.selects(chosen.message):
            step = drv.selects(chosen.message)[0]
            await drv.select(playing[1], chosen.message, step["custom_id"],
                             [rng.choice(step["options"])["value"]], settle=settle)
        return
    pending = waiting_for(state)
    if pending and seating is not None:
        player, cube = rng.choice(pending)
        if player == seating.box and cube.state is not CubeState.OFFERED:  # in #box
            asked = [m for m in drv.messages(channels.box_id) if drv.buttons(m)]
            assert asked, (line, cube, [m["content"] for m in drv.messages(channels.box_id)])
            await drv.click(_name(drv, player), asked[-1], label="Take", settle=settle)
            return
        if player == seating.box:
            menu = await drv.click(_name(drv, player), message, label="Answer the doubles")
            offered = drv.selects(menu.message)[0]
            take = [o["value"] for o in offered["options"]]
            await drv.select(_name(drv, player), menu.message, offered["custom_id"], take)
            await drv.click(_name(drv, player), menu.message, label="Confirm", settle=settle)
            return
        dms = [m for m in drv.dms(_name(drv, player)) if drv.buttons(m)]
        if dms:
            button = rng.choice([b for b in drv.buttons(dms[-1])
                                 if b["label"] in ("Take", "Drop")])
            await drv.click(_name(drv, player), dms[-1], custom_id=button["custom_id"],
                            settle=settle)
        return
    if rolling := re.match(r"Waiting for (\w+) to roll", line):
        shooter = rolling[1]
        box = _name(drv, seating.box) if seating else ""
        if "Double" in labels and rng.random() < doubling:
            if shooter == box:
                menu = await drv.click(box, message, label="Double")
                if drv.selects(menu.message):
                    picks = drv.selects(menu.message)[0]
                    await drv.select(box, menu.message, picks["custom_id"],
                                     [o["value"] for o in picks["options"]])
                    await drv.click(box, menu.message, label="Confirm", settle=settle)
                return
            await drv.click(shooter, message, label="Double", settle=settle)
            return
        await drv.click(shooter, message, label="Roll", settle=settle)


