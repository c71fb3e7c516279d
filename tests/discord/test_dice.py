"""Verifiable dice on Discord: the commitment with the opening roll, the seed when the game
ends, and /chouette verify recomputing every roll."""

from typing import Any

import pytest

from bot.app.dice import Dice, commitment
from tests.discord.test_lobby import board_message, open_table


class SeatDice(Dice):
    """Seats from a queue (ann Box, bo Captain); the game's dice from a real seed, fixed so
    that the test is the same every time."""

    def __init__(self) -> None:
        self.queue = [6, 5, 4, 4, 2, 1]
        super().__init__(lambda: self.queue.pop(0))

    def new_seed(self) -> bytes:
        return bytes(range(32))


@pytest.fixture
def dice() -> SeatDice:
    return SeatDice()


async def test_the_seed_is_committed_at_the_start_revealed_at_the_end_and_verifies(
        simcord_env: Any) -> None:
    _, (ann, bo, cy), board = await open_table(simcord_env, "ann", "bo", "cy")
    await ann.click(board_message(board), label="Start game")
    store = simcord_env.bot.store
    channels = await store.channels.find(channel_id=board.id)
    seed = await store.events.game_seed(channels.table_id, 1)
    assert seed is not None
    log = "\n".join(m.content for m in board.history())
    assert f"whose SHA-256 is `{commitment(seed)}`" in log
    assert seed.hex() not in log
    early = await bo.slash(board, "chouette verify", game=1)
    assert "still being played" in early.response.content
    assert seed.hex() not in early.response.content
    await ann.slash(board, "chouette resign")  # the Box resigns; bo and cy accept by DM
    for member in (bo, cy):
        await member.user.click(member.user.dm_channel.last_message, label="Accept")
    log = "\n".join(m.content for m in board.history())
    assert f"Game 1's dice seed was `{seed.hex()}`" in log
    checked = await cy.slash(board, "chouette verify", game=1)
    assert checked.ephemeral
    assert "Game 1: OK: the seed hashes to the commitment" in checked.response.content
    assert f"--seed {seed.hex()} --commitment {commitment(seed)}" in checked.response.content
    missing = await cy.slash(board, "chouette verify", game=2)
    assert "Game 2 has no committed dice" in missing.response.content
