"""The Discord side of GNU Backgammon's verdict (issue 21), on real analyses: gnubg itself
at 0 ply through the worker (no mock), on tests/analysis/data/chouette.jsonl.

- a played game rebuilt from its events is the transcript that was played;
- the post-game message: each player's checker and cube figures apart, gnubg's error rate,
  the worst error named, names escaped;
- the command's list and one error on its board with gnubg's numbers;
- the queue: a game over is analysed, stored and posted once; a crash before the post, or
  during the analysis, is made good at the next start.
"""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from analysis.decisions import find
from bot.analysis.queue import AnalysisQueue, AnalysisStore, Stored
from bot.analysis.text import ERROR, Figures, figures, phrase, post_game, totals, what, worst
from bot.analysis.transcript import ended_games, transcripts
from bot.analysis.view import answer
from bot.analysis.worker import analyse_game
from bot.app.scenario import apply
from bot.render.board import board_png
from bot.store import EventStore
from bot.words.markdown import escape
from rules.board import legal_plays
from rules.game import shooter
from rules.notation import format_play
from rules.state import TableState, replay
from rules.table import decide
from rules.transcript import parse

DATA = Path(__file__).parents[1] / "analysis" / "data"
CHOUETTE = (DATA / "chouette.jsonl").read_text().splitlines()
NAMES = {"Ann": "**Ann_**", "Bob": "Bob", "Cy": "@Cy"}  # markdown in names: escaped


def shown(player: str) -> str:
    return escape(NAMES.get(player, player))


@pytest.fixture(scope="module")
def result() -> dict[str, Any]:
    return asyncio.run(analyse_game(CHOUETTE, 0))


def session(seed: int, games: int = 2) -> list[str]:
    """A play-mode session of `games` games at a table of three: random legal plays, the
    Captain doubling now and then and the Box taking."""
    rng, state, lines = random.Random(seed), TableState(), list[str]()

    def do(data: dict[str, object]) -> bool:
        nonlocal state
        try:
            state = replay(decide(state, parse(data)), state)
        except Exception:
            return False
        lines.append(json.dumps(data))
        return True

    do({"cmd": "open", "preset": "atlanta", "mode": "play"})
    do({"cmd": "seat", "order": ["ann", "bob", "cy"]})
    for _ in range(games):
        do({"cmd": "start", "opening": [[rng.randint(1, 3), rng.randint(4, 6)]]})
        for _ in range(2000):
            game, seating = state.game, state.seating
            if game is None or game.position is None or seating is None:
                break
            who = shooter(state)
            if game.dice is None:
                captain = seating.team[0]
                if (who == captain and rng.random() < 0.1
                        and do({"cmd": "double", "by": captain})):
                    do({"cmd": "answer", "by": seating.box, "take": [captain]})
                do({"cmd": "roll", "by": who, "dice": [rng.randint(1, 6), rng.randint(1, 6)]})
            elif plays := legal_plays(game.position, game.dice):
                do({"cmd": "move", "by": who, "play": format_play(rng.choice(plays))})
    return lines


def test_a_game_rebuilt_from_its_events_is_the_game_played() -> None:
    _, events, _ = apply(CHOUETTE)
    assert ended_games(events) == [1]
    assert find(transcripts(events, [1])[1])[0] == find(CHOUETTE)[0]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_game_of_a_session_is_rebuilt_on_its_own(seed: int) -> None:
    lines = session(seed)
    _, events, rejected = apply(lines)
    assert not rejected and ended_games(events) == [1, 2]
    every = find(lines)[0]
    for number in (1, 2):
        alone = find(transcripts(events, [number])[number])[0]
        assert [d.__dict__ | {"game": 0} for d in alone] == [
            d.__dict__ | {"game": 0} for d in every if d.game == number]
        assert alone


