"""The event store and the TableService: append-only, idempotent, loud on bad storage.

Tests taking `target` run on both backends: an SQLite file and a PostgreSQL database
(tests/bot/conftest.py); the others are about SQLite's file."""

import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.app.effects import Announce, Outcome, Prompt
from bot.app.service import ENDED_KEPT, TableService
from bot.store import Channels, ConcurrentWrite, EventStore, StoreError
from bot.store import database as store_module
from bot.store.codec import dumps, loads
from bot.store.sqlite import open_sqlite
from rules.commands import Answer, Double, EndSession, Open, Result, Seat, Start, Take
from rules.cube import Cube
from rules.errors import CubeNotAvailable
from rules.messages import Phrase, Player
from rules.state import TableState, replay
from rules.table import decide
from rules.table_events import PlayerJoined, PlayerLeft

SESSION = [
    Open(preset="atlanta", mode="scorekeeper"),
    Seat(order=["ann", "bo", "cy", "di"]),
    Start(),
    Double(by="bo"),
    Answer(by="ann", take=["bo"]),
    Result(winner="team", kind="gammon"),
    Start(),
    Double(by="bo"),  # bo is the Box now: he doubles the Team
]


async def run_session(service: TableService, table: str = "t1") -> list[Outcome]:
    return [await service.handle(table, cmd, key=f"k{i}") for i, cmd in enumerate(SESSION)]


def in_memory() -> TableState:
    state = TableState()
    for cmd in SESSION:
        state = replay(decide(state, cmd), state)
    return state


async def test_commands_are_stored_and_a_reload_gives_the_same_state(target: Path | str) -> None:
    async with EventStore(target) as store:
        outcomes = await run_session(TableService(store))
        assert all(o.accepted for o in outcomes)
    async with EventStore(target) as store:
        service = TableService(store)
        assert await service.resume() == ["t1"]
        assert await service.state("t1") == in_memory()


async def test_the_same_key_applies_once_and_returns_the_same_outcome(target: Path | str) -> None:
    async with EventStore(target) as store:
        service = TableService(store)
        first = await run_session(service)
        again = await run_session(TableService(store))  # a fresh service: from the store
        assert again == first
        assert (await store.events.load("t1")).state == in_memory()
        refused = await service.handle("t1", Take(by="zed"), key="bad")
        assert not refused.accepted and "zed" in refused.reason
        assert await service.handle("t1", Take(by="zed"), key="bad") == refused


