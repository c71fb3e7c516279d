"""Commands as typed values: read from a transcript line, written back, refused when malformed."""

import json
from pathlib import Path

import pytest

import rules.table  # noqa: F401  (registers every handler)
from rules.commands import COMMANDS, HANDLERS, BadCommand, Move, Sell, Settle, Take
from rules.transcript import build, line, parse

SCENARIOS = Path(__file__).parent.parent / "scenarios"


def test_a_transcript_line_is_its_typed_command_from_the_monitor() -> None:
    assert parse({"cmd": "take", "by": "bo", "cubes": ["ann"]}) == Take(
        by="bo", cubes=("ann",), monitor=True)
    assert parse({"cmd": "sell", "by": "cy", "from": "cy", "to": "bo", "for": "di"}) == Sell(
        by="cy", from_="cy", to="bo", for_="di", monitor=True)
    assert build("settle", "ann", **{"with": "bo", "points": "1/2"}) == Settle(
        by="ann", with_="bo", points="1/2")


@pytest.mark.parametrize("data, message", [
    ({"by": "ann"}, 'A command is a JSON object with "cmd"'),
    ({"cmd": "hello"}, "There is no command 'hello'. Commands: aardvark, accept, "),
    ({"cmd": "take", "by": 7}, '"by" names a player: got 7.'),
    ({"cmd": "move", "by": "ann"}, "move needs 'play'."),
    ({"cmd": "move", "by": "ann", "play": 5}, "move: 'play' has the wrong form (5)."),
    ({"cmd": "double", "cubes": [7]}, "double: 'cubes' lists players by name"),
    ({"cmd": "join", "stake": True}, "join: 'stake' has the wrong form (True)."),
    ({"cmd": "move", "play": "8/2", "dice": [1, 2]},
     "move takes no 'dice'; it takes for, moderator, play."),
])
def test_a_malformed_line_is_refused_saying_what_is_wanted(data: dict[str, object],
                                                           message: str) -> None:
    with pytest.raises(BadCommand) as refused:
        parse(data)
    assert str(refused.value).startswith(message)


def test_every_scenario_line_reads_back_from_the_line_it_writes() -> None:
    for path in sorted(SCENARIOS.glob("*.jsonl")):
        for text in path.read_text().splitlines():
            if text.strip():
                command = parse(json.loads(text))
                assert parse(line(command)) == command, text
    assert line(Move(by="ann", play="8/2 6/2")) == {"cmd": "move", "by": "ann",
                                                    "play": "8/2 6/2"}


def test_every_command_has_its_rule() -> None:
    assert set(HANDLERS) == set(COMMANDS.values())


def test_partner_reads_a_transcripts_other_spelling_into_its_one_argument() -> None:
    from rules.commands import Partner

    assert parse({"cmd": "partner", "by": "bob", "partner": "eve"}) == Partner(
        by="bob", player="eve", monitor=True)
    assert parse({"cmd": "partner", "by": "bob", "player": "eve", "partner": "cy"}).player == "eve"
    assert line(Partner(by="bob", player="eve")) == {"cmd": "partner", "by": "bob",
                                                     "player": "eve"}
    with pytest.raises(BadCommand, match=r"takes no 'pal'; it takes for, moderator, player\."):
        parse({"cmd": "partner", "by": "bob", "pal": "eve"})
