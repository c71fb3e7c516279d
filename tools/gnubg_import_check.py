"""Check that GNU Backgammon imports our game records (a developer's tool; CI never needs gnubg).

    python tools/gnubg_import_check.py [SESSIONS] [--keep DIR]

Plays SESSIONS sessions of random games through the rules (random dice, random legal plays,
some games ended by the Box doubling and every Team player dropping, the last one left
in progress), exports each session
with `bot.records.games.to_mat`, imports it with `gnubg -t` (`import mat`) and compares every turn
of every game with ours: who rolled, the dice, the Position ID before the roll, the checkers
moved, and each game's winner and points. --keep writes the .mat files into DIR.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.records import games
from rules.board import GameKind, legal_plays
from rules.cube import Side
from rules.events import Event
from rules.game import shooter, waiting_for
from rules.notation import format_play, parse_play
from rules.state import TableState, replay
from rules.table import decide
from rules.transcript import build

GAMES = 5
GNUBG_SCRIPT = """
import gnubg, json
out = open(OUT, 'w')
gnubg.command('set jacoby off')  # gnubg's default scores an unturned cube's gammon as 1
for path in json.load(open(IN)):
    gnubg.command('import mat ' + path)
    out.write(json.dumps(gnubg.match()['games'], default=list) + '\\n')
out.close()
"""


def session(rng: random.Random) -> list[Event]:
    """A session of GAMES random games at an Atlanta table of three; the last is left in
    progress (its dice rolled and not played half the time)."""
    state, events = TableState(), list[Event]()

    def do(name: str, by: str = "", **args: object) -> None:
        nonlocal state
        new = decide(state, build(name, by, **args))
        events.extend(new)
        state = replay(new, state)

    do("open", preset="atlanta", mode="play")
    for player in ("ann", "bob", "cy"):
        do("join", player)
    do("seat", order=["ann", "bob", "cy"])
    for number in range(1, GAMES + 1):
        ties = [[d, d] for d in rng.choices(range(1, 7), k=rng.choice((0, 0, 0, 1)))]
        a, b = rng.sample(range(1, 7), 2)
        do("start", opening=[*ties, [a, b]])
        drop_at = rng.choice((None, None, rng.randrange(4, 60)))
        turn, stop_at = 0, rng.randrange(5, 40) if number == GAMES else None
        while state.game is not None and turn != stop_at:
            game, who = state.game, shooter(state)
            assert game.position is not None and who is not None
            if game.dice is None:
                turn += 1
                if turn == drop_at and game.on_roll is Side.BOX:
                    do("double", who)
                    for player, _ in waiting_for(state):
                        do("drop", player)
                    continue
                do("roll", who, dice=[rng.randint(1, 6), rng.randint(1, 6)])
                continue
            play = rng.choice(legal_plays(game.position, game.dice))
            do("move", who, play=format_play(play))
    return events


def moved(pairs: Iterable[tuple[int, int]]) -> dict[int, int]:
    """How many checkers each point gained or lost (gnubg may write 7/1 1/off as 7/off)."""
    change: Counter[int] = Counter()
    for src, dst in pairs:
        change[src] -= 1
        change[dst] += 1
    return {point: n for point, n in sorted(change.items()) if n}


def compare(record: games.GameRecord, theirs: dict[str, Any]) -> list[str]:
    """What differs between our record of a game and gnubg's import of it."""
    info = theirs["info"]
    assert isinstance(info, dict)
    moves = [a for a in theirs["game"] if isinstance(a, dict) and a["action"] == "move"]
    ours = [t for t in record.turns if t.play is not None]
    diffs = []
    if len(moves) != len(ours):
        diffs.append(f"{len(ours)} turns, gnubg has {len(moves)}")
    for n, (turn, move) in enumerate(zip(ours, moves, strict=False), 1):
        assert turn.dice is not None and turn.play is not None
        side = "X" if turn.side is Side.BOX else "O"
        play = parse_play(turn.play or "pass", turn.position, turn.dice)
        got = (move["player"], sorted(move["dice"]), move["board"],
               moved([(a, max(b, 0)) for a, b in move["move"]]))
        want = (side, sorted(turn.dice), turn.position_id,
                moved((m.src, m.dst) for m in play.moves))
        if got != want:
            diffs.append(f"turn {n}: gnubg {got}, ours {want}")
    if record.winner is not None and record.kind is not None:
        got_result = (info.get("winner"), info.get("points-won"))
        want_result = ("X" if record.winner is Side.BOX else "O",
                       GameKind[record.kind.upper()].value)
        if got_result != want_result:
            diffs.append(f"result: gnubg {got_result}, ours {want_result}")
    return diffs


def main() -> int:
    args = sys.argv[1:]
    keep = Path(args.pop(args.index("--keep") + 1)) if "--keep" in args else None
    args = [a for a in args if a != "--keep"]
    count = int(args[0]) if args else 20
    rng = random.Random(7)
    sessions = [games.games(session(rng)) for _ in range(count)]
    with tempfile.TemporaryDirectory() as tmp:
        folder = keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        paths = []
        for n, played in enumerate(sessions, 1):
            paths.append(str(folder / f"session{n}.mat"))
            Path(paths[-1]).write_text(games.to_mat(played))
        src, dst, script = Path(tmp, "in.json"), Path(tmp, "out.jsonl"), Path(tmp, "g.py")
        src.write_text(json.dumps(paths))
        script.write_text(f"IN = {str(src)!r}\nOUT = {str(dst)!r}\n" + GNUBG_SCRIPT)
        subprocess.run(["gnubg", "-t", "-q", "-p", str(script)], check=True,
                       capture_output=True, env={"PATH": "/usr/games:/usr/bin:/bin"})
        imported = [json.loads(line) for line in dst.read_text().splitlines()]
    n_games = turns = bad = 0
    for path, ours, theirs in zip(paths, sessions, imported, strict=True):
        if len(ours) != len(theirs):
            bad += 1
            print(f"{path}: {len(ours)} games, gnubg imported {len(theirs)}")
        for record, game in zip(ours, theirs, strict=False):
            n_games += 1
            turns += sum(t.play is not None for t in record.turns)
            diffs = compare(record, game)
            bad += bool(diffs)
            for diff in diffs[:3]:
                print(f"{path} game {record.number}: {diff}")
    ended = [r for s in sessions for r in s if r.kind]
    kinds = [r.kind for r in ended]
    dropped = sum(r.position.outcome() is None for r in ended)
    print(f"{count} sessions, {n_games} games ({kinds.count('gammon')} gammons, "
          f"{kinds.count('backgammon')} backgammons, {dropped} ended by the cubes, "
          f"{n_games - len(ended)} in progress), {turns} turns compared with gnubg's import: "
          f"{bad} games differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
