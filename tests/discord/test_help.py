"""/chouette help: a private answer that explains the table the player is at (its preset, his
seat, what he can do now) and lists every command as a clickable mention."""

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from discord import app_commands

from bot.discord.actions import ACTIONS
from bot.discord.sync import IDS_KEY
from cogs.help import doings
from rules.commands import Join, Open, Seat, Start
from rules.errors import RuleError
from rules.state import TableState, replay
from rules.table import decide
from rules.transcript import parse
from tests.discord.conftest import ScriptedDice
from tests.discord.test_lobby import board_message, open_table
from tests.discord.test_play import play, started

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def every_command(env: Any) -> list[str]:
    group = env.bot.tree.get_command("chouette")
    assert isinstance(group, app_commands.Group)
    names = [c.qualified_name for c in group.walk_commands()
             if isinstance(c, app_commands.Command)]
    return sorted(names, key=lambda name: len(name.split()))  # /chouette mod ... last


async def helped(member: Any, channel: Any) -> tuple[str, str]:
    """The help's text and its list of commands, as `member` sees them in `channel`."""
    answer = await member.slash(channel, "chouette help")
    assert answer.ephemeral
    message = answer.response
    assert len(message.embeds) == 1 and len(message.content) <= 2000
    listing = message.embeds[0].description
    assert listing is not None and len(listing) <= 4096
    return message.content, listing


async def test_every_command_is_a_mention_with_the_id_discord_gave_it(simcord_env: Any) -> None:
    guild = simcord_env.create_guild()
    lobby = guild.create_text_channel("lobby")
    ann = guild.add_member(simcord_env.create_user("ann"))
    text, listing = await helped(ann, lobby)
    registered = {c.name: c.id for c in await simcord_env.bot.tree.fetch_commands()}
    root = registered["chouette"]
    mentioned = re.findall(r"</([a-z ]+):(\d+)>", listing)
    assert [name for name, _ in mentioned] == every_command(simcord_env)
    assert {int(i) for _, i in mentioned} == {root}
    assert "chouette help" in dict(mentioned) and "chouette mod blind" in dict(mentioned)
    assert f"</chouette join:{root}>: " in listing  # with what it does
    assert "not in a chouette table's channels" in text
    assert f"</chouette open:{root}>" in text and "docs/commands.md" in text


async def test_without_the_ids_the_commands_are_plain_text(simcord_env: Any) -> None:
    _guild, (ann, _bo), board = await open_table(simcord_env, "ann", "bo")
    await simcord_env.bot.store.meta.set(IDS_KEY, None)  # never synced
    _, listing = await helped(ann, board)
    assert "</" not in listing and "`/chouette join`: " in listing


async def test_before_the_first_game_it_says_the_preset_the_seat_and_start(
        simcord_env: Any) -> None:
    guild, (_ann, bo), board = await open_table(simcord_env, "ann", "bo", preset="fibs")
    text, _ = await helped(bo, board)
    assert "**This table:** fibs rules (the bot runs the board), before the first game" in text
    assert "**You:** You have joined the table, at stake ×1." in text
    assert "**You can now:** **Start game** (on the board)" in text
    kib = guild.add_member(simcord_env.create_user("kib"))
    text, _ = await helped(kib, board)
    assert "You are not at this table" in text and "**You can now:** **Join**" in text


async def test_in_a_game_each_player_is_told_his_seat_and_his_moves(
        simcord_env: Any, dice: ScriptedDice) -> None:
    _, (ann, bo, cy), board = await started(simcord_env, dice)  # ann Box, bo Captain; 3-1
    text, _ = await helped(ann, board)
    assert "game 1 in progress" in text and "You are the Box" in text
    assert "Waiting for ann to play 3-1" in text
    assert "**You can now:** play your move" in text
    text, _ = await helped(bo, board)
    assert "You are the Captain" in text and "**You can now:** nothing" in text
    await play(ann, board, "8/5 6/5")
    text, _ = await helped(bo, board)
    assert "**Roll** (on the board)" in text and "**Double** (on the board)" in text
    text, _ = await helped(cy, board)
    assert "You are on the Team (seat 2)" in text
    assert "**Double** (on the board)" in text and "**Roll**" not in text


