"""Verifiable dice: each game's dice are a committed seed's stream, checked after the game."""

import asyncio
import hashlib
import sqlite3
from collections import Counter
from itertools import islice
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.app.dice import Dice, GameDice, commitment, games_dice, stream, verify
from bot.app.service import TableService
from bot.store import EventStore
from rules.board import legal_plays
from rules.commands import Move, Open, Reveal, Roll, Seat, Start
from rules.game import shooter
from rules.notation import format_play

SEED = bytes(range(32))


def recipe(seed: bytes, count: int) -> list[int]:
    """The recipe as docs/dice.md gives it to players, written out independently."""
    dice: list[int] = []
    block = 0
    while len(dice) < count:
        for byte in hashlib.sha256(seed + block.to_bytes(8, "big")).digest():
            if byte < 252:
                dice.append(byte % 6 + 1)
        block += 1
    return dice[:count]


def test_the_stream_is_the_published_recipe_and_every_face_comes_up_fairly() -> None:
    assert list(islice(stream(SEED), 500)) == recipe(SEED, 500)
    counts = Counter(islice(stream(b"fairness"), 60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    chi2 = sum((n - 10_000) ** 2 / 10_000 for n in counts.values())
    assert chi2 < 20.5  # p = 0.001 for 5 degrees of freedom


def test_the_opening_is_the_streams_first_pairs_until_they_differ() -> None:
    dice = Dice()
    seed = next(s for s in (bytes([i]) * 32 for i in range(256))
                if len(dice.opening(s)) > 1)  # a seed whose opening has a tie
    pairs = dice.opening(seed)
    flat = [d for pair in pairs for d in pair]
    assert flat == recipe(seed, len(flat))
    assert all(a == b for a, b in pairs[:-1]) and pairs[-1][0] != pairs[-1][1]
    assert dice.roll(seed, len(flat)) == recipe(seed, len(flat) + 2)[-2:]


def test_verify_names_a_tampered_die_and_a_seed_that_is_not_the_committed_one() -> None:
    dice = recipe(SEED, 40)
    assert verify(SEED.hex(), commitment(SEED), dice) == []
    tampered = [*dice[:9], dice[9] % 6 + 1, *dice[10:]]
    assert verify(SEED.hex(), commitment(SEED), tampered) == [
        f"die 10 (throw 5, second die) was {tampered[9]}; the seed gives {dice[9]}"]
    other = bytes(32)
    assert verify(other.hex(), commitment(SEED), recipe(other, 4))[0].startswith(
        f"the seed hashes to {commitment(other)}, not to the commitment")
    assert verify("zz", commitment(SEED), dice) == ["the seed 'zz' is not hexadecimal"]


async def play_a_game(service: TableService, store: EventStore, dice: Dice) -> None:
    """Open, seat and start a play-mode table as the bot does, then play the first legal
    play of every roll until the game ends."""
    for cmd in (Open(by="ann", preset="atlanta", mode="play"),
                Seat(by="ann", order=["ann", "bo", "cy"])):
        assert (await service.handle("t", cmd)).accepted
    seed = await store.events.game_seed("t", 1, dice.new_seed())
    assert seed is not None
    start = Start(by="ann", opening=dice.opening(seed), commitment=commitment(seed))
    assert (await service.handle("t", start)).accepted
    while (state := await service.state("t")).game is not None:
        game, who = state.game, shooter(state)
        assert who is not None and game.position is not None
        if game.dice is None:
            cmd = Roll(by=who, dice=dice.roll(seed, game.dice_used), die=game.dice_used)
        else:
            play = legal_plays(game.position, game.dice)[0]
            cmd = Move(by=who, play=format_play(play))
        outcome = await service.handle("t", cmd)
        assert outcome.accepted, outcome.reason
    assert (await service.handle("t", Reveal(game=1, seed=seed.hex())
                                 )).accepted


async def stored_game(db: Path) -> GameDice:
    async with EventStore(db) as store:
        await play_a_game(TableService(store), store, Dice())
        [game] = games_dice(s.event for s in await store.events.stored("t"))
        return game


def test_a_whole_game_verifies_and_a_tampered_roll_in_the_store_does_not(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "c.db"
    game = asyncio.run(stored_game(db))  # the CLI runs its own event loop
    assert game.problems() == [] and len(game.dice) > 20
    assert main(["verify", "--db", str(db), "--table", "t"]) == 0
    assert (f"game 1: OK: the seed hashes to the commitment and gives all {len(game.dice)} "
            "dice thrown") in capsys.readouterr().out
    with sqlite3.connect(db) as conn:  # someone edits a roll in the database
        version, data = conn.execute(
            "SELECT version, data FROM events WHERE type = 'Rolled' ORDER BY version "
            "LIMIT 1 OFFSET 3").fetchone()
        first = data.index('"dice":[') + len('"dice":[')
        face = int(data[first])
        data = data[:first] + str(face % 6 + 1) + data[first + 1:]
        conn.execute("UPDATE events SET data = ? WHERE version = ?", (data, version))
    assert main(["verify", "--db", str(db), "--table", "t", "--game", "1"]) == 1
    assert f"was {face % 6 + 1}; the seed gives {face}" in capsys.readouterr().out


def test_verify_from_numbers_copied_off_discord(capsys: pytest.CaptureFixture[str]) -> None:
    dice = [str(d) for d in recipe(SEED, 6)]
    args = ["verify", "--seed", SEED.hex(), "--commitment", commitment(SEED), "--dice"]
    assert main([*args, *dice]) == 0
    assert main([*args, *dice[:5], str(int(dice[5]) % 6 + 1)]) == 1
    assert "die 6 (throw 3, second die)" in capsys.readouterr().out
    assert main(["verify"]) == 2
    assert "needs --db and --table, or --seed and --commitment" in capsys.readouterr().err
