"""Game records: turns, Position IDs and the .mat text of games played through the rules;
`python -m bot export` from a transcript and from the event store."""

import asyncio
import hashlib
import itertools
import json
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.app import scenario
from bot.records import cubes, games
from bot.records.games import HEADER, RecordError
from rules.board import Position
from rules.commands import Roll
from rules.cube import Cube, Side
from rules.events import Event, GameStarted, Rolled
from rules.notation import parse_play, position_id
from rules.state import TableState, replay
from rules.table import decide
from rules.transcript import parse

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"

# Game 1: a 4-4 tie, the Team opens 3-1; the Box doubles both, both drop. Game 2: the Box
# opens 5-2 and resigns a gammon.
TWO_GAMES = [
    {"cmd": "open", "preset": "atlanta", "mode": "play"},
    {"cmd": "join", "by": "ann", "name": "Ann"},
    {"cmd": "join", "by": "bob"},
    {"cmd": "join", "by": "cy"},
    {"cmd": "seat", "order": ["ann", "bob", "cy"]},
    {"cmd": "start", "opening": [[4, 4], [1, 3]]},
    {"cmd": "move", "by": "bob", "play": "8/5 6/5"},
    {"cmd": "roll", "by": "ann", "dice": [6, 6]},
    {"cmd": "move", "by": "ann", "play": "24/18(2) 13/7(2)"},
    {"cmd": "roll", "by": "bob", "dice": [5, 2]},
    {"cmd": "move", "by": "bob", "play": "13/8 13/11"},
    {"cmd": "double", "by": "ann"},
    {"cmd": "drop", "by": "bob"},
    {"cmd": "drop", "by": "cy"},
    {"cmd": "start", "opening": [[5, 2]]},
    {"cmd": "move", "by": "ann", "play": "13/8 13/11"},
    {"cmd": "result", "winner": "team", "kind": "gammon"},
]


def events_of(commands: list[dict[str, object]]) -> list[Event]:
    """The events of `commands`, every one of which the rules must accept."""
    state, events = TableState(), list[Event]()
    for data in commands:
        new = decide(state, parse(data))
        events.extend(new)
        state = replay(new, state)
    return events


def test_the_mat_of_two_games_exactly() -> None:
    text = games.export(events_of(TWO_GAMES))
    assert text == HEADER + """\
; Game 1: opening ties 4-4 (Box-Team)

 0 point match

 Game 1
 Ann (Box) : 0                  bob (Team) : 0
  1)                             31: 8/5 6/5
  2) 66: 24/18(2) 13/7(2)        52: 13/11 13/8
      Wins 1 point

 Game 2
 Ann (Box) : 1                  cy (Team) : 0
  1) 52: 13/11 13/8
                                  Wins 2 points

"""


def test_a_record_has_the_seats_the_opening_and_every_turn() -> None:
    first, second = games.games(events_of(TWO_GAMES))
    assert (first.number, first.box, first.captain) == (1, "ann", "bob")
    assert (second.box, second.captain) == ("ann", "cy")  # bob dropped: to the end
    assert first.opening == ((4, 4), (1, 3))
    assert [(t.side, t.dice, t.play) for t in first.turns] == [
        (Side.TEAM, (3, 1), "8/5 6/5"), (Side.BOX, (6, 6), "24/18(2) 13/7(2)"),
        (Side.TEAM, (5, 2), "13/11 13/8")]
    assert (first.winner, first.kind) == (Side.BOX, "single")
    assert (second.winner, second.kind) == (Side.TEAM, "gammon")


