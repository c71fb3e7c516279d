"""The club's pages on Discord (issue 37): where the pages have a public address
(CHOUETTE_WEB_URL), the final sheet, the `/chouette record` answer and GNU Backgammon's verdict
after a game carry a link button to the session's page (the verdict: to the game's replay),
the link `bot.web.links` makes; without one, no button. `/chouette mod standings`: a
moderator turns the server's standings page on (and gets its link) or off; anyone else is
refused, and may ask for the link. A bind that fails leaves the bot running, and says so."""

import asyncio
import logging
from dataclasses import replace
from typing import Any

import discord
import pytest

from bot.config import Settings
from bot.web.links import Links
from tests.discord.conftest import ScriptedDice
from tests.discord.test_lobby import agree_result, open_table, table_id
from tests.discord.test_play import play, started

URL = "https://club.example"


@pytest.fixture
def web_url() -> str:
    return URL


@pytest.fixture
def web_bind() -> str:
    return "off"


@pytest.fixture
def settings(settings: Settings, web_url: str, web_bind: str) -> Settings:
    """The SimCord bot's settings with the pages' public address `web_url` and their
    address `web_bind` (a test's parameters; by default `URL`, and not served), games
    analysed at 0 ply (quick)."""
    return replace(settings, web_url=web_url, web_bind=web_bind, analysis_plies=0)


def links(message: Any) -> list[tuple[str, str]]:
    """The link buttons of a message (in #board, or a command's answer): (label, url)."""
    rows = [row if isinstance(row, dict) else row.to_dict() for row in message.components]
    return [(item["label"], item["url"]) for row in rows for item in row["components"]
            if item["type"] == discord.ComponentType.button.value
            and item["style"] == discord.ButtonStyle.link.value]


async def session_url(env: Any, board: Any) -> str:
    """The session page's address: the public address and the path `bot.web.links` makes."""
    return URL + await Links(env.bot.store).session(await table_id(env, board))


async def game_over(env: Any, dice: ScriptedDice) -> tuple[list[Any], Any]:
    """ann (Box), bo (Captain) and cy play a few checkers; the Box resigns, the Team
    accepts: game 1 is over. The analysis has posted its verdict in #board."""
    _, (ann, bo, cy), board = await started(env, dice)
    await play(ann, board, "8/5 6/5")
    dice.queue = [6, 4]
    await bo.click(next(iter(board.history())), label="Roll")
    await play(bo, board, "24/18 13/9")
    await ann.slash(board, "chouette resign")
    for member in (bo, cy):
        await member.user.click(member.user.dm_channel.last_message, label="Accept")
    await verdict(env, board, "**GNU Backgammon on game 1**")
    return [ann, bo, cy], board


async def verdict(env: Any, board: Any, head: str) -> Any:
    """The message in #board that begins with `head`, once the analysis is done with what
    it has (its queue idle: gnubg works in a process of its own)."""
    await asyncio.wait_for(env.bot.get_cog("Analysis").queue.idle.wait(), 120)
    found = [m for m in board.history() if m.content.startswith(head)]
    assert found, f"no {head} in #board"
    return found[-1]


async def test_the_final_sheet_the_record_and_the_verdict_link_to_the_sessions_page(
        simcord_env: Any, dice: ScriptedDice) -> None:
    (ann, _, cy), board = await game_over(simcord_env, dice)
    page = await session_url(simcord_env, board)
    analysed = await verdict(simcord_env, board, "**GNU Backgammon on game 1**")
    assert links(analysed) == [("Replay of game 1", f"{page}/game/1")]
    record = await cy.slash(board, "chouette record")
    assert record.ephemeral and record.response.attachments
    assert links(record.response) == [("Session page", page)]
    sheets = [m for m in board.history() if m.content.startswith("**Score after game 1**")]
    assert sheets and links(sheets[-1]) == []  # only the final sheet carries it
    await ann.slash(board, "chouette end")
    final = [m for m in board.history() if m.content.startswith("**Final score**")]
    assert final and final[-1].attachments and links(final[-1]) == [("Session page", page)]
    figures = await verdict(simcord_env, board, "**GNU Backgammon over the session**")
    assert links(figures) == [("Session page", page)]  # the session's figures: its page


