"""SimCord fixtures: the real bot in a simulated Discord, with dice the test chooses."""

from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest

from bot.app.dice import Dice
from bot.config import Settings
from bot.discord.client import ChouetteBot, build_bot


class ScriptedDice(Dice):
    """Dice that throw the faces a test queues, then 1-2-3-4-5-6 over and over."""

    def __init__(self) -> None:
        self.queue: list[int] = []
        self._cycle: Iterator[int] = iter(())
        super().__init__(self._next)

    def faces(self, seed: bytes, start: int, number: int) -> list[int]:
        return [self._next() for _ in range(number)]

    def _next(self) -> int:
        if self.queue:
            return self.queue.pop(0)
        face = next(self._cycle, None)
        if face is None:
            self._cycle = iter(range(1, 7))
            face = next(self._cycle)
        return face


@pytest.fixture
def dice() -> ScriptedDice:
    return ScriptedDice()


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    # No autoroll: SimCord runs sleeps at once, and the bot would play the game by itself.
    # Images drawn in a thread: the drawing process is the black-box tests' (tests/e2e) and
    # tests/bot/test_drawing.py's. No club's pages served: tests in parallel would all want
    # the one address (tests/e2e/test_web.py serves them).
    return Settings(discord_token="test", database=tmp_path / "chouette.sqlite3",
                    autoroll=False, draw_processes=0, web_bind="off")


@pytest.fixture
async def make_bot(settings: Settings,
                   dice: ScriptedDice) -> AsyncIterator[Callable[[], ChouetteBot]]:
    """Builds bots on the test's database; their stores are closed when the test ends
    (SimCord does not close a bot, and an open connection's thread would outlive pytest)."""
    bots: list[ChouetteBot] = []

    def make() -> ChouetteBot:
        bots.append(build_bot(settings, dice=dice))
        return bots[-1]

    yield make
    for bot in bots:
        if hasattr(bot, "store"):
            await bot.store.close()


@pytest.fixture
def simcord_bot(make_bot: Callable[[], ChouetteBot]) -> ChouetteBot:
    return make_bot()
