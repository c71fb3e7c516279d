"""The game's flow without Discord: a start draws seats and rolls the opening from a seed
kept in the store, rolls come from that seed, the autoroll rolls when the double window
closes, a finished game's seed is revealed; each outcome is handed to the presenter."""

import asyncio
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.app.dice import Dice, commitment
from bot.app.effects import Outcome
from bot.app.flow import Flow, play_options
from bot.app.service import TableService
from bot.app.tasks import Timer
from bot.config import Settings
from bot.store import EventStore
from rules.actions import box_doubles
from rules.commands import (
    Command,
    Double,
    EndSession,
    Join,
    Move,
    Open,
    Result,
    Roll,
    Seat,
    Start,
    Take,
)
from rules.game import shooter, waiting_for

TABLE = "t1"


@dataclass
class Shown:
    """Stands in for the presenter: keeps what it is given to show."""

    outcomes: list[Outcome] = field(default_factory=list)


@dataclass
class Bot:
    """Stands in for the client: its one path stores a command and keeps what it shows."""

    settings: Settings
    store: EventStore
    service: TableService
    dice: Dice = field(default_factory=Dice)
    presenter: Shown = field(default_factory=Shown)

    async def apply(self, table_id: str, command: Command,
                    key: str | None = None) -> Outcome | None:
        outcome = await self.service.handle(table_id, command, key=key)
        if not outcome.accepted:
            return None
        self.presenter.outcomes.append(outcome)
        return outcome


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[Bot]:
    store = await EventStore(tmp_path / "t.sqlite3").open()
    settings = Settings(discord_token="test", database=tmp_path / "t.sqlite3", autoroll=False,
                        draw_processes=0)
    yield Bot(settings, store, TableService(store))
    await store.close()


async def table(bot: Bot, *players: str, **options: object) -> None:
    for i, command in enumerate([Open(options=options),
                                 *(Join(by=p) for p in players)]):
        assert (await bot.service.handle(TABLE, command, key=f"setup{i}")).accepted


async def test_a_start_draws_the_seats_and_rolls_the_opening_from_a_stored_seed(
        bot: Bot) -> None:
    await table(bot, "ann", "bo", "cy")
    flow = Flow(bot)
    start = await flow.start(TABLE, "ann", "click1", moderator=False)
    assert start.seated is not None and start.seated.accepted
    assert start.started is not None and start.started.accepted and not start.refused
    state = await bot.service.state(TABLE)
    seed = await bot.store.events.game_seed(TABLE, 1)
    assert seed is not None and state.game is not None and state.seating is not None
    assert sorted(state.seating.players) == ["ann", "bo", "cy"]
    assert state.commitments == ((1, commitment(seed), ""),)
    opening = bot.dice.opening(seed)  # its last pair (Box die, Team die), the mover's first
    assert sorted(state.game.dice or ()) == sorted(opening[-1])
    assert state.game.dice_used == 2 * len(opening)
    version = (await bot.service.current(TABLE)).version
    again = await flow.start(TABLE, "ann", "click2", moderator=False)  # a game is on
    assert again.started is None and again.seated is None and again.refused is not None
    assert "game" in again.refused.text()
    assert (await bot.service.current(TABLE)).version == version  # nothing stored


async def test_a_start_the_rules_refuse_stores_nothing(bot: Bot) -> None:
    await table(bot, "ann")
    version = (await bot.service.current(TABLE)).version
    start = await Flow(bot).start(TABLE, "ann", "click1", moderator=False)
    assert start.refused and start.seated is None and start.started is None
    assert (await bot.service.current(TABLE)).version == version


async def test_the_next_roll_comes_from_the_games_seed_at_the_next_die(bot: Bot) -> None:
    await table(bot, "ann", "bo", "cy")
    flow = Flow(bot)
    await flow.start(TABLE, "ann", "click1", moderator=False)
    state = await bot.service.state(TABLE)
    seed = await bot.store.events.game_seed(TABLE, 1)
    assert state.game is not None and seed is not None
    roll = await flow.next_roll(TABLE, "bo")
    assert roll == Roll(by="bo", dice=bot.dice.roll(seed, state.game.dice_used),
                        die=state.game.dice_used)


