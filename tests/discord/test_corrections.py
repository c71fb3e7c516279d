"""Corrections on Discord: a moderator proposes, the players concerned agree with the board's
buttons, the sheet shows the new line, and /chouette mod history tells the whole story."""

from typing import Any

from tests.discord.conftest import ScriptedDice
from tests.discord.test_lobby import agree_result, board_message, open_table, table_state
from tests.discord.test_play import play, started


def moderator(env: Any, guild: Any) -> Any:
    role = guild.create_role("Chouette Moderator")
    return guild.add_member(env.create_user("mod"), roles=[role])


async def test_a_score_correction_is_made_when_both_players_agree(simcord_env: Any) -> None:
    guild, (ann, bo, cy), board = await open_table(simcord_env, "ann", "bo", "cy",
                                                   mode="scorekeeper")
    mod = moderator(simcord_env, guild)
    await ann.click(board_message(board), label="Start game")
    await agree_result((ann, bo, cy), board, winner="box")
    refused = await bo.slash(board, "chouette mod correct", payer=ann, payee=bo, points="2",
                             reason="mine")
    assert refused.ephemeral and "Only a moderator" in refused.response.content
    half = await mod.slash(board, "chouette mod correct", payer=ann, payee=bo, points="1.5",
                           reason="bo's drop was entered for ann")
    assert half.ephemeral and "whole" in half.response.content  # Atlanta's sheet: whole points
    await mod.slash(board, "chouette mod correct", payer=ann, payee=bo, points="2",
                    reason="bo's drop was entered for ann")
    message = board_message(board)
    assert "proposes correction 1: ann pays bo 2" in message.content
    assert "It is made once ann, bo agree." in message.content
    stranger = await cy.click(message, label="Agree to correction 1")
    assert stranger.ephemeral and "waits for ann, bo" in stranger.response.content
    await bo.click(board_message(board), label="Agree to correction 1")
    await ann.click(board_message(board), label="Agree to correction 1")
    assert "Correction 1 is made." in board_message(board).content
    sheet = board.last_message  # the sheet, posted again, named for the correction
    assert sheet.content.startswith("**Score after correction 1**") and "ann: " in sheet.content
    assert not any("correction" in (c.label or "") for row in board_message(board).components
                   for c in row.children)
    state = await table_state(simcord_env, board)
    totals = state.sheet.totals()
    assert totals[str(bo.id)] - totals[str(ann.id)] == 4  # 2 each way from equal results
    told = await ann.slash(board, "chouette mod history")
    assert told.ephemeral
    assert "Correction 1 (score), proposed by <@" in told.response.content
    assert "Reason: bo's drop was entered for ann" in told.response.content
    assert "Status: made on <t:" in told.response.content
    log = told.response.attachments[0]
    assert log.filename == "history.txt"
    text = (await log.read()).decode()
    assert "Correction 1 (score)" in text and "UTC" in text
    assert "Every event:" in text
    assert "#1  A table is open under the atlanta rules (scorekeeper mode)." in text


async def test_an_undo_takes_back_the_boxs_play_once_the_captain_agrees(
        simcord_env: Any, dice: ScriptedDice) -> None:
    guild, (ann, bo, _), board = await started(simcord_env, dice)
    mod = moderator(simcord_env, guild)
    await play(ann, board, "24/23 24/21")
    assert "Waiting for bo to roll" in board_message(board).content
    await mod.slash(board, "chouette mod undo", reason="ann misclicked")
    assert "It is made once bo agrees." in board_message(board).content
    await bo.click(board_message(board), label="Agree to correction 1")
    assert "Waiting for ann to play 3-1" in board_message(board).content
    await play(ann, board, "8/5 6/5")
    told = await ann.slash(board, "chouette mod history")
    assert "Correction 1 (undo)" in told.response.content
    assert "take back the last checker play" in told.response.content
