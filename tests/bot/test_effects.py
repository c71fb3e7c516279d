"""Effects: what the Discord layer is asked to do after a command (no Discord needed)."""

from bot.effects import Announce, Prompt, effects_for, event_line
from rules.commands import Away, Double, Open, Seat, Start, build
from rules.cube import Side
from rules.events import ResultProposed
from rules.state import TableState, replay
from rules.table import decide


def step(state: TableState, name: str, by: str = "", **args: object
         ) -> tuple[TableState, tuple[object, ...]]:
    events = decide(state, build(name, by, **args))
    after = replay(events, state)
    return after, effects_for(state, after, events)


def test_a_double_to_an_away_player_is_asked_of_his_stand_in_with_every_answer() -> None:
    state, _ = step(TableState(), "open", preset="atlanta", mode="scorekeeper")
    state, _ = step(state, "seat", order=["ann", "bo", "cy"])
    state, _ = step(state, "start")
    state, _ = step(state, "away", by="cy")  # before the double: the Captain stands in
    state, effects = step(state, "double", by="ann")
    prompts = {p.player: p for p in effects if isinstance(p, Prompt)}
    assert prompts["cy"].to == "bo" and prompts["cy"].actions == ("take", "drop", "beaver")
    assert prompts["bo"].to == ""
    state, _ = step(state, "back", by="cy")
    state, effects = step(state, "away", by="cy")  # away with a decision pending
    assert [p.to for p in effects if isinstance(p, Prompt)] == ["bo"]


def test_the_status_names_who_answers_for_an_away_player() -> None:
    from bot.discord.boards import status
    from rules.state import TableState, replay
    from rules.table import decide

    state = TableState()
    for command in (Open(by="ann", mode="scorekeeper"),
                    Seat(order=["ann", "bo", "cy"]),
                    Start(), Away(by="cy"), Double(by="ann")):
        state = replay(decide(state, command), state)
    assert status(state) == "Waiting for bo, bo (for cy) to answer the cube."
    due = {("decision", "bo"): 1764000130.5, ("decision", "cy"): 1764000120.0}
    assert status(state, lambda kind, player: due.get((kind, player))) == (
        "Waiting for bo, bo (for cy) to answer the cube. Time runs out <t:1764000120:R>.")


def test_a_leaver_settled_when_his_game_ends_and_an_odd_half_roll_are_announced() -> None:
    state = replay(decide(TableState(), Open(preset="atlanta", mode="scorekeeper")))
    state, _ = step(state, "seat", order=["ann", "bo", "cy"])
    state, _ = step(state, "start")
    state, _ = step(state, "leave", by="cy")
    state, said = step(state, "result", winner="team")  # ann pays bo and cy 1 each
    assert Announce("The Team wins (single). Paid at the table to settle those who leave "
                    "(Atlanta 10.2): ann pays cy 1.") in said
    fibs = replay(decide(TableState(), Open(preset="fibs", mode="scorekeeper")))
    fibs, _ = step(fibs, "seat", order=["a", "b", "c", "d", "e", "f"])
    fibs, _ = step(fibs, "start")
    fibs, _ = step(fibs, "double", by="b")
    _, said = step(fibs, "sell", by="a", next_roll=[2, 1], **{"from": "d", "to": "a"})
    assert Announce("The odd half point goes by the roll 2-1: to the Partner (FIBS §2 ¶2).") \
        in said


def test_a_new_stand_in_is_asked_when_the_old_one_is_out_of_the_game() -> None:
    state, _ = step(TableState(), "open", preset="atlanta", mode="scorekeeper")
    state, _ = step(state, "seat", order=["ann", "bo", "cy", "di"])
    state, _ = step(state, "start")
    state, _ = step(state, "away", by="di")  # the Captain, bo, answers for him
    state, effects = step(state, "double", by="ann")
    assert [p.to for p in effects if isinstance(p, Prompt) and p.player == "di"] == ["bo"]
    state, effects = step(state, "drop", by="bo")  # bo is out: cy captains now
    assert [p.to for p in effects if isinstance(p, Prompt) and p.player == "di"] == ["cy"]


def test_a_result_offer_says_who_must_still_agree() -> None:
    sides = ResultProposed(Side.BOX, "single", "ann", Side.BOX)
    assert "when the Captain confirms it" in (event_line(sides) or "")
    fibs = ResultProposed(Side.BOX, "single", "ann", Side.BOX, ("ann",), ("bo", "cy"))
    assert "when bo, cy agree too" in (event_line(fibs) or "")
