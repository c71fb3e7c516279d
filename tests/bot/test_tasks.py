"""Background tasks: a failure is logged when it happens, a cancellation is not."""

import asyncio
import logging
from functools import partial

import pytest

from bot.app.tasks import Timer, Timers, spawn


async def test_a_failing_task_is_logged_with_its_name_and_traceback(
        caplog: pytest.LogCaptureFixture) -> None:
    async def timer() -> None:
        await asyncio.sleep(0)
        raise KeyError("table 7")

    task = spawn(timer(), "timer t7/ann")
    with caplog.at_level(logging.ERROR, logger="bot.app.tasks"):
        await asyncio.wait([task])
        await asyncio.sleep(0)  # the done-callback runs on the next turn of the loop
    (record,) = caplog.records
    assert record.getMessage() == "background task 'timer t7/ann' failed"
    assert record.exc_info is not None and isinstance(record.exc_info[1], KeyError)
    assert "table 7" in caplog.text and "Traceback" in caplog.text


async def test_a_cancelled_or_finished_task_logs_nothing(
        caplog: pytest.LogCaptureFixture) -> None:
    async def wait() -> int:
        await asyncio.sleep(10)
        return 1

    async def done() -> int:
        return 2

    cancelled, finished = spawn(wait(), "wait"), spawn(done(), "done")
    with caplog.at_level(logging.DEBUG, logger="bot.app.tasks"):
        await asyncio.sleep(0)
        cancelled.cancel()
        await asyncio.wait([cancelled, finished])
        await asyncio.sleep(0)
    assert not caplog.records
    assert finished.result() == 2 and cancelled.get_name() == "wait"


async def test_a_timer_replaces_the_one_of_its_key_and_is_gone_once_it_ran() -> None:
    """And a table's timers are the ones waiting for it, in the order they were set."""
    timers, ran = Timers(), []

    async def job(name: str) -> None:
        ran.append(name)

    key = Timer("decision", "t7", "ann")
    timers.after(0.01, key, partial(job, "first"))
    timers.after(0.02, key, partial(job, "second"))  # in place of the first
    timers.after(0.01, Timer("decision", "t7", "bo"), partial(job, "bo's"))
    timers.after(0.01, Timer("autoroll", "t7"), partial(job, "cancelled"))
    timers.cancel(Timer("autoroll", "t7"))
    assert key in timers
    assert timers.keys("t7") == [key, Timer("decision", "t7", "bo")] and not timers.keys("t8")
    await asyncio.sleep(0.1)
    assert sorted(ran) == ["bo's", "second"] and key not in timers
    assert timers.keys("t7") == []