def test_every_position_follows_from_the_one_before_and_ends_on_the_replayed_board() -> None:
    events = scenario.transcript((SCENARIOS / "atlanta_play.jsonl").read_text().splitlines())
    (record,) = games.games(events)
    turns = record.turns
    assert turns[0].position_id == "4HPwATDgc/ABMA"
    for turn, after in itertools.pairwise(turns):
        assert turn.dice is not None and turn.play is not None
        played = parse_play(turn.play, turn.position, turn.dice).position
        assert after.position == played.swap() and after.side is turn.side.other
    board = replay(events).board
    assert board is not None
    last = games.position_at([record], 1, len(turns) + 1)
    assert last == position_id(board[0]) == "sNeFQSDYzsgBMA"  # the scenario's expected board
    assert games.position_at([record], 1, 2) == turns[1].position_id == "sGfwATDgc/ABMA"


def test_describe_says_who_was_on_roll_with_which_dice() -> None:
    events = scenario.transcript((SCENARIOS / "atlanta_play.jsonl").read_text().splitlines())
    found = games.games(events)
    assert games.describe_turn(found, 1, 2) == (
        "Game 1, turn 2: Bob (Team) on roll with 6-4. Position ID `sGfwATDgc/ABMA`; "
        "played 24/18 13/9.")
    assert games.describe_turn(found, 1, 7) == (
        "Game 1, turn 7: the game is over. Position ID `sNeFQSDYzsgBMA` (from Ann (Box)'s "
        "side).")


def test_a_game_in_progress_stops_at_its_last_play() -> None:
    events = events_of(TWO_GAMES[:8])  # Game 1: ann has rolled 6-6 and not played
    (record,) = games.games(events)
    assert record.winner is None and record.turns[-1].play is None
    text = games.export(events)
    assert text.endswith("  1)                             31: 8/5 6/5\n\n")
    assert "Wins" not in text
    assert games.describe_turn([record], 1, 2).endswith("on roll with 6-6. Position ID "
                                                     "`sGfwATDgc/ABMA`; not played yet.")
    with pytest.raises(RecordError, match="Game 1 has turns 1 to 2, not 3"):
        games.position_at([record], 1, 3)
    after = events_of(TWO_GAMES[:9])
    assert games.describe_turn(games.games(after), 1, 3) == (
        "Game 1, turn 3: bob (Team) to roll. Position ID `4NvBwQCwZ/ABMA` (from bob (Team)'s "
        "side).")


def test_a_roll_with_no_legal_play_is_a_turn_without_a_play() -> None:
    events = events_of(TWO_GAMES[:5])
    state = replay(events)
    # The Team on the bar against the Box's closed board: 6-1 can't enter.
    closed = Position.from_points({25: 1, 1: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 12: 3})
    cubes = (Cube("bob", "ann"), Cube("cy", "ann"))
    events.append(GameStarted(1, cubes, position=closed, on_roll=Side.TEAM))
    state = replay(events[-1:], state)
    rolled = decide(state, Roll(by="bob", dice=[6, 1]))
    assert rolled == (Rolled(Side.TEAM, (6, 1), passed=True),)
    (record,) = games.games([*events, *rolled])
    assert [(t.dice, t.play, t.position) for t in record.turns] == [((6, 1), "", closed)]
    assert (record.on_roll, record.position) == (Side.BOX, closed.swap())
    assert games.to_mat([record]).endswith("  1)                             61:\n\n")
    assert "no legal play" in games.describe_turn([record], 1, 1)


def test_refusals() -> None:
    scorekeeper = scenario.transcript((SCENARIOS / "atlanta.jsonl").read_text().splitlines())
    with pytest.raises(RecordError, match="This table keeps score only"):
        games.export(scorekeeper)
    with pytest.raises(RecordError, match="No game has been played on the board at this "
                                          "table yet"):
        games.played(events_of(TWO_GAMES[:5]))
    events = events_of(TWO_GAMES)
    with pytest.raises(RecordError, match=r"There is no game 3 on the board at this table "
                                          r"\(games: 1, 2\)"):
        games.export(events, 3)
    with pytest.raises(RecordError, match="Game 2 has turns 1 to 2, not 9"):
        games.describe_turn(games.games(events), 2, 9)
    assert games.export(events, 2).count(" Game ") == 1


