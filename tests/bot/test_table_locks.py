"""`TableLocks` (bot/app/locks.py): turns per table, in order, and nothing kept once nobody
holds or awaits a table's lock (a bot up for months served thousands of tables)."""

from __future__ import annotations

import asyncio
import contextlib

from bot.app.locks import TableLocks


async def test_turns_per_table_are_taken_in_order_and_then_forgotten() -> None:
    locks, order = TableLocks(), []

    async def turn(table: str, n: int) -> None:
        async with locks(table):
            order.append((table, n, "in"))
            await asyncio.sleep(0.01)
            order.append((table, n, "out"))

    await asyncio.gather(turn("a", 1), turn("a", 2), turn("b", 1))
    assert [step for step in order if step[0] == "a"] == [
        ("a", 1, "in"), ("a", 1, "out"), ("a", 2, "in"), ("a", 2, "out")]
    assert order.index(("b", 1, "in")) < order.index(("a", 1, "out"))  # tables apart
    assert len(locks) == 0


async def test_a_waiter_cancelled_leaves_the_holder_its_turn_and_nothing_behind() -> None:
    locks = TableLocks()
    async with locks("a"):
        assert locks.locked("a") and not locks.locked("b")
        waiter = asyncio.ensure_future(locks("a").__aenter__())
        await asyncio.sleep(0)
        waiter.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await waiter
        assert len(locks) == 1  # the holder's
    assert len(locks) == 0 and not locks.locked("a")
    async with locks("a"):  # a new lock, free
        assert locks.locked("a")
