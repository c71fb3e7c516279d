"""/chouette record attaches the .mat of a game or the session; /chouette position gives the
Position ID before any turn, with who was on roll and the dice."""

from typing import Any

from tests.discord.conftest import ScriptedDice
from tests.discord.test_lobby import board_message, open_table
from tests.discord.test_play import play, started


async def test_record_attaches_the_session_as_a_mat_file(simcord_env: Any,
                                                         dice: ScriptedDice) -> None:
    _, (ann, bo, cy), board = await started(simcord_env, dice)
    await play(ann, board, "8/5 6/5")
    dice.queue = [6, 4]
    await bo.click(board_message(board), label="Roll")
    await play(bo, board, "24/18 13/9")
    result = await cy.slash(board, "chouette record")
    assert result.ephemeral and "GNU Backgammon" in result.response.content
    (attachment,) = result.response.attachments
    assert attachment.filename == "chouette-session.mat"
    text = (await attachment.read()).decode()
    assert text.endswith(" 0 point match\n\n Game 1\n"
                         " ann (Box) : 0                  bo (Team) : 0\n"
                         "  1) 31: 8/5 6/5                 64: 24/18 13/9\n\n")
    one = await cy.slash(board, "chouette record", game=1)
    assert one.response.attachments[0].filename == "chouette-game-1.mat"
    assert (await one.response.attachments[0].read()).decode() == text


async def test_position_names_the_turn_the_dice_and_the_position_id(
        simcord_env: Any, dice: ScriptedDice) -> None:
    _, (ann, bo, _), board = await started(simcord_env, dice)
    await play(ann, board, "8/5 6/5")
    first = await bo.slash(board, "chouette position", game=1, turn=1)
    assert first.ephemeral
    assert first.response.content.strip() == (
        "Game 1, turn 1: ann (Box) on roll with 3-1. Position ID `4HPwATDgc/ABMA`; "
        "played 8/5 6/5.")
    now = await bo.slash(board, "chouette position", game=1, turn=2)
    assert now.response.content.strip() == (
        "Game 1, turn 2: bo (Team) to roll. Position ID `sGfwATDgc/ABMA` (from bo (Team)'s "
        "side).")


async def test_refusals_say_why(simcord_env: Any, dice: ScriptedDice) -> None:
    guild, (ann, bo, _), board = await open_table(simcord_env, "ann", "bo", "cy")
    early = await bo.slash(board, "chouette record")
    assert early.ephemeral and not early.response.attachments
    assert early.response.content.strip() == ("No game has been played on the board at this "
                                              "table yet.")
    dice.queue = [6, 5, 4, 4, 2, 1, 3, 1]  # as test_play.started: ann Box, opening 3-1
    await ann.click(board_message(board), label="Start game")
    missing = await bo.slash(board, "chouette record", game=2)
    assert "There is no game 2 on the board at this table (games: 1)." in missing.response.content
    late = await bo.slash(board, "chouette position", game=1, turn=3)
    assert late.ephemeral and "Game 1 has turns 1 to 1, not 3." in late.response.content
    lobby = next(c for c in guild.channels.values() if c.name == "lobby")
    elsewhere = await bo.slash(lobby, "chouette position", game=1, turn=1)
    assert "This isn't a chouette table's channel" in elsewhere.response.content
