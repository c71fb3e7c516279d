"""Refusals as data: a code of the catalogue and its parameters, the players named when the
words are written."""

from pathlib import Path

import pytest

from rules.commands import Away, Join, Open, Proxy, Seat
from rules.cube import Cube, Side
from rules.errors import CubeNotAvailable, NotYourTurn, RuleError, SeatingError
from rules.messages import MESSAGES, Player, Players, text
from rules.state import TableState, replay
from rules.table import decide

NAMES = {"1": "Ann", "2": "Bo", "3": "Cy"}


def table(seated: bool = True) -> TableState:
    state = TableState()
    for command in (Open(mode="scorekeeper"), Join(by="1"), Join(by="2"), Join(by="3"),
                    *[Seat(order=["1", "2", "3"])] * seated):
        state = replay(decide(state, command), state)
    return state


def test_a_refusal_names_its_players_when_written_and_keeps_their_keys_in_str() -> None:
    state = replay(decide(table(), Away(by="1")), table())
    with pytest.raises(RuleError) as refused:
        decide(state, Away(by="1"))
    assert refused.value.code == "already_away"
    assert refused.value.params == {"player": "1"}
    assert refused.value.text(lambda key: NAMES[key]) == "Ann is already away."
    assert str(refused.value) == "1 is already away."


def test_a_list_of_players_is_written_with_their_names() -> None:
    words = text("absent_cube_unnamed", {"absent": Players(["1", "2"]),
                                         "live": Players(["1", "2", "3"]), "rule": "V 13"},
                 NAMES.__getitem__)
    assert words.startswith("Ann, Bo is away with nobody named to control their cube: the "
                            "Box doubles Ann, Bo only by doubling the entire Team (Ann, Bo, Cy)")


def test_players_inside_a_phrase_are_named_too() -> None:
    """A cube in words ("your cube against Bo") is a phrase of its own, its players named
    with the refusal's."""
    cube = Cube("1", "2").offer(Side.TEAM)
    with pytest.raises(CubeNotAvailable) as refused:
        cube.offer(Side.TEAM)
    assert refused.value.text(NAMES.__getitem__) == (
        "You can't double now: Bo has to answer the double to 2")
    with pytest.raises(CubeNotAvailable) as refused:
        Cube("1", "2").sell("", 1)
    assert refused.value.text(NAMES.__getitem__) == (
        "Name a buyer for Ann's game on Ann's cube against Bo; the opponent can't buy it, but "
        "settles instead")
    assert str(refused.value) == (
        "Name a buyer for 1's game on 1's cube against 2; the opponent can't buy it, but "
        "settles instead")


def test_tied_rolls_are_named_group_by_group() -> None:
    with pytest.raises(SeatingError) as refused:
        decide(table(seated=False), Seat(rolls={"1": [6, 2], "2": [5, 3], "3": [1, 2]}))
    assert refused.value.text(NAMES.__getitem__) == "Tied rolls: Ann and Bo roll again."


def test_a_stranger_keeps_his_key_and_a_refusal_of_the_bot_is_its_text() -> None:
    with pytest.raises(RuleError) as refused:
        decide(table(), Proxy(by="1", player="9"))
    assert refused.value.text(lambda key: NAMES.get(key, key)) == (
        "A proxy is another player at this table, not 9.")
    assert NotYourTurn("Roll first.").text(NAMES.__getitem__) == "Roll first."


def test_every_message_of_the_catalogue_is_used_by_a_rule() -> None:
    rules = Path(__file__).resolve().parents[2] / "rules"
    catalogue = (rules / "messages.py").read_text()  # its functions, not the catalogue
    source = "".join(p.read_text() for p in rules.glob("*.py") if p.name != "messages.py")
    source += catalogue[catalogue.index("\ndef text("):]
    assert [code for code in MESSAGES if f'"{code}"' not in source] == []
    assert Player("1") == "1"


def test_a_tables_language_is_a_code_it_keeps() -> None:
    opened = replay(decide(TableState(), Open(language="da")), TableState())
    assert opened.language == "da" and TableState().language == ""  # "": the server's
    with pytest.raises(RuleError) as refused:
        decide(TableState(), Open(language="dansk!"))
    assert refused.value.code == "language_form"
    for code in ("pt_BR", "es_419"):  # es_419: Discord's es-419 (Latin American Spanish)
        assert replay(decide(TableState(), Open(language=code)), TableState()).language == code
    for code in ("es_41", "es_4190", "es-419"):
        with pytest.raises(RuleError):
            decide(TableState(), Open(language=code))