def test_the_post_game_message_keeps_checker_and_cube_figures_apart(
        result: dict[str, Any]) -> None:
    text = post_game(result, 3, 0, shown)
    lines = text.splitlines()
    assert lines[0].startswith("**GNU Backgammon on game 3** (0-ply")
    assert len(lines) == 5 and len(text) < 600  # a heading, three players, the worst
    found = totals(result)
    for player, summary in result["players"].items():
        (line,) = [x for x in lines if x.startswith(shown(player) + ": ")]
        checker, cube = found[player]
        # gnubg's statistics: close or actual cube decisions, the rate with gnubg's sign
        assert cube.decisions == summary["cube_close"]
        assert f"cube {cube.errors} error" in line
        assert f"-{cube.loss:.3f}, {summary['rates']['cube']:.1f} mEMG" in line
        assert line.endswith(f" · overall {summary['rates']['overall']:.1f} mEMG "
                             f"({summary['rating']})")
        if summary["moves"]:
            assert f"checker {checker.errors} error" in line and line.index("checker") < (
                line.index("cube"))
        else:
            assert "checker" not in line
    bad = worst(result["decisions"])
    assert bad is not None and bad["loss"] == max(d["loss"] for d in result["decisions"])
    assert lines[-1] == f"Worst: {phrase(bad, shown)} (very bad)"
    # Ann dropped Bob's double to 4 (Bob owned his cube at 2): gnubg would have beavered
    assert lines[-1].startswith(r"Worst: \*\*Ann\_\*\*: dropped Bob's 4-cube that was a "
                                "beaver, -1.1")
    assert "@\u200bCy" in text and "@Cy" not in text


def test_errors_count_from_gnubgs_doubtful_and_rate_per_decision(
        result: dict[str, Any]) -> None:
    """gnubg's counting: Cy's first "no double" is not close (left out); his double and his
    drop are actual decisions, and so is his take of Ann's beaver (not in the decisions
    list: gnubg counts it as a take of his own double, losing nothing)."""
    checker, cube = totals(result)["Cy"]
    cy = [d for d in result["decisions"] if d["player"] == "Cy"]
    assert [d["played"] for d in cy] == ["no double", "double", "drop"]
    assert checker.decisions == 0 and cube.decisions == 3
    assert figures(result["decisions"], "Cy")[1].decisions == 2  # the listed ones
    assert cube.errors == sum(d["loss"] >= ERROR for d in cy)
    assert cube.rate == pytest.approx(sum(d["loss"] for d in cy) / 3 * 1000, abs=1e-3)


def test_the_command_lists_a_players_errors_and_shows_one_on_its_board(
        result: dict[str, Any]) -> None:
    _, events, _ = apply(CHOUETTE)
    state = replay(events)
    stored = {1: Stored(1, 0, result, True)}
    first = answer(state, events, stored, 1, "Bob", None)
    lines = first.text.splitlines()
    assert lines[0].startswith("**GNU Backgammon on game 1** (0-ply")
    errors = [x for x in lines if x.startswith("`")]
    bob = [d for d in result["decisions"] if d["player"] == "Bob" and d["loss"] >= 0.0005]
    assert len(errors) == len(bob) and all(" Bob " in x for x in errors)
    assert first.board is not None and board_png(first.board).startswith(b"\x89PNG")
    # error 1 is Bob's 6-3 (8/5 8/2*): gnubg's five best plays and his, with its rank
    one = answer(state, events, stored, 1, "Bob", 1)
    assert "**Error 1** (very bad): gnubg at 0-ply, best plays: 1. 24/15 " in one.text
    assert "Played: 8/5 8/2* -0.384 (rank 14)" in one.text
    # a cube decision: ND / DT / DP as gnubg gives them
    double = next(i for i, d in enumerate(bob, 1) if d["kind"] == "double")
    d = bob[double - 1]["details"]
    cube = answer(state, events, stored, 1, "Bob", double).text
    assert (f"No double {d['nd']:+.3f} · Double, take {d['dt']:+.3f} · Double, pass "
            f"{d['dp']:+.3f}") in cube
    assert "There is no error 99 in this list" in answer(state, events, stored, 1, "Bob",
                                                         99).text


