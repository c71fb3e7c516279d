"""Autocomplete: `/chouette move play:` offers the legal plays of the roll on the board, in
the notation the bot takes; a `game:` option offers the table's games."""

from typing import Any

from bot.app.flow import play_options
from tests.discord.conftest import ScriptedDice
from tests.discord.test_lobby import board_message, table_state
from tests.discord.test_play import started


async def test_move_suggests_the_rolls_legal_plays_as_typed(simcord_env: Any,
                                                             dice: ScriptedDice) -> None:
    _, (ann, _, _), board = await started(simcord_env, dice)  # the Box (ann) opens 3-1
    game = (await table_state(simcord_env, board)).game
    assert game is not None and game.position is not None and game.dice is not None
    legal = play_options(game.position, game.dice)
    offered = await ann.autocomplete(board, "chouette move", "play", "")
    assert [c["value"] for c in offered] == list(legal)[:25]
    offered = await ann.autocomplete(board, "chouette move", "play", " 8/5")
    assert [c["value"] for c in offered] == [p for p in legal if "8/5" in p]
    assert "8/5 6/5" in [c["name"] for c in offered]
    await ann.slash(board, "chouette move", play="8/5 6/5")  # the suggestion is taken
    assert "Waiting for bo to roll" in board_message(board).content
    assert await ann.autocomplete(board, "chouette move", "play", "") == []  # no dice now


async def test_game_options_suggest_the_tables_games(simcord_env: Any,
                                                     dice: ScriptedDice) -> None:
    guild, (ann, _, _), board = await started(simcord_env, dice)
    for command in ("chouette record", "chouette position", "chouette verify"):
        assert await ann.autocomplete(board, command, "game", "") == [
            {"name": "Game 1", "value": 1}]
        assert await ann.autocomplete(board, command, "game", "2") == []
    lobby = guild.create_text_channel("elsewhere")
    assert await ann.autocomplete(lobby, "chouette record", "game", "") == []