def test_export_from_a_transcript_and_from_the_store(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    transcript = tmp_path / "two.jsonl"
    text = "".join(json.dumps(c) + "\n" for c in TWO_GAMES)
    transcript.write_text(text)
    out = tmp_path / "two.mat"
    assert main(["export", "--scenario", str(transcript), "--out", str(out)]) == 0
    expected = games.export(events_of(TWO_GAMES))
    assert out.read_text() == expected
    db = tmp_path / "t.sqlite3"
    asyncio.run(scenario.run_stored(text, db))
    table = "scenario-" + hashlib.sha256(text.encode()).hexdigest()[:16]
    stored = tmp_path / "stored.mat"
    assert main(["export", "--db", str(db), "--table", table, "--game", "2",
                 "--out", str(stored)]) == 0
    assert stored.read_text() == games.export(events_of(TWO_GAMES), 2)
    capsys.readouterr()
    assert main(["export", "--db", str(db), "--table", "nope", "--out", str(stored)]) == 2
    assert f"There is no table nope in {db}" in capsys.readouterr().err
    assert main(["export", "--scenario", str(transcript), "--game", "5",
                 "--out", str(stored)]) == 2
    assert "There is no game 5" in capsys.readouterr().err
    assert main(["export", "--out", str(stored)]) == 2
    assert "export needs --db and --table, or --scenario" in capsys.readouterr().err


def test_a_team_players_own_cube_game_exactly() -> None:
    """His cube against the Box: the plays, that cube's double and drop, each result."""
    text = cubes.export(events_of(TWO_GAMES), "bob")
    assert text.endswith("""\
; For GNU Backgammon: set jacoby on, set beavers 3, then import mat this file.

 0 point match

 Game 1
 Ann (Box) : 0                  bob : 0
  1)                             31: 8/5 6/5
  2) 66: 24/18(2) 13/7(2)        52: 13/11 13/8
  3) Doubles => 2                Drops
  4) Wins 1 point

 Game 2
 Ann (Box) : 1                  bob : 0
  1) 52: 13/11 13/8              Wins 1 point

""")  # game 2: a gammon on a centred cube is single under Jacoby
    assert '; [Jacoby "On"]\n; [Beaver "On"]\n' in text


def test_a_beaver_is_the_beaverers_redouble_and_its_take_the_doublers_next_roll() -> None:
    events = scenario.transcript(
        (SCENARIOS.parent / "analysis" / "data" / "chouette.jsonl").read_text().splitlines())
    (bob, cy) = cubes.cube_games(events)
    assert (bob.team, cy.team, cy.box) == ("Bob", "Cy", "Ann")
    assert [text for _, text in cy.cells][2:] == [
        "66:", "Doubles => 2", "Beavers => 4", "65: 24/13", "Doubles => 8", "Drops"]
    assert (cy.winner, cy.points) == (Side.BOX, 4)
    assert cubes.export(events, "cy", 1).endswith(
        "  3) Beavers => 4                65: 24/13\n"
        "  4) Doubles => 8                Drops\n"
        "  5) Wins 4 points\n\n")


def test_only_a_team_player_has_a_cube_game(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    events = events_of(TWO_GAMES)
    with pytest.raises(RecordError, match="Ann had no cube of their own in any game"):
        cubes.export(events, "ann")
    with pytest.raises(RecordError, match="There is no game 3"):
        cubes.export(events, "bob", 3)
    assert cubes.export(events, "bob", 2).count(" Game ") == 1
    transcript = tmp_path / "two.jsonl"
    transcript.write_text("".join(json.dumps(c) + "\n" for c in TWO_GAMES))
    out = tmp_path / "cy.mat"
    assert main(["export", "--scenario", str(transcript), "--player", "cy",
                 "--out", str(out)]) == 0
    assert out.read_text() == cubes.export(events, "cy")
    assert main(["export", "--scenario", str(transcript), "--player", "ann",
                 "--out", str(out)]) == 2
    assert "Ann had no cube of their own" in capsys.readouterr().err