async def play_the_opening(bot: Bot, flow: Flow) -> str:
    """Start and play the opening roll; returns who rolls next."""
    await flow.start(TABLE, "ann", "click1", moderator=False)
    state = await bot.service.state(TABLE)
    game, mover = state.game, shooter(state)
    assert game is not None and game.position is not None and game.dice is not None
    play = play_options(game.position, game.dice)[0]
    assert (await bot.service.handle(TABLE, Move(by=mover or "", play=play))
            ).accepted
    state = await bot.service.state(TABLE)
    assert state.game is not None and state.game.dice is None and shooter(state)
    return shooter(state) or ""


async def test_the_roll_goes_ahead_when_the_double_window_closes(bot: Bot) -> None:
    await table(bot, "ann", "bo", "cy", double_window_seconds=1)
    flow = Flow(bot)
    who = await play_the_opening(bot, flow)
    await flow.time(TABLE, await bot.service.state(TABLE))  # the presenter's, before the board
    await flow.advance(TABLE, await bot.service.state(TABLE))
    assert Timer("autoroll", TABLE) not in flow.timers  # the settings say no autoroll
    assert Timer("shooter", TABLE) in flow.timers  # but the shooter's time runs
    bot.settings = Settings(discord_token="test", database=bot.settings.database)
    await flow.advance(TABLE, await bot.service.state(TABLE))
    assert Timer("autoroll", TABLE) in flow.timers
    async with asyncio.timeout(10):
        while not bot.presenter.outcomes:
            await asyncio.sleep(0.05)
    assert Timer("autoroll", TABLE) not in flow.timers
    state = await bot.service.state(TABLE)
    assert state.game is not None and state.game.dice is not None  # rolled for him
    assert bot.presenter.outcomes[0].accepted and shooter(state) == who
    flow.timers.cancel(Timer("shooter", TABLE))


async def test_a_finished_games_seed_is_revealed(bot: Bot) -> None:
    await table(bot, "ann", "bo", "cy")
    flow = Flow(bot)
    await flow.start(TABLE, "ann", "click1", moderator=False)
    assert (await bot.service.handle(TABLE, Result(
        winner="box", kind="single"))).accepted
    state = await bot.service.state(TABLE)
    assert state.commitments[0][2] == ""  # still secret
    await flow.advance(TABLE, state)
    seed = await bot.store.events.game_seed(TABLE, 1)
    assert seed is not None
    assert (await bot.service.state(TABLE)).commitments[0][2] == seed.hex()
    assert [o.accepted for o in bot.presenter.outcomes] == [True]


async def test_a_timer_runs_out_when_it_would_have_after_a_restart(bot: Bot) -> None:
    await table(bot, "ann", "bo", "cy", shooter_timeout_seconds=300)
    flow = Flow(bot)
    await play_the_opening(bot, flow)
    state = await bot.service.state(TABLE)
    before = time.time()
    await flow.time(TABLE, state)
    due = flow.timers.due(Timer("shooter", TABLE))
    assert due is not None and before + 299 <= due <= time.time() + 300
    await flow.time(TABLE, state)  # the same turn: its time runs on
    assert flow.timers.due(Timer("shooter", TABLE)) == due
    flow.timers.cancel(Timer("shooter", TABLE))
    await asyncio.sleep(1.1)  # the bot is down a while
    restarted = Flow(bot)
    await restarted.resume([TABLE])
    assert restarted.timers.due(Timer("shooter", TABLE)) == pytest.approx(due, abs=0.01)
    restarted.timers.cancel(Timer("shooter", TABLE))


async def box_on_roll(bot: Bot) -> str:
    """ann (Box), bo (Captain), cy: the Team opens 6-1 and plays; the Box is on roll."""
    await table(bot, "ann", "bo", "cy")
    for i, command in enumerate([Seat(order=["ann", "bo", "cy"]), Start(opening=[[1, 6]])]):
        assert (await bot.service.handle(TABLE, command, key=f"start{i}")).accepted
    state = await bot.service.state(TABLE)
    assert state.game is not None and state.game.position is not None and state.game.dice
    play = play_options(state.game.position, state.game.dice)[0]
    assert (await bot.service.handle(TABLE, Move(by="bo", play=play))).accepted
    assert shooter(await bot.service.state(TABLE)) == "ann"
    return "ann"


