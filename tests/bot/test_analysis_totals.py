"""Each player's figures of each verdict kept beside it (`analysis_totals`, migration 8) for
`/chouette stats`, on a real verdict (gnubg at 0 ply through the worker, no mock) and on both
store backends: the totals are the post-game message's figures, summed per server and
depth; verdicts stored before migration 8 are totalled once at start-up; the session's
figures posted are a flag of the table (migration 10), no longer a game-0 row."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from bot.analysis.queue import AnalysisQueue, AnalysisStore
from bot.analysis.text import Figures, figures, player_lines, totals
from bot.analysis.worker import analyse_game
from bot.store import Channels, EventStore
from bot.store import database as store_module
from bot.store.migrations import MIGRATIONS
from rules.state import TableState
from rules.table_events import PlayerJoined

DATA = Path(__file__).parents[1] / "analysis" / "data"
CHOUETTE = (DATA / "chouette.jsonl").read_text().splitlines()


@pytest.fixture(scope="module")
def result() -> dict[str, Any]:
    return asyncio.run(analyse_game(CHOUETTE, 0))


def twice(f: Figures) -> Figures:
    return f + f


def same(a: Figures, b: Figures) -> bool:
    return (a.decisions, a.errors) == (b.decisions, b.errors) and a.loss == pytest.approx(
        b.loss, abs=1e-9)


def test_a_verdicts_totals_are_the_post_game_messages_figures(result: dict[str, Any]) -> None:
    found = totals(result)
    assert list(found) == ["Ann", "Bob", "Cy"]  # everyone who decided, as the message lists
    for player, (checker, cube) in found.items():
        summary = result["players"][player]  # gnubg's statistics, as contract 5 gives them
        assert (checker.decisions, cube.decisions) == (summary["unforced"],
                                                       summary["cube_close"])
        assert checker.loss == pytest.approx(summary["move_loss"], abs=1e-9)
        if cube.decisions:
            assert -cube.rate == pytest.approx(summary["rates"]["cube"], abs=1e-6)
        # the errors are those of the listed decisions gnubg counts
        listed = figures(result["decisions"], player)
        assert (checker.errors, cube.errors) == (listed[0].errors, listed[1].errors)
    bob_checker, bob_cube = found["Bob"]
    assert bob_checker.decisions and bob_cube.decisions and found["Cy"][0].decisions == 0
    line = next(x for x in player_lines(found, str) if x.startswith("Bob: "))
    assert f"{bob_checker.per_decision} · cube" in line  # the message's own words
    assert totals({"error": "gnubg stopped"}) == {}


async def test_stored_verdicts_are_summed_per_server_and_depth(
        target: Path | str, result: dict[str, Any]) -> None:
    checker, cube = totals(result)["Bob"]
    async with EventStore(target) as store:
        for table, guild in (("t1", 10), ("t2", 10), ("t3", 20)):
            await store.channels.save(Channels(table, guild, 1, 2, 3, 4, 5))
        rows = AnalysisStore(store)
        await rows.save("t1", 1, 0, result)
        await rows.save("t1", 2, 0, {"error": "gnubg stopped"})  # no figures
        await rows.save("t2", 1, 2, result)  # another depth: mixed
        await rows.save("t3", 1, 0, result)  # another server
        await rows.save("t1", 1, 4, {"decisions": []})  # the first kept stands
        await store.events.append("t1", 0, (PlayerJoined("Bob"),), None, None)
        assert not await rows.summed("t1")
        await rows.sum_posted("t1")  # the session's figures: a flag of the table, no game
        assert await rows.summed("t1") and list(await rows.games("t1")) == [1, 2]

        here = await rows.analysed("Bob", guild_id=10)
        assert dict(here.depths) == {0: 1, 2: 1} and here.games == 2
        assert same(here.checker, twice(checker)) and same(here.cube, twice(cube))
        assert here.checker.per_decision == checker.per_decision  # the same rate, twice over
        there = await rows.analysed("Bob", guild_id=20)
        assert dict(there.depths) == {0: 1} and same(there.cube, cube)
        everywhere = await rows.analysed("Bob")
        assert everywhere.games == 3 and same(everywhere.checker, twice(checker) + checker)
        cy = await rows.analysed("Cy", guild_id=10)
        assert cy.checker.decisions == 0 and cy.cube.decisions == 2 * cube_of(result, "Cy")
        every = await rows.players(guild_id=10)  # every player at once, the same sums
        assert list(every) == ["Ann", "Bob", "Cy"] and every["Bob"] == here
        assert (await rows.players())["Bob"] == everywhere
        nobody = await rows.analysed("Di", guild_id=10)
        assert (nobody.games, nobody.checker, nobody.cube) == (0, Figures(), Figures())
        assert await rows.backfill() == 0  # every verdict was totalled when stored


def cube_of(result: dict[str, Any], player: str) -> int:
    return totals(result)[player][1].decisions


async def test_verdicts_stored_before_migration_8_are_totalled_when_first_read(
        target: Path | str, result: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as schema_7:  # the bot before this migration
        schema_7.setattr(store_module, "MIGRATIONS", MIGRATIONS[:7])
        async with EventStore(target) as old:
            await old.channels.save(Channels("t1", 10, 1, 2, 3, 4, 5))
            await old.db.executemany(
                "INSERT INTO analyses (table_id, game, plies, result, posted) "
                "VALUES (?, ?, ?, ?, 1)",
                [("t1", 1, 0, json.dumps(result)), ("t1", 2, 2, json.dumps(result)),
                 ("t1", 3, 0, json.dumps({"error": "gnubg stopped"})),
                 ("t1", 0, 0, '{"session": true}')])
    async with EventStore(target) as store:  # migrated to 8: nothing totalled yet
        assert await store.db.execute_fetchall("SELECT COUNT(*) FROM analysis_totals") == [
            (0,)]
        rows = AnalysisStore(store)
        assert (await rows.analysed("Ann", guild_id=10)).games == 0  # a read totals nothing
        queue = AnalysisQueue(store, no_states, no_post, plies=0)
        queue.enabled = False  # the figures are totalled without the analysis extra too
        await queue.resume()  # at start-up: totalled
        ann = await rows.analysed("Ann", guild_id=10)
        checker, cube = totals(result)["Ann"]
        assert dict(ann.depths) == {0: 1, 2: 1}
        assert same(ann.checker, twice(checker)) and same(ann.cube, twice(cube))
        assert await store.db.execute_fetchall(  # (game 0 is gone: migration 10)
            "SELECT game, totalled FROM analyses ORDER BY game") == [(1, 1), (2, 1), (3, 1)]
        assert await rows.backfill() == 0  # once
        assert (await rows.analysed("Ann", guild_id=10)) == ann


async def no_states(table: str) -> TableState:
    raise AssertionError("no table is looked at")


async def no_post(table: str, game: int, text: str) -> None:
    raise AssertionError("nothing is posted")


async def test_the_session_rows_of_game_0_become_a_flag_of_the_table(
        target: Path | str, result: dict[str, Any],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Migration 10: "the session's figures are posted" was a row of `analyses` for game 0,
    which every query of verdicts stepped over; it is `tables.figures_posted`."""
    with monkeypatch.context() as schema_9:  # the bot before this migration
        schema_9.setattr(store_module, "MIGRATIONS", MIGRATIONS[:9])
        async with EventStore(target) as old:
            for table in ("t1", "t2"):
                await old.events.append(table, 0, (PlayerJoined("Ann"),), None, None)
            await old.db.executemany(
                "INSERT INTO analyses (table_id, game, plies, result, posted, totalled) "
                "VALUES (?, ?, ?, ?, 1, ?)",
                [("t1", 0, 0, '{"session": true}', 1), ("t1", 1, 0, json.dumps(result), 0),
                 ("t2", 1, 2, json.dumps(result), 0)])
    async with EventStore(target) as store:
        rows = AnalysisStore(store)
        assert await rows.summed("t1") and not await rows.summed("t2")
        assert await store.db.execute_fetchall("SELECT COUNT(*) FROM analyses WHERE "
                                               "game = 0") == [(0,)]
        assert list(await rows.games("t1")) == [1] and list(await rows.games("t2")) == [1]
        assert await rows.backfill() == 2  # the game-0 row was never a verdict to total
        assert (await rows.analysed("Ann")).games == 2
        await rows.sum_posted("t2")
        assert await rows.summed("t2")
