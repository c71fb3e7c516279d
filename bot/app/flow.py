"""The game's flow: what the bot does by itself between the players' actions.

Between the service (a command in, an outcome out) and the Discord adapter (which shows an
outcome): starting a game (the seats drawn and the opening rolled with the server's dice),
the next roll from the game's seed, a forced play played at once, the autoroll when the
double window closes, the decision timers (a prompt's, the shooter's, a hold's) and the
reveal of a finished game's dice seed. Each sends the table a command under the key it
always had (a retry or a restart applies it once), down the one path a click takes
(`Host.apply`: stored, then shown). The flow hears of each action once it is shown
(`advance`, called after every show), so it consumes shown outcomes and never calls the
presenter.
Timers are scheduling, not state: what they time is in the store, and `resume` arms them
again at start-up. What a timeout does is the rules' (`timeout`); nothing here knows Discord.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from typing import Any, Protocol

from bot.app.dice import Dice, commitment
from bot.app.effects import Outcome, Refusal
from bot.app.locks import TableLocks
from bot.app.service import TableService
from bot.app.tasks import Timer, Timers
from bot.config import Settings
from bot.store import EventStore
from rules.board import Position, legal_plays
from rules.commands import Command, Move, Release, Reveal, Roll, Seat, Start, Timeout
from rules.cube import Side
from rules.errors import RuleError
from rules.game import shooter, waiting_for
from rules.joining import unopposed
from rules.notation import format_play
from rules.proxies import answerer
from rules.seating import Reroll, order_by_rolls
from rules.state import TableState, replay
from rules.table import decide


class Host(Protocol):
    """What the flow needs of the bot (its settings are read when used: they may change)."""

    @property
    def settings(self) -> Settings: ...

    @property
    def store(self) -> EventStore: ...

    @property
    def service(self) -> TableService: ...

    @property
    def dice(self) -> Dice: ...

    async def apply(self, table_id: str, command: Command,
                    key: str | None = None) -> Outcome | None:
        """The one path of a command to a table: stored, then shown (None: refused)."""


@dataclass(frozen=True)
class GameStart:
    """What `Flow.start` did: the seating drawn (if the table had none) and the game, both
    stored, to be shown in turn; or `refused`, the rules' words about `state` (`started` is
    None when the trial refused it and nothing was stored; else the table moved on since)."""

    state: TableState
    refused: Refusal | None = None
    seated: Outcome | None = None
    started: Outcome | None = None


@lru_cache(maxsize=128)
def play_options(position: Position, dice: tuple[int, int]) -> tuple[str, ...]:
    """The legal plays of `dice`, written and sorted; cached, because the board's menu and
    the forced play ask for the same roll one after the other."""
    return tuple(sorted({format_play(p) for p in legal_plays(position, dice)}))


class Flow:
    """Starts games, rolls, plays forced plays and times decisions; one per bot."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.timers = Timers()
        self._stale: dict[str, Timer] = {}  # deadlines of stopped timers, forgotten by `advance`
        # a table's timing takes turns: a show's `time` awaits the store, and a newer
        # show's could otherwise stop what it had just armed
        self._timing = TableLocks()

    @property
    def dice(self) -> Dice:
        """The server's dice (the bot's)."""
        return self.bot.dice

    async def _send(self, table_id: str, command: Command, key: str | None = None) -> None:
        """Send the bot's own `command` down the path a click takes (`Host.apply`); a refusal
        means a player got there first."""
        await self.bot.apply(table_id, command, key)

    # -- starting a game and rolling --------------------------------------------------------

    async def start(self, table_id: str, me: str, key: str, moderator: bool) -> GameStart:
        """Draw seats by the dice if the table has none, then start a game with the opening
        rolls (play mode): the dice are the server's, recorded in the commands. Both are
        tried on the table as it is first: a refusal stores nothing."""
        state = await self.bot.service.state(table_id)
        seat = None
        if state.seating is None:
            rolls, rerolls = self.roll_for_order(list(state.present),
                                                 state.rules.seat_roll_dice)
            seat = Seat(by=me, rolls=rolls, rerolls=rerolls, moderator=moderator)
        try:  # would the rules take it? (dummy opening dice: the real ones come after)
            drawn = replay(decide(state, seat), state) if seat else state
            decide(drawn, Start(by=me, opening=[[1, 2]], moderator=moderator))
        except RuleError as exc:
            return GameStart(state, exc)
        seated = (await self.bot.service.handle(table_id, seat, key=f"{key}:seat")
                  if seat is not None else None)
        start = Start(by=me, moderator=moderator)
        state = await self.bot.service.state(table_id)
        ahead = replay(unopposed(state), state).seating  # with those who join as it starts
        newcomers = ahead.newcomers if ahead else ()
        if state.rules.newcomer_order == "rolls" and len(newcomers) > 1:  # Atlanta 6.5
            rolls, rerolls = self.roll_for_order(list(newcomers), 2)
            start = replace(start, newcomer_rolls=rolls, newcomer_rerolls=rerolls)
        if state.mode == "play":
            seed = await self.bot.store.events.game_seed(table_id, state.games_played + 1,
                                                         self.dice.new_seed())
            assert seed is not None
            start = replace(start, opening=self.dice.opening(seed), commitment=commitment(seed))
        started = await self.bot.service.handle(table_id, start,
                                                key=f"{key}:start")
        return GameStart(state, None if started.accepted else started, seated, started)

    def roll_for_order(self, players: list[str], count: int
                       ) -> tuple[dict[str, list[int]], list[dict[str, list[int]]]]:
        """Everyone rolls `count` dice; the tied roll again until the order is settled."""
        rolls = self.dice.seats(players, count)
        rerolls: list[dict[str, tuple[int, ...]]] = []
        while isinstance(tied := order_by_rolls(rolls, rerolls), Reroll):
            rerolls.append(self.dice.seats([p for g in tied.groups for p in g], count))
        return ({p: list(d) for p, d in rolls.items()},
                [{p: list(d) for p, d in r.items()} for r in rerolls])

    async def next_roll(self, table_id: str, who: str) -> Command:
        """`who` rolls the next dice of the game in progress, from its seed (the command
        names the die it starts at, so dice drawn for a roll that lost a race are refused)."""
        state = await self.bot.service.state(table_id)
        game = state.game
        seed = await self.bot.store.events.game_seed(table_id, game.number) if game else None
        if game is None or seed is None:  # no game, or one started without seeded dice
            return Roll(by=who, dice=self.dice.roll(self.dice.new_seed(), 0))
        return Roll(by=who, dice=self.dice.roll(seed, game.dice_used), die=game.dice_used)

    async def reveal(self, table_id: str, state: TableState) -> None:
        """Reveal the dice seed of every finished game whose seed is still secret."""
        for number, _, revealed in state.commitments:
            if revealed or number in state.unfinished:
                continue
            seed = await self.bot.store.events.game_seed(table_id, number)
            if seed is not None:
                await self._send(table_id, Reveal(game=number, seed=seed.hex()),
                                 key=f"reveal:{number}")

    # -- what the table does by itself ------------------------------------------------------

    async def resume(self, table_ids: list[str]) -> None:
        """After a restart: the seeds of games ended before a crash revealed, and the timers
        of what each table waits for armed again (to run out when they would have)."""
        for table_id in table_ids:
            await self.reveal(table_id, await self.bot.service.state(table_id))
            await self.time(table_id, await self.bot.service.state(table_id))

    async def time(self, table_id: str, state: TableState) -> None:
        """Time what the table waits for: each Team player's cube decision, the shooter's
        roll or play, each hold. A timer already timing the same thing runs on; one timing
        what the table no longer waits for stops (a decision answered, a hold released, a
        table ended). Only the table's current state is timed: a show of an older one (its
        awaits let a newer action through) leaves the timers to the newer one's show."""
        async with self._timing(table_id):
            current = await self.bot.service.state(table_id)
            if state is current or state == current:
                await self._time(table_id, state)

    def _plan(self, table_id: str, state: TableState
              ) -> list[tuple[Timer, str, float, Callable[[], Awaitable[Any]]]]:
        """The timers `state` wants: each one's key, what it times, its seconds and its job
        (each Team player's cube decisions, the shooter's roll or play, each hold)."""
        game, rules = state.game, state.rules
        plan: list[tuple[Timer, str, float, Callable[[], Awaitable[Any]]]] = []
        decisions: dict[str, list[str]] = {}  # one timer a player, for all his cubes
        for player, cube in waiting_for(state):
            if cube.side_of(player) is Side.TEAM and game is not None:
                decisions.setdefault(player, []).append(
                    f"{game.number}:{cube.box_player}:{cube.face}:{cube.state.value}:"
                    f"{answerer(state, player)}")  # his stand-in gets his own time
        for player, what in decisions.items():
            plan.append((Timer("decision", table_id, player), "|".join(what),
                         rules.decision_timeout_seconds, partial(self._timeout, table_id, player)))
        # the shooter has his seconds for each roll or play (then he is away and his
        # stand-in plays, or under FIBS his game is held over: `rules/holdover.py`); `what`
        # changes only with the turn (who, game, dice thrown): other commands keep his time
        who = shooter(state)
        if (who is not None and game is not None and state.mode == "play"
                and not waiting_for(state) and not game.holds and not game.resignations):
            plan.append((Timer("shooter", table_id), f"{who}:{game.number}:{game.dice_used}",
                         rules.shooter_timeout_seconds, partial(self._timeout, table_id, who)))
        holds = game.holds if game is not None and state.mode == "play" else ()
        for holder in holds:  # a hold lapses (Atlanta 5.9 is no licence to stall)
            assert game is not None
            plan.append((Timer("hold", table_id, holder), f"{game.number}:{game.dice_used}",
                         rules.hold_timeout_seconds,
                         partial(self._send, table_id, Release(by=holder))))
        return plan

    async def deadlines(self, table_id: str, state: TableState) -> dict[str, str]:
        """The deadlines a command leading to `state` starts, for the store to keep in the
        command's own transaction (`TableService.deadlines`): each planned timer's whose
        deadline kept times something else (a new turn, a new double). `_arm` then finds
        them kept, and a stopped timer armed again still writes its own."""
        due: dict[str, str] = {}
        now = time.time()
        for key, what, seconds, _ in self._plan(table_id, state):
            name = _deadline(key)
            if name in self._stale:
                continue
            if _when(await self.bot.store.meta.get(name), what) is None:
                due[name] = f"{what} {int(now + seconds)}"
        return due

    async def _time(self, table_id: str, state: TableState) -> None:
        plan = self._plan(table_id, state)
        for key, what, seconds, job in plan:
            await self._arm(key, what, seconds, job)
        planned = {key for key, *_ in plan}
        for key in self.timers.keys(table_id):
            if key.kind in ("decision", "hold", "shooter") and key not in planned:
                self._stop(key)
        if state.ended:  # a closed table waits for nothing: every deadline kept goes
            self._stale[f"deadline:{table_id}:"] = Timer("", table_id)

    async def _arm(self, key: Timer, what: str, seconds: float,
                   job: Callable[[], Awaitable[Any]]) -> None:
        """Time `what` with the timer `key`: `seconds` from now, unless it times `what`
        already. Its deadline is kept in the store, so that after a restart it runs out when
        it would have (and the countdown shown reads the same): written before the board
        showing it is drawn (mostly with the command that started it: `deadlines`), so a
        deadline seen is a deadline kept. Once the timer has run out (its job done) or is
        stopped, the deadline is forgotten."""
        if self.timers.due(key, what) is not None:
            return
        name = _deadline(key)
        stopped = self._stale.pop(name, None) is not None  # its time starts again
        when = None if stopped else _when(await self.bot.store.meta.get(name), what)
        if when is None:
            when = str(int(time.time() + seconds))
            await self.bot.store.meta.set(name, f"{what} {when}")

        async def run_out() -> None:
            try:
                await job()
            finally:  # (a job refused or failed too)
                if self.timers.due(key) is None:  # not armed again meanwhile (the job's show)
                    await self._forget(name, key)

        self.timers.after(max(0.0, int(when) - time.time()), key, run_out, what)

    def _stop(self, key: Timer) -> None:
        """Stop the timer `key`; its deadline is forgotten by `advance`, after the click that
        stopped it is answered (a deadline left by a crash meanwhile times nothing: `_arm`
        compares what it timed, and the table's end forgets it)."""
        self.timers.cancel(key)
        self._stale[_deadline(key)] = key

    async def _forget(self, name: str, key: Timer) -> None:
        """Forget a deadline kept in the store, unless its timer was armed again; a name
        ending in ":" forgets every deadline of a table."""
        if name.endswith(":"):
            await self.bot.store.meta.forget(name)
        elif self.timers.due(key) is None and await self.bot.store.meta.get(name):
            await self.bot.store.meta.set(name, None)

    async def advance(self, table_id: str, state: TableState) -> None:
        """Once an action is shown (its timers armed by `time` before its board was drawn):
        forget the deadlines of timers stopped; reveal finished games' dice seeds; play a
        forced play at once; arm the autoroll when the side on roll may roll."""
        for name, key in [(n, k) for n, k in self._stale.items() if k.table_id == table_id]:
            del self._stale[name]
            await self._forget(name, key)
        if any(not seed and number not in state.unfinished
               for number, _, seed in state.commitments):
            await self.reveal(table_id, state)
        game, who = state.game, shooter(state)
        self.timers.cancel(Timer("autoroll", table_id))
        if game is None or game.position is None or who is None or state.mode != "play":
            return
        if game.dice is not None:
            plays = play_options(game.position, game.dice)  # the board's menu computed them
            if len(plays) == 1:  # forced: the bot plays it (a pass is the rules' own)
                await self._send(table_id, Move(by=who, play=plays[0]))
            return
        window = state.rules.double_window_seconds
        if (self.bot.settings.autoroll and window and not waiting_for(state)
                and not game.holds and not game.resignations):
            self.timers.after(window, Timer("autoroll", table_id),
                              partial(self._autoroll, table_id, who))

    async def _autoroll(self, table_id: str, who: str) -> None:
        """The roll goes ahead after the double window (refused if he rolled, or someone
        doubled or held meanwhile)."""
        await self._send(table_id, await self.next_roll(table_id, who))

    async def _timeout(self, table_id: str, player: str) -> None:
        await self._send(table_id, Timeout(player=player))


def _deadline(key: Timer) -> str:
    """The store's `meta` key of a timer's deadline."""
    return f"deadline:{key.table_id}:{key.kind}:{key.player}"


def _when(kept: str | None, what: str) -> str | None:
    """When a kept deadline (`"{what} {epoch}"`) runs out, if it times `what`."""
    timed, _, when = (kept or "").rpartition(" ")
    return when if timed == what and when else None
