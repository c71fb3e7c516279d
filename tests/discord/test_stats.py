"""/chouette stats through a simulated Discord: a scorekeeper session played with the slash
commands, then the record of the caller, of another player, of one who never played, and
a table of another server left out; GNU Backgammon's error rates over a player's analysed
games (a real verdict, gnubg at 0 ply), mixed depths, none, the analysis off, in Danish;
the rates by session, oldest first, with the chart of the overall rate."""

import asyncio
import io
from pathlib import Path
from typing import Any

import discord
import pytest
from PIL import Image

from bot.analysis.queue import AnalysisStore
from bot.analysis.text import Analysed, Figures, figures, rating, totals
from bot.analysis.worker import analyse_game
from bot.records.stats import PlayerStats
from bot.store import Channels
from cogs.stats import SESSIONS, Session, sessions_embed, stats_embed
from rules.table_events import PlayerJoined
from tests.discord.conftest import ScriptedDice
from tests.discord.test_lobby import agree_result, open_table

CHOUETTE = (Path(__file__).parents[1] / "analysis" / "data" / "chouette.jsonl").read_text()


@pytest.fixture(scope="module")
def result() -> dict[str, Any]:
    return asyncio.run(analyse_game(CHOUETTE.splitlines(), 0))


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


async def test_the_error_rates_over_a_players_analysed_games(
        simcord_env: Any, dice: ScriptedDice, result: dict[str, Any]) -> None:
    _, (ann, bo, cy), board = await session(simcord_env, dice)
    store = simcord_env.bot.store
    channels = await store.channels.find(channel_id=board.id)
    keys = {"Ann": str(ann.id), "Bob": str(bo.id), "Cy": str(cy.id)}
    theirs = {"decisions": [{**d, "player": keys[d["player"]]} for d in result["decisions"]]}
    await AnalysisStore(store).save(channels.table_id, 1, 0, theirs)
    shown = fields(answer(await bo.slash(board, "chouette stats")).embeds[0])
    checker, cube = figures(result["decisions"], "Bob")
    assert (shown["Checker error rate"], shown["Cube error rate"]) == (
        checker.per_decision, cube.per_decision)  # as the post-game message writes them
    assert shown["Analysed decisions"] == f"checker {checker.decisions} · cube {cube.decisions}"
    assert shown["Analysed games"] == "1 at 0-ply"
    assert shown["Points"] == "+1"  # the record as before
    cy_shown = fields(answer(await bo.slash(board, "chouette stats", player=cy)).embeds[0])
    assert cy_shown["Checker error rate"] == "-"  # no checker play: a Team player's cubes


def test_the_error_rates_fields_mixed_none_off_and_in_danish() -> None:
    record = PlayerStats("1", "Ann", sessions=2, games=14)
    mixed = Analysed(Figures(300, 4, 1.5), Figures(20, 1, 0.05), {0: 3, 2: 9})
    shown = fields(stats_embed(record, mixed))
    assert (shown["Checker error rate"], shown["Cube error rate"]) == ("-5.0 mEMG", "-2.5 mEMG")
    assert shown["Analysed games"] == "12, mixed depths: 3 at 0-ply, 9 at 2-ply"
    assert "thousandths (mEMG)" in str(stats_embed(record, mixed).footer.text)
    assert fields(stats_embed(record, Analysed()))["Error rates"] == "-"
    assert fields(stats_embed(record, Analysed(), analysis_on=False))["Error rates"] == (
        "GNU Backgammon's analysis is off on this bot")
    danish = stats_embed(record, mixed, discord.Locale.danish)
    assert danish.title == "Ann: chouettestatistik"
    shown = fields(danish)
    assert (shown["Fejlrate i brikspil"], shown["Fejlrate i doblingsbeslutninger"]) == (
        "-5.0 mEMG", "-2.5 mEMG")
    assert shown["Analyserede spil"] == "12, blandede dybder: 3 på 0-ply, 9 på 2-ply"
    assert shown["Sessioner"] == "2"


def bare(f: Figures) -> str:
    return f.per_decision.removesuffix(" mEMG")


async def test_the_error_rates_by_session_with_a_chart(
        simcord_env: Any, dice: ScriptedDice, result: dict[str, Any]) -> None:
    guild, (ann, bo, cy), board = await session(simcord_env, dice)
    store = simcord_env.bot.store
    here = (await store.channels.find(channel_id=board.id)).table_id
    keys = {"Ann": str(ann.id), "Bob": str(bo.id), "Cy": str(cy.id)}
    theirs = {"decisions": [{**d, "player": keys[d["player"]]} for d in result["decisions"]]}
    rows = AnalysisStore(store)
    await rows.save(here, 1, 0, theirs)
    # an older session of this server, two games analysed (di: none of his)
    di = guild.add_member(simcord_env.create_user("di"))
    await store.channels.save(Channels("older", guild.id, 1, 2, 3, 4, 5))
    await store.events.append("older", 0, (PlayerJoined(str(bo.id)), PlayerJoined(str(di.id))),
                              None, None)
    await store.db.execute("UPDATE tables SET created = 1700000000 WHERE id = 'older'")
    for game in (1, 2):
        await rows.save("older", game, 0, theirs)
    message = answer(await bo.slash(board, "chouette stats"))
    record, by_session = message.embeds
    checker, cube = totals(theirs)[str(bo.id)]
    overall = checker + cube
    assert fields(record)["Overall error rate"] == (
        f"{overall.per_decision} ({rating(overall)})")  # over all his games: the same rate
    assert by_session.title == "bo: error rates by session"
    lines = by_session.description.splitlines()
    assert lines[1:] == [
        f"`1.` <t:1700000000:d> · 2 games · {bare(checker)} · {bare(cube)} · "
        f"**{bare(overall)}** ({rating(overall)})",
        f"`2.` <t:{lines[2].split('<t:')[1].split(':')[0]}:d> · 1 game · {bare(checker)} · "
        f"{bare(cube)} · **{bare(overall)}** ({rating(overall)})"]
    assert by_session.footer.text == (
        "The last 2 of 2 sessions with an analysed game, oldest first.")
    assert by_session.image.url == "attachment://rates.png"
    (chart,) = message.attachments
    assert chart.filename == "rates.png"
    assert Image.open(io.BytesIO(await chart.read())).size == (800, 480)
    cy_message = answer(await bo.slash(board, "chouette stats", player=cy))
    assert "`1.` <t:" in cy_message.embeds[1].description and " · - · " in (
        cy_message.embeds[1].description)  # no checker play: his cubes only
    nothing = answer(await di.slash(board, "chouette stats"))
    assert len(nothing.embeds) == 1 and not nothing.attachments  # no analysed game


def test_the_sessions_listed_are_the_last_ones() -> None:
    one = Session(1700000000, 3, Figures(40, 1, 0.4), Figures(4, 0, 0.01))
    many = [Session(1700000000 + n, 1, Figures(10, 0, 0.01 * n), Figures())
            for n in range(SESSIONS + 2)]
    embed = sessions_embed("Ann", many)
    lines = embed.description.splitlines()
    assert len(lines) == 1 + SESSIONS and lines[1].startswith("`1.` <t:1700000002:d>")
    assert embed.footer.text == (
        f"The last {SESSIONS} of {SESSIONS + 2} sessions with an analysed game, oldest first.")
    assert sessions_embed("Ann", [one]).description.splitlines()[1] == (
        "`1.` <t:1700000000:d> · 3 games · -10.0 · -2.5 · **-9.3** (Master)")