async def test_the_board_and_the_refusals_name_commands_as_mentions(simcord_env: Any) -> None:
    guild, _, board = await open_table(simcord_env, "ann")
    root = {c.name: c.id for c in await simcord_env.bot.tree.fetch_commands()}["chouette"]
    assert (f"**Waiting for players: </chouette join:{root}>, then </chouette start:{root}>."
            in board_message(board).content)
    kib = guild.add_member(simcord_env.create_user("kib"))
    refused = await kib.slash(board, "chouette end")  # the rules' words, from rules/
    assert refused.ephemeral
    assert f"to play, </chouette join:{root}> first." in refused.response.content


def scenario_states() -> Iterator[TableState]:
    """The table after each accepted line of every scenario (both modes, every preset)."""
    for path in sorted(SCENARIOS.glob("*.jsonl")):
        state = TableState()
        for line in path.read_text().splitlines():
            if not line.strip():
                continue
            try:
                state = replay(decide(state, parse(json.loads(line))), state)
            except RuleError:
                continue
            yield state


def named_buttons(state: TableState, player: str) -> set[str]:
    return {b for line in doings(state, player) for b in re.findall(r"\*\*(.+?)\*\*", line)}


def test_help_names_only_the_buttons_the_board_shows() -> None:
    seen = 0
    for state in scenario_states():
        showing = {a.label for a in ACTIONS.values() if a.shows(state)}
        for member in state.members:
            named = named_buttons(state, member.player)
            assert named <= showing, (state.mode, member.player, named - showing)
            seen += bool(named)
    assert seen > 100  # the scenarios reach many moments


def test_a_scorekeeper_shooter_is_not_told_to_roll() -> None:
    """The board has no Roll, Type a move or Hold in scorekeeper mode (a real board's dice),
    so help names none, to the Box, the Captain or anyone."""
    state = TableState()
    for command in (Open(mode="scorekeeper"), Join(by="1"), Join(by="2"), Join(by="3"),
                    Seat(order=["1", "2", "3"]), Start()):
        state = replay(decide(state, command), state)
    assert state.game is not None and not ACTIONS["roll"].shows(state)
    for player in ("1", "2", "3"):
        assert named_buttons(state, player) == {"Double"}
    played = [s for s in scenario_states() if s.mode == "scorekeeper" and s.game is not None]
    assert played and not any({"Roll", "Type a move", "Hold the roll"} & named_buttons(s, m.player)
                               for s in played for m in s.members)


def test_a_host_who_does_not_play_is_told_to_start_and_a_short_table_how_many_it_lacks() -> None:
    """The rules let the host start a game though he sits out (`runs_table`), and count
    the seats for the players a game lacks (`players_missing`): help says what they say."""
    state = replay(decide(TableState(), Open(mode="scorekeeper", by="host")), TableState())
    for command in (Join(by="1"), Join(by="2"), Join(by="3"), Seat(order=["1", "2", "3"])):
        state = replay(decide(state, command), state)
    assert state.member("host") is None and state.host == "host"
    assert named_buttons(state, "host") == {"Start game", "Join"}
    assert named_buttons(state, "kibitzer") == {"Join"}  # neither playing nor the host
    atlanta_five = replay(decide(TableState(), Open(mode="scorekeeper", by="host",
                                                    options={"min_players": 5})), TableState())
    for command in (Join(by="1"), Join(by="2"), Join(by="3"), Seat(order=["1", "2", "3"])):
        atlanta_five = replay(decide(atlanta_five, command), atlanta_five)
    (start,) = [line for line in doings(atlanta_five, "1") if "Start game" in line]
    assert "once 2 more players have joined" in start