async def test_a_game_over_is_analysed_stored_and_posted_once(tmp_path: Path) -> None:
    _, events, _ = apply(CHOUETTE)
    posts: list[tuple[str, int, str]] = []

    async def post(table: str, game: int, text: str) -> None:
        posts.append((table, game, text))

    async def states(table: str) -> TableState:
        return replay(events)

    async with EventStore(tmp_path / "c.db") as store:
        await store.events.append("t1", 0, events[:-5], None, None)  # the game not over yet
        queue = AnalysisQueue(store, states, post, plies=0)
        await queue.resume()
        queue.start()
        await queue.idle.wait()
        assert posts == [] and await AnalysisStore(store).games("t1") == {}
        await queue.notice("t1", replay(events[:-5]))
        await store.events.append("t1", len(events) - 5, events[-5:], None, None)  # now it is
        await queue.notice("t1", replay(events))
        await asyncio.wait_for(queue.idle.wait(), 60)
        assert [(t, g) for t, g, _ in posts] == [("t1", 1)]
        assert posts[0][2].startswith("**GNU Backgammon on game 1** (0-ply")
        (row,) = (await AnalysisStore(store).games("t1")).values()
        assert row.posted and row.plies == 0 and row.result["players"]
        await queue.close()

        # a restart: nothing posted twice
        again = AnalysisQueue(store, states, post, plies=0)
        await again.resume()
        again.start()
        await asyncio.wait_for(again.idle.wait(), 60)
        assert len(posts) == 1

        # killed after the verdict was stored and before it was posted: posted at start;
        # killed while analysing (nothing stored): analysed and posted at start
        await store.db.execute("UPDATE analyses SET posted = 0")
        await store.events.append("t2", 0, events, None, None)
        third = AnalysisQueue(store, states, post, plies=0)
        await third.resume()
        third.start()
        await asyncio.wait_for(third.idle.wait(), 60)
        assert sorted((t, g) for t, g, _ in posts[1:]) == [("t1", 1), ("t2", 1)]
        assert posts[1][2] == posts[0][2]  # the same message (and the same nonce in #board)
        await third.close()