@pytest.mark.parametrize("web_url", [""], ids=["no address"])
async def test_without_a_public_address_there_is_no_link(simcord_env: Any,
                                                         dice: ScriptedDice) -> None:
    (ann, _, cy), board = await game_over(simcord_env, dice)
    analysed = await verdict(simcord_env, board, "**GNU Backgammon on game 1**")
    assert analysed.components == []
    record = await cy.slash(board, "chouette record")
    assert record.response.attachments and record.response.components == []
    await ann.slash(board, "chouette end")
    final = [m for m in board.history() if m.content.startswith("**Final score**")]
    assert final and final[-1].attachments and final[-1].components == []
    figures = await verdict(simcord_env, board, "**GNU Backgammon over the session**")
    assert figures.components == []


async def test_a_scorekeeper_sessions_final_sheet_links_to_its_page(
        simcord_env: Any) -> None:
    _, members, board = await open_table(simcord_env, "ann", "bo", "cy", mode="scorekeeper")
    await members[0].slash(board, "chouette start")
    await agree_result(members, board, winner="team")
    await members[1].slash(board, "chouette end")
    (final,) = [m for m in board.history() if m.content.startswith("**Final score**")]
    assert links(final) == [("Session page", await session_url(simcord_env, board))]


def moderator_and_player(env: Any) -> tuple[Any, Any, Any, Any]:
    """A server with a #lobby, a moderator (the moderator role) and a player."""
    guild = env.create_guild()
    lobby = guild.create_text_channel("lobby")
    mods = guild.create_role("Chouette Moderator")
    mod = guild.add_member(env.create_user("mod"), roles=[mods])
    return guild, lobby, mod, guild.add_member(env.create_user("ann"))


async def test_a_moderator_turns_the_standings_page_on_and_off(simcord_env: Any) -> None:
    guild, lobby, mod, ann = moderator_and_player(simcord_env)
    club = Links(simcord_env.bot.store)
    asked = await ann.slash(lobby, "chouette mod standings")
    assert asked.ephemeral and "standings page is off" in asked.response.content
    refused = await ann.slash(lobby, "chouette mod standings", turn="on")
    assert refused.ephemeral and refused.response.content.strip() == (
        "Only a moderator can turn the server's standings page on or off.")
    assert await club.club(guild.id) is None
    on = await mod.slash(lobby, "chouette mod standings", turn="on")
    path = await club.club(guild.id)
    assert path is not None and path.startswith("/club/")
    assert on.ephemeral and on.response.content.strip() == (
        f"The server's standings page is on: {URL}{path}")
    seen = await ann.slash(lobby, "chouette mod standings")  # anyone may ask for the link
    assert f"{URL}{path}" in seen.response.content
    kept = await ann.slash(lobby, "chouette mod standings", turn="off")
    assert "Only a moderator" in kept.response.content and await club.club(guild.id) == path
    off = await mod.slash(lobby, "chouette mod standings", turn="off")
    assert off.ephemeral and "now off" in off.response.content
    assert await club.club(guild.id) is None
    again = await mod.slash(lobby, "chouette mod standings", turn="on")
    new = await club.club(guild.id)
    assert new not in (None, path) and f"{URL}{new}" in again.response.content


@pytest.mark.parametrize("web_url", [""], ids=["no address"])
async def test_without_a_public_address_the_standings_answer_gives_the_path(
        simcord_env: Any) -> None:
    guild, lobby, mod, _ = moderator_and_player(simcord_env)
    on = await mod.slash(lobby, "chouette mod standings", turn="on")
    path = await Links(simcord_env.bot.store).club(guild.id)
    assert path is not None and path in on.response.content
    assert "CHOUETTE_WEB_URL" in on.response.content and "https://" not in on.response.content


@pytest.mark.parametrize("web_bind", ["192.0.2.1:8080"])  # (TEST-NET-1: no machine's own)
async def test_an_address_that_cant_be_had_leaves_the_bot_running_without_pages(
        simcord_env: Any, caplog: pytest.LogCaptureFixture) -> None:
    (line,) = [r for r in caplog.get_records("setup") if r.name == "bot.discord.startup"]
    assert line.levelno == logging.WARNING
    assert line.getMessage().startswith(
        "the club's pages are not served: can't listen at 192.0.2.1:8080 (")
    assert simcord_env.bot.pages is None
    _, (ann, _), board = await open_table(simcord_env, "ann", "bo")  # the bot runs on
    assert (await ann.slash(board, "chouette help")).ephemeral
