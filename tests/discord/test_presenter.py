"""The presenter: message nonces (the same action's message gets the same nonce however
often it is delivered, so Discord posts it once, within Discord's 25 characters), and
refusals and news written with the players' names of the moment."""

from typing import Any

import pytest

from bot.app.effects import Announce, Outcome, effects_for
from bot.discord.presenter import message_nonce
from bot.store.codec import dumps, loads
from rules.commands import Away, Join, Leave, Open, Proxy, Seat
from rules.errors import RuleError
from rules.state import TableState, replay
from rules.table import decide


def test_a_message_delivered_again_has_the_same_nonce_and_another_message_another() -> None:
    first = message_nonce("123:7", "record", "0")
    assert first == message_nonce("123:7", "record", "0")
    assert len(first) == 25  # Discord refuses a longer nonce
    others = {message_nonce("123:7", "record", "2000"), message_nonce("123:8", "record", "0"),
              message_nonce("123:7", "box", "0")}
    assert first not in others and len(others) == 3


def named_table() -> TableState:
    """Three players keyed by their ids, one whose name holds another's key ("Fan of 1")."""
    state = TableState()
    for command in (Open(mode="scorekeeper"), Join(by="1", name="Ann"), Join(by="2", name="Bo"),
                    Join(by="3", name="Fan of 1"), Seat(order=["3", "1", "2"])):
        state = replay(decide(state, command), state)
    return state


async def test_a_refusal_names_its_players_as_the_table_knows_them_now(simcord_env: Any) -> None:
    state = replay(decide(named_table(), Away(by="3")), named_table())
    with pytest.raises(RuleError) as refused:
        decide(state, Away(by="3"))
    presenter = simcord_env.bot.presenter
    assert presenter.names(state, refused.value) == "Fan of 1 is already away."
    stored = Outcome(False, str(refused.value), code=refused.value.code,
                     params=refused.value.params)
    assert presenter.names(state, loads(dumps(stored))) == "Fan of 1 is already away."
    with pytest.raises(RuleError) as refused:  # a stranger: as the interaction names him
        decide(state, Proxy(by="1", player="9"))
    assert presenter.names(state, refused.value, {"9": "Zed"}) == (
        "A proxy is another player at this table, not Zed.")


def test_news_names_players_once_and_leaves_a_name_holding_a_key_alone() -> None:
    state = named_table()
    events = decide(state, Leave(by="2"))
    after = replay(events, state)
    lines = [e.words(after, None) for e in effects_for(state, after, events)
             if isinstance(e, Announce)]
    assert "Seats (Bo leaves): Box Fan of 1; Team Ann (Captain Ann)." in lines
