"""Player statistics: a two-session history worked out by hand, a transcript's sheet, the
store (a guild's tables, the cache of closed tables), `python -m bot stats` (with GNU
Backgammon's figures of a real verdict, on both store backends) and a player's figures per
session (`Analyses.sessions`, for `/chouette stats`)."""

import asyncio
import hashlib
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.analysis.queue import AnalysisStore
from bot.analysis.text import totals
from bot.analysis.worker import analyse_game
from bot.app.scenario import run_stored
from bot.app.service import TableService
from bot.records.stats import PlayerStats, fold, read_stats, session_stats
from bot.store import Channels, EventStore, StoredEvent
from rules.commands import (
    Answer,
    Command,
    Double,
    EndSession,
    Join,
    Open,
    Partner,
    Result,
    Seat,
    Start,
)
from rules.state import TableState, replay
from rules.table import decide
from rules.table_events import PlayerJoined

SCENARIOS = Path(__file__).parents[1] / "scenarios"
CHOUETTE = Path(__file__).parents[1] / "analysis" / "data" / "chouette.jsonl"

# Session 1 (Atlanta, scorekeeper): Ann Box, Bo Captain, Cy. G1 the Team wins a gammon on
# untouched cubes (Jacoby: single): Ann pays Bo 1 and Cy 1; Bo is Box. G2 Cy (Captain)
# doubles, Bo takes, the Box wins: Cy pays 2, Ann 1. Totals Ann -3, Bo +4, Cy -1.
SESSION_1 = [
    Open(preset="atlanta", mode="scorekeeper"),
    Join(by="1", name="Ann"), Join(by="2", name="Bo"),
    Join(by="3", name="Cy"),
    Seat(order=["1", "2", "3"]),
    Start(), Result(winner="team", kind="gammon"),
    Start(), Double(by="3"), Answer(by="2", take=["3"]),
    Result(winner="box"),
    EndSession(by="1"),
]
# Session 2 (halves kept): Bob Box, Di Partner, Ann Captain, Cy at double stakes. The Box
# wins a gammon (Jacoby: single): Ann pays 1, Cy 2, shared 3/2 and 3/2. A second game is
# still being played: it counts for nothing yet.
SESSION_2 = [
    Open(preset="atlanta", mode="scorekeeper", options={
        "odd_point": "keep_halves", "whole_points": False, "partner_min_players": 4}),
    Join(by="2", name="Bob"), Join(by="1", name="Ann"),
    Join(by="3", stake=2), Join(by="4", name="Di"),
    Seat(order=["2", "1", "3", "4"]),
    Partner(by="2", player="4"),
    Start(), Result(winner="box", kind="gammon"),
    Start(),
]


def stored(commands: list[Command], start: int) -> list[StoredEvent]:
    """The events of `commands`, as the store returns them, one a second from `start`."""
    state, events = TableState(), list[StoredEvent]()
    for command in commands:
        new = decide(state, command)
        state = replay(new, state)
        events += [StoredEvent(len(events) + 1, start + len(events), e) for e in new]
    return events


def history() -> dict[str, PlayerStats]:
    return fold([session_stats(stored(SESSION_1, 1000)), session_stats(stored(SESSION_2, 9000))])


def test_two_sessions_worked_out_by_hand() -> None:
    stats = history()
    ann, bo, cy, di = (stats[k] for k in "1234")
    assert (ann.name, bo.name, cy.name, di.name) == ("Ann", "Bob", "Cy", "Di")
    assert [(s.sessions, s.games, s.boxes, s.captain, s.partner) for s in (ann, bo, cy, di)] == [
        (2, 3, 1, 1, 0), (2, 3, 2, 1, 0), (2, 3, 0, 1, 0), (1, 1, 0, 0, 1)]
    assert [(s.won, s.lost, s.gammons_won, s.gammons_lost) for s in (ann, bo, cy, di)] == [
        (0, 3, 0, 2), (3, 0, 2, 0), (1, 2, 1, 1), (1, 0, 1, 0)]
    assert [s.points for s in (ann, bo, cy, di)] == [-4, Fraction(11, 2), -3, Fraction(3, 2)]
    assert sum(s.points for s in stats.values()) == 0
    assert (bo.best_session, bo.worst_session) == (4, Fraction(3, 2))
    assert (ann.best_session, ann.worst_session) == (-1, -3)
    assert cy.stakes == {1: 2, 2: 1} and di.stakes == {1: 1}
    # Session 2 has 10 events (opened, 4 joins, 2 seatings, started, ended, started).
    assert (ann.first_played, di.first_played, di.last_played) == (1000, 9000, 9009)


def test_a_player_who_never_played_has_no_record() -> None:
    assert "5" not in history()
    assert fold([]) == {}


async def test_a_transcripts_points_are_its_sheet(tmp_path: Path) -> None:
    await run_stored((SCENARIOS / "atlanta.jsonl").read_text(), tmp_path / "db.sqlite3")
    async with EventStore(tmp_path / "db.sqlite3") as store:
        stats = await read_stats(store)
    expected = json.loads((SCENARIOS / "atlanta.expected.json").read_text())["scores"]
    assert {k: s.points for k, s in stats.items()} == expected
    assert {k: (s.games, s.boxes, s.partner) for k, s in stats.items()} == {
        "Ann": (6, 3, 0), "Bob": (6, 2, 0), "Cy": (6, 0, 0), "Dee": (6, 0, 0),
        "Eve": (6, 1, 2), "Fay": (2, 0, 0)}
    assert stats["Dee"].stakes == {2: 6}


