"""/chouette analysis on the simulated Discord: never for the game in play (the rule's own
words), and one line on how to turn it on when the analysis extra is not installed."""

from dataclasses import replace
from typing import Any

import pytest

from bot.analysis import worker
from bot.analysis.worker import HOW_TO_ENABLE
from tests.discord.conftest import ScriptedDice
from tests.discord.test_play import started


async def test_the_game_in_play_is_never_analysed_for_anyone(simcord_env: Any,
                                                              dice: ScriptedDice) -> None:
    _, (ann, _, cy), board = await started(simcord_env, dice)
    refused = await cy.slash(board, "chouette analysis", game=1)
    assert refused.ephemeral
    assert refused.response.content.strip() == (
        "Game 1 is still being played: its analysis is shown once it is over, never during "
        "play (no game is over yet; leave out the game for the session's games over so far).")
    session = await ann.slash(board, "chouette analysis")
    assert session.ephemeral and "No game of this session has been analysed yet" in (
        session.response.content)


async def test_with_the_analysis_turned_off_it_says_so(
        simcord_env: Any, dice: ScriptedDice) -> None:
    _, (_, bo, _), board = await started(simcord_env, dice)
    bot = simcord_env.bot
    bot.settings = replace(bot.settings, analysis=False)  # CHOUETTE_ANALYSIS=off
    answer = await bo.slash(board, "chouette analysis")
    assert answer.ephemeral and answer.response.content.strip() == (
        "GNU Backgammon's analysis is off on this bot")
    stats = await bo.slash(board, "chouette stats")
    assert "analysis is off" in str(stats.response.embeds[0].to_dict())


async def test_without_the_extra_it_says_how_to_turn_it_on(
        simcord_env: Any, dice: ScriptedDice, monkeypatch: pytest.MonkeyPatch) -> None:
    _, (_, bo, _), board = await started(simcord_env, dice)
    monkeypatch.setattr(worker, "available", lambda: False)
    answer = await bo.slash(board, "chouette analysis")
    assert answer.ephemeral and answer.response.content.strip() == HOW_TO_ENABLE