async def kept(bot: Bot) -> dict[str, str]:
    """The deadlines kept in the store (as the database has them, not the cache)."""
    rows = await bot.store.db.execute_fetchall(
        "SELECT key, value FROM meta WHERE key LIKE 'deadline:%'")
    return {str(k): str(v) for k, v in rows}


async def test_a_deadline_is_forgotten_once_its_timer_stops(bot: Bot) -> None:
    box = await box_on_roll(bot)
    flow = Flow(bot)
    await flow.time(TABLE, await bot.service.state(TABLE))
    assert list(await kept(bot)) == [f"deadline:{TABLE}:shooter:"]
    state = await bot.service.state(TABLE)
    assert (await bot.service.handle(TABLE, Double(by=box, cubes=tuple(
        box_doubles(state, box))))).accepted  # the Box's time stops while the Team answers
    state = await bot.service.state(TABLE)
    await flow.time(TABLE, state)
    assert Timer("shooter", TABLE) not in flow.timers
    deciders = sorted({p for p, _ in waiting_for(state)})
    assert deciders == ["bo", "cy"]
    assert sorted(await kept(bot)) == [f"deadline:{TABLE}:decision:bo",
                                       f"deadline:{TABLE}:decision:cy",
                                       f"deadline:{TABLE}:shooter:"]  # until it is answered
    await flow.advance(TABLE, state)
    assert sorted(await kept(bot)) == [f"deadline:{TABLE}:decision:bo",
                                       f"deadline:{TABLE}:decision:cy"]
    assert (await bot.service.handle(TABLE, Take(by="bo"))).accepted
    state = await bot.service.state(TABLE)
    await flow.time(TABLE, state)
    await flow.advance(TABLE, state)
    assert Timer("decision", TABLE, "bo") not in flow.timers  # answered: it can't run out
    assert Timer("decision", TABLE, "cy") in flow.timers
    assert list(await kept(bot)) == [f"deadline:{TABLE}:decision:cy"]
    stale = await flow.bot.service.state(TABLE)
    assert (await bot.service.handle(TABLE, Take(by="cy"))).accepted
    await flow.time(TABLE, stale)  # an older show's: the timers are the newer one's to set
    assert Timer("decision", TABLE, "cy") in flow.timers
    state = await bot.service.state(TABLE)
    await flow.time(TABLE, state)
    await flow.advance(TABLE, state)
    assert flow.timers.keys(TABLE) == [Timer("shooter", TABLE)]
    assert list(await kept(bot)) == [f"deadline:{TABLE}:shooter:"]  # the Box's turn again
    flow.timers.cancel(Timer("shooter", TABLE))