async def test_read_stats_keeps_to_the_guild_and_caches_closed_tables(tmp_path: Path) -> None:
    async with EventStore(tmp_path / "db.sqlite3") as store:
        service = TableService(store)
        for table, commands in (("t1", SESSION_1), ("t2", SESSION_2), ("t3", SESSION_1)):
            for n, command in enumerate(commands):
                assert (await service.handle(table, command, key=f"k{n}")).accepted
        for table, guild in (("t1", 10), ("t2", 10), ("t3", 20)):
            await store.channels.save(Channels(table, guild, 1, 2, 3, 4, 5))
        cache: dict[str, dict[str, PlayerStats]] = {}
        here = await read_stats(store, guild_id=10, cache=cache)
        assert {k: s.points for k, s in here.items()} == {k: s.points
                                                          for k, s in history().items()}
        assert set(cache) == {"t1"}  # t2 is still open: read again next time
        await service.handle("t2", Result(winner="team"), key="more")
        again = await read_stats(store, guild_id=10, player="4", cache=cache)
        assert list(again) == ["4"] and again["4"].games == 2
        assert await read_stats(store, guild_id=10, player="5") == {}
        everywhere = await read_stats(store)
        assert everywhere["1"].sessions == 3


@pytest.fixture(scope="module")
def verdict() -> dict[str, Any]:
    """GNU Backgammon's real verdict (0 ply, through the worker) on the chouette transcript."""
    return asyncio.run(analyse_game(CHOUETTE.read_text().splitlines(), 0))


def test_the_command_line_prints_json(target: Path | str, verdict: dict[str, Any],
                                      tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    db = str(target)
    for transcript in (SCENARIOS / "atlanta.jsonl", CHOUETTE):
        assert main(["scenario", str(transcript), "--db", db]) == 0
    capsys.readouterr()
    table = "scenario-" + hashlib.sha256(CHOUETTE.read_bytes()).hexdigest()[:16]

    async def analysed() -> None:  # as the bot's queue keeps it: game 1, at 0 ply
        async with EventStore(target) as store:
            await AnalysisStore(store).save(table, 1, 0, verdict)
    asyncio.run(analysed())

    assert main(["stats", "--db", db, "--player", "Eve"]) == 0
    eve = json.loads(capsys.readouterr().out)["Eve"]
    assert (eve["name"], eve["games"], eve["partner"], eve["points"]) == ("Eve", 6, 2, 0)
    nothing = {"decisions": 0, "errors": 0, "loss": 0, "rate": None}
    assert eve["analysis"] == {"games": 0, "plies": {}, "checker": nothing, "cube": nothing}
    assert main(["stats", "--db", db]) == 0
    everyone = json.loads(capsys.readouterr().out)
    assert everyone["Bob"]["games"] == 7  # six at the Atlanta table, one analysed here
    for player in ("Ann", "Bob", "Cy"):
        checker, cube = totals(verdict)[player]
        shown = everyone[player]["analysis"]
        assert (shown["games"], shown["plies"]) == (1, {"0": 1})
        for mine, figure in ((shown["checker"], checker), (shown["cube"], cube)):
            assert (mine["decisions"], mine["errors"]) == (figure.decisions, figure.errors)
            assert mine["loss"] == pytest.approx(figure.loss, abs=1e-6)
            if figure.decisions:  # the rate /chouette stats writes, as a number (gnubg's sign)
                assert f"{mine['rate']:.1f} mEMG" == figure.per_decision
            else:
                assert mine["rate"] is None
    assert everyone["Bob"]["analysis"]["checker"]["decisions"] > 0
    assert main(["stats", "--db", str(tmp_path / "none.sqlite3")]) == 2
    assert "no database" in capsys.readouterr().err


async def test_a_players_figures_per_session_from_stored_analyses(
        target: Path | str, verdict: dict[str, Any]) -> None:
    """`Analyses.sessions`: one row a table (a session) of the server, oldest first (by
    when the table was opened), its analysed games and the figures summed as stored: the
    post-game message's figures (`totals`), added game by game."""
    checker, cube = totals(verdict)["Bob"]
    async with EventStore(target) as store:
        for table, guild, opened in (("new", 10, 3000), ("old", 10, 1000), ("far", 20, 2000)):
            await store.channels.save(Channels(table, guild, 1, 2, 3, 4, 5))
            await store.events.append(table, 0, (PlayerJoined("Bob"),), None, None)
            await store.db.execute("UPDATE tables SET created = ? WHERE id = ?",
                                   (opened, table))
        rows = AnalysisStore(store)
        await rows.save("new", 1, 0, verdict)
        await rows.save("new", 2, 2, verdict)  # another depth: the same session
        await rows.save("new", 3, 0, {"error": "gnubg stopped"})  # no figures
        await rows.save("old", 1, 0, verdict)
        await rows.save("far", 1, 0, verdict)  # another server

        here = await store.analyses.sessions(10, "Bob")
        assert [(table, opened, games) for table, opened, games, _ in here] == [
            ("old", 1000, 1), ("new", 3000, 2)]
        old, new = (figures for _, _, _, figures in here)
        assert old == ("Bob", checker.decisions, checker.errors, pytest.approx(checker.loss),
                       cube.decisions, cube.errors, pytest.approx(cube.loss))
        assert new == ("Bob", 2 * checker.decisions, 2 * checker.errors,
                       pytest.approx(2 * checker.loss), 2 * cube.decisions, 2 * cube.errors,
                       pytest.approx(2 * cube.loss))
        assert [t for t, *_ in await store.analyses.sessions(None, "Bob")] == [
            "old", "far", "new"]  # every server's
        assert await store.analyses.sessions(10, "Di") == []
