"""/chouette stats through a simulated Discord: a scorekeeper session played with the slash
commands, then the record of the caller, of another player, of one who never played, and
a table of another server left out."""

from typing import Any

from tests.discord.conftest import ScriptedDice
from tests.discord.test_lobby import agree_result, open_table


async def session(env: Any, dice: ScriptedDice) -> tuple[Any, list[Any], Any]:
    """ann (Box), bo (Captain) and cy play one scorekeeper game; the Team wins; the end."""
    guild, members, board = await open_table(env, "ann", "bo", "cy", mode="scorekeeper")
    ann = members[0]
    dice.queue = [6, 5, 4, 4, 2, 1]  # seats: ann 11 is the Box, bo 8 the Captain, cy 3
    await ann.slash(board, "chouette start")
    await agree_result(members, board, winner="team")
    await ann.slash(board, "chouette end")
    return guild, members, board


def answer(result: Any) -> Any:
    """The message a deferred command answered with (the response or its last followup)."""
    return [result.response, *result.followups][-1]


def fields(embed: Any) -> dict[str, str]:
    return {f.name: f.value for f in embed.fields}


async def test_stats_of_the_caller_and_of_another_player(simcord_env: Any,
                                                         dice: ScriptedDice) -> None:
    guild, (ann, bo, _), board = await session(simcord_env, dice)
    mine = await bo.slash(board, "chouette stats")
    assert mine.ephemeral
    embed = answer(mine).embeds[0]
    assert embed.title == "bo: chouette statistics"
    shown = fields(embed)
    assert (shown["Sessions"], shown["Games"], shown["Captain"], shown["Boxes held"]) == (
        "1", "1", "1", "0")
    assert (shown["Games won / lost"], shown["Points"]) == ("1 / 0", "+1")
    lobby = next(c for c in guild.channels.values() if c.name == "lobby")
    theirs = await bo.slash(lobby, "chouette stats", player=ann)
    shown = fields(answer(theirs).embeds[0])
    assert (shown["Boxes held"], shown["Games won / lost"], shown["Points"]) == (
        "1", "0 / 1", "-2")


async def test_a_player_who_never_played_and_another_servers_tables(
        simcord_env: Any, dice: ScriptedDice) -> None:
    guild, (ann, _, _), board = await session(simcord_env, dice)
    di = guild.add_member(simcord_env.create_user("di"))
    nobody = await ann.slash(board, "chouette stats", player=di)
    assert "di has not played a chouette on this server yet" in answer(nobody).content
    other = simcord_env.create_guild()
    there = other.add_member(ann.user)
    elsewhere = await there.slash(other.create_text_channel("lobby"), "chouette stats")
    assert "ann has not played a chouette on this server yet" in answer(elsewhere).content
