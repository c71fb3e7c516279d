"""The inbox's serving side (bot/discord/inbox.py), on both backends, without Discord: what
another process posted for this process's tables is applied once and shown (the question's
message edited, the outcome shown) or refused by DM; other shards' commands are left."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.app.effects import Outcome
from bot.app.service import TableService
from bot.config import Settings
from bot.discord.inbox import TRIES, Inbox
from bot.discord.presenter import Presenter
from bot.store import Channels, ConcurrentWrite, EventStore, StoreError
from bot.store.codec import command_dumps
from bot.words.i18n import translate
from rules.commands import Join, Open

ON_1, ON_0 = (3 << 22) + 7, (4 << 22) + 7  # servers on shards 1 and 0 of 2
FAILED = ("Your answer could not be applied: something went wrong on the bot's side. If the "
          "table does not show it, answer again (here or on the board), or tell a moderator.")


class Told:
    """A user, a DM channel or a message: records what it was sent or edited to."""

    def __init__(self, log: list[Any]) -> None:
        self.log = log

    async def send(self, text: str) -> None:
        self.log.append(("dm", text))

    async def edit(self, **kw: Any) -> None:
        self.log.append(("edit", kw))

    def get_partial_message(self, message_id: int) -> Told:
        self.log.append(("message", message_id))
        return self


class Host:
    def __init__(self, store: EventStore) -> None:
        self.settings = Settings(shard_count=2, shard_ids=(1,))
        self.store = store
        self.service = TableService(store, outbox=True)
        self.log: list[Any] = []
        self.presenter = Presenter(self)  # type: ignore[arg-type]
        self.presenter.show = self.show  # type: ignore[method-assign]

    async def show(self, table_id: str, outcome: Outcome, interaction: Any = None) -> None:
        self.log.append(("show", table_id, outcome.accepted))

    def get_partial_messageable(self, channel_id: int) -> Told:
        self.log.append(("channel", channel_id))
        return Told(self.log)

    def get_user(self, user_id: int) -> Told:
        return Told(self.log)

    def get_channel(self, channel_id: int) -> None:  # no server: the table's words English
        return None

    async def quietly(self, job: Any, what: str) -> None:
        await job


async def served(store: EventStore, locale: str = "en-US") -> tuple[Host, dict[str, Any]]:
    """A host serving table t1 (scorekeeper mode), and what a DM answer of Ann's there says
    of its reply (in `locale`'s language)."""
    host = Host(store)
    await store.channels.save(Channels("t1", ON_1, 1, 2, 3, 4, 5))
    await host.service.handle("t1", Open(preset="atlanta", mode="scorekeeper"), "open")
    return host, {"user": "11", "names": {"11": "Ann"}, "locale": locale, "channel": "50",
                  "message": "", "content": ""}


async def test_the_serving_process_applies_its_tables_commands_once(target: Path | str) -> None:
    async with EventStore(target) as store:
        host = Host(store)
        for table, guild in (("t1", ON_1), ("t0", ON_0)):
            await store.channels.save(Channels(table, guild, 1, 2, 3, 4, 5))
            await host.service.handle(table, Open(preset="atlanta", mode="scorekeeper"), "open")
        reply = {"user": "11", "names": {"11": "Ann"}, "locale": "en-US", "channel": "50",
                 "message": "60", "content": "Your cube against Bo is turned to 2?"}
        await store.inbox.post("t1", "101", command_dumps(Join(by="11")), json.dumps(reply))
        await store.inbox.post("t1", "102", command_dumps(Join(by="11")),
                               json.dumps(reply))  # again
        await store.inbox.post("t0", "103", command_dumps(Join(by="12")), json.dumps(reply))
        inbox = Inbox(host)  # type: ignore[arg-type]
        await inbox.drain()
        assert host.log[:4] == [("channel", 50), ("message", 60), ("edit", {
            "content": f"{reply['content']}\n> 11 joins.", "view": None}), ("show", "t1", True)]
        (refused,) = host.log[4:]  # the second Join: told by DM, in words
        assert refused[0] == "dm" and "Ann" in refused[1]
        assert [r[1] for r in await store.inbox.pending()] == ["103"]  # shard 0's: left for it
        await inbox.drain()  # nothing applied twice
        assert len(host.log) == 5
        assert [m.player for m in (await store.events.load("t1")).state.members] == ["11"]
        assert (await store.events.load("t0")).state.members == ()


async def test_a_command_that_fails_is_logged_told_and_done_not_retried_ahead_of_others(
        target: Path | str, caplog: pytest.LogCaptureFixture) -> None:
    """A row whose command raises (a bug, not a refusal) never blocks the rows after it: it
    is logged with its table and interaction, its player is told by DM, and it is set aside
    at once (such an error would repeat)."""
    async with EventStore(target) as store:
        host, reply = await served(store, locale="da")
        await store.inbox.post("t1", "201", command_dumps(Join(by="11")), json.dumps(reply))
        await store.inbox.post("t1", "202", command_dumps(Join(by="12")), json.dumps(reply))
        handle = host.service.handle

        async def broken(table_id: str, command: Any, key: str | None = None) -> Outcome:
            if key == "201":
                raise KeyError("a bug")
            return await handle(table_id, command, key)

        host.service.handle = broken  # type: ignore[method-assign]
        inbox = Inbox(host)  # type: ignore[arg-type]
        with caplog.at_level(logging.ERROR, logger="bot.discord.inbox"):
            await inbox.drain()
        (failed,) = [r for r in caplog.records if r.name == "bot.discord.inbox"]
        assert "t1" in failed.getMessage() and "201" in failed.getMessage() and failed.exc_info
        assert host.log[0] == ("dm", translate(FAILED, "da"))
        assert host.log[0][1].startswith("Dit svar") and "moderator" in host.log[0][1]
        assert host.log[1:] == [("show", "t1", True)]  # the next row applied
        assert await store.inbox.pending() == []  # both done: the failed one is not retried
        assert await store.inbox.set_aside() == [("t1", "201", command_dumps(Join(by="11")), 1,
                                                  "KeyError: 'a bug'")]  # kept for an operator
        assert [m.player for m in (await store.events.load("t1")).state.members] == ["12"]


async def test_a_dm_click_is_acknowledged_before_the_store_is_written(tmp_path: Path) -> None:
    """The posting side: the click deferred first (its question's message kept as it is), a
    slow database after, then the question says the answer is recorded."""
    log: list[Any] = []
    async with EventStore(tmp_path / "c.db") as store:
        host = Host(store)
        post = store.inbox.post

        async def posted(*args: Any) -> None:
            log.append("posted")
            await post(*args)

        store.inbox.post = posted  # type: ignore[method-assign]

        class Response:
            async def defer(self, **kw: Any) -> None:
                log.append(("defer", kw))

        async def edited(**kw: Any) -> None:
            log.append(("edit", kw["content"]))

        message = SimpleNamespace(id=60, content="Take or drop?")
        click = SimpleNamespace(message=message, type=discord.InteractionType.component,
                                user=SimpleNamespace(id=11), locale="en-US", channel_id=50,
                                response=Response(), edit_original_response=edited)
        await Inbox(host).post(click, "t1", Join(by="11"), "301", {})  # type: ignore[arg-type]
        assert log == [("defer", {}), "posted", ("edit", "Take or drop?\n> Answer recorded: "
                                                 "the table shows it in a moment.")]
        assert [row[1] for row in await store.inbox.pending()] == ["301"]


async def test_a_command_the_store_could_not_write_stays_in_the_inbox_for_the_next_round(
        target: Path | str) -> None:
    """The store's own failure (the table moved on meanwhile, the database out of reach) is
    not the row's: it is not marked done (nor the player told it failed), and the next round
    applies it."""
    async with EventStore(target) as store:
        host, reply = await served(store)
        await store.inbox.post("t1", "301", command_dumps(Join(by="11")), json.dumps(reply))
        handle = host.service.handle
        failures = [ConcurrentWrite("Table t1 moved on")]

        async def busy(table_id: str, command: Any, key: str | None = None) -> Outcome:
            if failures:
                raise failures.pop()
            return await handle(table_id, command, key)

        host.service.handle = busy  # type: ignore[method-assign]
        inbox = Inbox(host)  # type: ignore[arg-type]
        await inbox.drain()
        assert [r[1::4] for r in await store.inbox.pending()] == [("301", 1)] and host.log == []
        await inbox.drain()
        assert await store.inbox.pending() == [] and host.log == [("show", "t1", True)]
        assert [m.player for m in (await store.events.load("t1")).state.members] == ["11"]


async def test_an_answer_for_a_table_the_store_cant_read_is_set_aside_and_the_rest_go_on(
        target: Path | str) -> None:
    """A table whose events this version can't decode fails every time it is loaded: its
    answer is tried `TRIES` times, then set aside with why and its player told; meanwhile
    the answers for other tables are applied, not held behind it."""
    async with EventStore(target) as store:
        host, reply = await served(store)
        await store.channels.save(Channels("t2", ON_1, 1, 2, 3, 4, 5))
        await host.service.handle("t2", Open(preset="atlanta", mode="scorekeeper"), "open")
        await store.db.execute("UPDATE events SET data = ? WHERE table_id = ?",
                               ('{"$": "FromANewerBot"}', "t2"))
        host.service.forget("t2")
        await store.inbox.post("t2", "401", command_dumps(Join(by="12")), json.dumps(reply))
        await store.inbox.post("t1", "402", command_dumps(Join(by="11")), json.dumps(reply))
        inbox = Inbox(host)  # type: ignore[arg-type]
        await inbox.drain()
        assert [m.player for m in (await store.events.load("t1")).state.members] == ["11"]
        assert [r[1::4] for r in await store.inbox.pending()] == [("401", 1)]  # tried once
        assert host.log == [("show", "t1", True)]
        for _ in range(TRIES - 1):
            await inbox.drain()
        assert await store.inbox.pending() == []
        ((table, key, _, tries, why),) = await store.inbox.set_aside()
        assert (table, key, tries) == ("t2", "401", TRIES) and "FromANewerBot" in str(why)
        assert host.log[1:] == [("dm", FAILED)]
        await inbox.drain()  # set aside: not tried again
        assert len(host.log) == 2 and (await store.inbox.set_aside())[0][3] == TRIES


async def test_a_row_tried_again_holds_back_its_tables_later_rows_until_set_aside(
        target: Path | str) -> None:
    """The store failing on one answer (not a refusal) leaves the later answers of that
    table waiting, in order, until it is set aside; then they are applied."""
    async with EventStore(target) as store:
        host, reply = await served(store)
        await store.inbox.post("t1", "501", command_dumps(Join(by="11")), json.dumps(reply))
        await store.inbox.post("t1", "502", command_dumps(Join(by="12")), json.dumps(reply))
        handle = host.service.handle

        async def stuck(table_id: str, command: Any, key: str | None = None) -> Outcome:
            if key == "501":
                raise StoreError("can't decode the table's events")
            return await handle(table_id, command, key)

        host.service.handle = stuck  # type: ignore[method-assign]
        inbox = Inbox(host)  # type: ignore[arg-type]
        for _ in range(TRIES - 1):
            await inbox.drain()
        assert [r[1::4] for r in await store.inbox.pending()] == [("501", TRIES - 1), ("502", 0)]
        assert host.log == []
        await inbox.drain()
        assert host.log == [("dm", FAILED), ("show", "t1", True)]
        assert await store.inbox.pending() == []
        assert [r[:2] for r in await store.inbox.set_aside()] == [("t1", "501")]
        assert [m.player for m in (await store.events.load("t1")).state.members] == ["12"]


async def test_an_unreadable_command_is_set_aside_at_once_and_its_player_told(
        target: Path | str) -> None:
    async with EventStore(target) as store:
        host, reply = await served(store)
        await store.inbox.post("t1", "601", '{"cmd": "from_a_newer_bot"}', json.dumps(reply))
        await store.inbox.post("t1", "602", command_dumps(Join(by="11")), json.dumps(reply))
        await Inbox(host).drain()  # type: ignore[arg-type]
        assert host.log == [("dm", FAILED), ("show", "t1", True)]
        assert [(r[1], r[3]) for r in await store.inbox.set_aside()] == [("601", 1)]