async def test_without_the_extra_nothing_is_queued(tmp_path: Path,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    _, events, _ = apply(CHOUETTE)

    async def post(table: str, game: int, text: str) -> None:
        raise AssertionError("nothing is posted")

    async def states(table: str) -> TableState:
        return replay(events)

    async with EventStore(tmp_path / "c.db") as store:
        await store.events.append("t1", 0, events, None, None)
        queue = AnalysisQueue(store, states, post, plies=0)
        queue.enabled = False  # as without the analysis extra (`available()` is False)
        with caplog.at_level("INFO"):
            await queue.resume()
        queue.start()
        await queue.notice("t1", replay(events))
        assert queue.idle.is_set() and await AnalysisStore(store).games("t1") == {}
        (line,) = [r.getMessage() for r in caplog.records if "not installed" in r.getMessage()]
        assert "pip install -e '.[analysis]'" in line


async def test_the_sessions_figures_follow_the_final_sheet_once(
        tmp_path: Path, result: dict[str, Any]) -> None:
    _, events, _ = apply([*CHOUETTE, '{"cmd": "end_session"}'])
    posts: list[tuple[str, int, str]] = []

    async def post(table: str, game: int, text: str) -> None:
        posts.append((table, game, text))

    async def states(table: str) -> TableState:
        return replay(events)

    async with EventStore(tmp_path / "c.db") as store:
        await store.events.append("t1", 0, events[:-1], None, None)
        queue = AnalysisQueue(store, states, post, plies=0)
        queue.start()
        await queue.notice("t1", replay(events[:-1]))  # the game over: its verdict
        await asyncio.wait_for(queue.idle.wait(), 60)
        await store.events.append("t1", len(events) - 1, events[-1:], None, None)
        await queue.notice("t1", replay(events))  # the session over: its figures
        await asyncio.wait_for(queue.idle.wait(), 60)
        assert [g for _, g, _ in posts] == [1, 0]
        text = posts[1][2]
        assert text.startswith("**GNU Backgammon over the session** (game 1, 0-ply")
        game = posts[0][2].splitlines()
        for player in ("Ann", "Bob", "Cy"):  # one game: the same figures as the game's
            assert [x for x in text.splitlines() if x.startswith(player + ": ")] == [
                x for x in game if x.startswith(player + ": ")]
        assert "Worst: game 1, Ann: dropped Bob's 4-cube" in text
        await queue.close()
        again = AnalysisQueue(store, states, post, plies=0)  # a restart: nothing twice
        await again.resume()
        again.start()
        await asyncio.wait_for(again.idle.wait(), 60)
        assert len(posts) == 2


def test_the_post_game_message_in_danish(result: dict[str, Any]) -> None:
    text = post_game(result, 3, 0, shown, "da")
    lines = text.splitlines()
    assert lines[0] == ("**GNU Backgammon om spil 3** (0-ply; fejl er tab på 0.030 eller mere; "
                        "`/chouette analysis` for detaljerne)")
    checker, cube = totals(result)["Bob"]
    (bob,) = [x for x in lines if x.startswith("Bob: ")]
    assert bob.startswith(f"Bob: brikker {checker.errors} fejl i {checker.decisions}, -")
    assert f" · doblingsterning {cube.errors} fejl i {cube.decisions}, -" in bob
    assert lines[-1].startswith(r"Værst: \*\*Ann\_\*\*: afviste Bobs 4-doblingsterning, hvor det "
                                "rigtige var at beavere, -1.1")
    assert lines[-1].endswith(" (meget dårlig)")
    assert len(lines) == len(post_game(result, 3, 0, shown).splitlines())


def test_the_command_answers_in_the_readers_language(result: dict[str, Any]) -> None:
    _, events, _ = apply(CHOUETTE)
    state = replay(events)
    stored = {1: Stored(1, 0, result, True)}
    one = answer(state, events, stored, 1, "Bob", 1, "da")
    assert one.text.startswith("**GNU Backgammon om spil 1** (0-ply; hvert tab i equity")
    assert "**Fejl 1** (meget dårlig): gnubg på 0-ply, bedste træk: 1. 24/15 " in one.text
    assert "Spillet: 8/5 8/2* -0.384 (nr. 14)" in one.text
    assert one.board is not None and one.board != answer(state, events, stored, 1, "Bob", 1).board
    assert "Der er ingen fejl 99 på denne liste" in answer(state, events, stored, 1, "Bob",
                                                           99, "da").text


async def test_the_posts_are_in_the_tables_language(tmp_path: Path) -> None:
    _, events, _ = apply([*CHOUETTE, '{"cmd": "end_session"}'])
    posts: list[str] = []

    async def post(table: str, game: int, text: str) -> None:
        posts.append(text)

    async def states(table: str) -> TableState:
        return replace(replay(events), language="da")

    async with EventStore(tmp_path / "c.db") as store:
        await store.events.append("t1", 0, events, None, None)
        queue = AnalysisQueue(store, states, post, plies=0)
        await queue.resume()
        queue.start()
        await asyncio.wait_for(queue.idle.wait(), 60)
        await queue.notice("t1", await states("t1"))
        await asyncio.wait_for(queue.idle.wait(), 60)
        assert [p.splitlines()[0][:30] for p in posts] == [
            "**GNU Backgammon om spil 1** (", "**GNU Backgammon over sessione"]
        assert "Værst: spil 1, Ann: afviste Bobs 4-doblingsterning" in posts[1]
        await queue.close()


def test_a_cube_takes_its_article_and_a_rate_gnubgs_sign() -> None:
    """"an 8-cube", "a 16-cube"; a loss and its rate with one sign, as gnubg prints them."""
    def dropped(value: int) -> str:
        return what({"kind": "take", "player": "Cy", "played": "drop", "best": "take",
                     "cube": {"team": "Cy", "value": value // 2, "owner": "box"}}, str)
    assert [dropped(v) for v in (2, 8, 16, 8192)] == [
        f"dropped {a} {v}-cube that was a take"
        for a, v in (("a", 2), ("an", 8), ("a", 16), ("an", 8192))]
    assert Figures(4, 1, 0.1).text("cube") == "cube 1 error in 4, -0.100, -25.0 mEMG"
    assert Figures(4, 0, 0.0).per_decision == "0.0 mEMG"