async def test_a_new_turns_deadline_is_kept_in_its_commands_own_transaction(
        bot: Bot, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's service keeps the deadlines a command starts with its events
    (`Flow.deadlines`): stored before anything is shown, and no write of their own after."""
    box = await box_on_roll(bot)
    flow = Flow(bot)
    bot.service.deadlines = flow.deadlines
    await flow.time(TABLE, await bot.service.state(TABLE))
    name = f"deadline:{TABLE}:shooter:"
    before = (await kept(bot))[name]
    written: list[tuple[str, str | None]] = []

    async def set_meta(key: str, value: str | None) -> None:
        written.append((key, value))

    monkeypatch.setattr(bot.store.meta, "set", set_meta)
    assert (await bot.service.handle(TABLE, await flow.next_roll(TABLE, box))).accepted
    after = (await kept(bot))[name]  # with the roll: its dice are thrown, the play is timed
    assert after != before and after.startswith(f"{box}:1:4 ")
    state = await bot.service.state(TABLE)
    await flow.time(TABLE, state)
    await flow.advance(TABLE, state)
    assert written == [] and Timer("shooter", TABLE) in flow.timers
    flow.timers.cancel(Timer("shooter", TABLE))


async def test_a_shooter_interrupted_by_a_double_has_their_whole_time_again(bot: Bot) -> None:
    """Also when the double is answered before the stopped deadline was forgotten (the
    click's `advance` not run yet): the deadline kept is not taken up again."""
    box = await box_on_roll(bot)
    flow = Flow(bot)
    await flow.time(TABLE, await bot.service.state(TABLE))
    name = f"deadline:{TABLE}:shooter:"
    what = (await kept(bot))[name].rpartition(" ")[0]
    await bot.store.meta.set(name, f"{what} {int(time.time()) + 5}")  # 5 s were left
    state = await bot.service.state(TABLE)
    assert (await bot.service.handle(TABLE, Double(by=box, cubes=tuple(
        box_doubles(state, box))))).accepted
    await flow.time(TABLE, await bot.service.state(TABLE))  # the shooter's timer stops
    for player in ("bo", "cy"):
        assert (await bot.service.handle(TABLE, Take(by=player))).accepted
    state = await bot.service.state(TABLE)
    await flow.time(TABLE, state)
    timed, _, when = (await kept(bot))[name].rpartition(" ")
    assert timed == what and int(when) > time.time() + 60
    await flow.advance(TABLE, state)
    assert name in await kept(bot)  # the new deadline is kept, not forgotten as stale
    for key in flow.timers.keys(TABLE):
        flow.timers.cancel(key)


async def test_a_deadline_is_forgotten_once_its_timer_runs_out(bot: Bot) -> None:
    await box_on_roll(bot)
    flow = Flow(bot)
    state = await bot.service.state(TABLE)
    await flow.time(TABLE, state)
    name = f"deadline:{TABLE}:shooter:"
    what = (await kept(bot))[name].rpartition(" ")[0]
    flow.timers.cancel(Timer("shooter", TABLE))  # the bot is down ...
    await bot.store.meta.set(name, f"{what} {int(time.time()) - 1}")  # ... past the deadline
    restarted = Flow(bot)
    await restarted.resume([TABLE])  # runs out at once, as it would have
    async with asyncio.timeout(10):
        while await kept(bot):
            await asyncio.sleep(0.05)
    assert [o.accepted for o in bot.presenter.outcomes] == [True]  # the Box timed out
    assert (await bot.service.state(TABLE)).member("ann").away  # type: ignore[union-attr]


async def test_a_closed_tables_deadlines_are_forgotten(bot: Bot) -> None:
    await box_on_roll(bot)
    flow = Flow(bot)
    await flow.time(TABLE, await bot.service.state(TABLE))
    await bot.store.meta.set(f"deadline:{TABLE}:decision:bo", "left by a crash 1")
    await bot.store.meta.set("deadline:t2:shooter:", "another table's 1")
    assert (await bot.service.handle(TABLE, Result(winner="box", kind="single"))).accepted
    assert (await bot.service.handle(TABLE, EndSession(by="ann"))).accepted
    state = await bot.service.state(TABLE)
    assert state.ended
    await flow.time(TABLE, state)
    await flow.advance(TABLE, state)
    assert await kept(bot) == {"deadline:t2:shooter:": "another table's 1"}
    assert await bot.store.meta.get(f"deadline:{TABLE}:decision:bo") is None
    assert flow.timers.keys(TABLE) == []


async def test_a_player_with_two_cubes_waiting_has_one_deadline_for_both(bot: Bot) -> None:
    """Danish with a Partner: the Box and the Partner each double every Team player, whose
    time for both answers is one; it was re-armed cube by cube, each show giving it anew."""
    names = ["a", "b", "c", "d", "e", "f"]
    for i, command in enumerate([Open(preset="danish"), *(Join(by=p) for p in names),
                                 Seat(order=names, partner="f"), Start(opening=[[1, 6]])]):
        assert (await bot.service.handle(TABLE, command, key=f"start{i}")).accepted
    state = await bot.service.state(TABLE)
    assert state.game is not None and state.game.position is not None and state.game.dice
    play = play_options(state.game.position, state.game.dice)[0]
    assert (await bot.service.handle(TABLE, Move(by="b", play=play))).accepted
    for box in ("a", "f"):
        state = await bot.service.state(TABLE)
        assert (await bot.service.handle(TABLE, Double(by=box, cubes=tuple(
            box_doubles(state, box))))).accepted
    state = await bot.service.state(TABLE)
    assert [p for p, _ in waiting_for(state)].count("b") == 2
    flow = Flow(bot)
    await flow.time(TABLE, state)
    due = flow.timers.due(Timer("decision", TABLE, "b"))
    await asyncio.sleep(1.1)
    await flow.time(TABLE, state)  # the next show's
    assert flow.timers.due(Timer("decision", TABLE, "b")) == due
    for key in flow.timers.keys(TABLE):
        flow.timers.cancel(key)