async def test_the_store_keeps_only_the_latest_tables_channels_and_seeds_in_memory(
        target: Path | str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Read on every click, so kept once read; but only the latest `CACHED`: a table
    beyond them is read from the database again, as it was."""
    monkeypatch.setattr(store_module, "CACHED", 2)
    async with EventStore(target) as store:
        for n in range(3):
            await store.channels.save(Channels(f"t{n}", 5, 10 * n + 1, 10 * n + 2, 10 * n + 3,
                                               10 * n + 4, 10 * n + 5))
            assert await store.events.game_seed(f"t{n}", 1, bytes([n]) * 32) == bytes([n]) * 32
            await store.events.append(f"t{n}", 0, (PlayerJoined("ann"),), "a", Outcome(True))
        assert len(store.channels._channels) == len(store.events._seeds) == len(
            store.events._known) == 2
        assert (await store.channels.find(table_id="t0")).board_id == 2  # read again
        assert await store.events.game_seed("t0", 1) == bytes(32)
        assert (await store.channels.find(channel_id=23)).table_id == "t2"
        assert len(store.channels._channels) == len(store.events._seeds) == 2


async def test_an_ended_table_is_not_kept_in_memory_and_its_commands_still_apply_once(
        target: Path | str) -> None:
    """A bot up for months must not hold every session it ran: once a table ends, the
    service keeps neither its state nor its commands' keys, and reads it from the store."""
    async with EventStore(target) as store:
        service = TableService(store)
        first = await run_session(service)
        assert "t1" in service._tables and len(service._keys["t1"]) == len(SESSION)
        ended = await service.handle("t1", EndSession(by="ann", moderator=True), key="end")
        assert ended.accepted and "t1" not in service._tables and "t1" not in service._keys
        loads = 0
        load = store.events.load

        async def counted(table_id: str) -> Any:
            nonlocal loads
            loads += 1
            return await load(table_id)

        store.events.load = counted  # type: ignore[method-assign]
        assert (await service.state("t1")).ended and loads == 0  # its state: among the latest
        for n in range(ENDED_KEPT):  # as many tables end after it
            await service.handle(f"e{n}", Open(preset="atlanta", mode="scorekeeper"), "o")
            assert (await service.handle(f"e{n}", EndSession(by="ann", moderator=True),
                                         key="x")).accepted
        assert (await service.state("t1")).ended and loads == ENDED_KEPT + 1  # read again
        assert len(service._ended) == ENDED_KEPT and "t1" not in service._keys
        # the same click again (Discord's retry, a restart): its outcome, not a second end
        assert await service.handle("t1", EndSession(by="ann"), key="end") == ended
        assert await service.handle("t1", Take(by="zed"), key="k0") == first[0]  # the open
        assert (await store.events.load("t1")).version == (await service.current("t1")).version


async def test_snapshots_load_to_the_same_state(target: Path | str) -> None:
    async with EventStore(target, snapshot_every=3) as store:
        await run_session(TableService(store))
        rows = await store.db.execute_fetchall("SELECT version FROM snapshots")
        assert list(rows)
        assert (await store.events.load("t1")).state == in_memory()


async def test_a_second_writer_at_the_same_version_fails_loudly(target: Path | str) -> None:
    async with EventStore(target) as store:
        await store.events.append("t", 0, (PlayerJoined("ann"),), "a", Outcome(True))
        with pytest.raises(ConcurrentWrite, match="moved on"):
            await store.events.append("t", 0, (PlayerJoined("bo"),), "b", Outcome(True))
        assert (await store.events.load("t")).version == 1
        assert await store.events.outcome("t", "b") is None  # nothing of the refused write is kept


async def test_effects_prompt_privately_and_announce_on_the_board(target: Path | str) -> None:
    async with EventStore(target) as store:
        outcomes = await run_session(TableService(store))
    double, answer, last = outcomes[3], outcomes[4], outcomes[7]
    # The Box answers the Team's doubles as a set from the board: no prompt of his own.
    assert not [e for e in double.effects if isinstance(e, Prompt)]
    assert any(isinstance(e, Announce) and e.channel == "board" for e in double.effects)
    assert any(isinstance(e, Announce) and e.channel == "board" for e in answer.effects)
    private = [e for e in last.effects if isinstance(e, Prompt)]
    assert {p.player for p in private} == {"cy", "di", "ann"} and all(p.private for p in private)


async def test_a_newer_schema_is_refused_with_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 99")
    with pytest.raises(StoreError, match=r"newer chouette-bot.*upgrade"):
        await EventStore(path).open()


async def test_a_corrupt_file_is_named_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    path.write_bytes(b"this is not a database, it is a shopping list\n" * 100)
    with pytest.raises(StoreError, match=rf"{path.name} is not a readable chouette database"):
        await EventStore(path).open()
    assert path.read_bytes().startswith(b"this is not a database")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through read-only permissions")
async def test_a_read_only_database_says_so(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    async with EventStore(path):
        pass
    path.chmod(0o444)
    tmp_path.chmod(0o555)
    try:
        with pytest.raises(StoreError, match="can't be written"):
            async with EventStore(path) as store:
                await store.events.append("t", 0, (PlayerJoined("ann"),), "a", Outcome(True))
    finally:
        tmp_path.chmod(0o755)


async def test_a_read_only_connection_refuses_writes_with_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    async with EventStore(path):
        pass
    store = EventStore(f"file:{path}?mode=ro")
    store.database.path = path  # the messages name the real file
    store.database._db = await open_sqlite(path, 5, read_only=True)
    try:
        with pytest.raises(StoreError, match=rf"{path.name} can't be written"):
            await store.events.append("t", 0, (PlayerJoined("ann"),), "a", Outcome(True))
    finally:
        await store.close()


async def test_a_locked_database_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    async with EventStore(path):
        pass
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        store = EventStore(path, busy_timeout=0.1)
        with pytest.raises(StoreError, match="locked by another process"):
            await store.open()
            await store.db.execute("PRAGMA busy_timeout = 100")
            await store.events.append("t", 0, (PlayerJoined("ann"),), "a", Outcome(True))
        await store.close()
    finally:
        holder.execute("ROLLBACK")
        holder.close()


async def test_an_unknown_event_type_from_a_newer_version_is_named(target: Path | str) -> None:
    async with EventStore(target) as store:
        await store.events.append("t", 0, (PlayerJoined("ann"),), "a", Outcome(True))
        future = dumps(PlayerJoined("bo")).replace("PlayerJoined", "PlayerTeleported")
        await store.db.execute("INSERT INTO events (table_id, version, type, data) "
                               "VALUES ('t', 2, 'PlayerTeleported', ?)", (future,))
        with pytest.raises(StoreError, match=r"PlayerTeleported.*newer version"):
            await store.events.load("t")


def test_an_outcome_stored_with_retired_effects_reads_back_without_them() -> None:
    outcome = Outcome(True, effects=(Announce("Game 1 begins."),))
    old = dumps(outcome).replace('"effects":[', '"effects":[{"$":"EditBoard"},{"$":"Reseat"},'
                                 '{"$":"SetSend","channel":"team","player":"bo",'
                                 '"allowed":true},')
    assert "SetSend" in old and loads(old) == outcome


def test_a_refusal_keeps_its_players_marked_in_the_store_and_an_old_one_its_words() -> None:
    with pytest.raises(CubeNotAvailable) as refused:
        Cube("ann", "bo").sell("bo", 1)  # a phrase (the cube) inside the refusal
    outcome = Outcome(False, str(refused.value), code=refused.value.code,
                      params=refused.value.params)
    back = loads(dumps(outcome))
    assert back == outcome and type(back.params["seller"]) is Player
    assert isinstance(back.params["cube"], Phrase)
    assert back.text(str.upper) == ("BO can't buy ANN's game on ANN's cube against BO; the "
                                    "opponent settles instead")
    old = '{"$":"Outcome","accepted":false,"reason":"bo is already away.","effects":[]}'
    assert loads(old).text(str.upper) == "bo is already away."  # stored before: its words


def test_a_cube_turn_keeps_its_figures_marked_and_an_old_one_reads_as_it_was() -> None:
    from fractions import Fraction

    from bot.words.lines import event_line
    from rules.events import CubeTurned

    cube = Cube("ann", "bo", 2)
    sold = CubeTurned(cube, Phrase("turned_sold", buyer=Player("cy"), price=Fraction(1, 2)),
                      "ann")
    back = loads(dumps(sold))
    assert back == sold and isinstance(back.action, Phrase)
    assert type(back.action.params["buyer"]) is Player
    timed_out = CubeTurned(cube, "drop", "ann", "answered_timed_out")
    assert loads(dumps(timed_out)) == timed_out
    # as stored before both were data: the action's words, who answered in `by`
    old = dumps(sold).replace(dumps(sold.action), '"sold to cy for 1/2"')
    old = old.replace(',"why":""', "")
    assert loads(old) == CubeTurned(cube, "sold to cy for 1/2", "ann")
    assert event_line(loads(old)) == "ann: sold to cy for 1/2 (ann v bo, cube 2)."
    for words, why in [("timed out", "answered_timed_out"), ("away", "answered_away"),
                       ("nobody answered in time", "answered_late")]:
        old = dumps(timed_out).replace('"ann","why":"answered_timed_out"', f'"ann ({words})"')
        assert '"why"' not in old
        assert loads(old) == CubeTurned(cube, "drop", "ann", why)
        assert event_line(loads(old)) == f"ann ({words}): drop (ann v bo, cube 2)."  # as then


def test_a_partner_command_handed_over_before_its_one_argument_reads_back() -> None:
    from bot.store.codec import command_dumps, command_loads
    from rules.commands import Partner

    old = ('{"verb":"partner","fields":{"by":"1","for_":null,"monitor":false,'
           '"moderator":false,"player":null,"partner":"2"}}')  # an inbox row stored before
    assert command_loads(old) == Partner(by="1", player="2")
    assert command_loads(command_dumps(Partner(by="1", player="3"))) == Partner(by="1",
                                                                               player="3")


async def test_a_failed_write_keeps_nothing_of_the_command(target: Path | str) -> None:
    async with EventStore(target) as store:
        bad = Outcome(True, effects=(object(),))  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="Can't store"):
            await store.events.append("t", 0, (PlayerJoined("ann"),), "a", bad)
        assert (await store.events.load("t")).version == 0
        assert await store.events.table_ids() == []


async def test_events_come_back_in_order_with_their_time_and_a_game_keeps_its_first_seed(
        target: Path | str) -> None:
    async with EventStore(target) as store:
        await store.events.append("t", 0, (PlayerJoined("ann"), PlayerJoined("bo")), "a",
                                  Outcome(True))
        stored = await store.events.stored("t")
        assert [(s.version, s.event) for s in stored] == [(1, PlayerJoined("ann")),
                                                            (2, PlayerJoined("bo"))]
        assert all(isinstance(s.at, int) and s.at > 1_700_000_000 for s in stored)
        assert await store.events.stored("t", skip=("PlayerJoined", "GameStarted")) == []
        await store.events.append("t", 2, (PlayerLeft("ann"),), None, Outcome(True))
        assert [loads(d) for d in await store.events.data("t", only=("PlayerLeft",))] == [
            PlayerLeft("ann")]
        first = await store.events.game_seed("t", 1, b"one")
        assert await store.events.game_seed("t", 1, b"two") == first == b"one"
        assert await store.events.game_seed("t", 2, b"two") == b"two"
        assert await store.events.game_seed("t", 3) is None


def test_a_played_session_reads_back_as_it_was_every_value_and_every_event() -> None:
    """Every type the codec writes, in a whole session (its state: cubes, sheet, rules,
    seating, positions; its events): read back, equal."""
    from bot.app.scenario import apply

    with open(Path(__file__).parents[1] / "scenarios" / "atlanta_play.jsonl") as lines:
        state, events, _ = apply(lines)
    assert state.games_played > 0 and state.board is not None
    assert loads(dumps(state)) == state
    assert tuple(loads(dumps(events))) == tuple(events)
    with pytest.raises(ValueError, match="Can't store a object"):
        dumps({"effects": [object()]})
