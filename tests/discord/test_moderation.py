"""Moderators blind a kibitzer (he loses sight of the table's channels) and unblind him;
anyone else is told who may."""

import dataclasses
from typing import Any

import discord

from tests.discord.conftest import ScriptedDice
from tests.discord.test_lobby import agree_result, board_message, open_table, table_state
from tests.discord.test_play import play, started


async def test_a_moderator_blinds_and_unblinds_a_kibitzer(simcord_env: Any) -> None:
    guild, (_, bo, _), board = await open_table(simcord_env, "ann", "bo", "cy")
    mods = guild.create_role("Chouette Moderator")
    mod = guild.add_member(simcord_env.create_user("mod"), roles=[mods])
    kib = guild.add_member(simcord_env.create_user("kib"))
    live = simcord_env.bot.get_guild(guild.id)
    kibitz = discord.utils.get(live.text_channels, name="kibitz")
    assert kibitz is not None and kibitz.permissions_for(live.get_member(kib.id)).view_channel
    refused = await bo.slash(board, "chouette mod blind", member=kib)
    assert refused.ephemeral and "Only a moderator" in refused.response.content
    done = await mod.slash(board, "chouette mod blind", member=kib)
    assert done.ephemeral
    for name in ("board", "kibitz", "team", "box"):
        channel = discord.utils.get(live.text_channels, name=name)
        assert channel is not None
        assert not channel.permissions_for(live.get_member(kib.id)).view_channel, name
    await mod.slash(board, "chouette mod unblind", member=kib)
    assert kibitz.permissions_for(live.get_member(kib.id)).view_channel


async def test_the_sheet_is_an_image_and_rules_are_words(simcord_env: Any) -> None:
    _, (ann, _, _), board = await open_table(simcord_env, "ann", "bo", "cy")
    sheet = await ann.slash(board, "chouette sheet")
    shown = [sheet.response, *sheet.followups]
    files = [a for m in shown if m is not None for a in m.attachments]
    assert [f.filename for f in files] == ["sheet.png"]
    rules = await ann.slash(board, "chouette rules")
    assert rules.ephemeral and "atlanta" in rules.response.content
    assert "Jacoby" in rules.response.content + "".join(f.content for f in rules.followups)


async def test_each_game_and_the_end_post_the_sheet_with_who_pays_whom(simcord_env: Any) -> None:
    _, members, board = await open_table(simcord_env, "ann", "bo", "cy", mode="scorekeeper")
    ann = members[0]
    await ann.click(board_message(board), label="Start game")
    await agree_result(members, board, winner="team")
    posted = [m for m in board.history() if m.attachments
              and m.attachments[0].filename == "sheet.png"]
    assert posted and "Score after game 1" in posted[-1].content
    channels = await simcord_env.bot.store.channels.find(channel_id=board.id)
    assert set(channels.all) & set(simcord_env.bot.presenter.overwrites)  # kept while open
    await ann.slash(board, "chouette end")
    final = [m for m in board.history() if m.content.startswith("**Final score**")]
    assert final and final[-1].attachments[0].filename == "sheet.png"
    assert not set(channels.all) & set(simcord_env.bot.presenter.overwrites)  # archived: gone


async def test_a_moderator_reports_a_disconnection_and_fibs_takes_the_place(
        simcord_env: Any) -> None:
    guild, members, board = await open_table(
        simcord_env, "ann", "bo", "cy", "di", preset="fibs", mode="scorekeeper")
    ann, _, cy, _ = members
    mod = guild.add_member(simcord_env.create_user("mod"),
                           roles=[guild.create_role("Chouette Moderator")])
    refused = await ann.slash(board, "chouette mod disconnected", player=cy)
    assert refused.ephemeral and "Only moderators" in refused.response.content
    await mod.slash(board, "chouette mod disconnected", player=cy)
    assert "cy is disconnected" in board_message(board).content
    await ann.click(board_message(board), label="Start game")
    state = await table_state(simcord_env, board)
    assert state.seating is not None and str(cy.id) not in state.seating.players
    await cy.slash(board, "chouette back")
    await agree_result(members, board, winner="box")
    state = await table_state(simcord_env, board)
    assert state.seating is not None and state.seating.team[-1] == str(cy.id)


async def test_fibs_a_disconnected_captain_has_his_game_held_over_when_his_time_is_up(
        simcord_env: Any, dice: ScriptedDice) -> None:
    guild, (ann, bo, _), board = await started(simcord_env, dice, preset="fibs")
    mod = guild.add_member(simcord_env.create_user("mod"),
                           roles=[guild.create_role("Chouette Moderator")])
    await play(ann, board, "8/5 6/5")
    await mod.slash(board, "chouette mod disconnected", player=bo)
    assert "bo is disconnected" in board_message(board).content
    await simcord_env.advance_time(121)  # FIBS: two minutes, then the game is put on hold
    assert "the game is put on hold" in board_message(board).content
    state = await table_state(simcord_env, board)
    assert state.game is None and [g.number for g, _ in state.held] == [1]


async def test_with_a_moderator_role_id_the_role_is_that_one_whatever_its_name(
        simcord_env: Any) -> None:
    guild, _members, board = await open_table(simcord_env, "ann", "bo", "cy")
    club = guild.create_role("Club staff")
    named = guild.create_role("Chouette Moderator")  # the default name, not the role set
    bot = simcord_env.bot
    bot.settings = dataclasses.replace(bot.settings, moderator_role_id=club.id)
    staff = guild.add_member(simcord_env.create_user("staff"), roles=[club])
    pretender = guild.add_member(simcord_env.create_user("pretender"), roles=[named])
    kib = guild.add_member(simcord_env.create_user("kib"))
    refused = await pretender.slash(board, "chouette mod blind", member=kib)
    assert refused.ephemeral and "Only a moderator" in refused.response.content
    done = await staff.slash(board, "chouette mod blind", member=kib)
    assert done.ephemeral and "Only a moderator" not in done.response.content
    live = bot.get_guild(guild.id)
    kibitz = discord.utils.get(live.text_channels, name="kibitz")
    assert kibitz is not None
    assert not kibitz.permissions_for(live.get_member(kib.id)).view_channel
