"""Effects: what the Discord layer is asked to do after a command (no Discord needed)."""

from bot.app.effects import Announce, Effect, Prompt, effects_for
from bot.words.lines import announced, event_line
from rules.commands import Away, Double, Open, Seat, Start
from rules.cube import Side
from rules.events import ResultProposed
from rules.state import TableState, replay
from rules.table import decide
from rules.transcript import build


def step(state: TableState, name: str, by: str = "", **args: object
         ) -> tuple[TableState, tuple[object, ...]]:
    events = decide(state, build(name, by, **args))
    after = replay(events, state)
    return after, worded(effects_for(state, after, events), after)


def worded(effects: tuple[Effect, ...], state: TableState) -> tuple[object, ...]:
    """`effects` as they are shown: each announcement in words (English)."""
    return tuple(Announce(e.words(state, None), e.channel, e.record)
                 if isinstance(e, Announce) else e for e in effects)


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
    assert status(state) == "Waiting for bo, bo (for cy) to answer 2 cubes."
    due = {("decision", "bo"): 1764000130.5, ("decision", "cy"): 1764000120.0}
    assert status(state, lambda kind, player: due.get((kind, player))) == (
        "Waiting for bo, bo (for cy) to answer 2 cubes. Time runs out <t:1764000120:R>.")


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


def test_every_cube_turn_of_the_scenarios_is_a_record_line_in_danish() -> None:
    """A turn with figures of its own (a settlement, a sale, a buy-out, a roll-off, a
    resignation, a half dropped) is a phrase of the rules' catalogue, written and translated
    like the others: no line of the scenarios falls back to the rules' English."""
    from pathlib import Path

    from bot.app.scenario import apply
    from bot.words.phrases import TURNED
    from rules.events import CubeTurned
    from rules.messages import Phrase

    seen: set[str] = set()
    for path in sorted((Path(__file__).parents[1] / "scenarios").glob("*.jsonl")):
        _, events, _ = apply(path.read_text().splitlines())
        for event in events:
            if not isinstance(event, CubeTurned):
                continue
            english, danish = event_line(event), event_line(event, locale="da")
            assert english is not None and danish is not None
            assert "(" not in event.by  # the player's key; who answered for him is `why`
            if not isinstance(event.action, Phrase):
                assert event.action in TURNED
                continue
            seen.add(event.action.code)
            cube = event.cube
            assert english == (f"{event.by}: {event.action} ({cube.team_player} v "
                               f"{cube.box_player}, cube {cube.face}).")  # as before
            assert " mod " in danish and " v " not in danish.split("(")[-1], danish
            for word in ("settle", "bought out", "sold to", "resignation", "dropped their",
                         "rolled off", " paid"):
                assert word not in danish, danish
    assert len(seen) >= 3  # sold, sold with a roll-off, bought out


def test_a_turn_with_figures_names_its_players_and_is_translated() -> None:
    from fractions import Fraction

    from bot.words.phrases import cube_line
    from rules.cube import Cube
    from rules.messages import Phrase, Player

    cube = Cube("ann", "bo", 2)
    names = {"ann": "Ann", "bo": "Bo", "cy": "Cy", "pat": "Pat"}.__getitem__
    rolled = Phrase("rolled_off", fraction=Fraction(3, 2), throws="7 v 5", paid=Fraction(1))
    lines = [
        (Phrase("turned_settle", points=Fraction(3, 2)),
         "Bo: settle 3/2 (Ann v Bo, cube 2).",
         "Bo: afregner for 3/2 (Ann mod Bo, doblingsterning 2)."),
        (Phrase("turned_settle_rolled", rolled=rolled),
         "Bo: settle the fraction of 3/2 rolled off (7 v 5), 1 paid (Ann v Bo, cube 2).",
         "Bo: afregner, brøken af 3/2 slået om (7 v 5), 1 betalt (Ann mod Bo, "
         "doblingsterning 2)."),
        (Phrase("turned_sold", buyer=Player("cy"), price=Fraction(1)),
         "Bo: sold to Cy for 1 (Ann v Bo, cube 2).",
         "Bo: solgt til Cy for 1 (Ann mod Bo, doblingsterning 2)."),
        (Phrase("turned_bought_out_rolled", price=Fraction(2), rolled=rolled),
         "Bo: bought out for 2 (the fraction of 3/2 rolled off (7 v 5), 1 paid) (Ann v Bo, "
         "cube 2).",
         "Bo: købt ud for 2 (brøken af 3/2 slået om (7 v 5), 1 betalt) (Ann mod Bo, "
         "doblingsterning 2)."),
        (Phrase("turned_resigned", kind=Phrase("kind_single")),
         "Bo: resignation accepted (single) (Ann v Bo, cube 2).",
         "Bo: opgivelse accepteret (enkelt) (Ann mod Bo, doblingsterning 2)."),
        (Phrase("turned_half_dropped", dropper=Player("pat")),
         "Bo: take (Pat dropped their half) (Ann v Bo, cube 2).",
         "Bo: tager (Pat afviste sin halvdel) (Ann mod Bo, doblingsterning 2)."),
        # stored before the action was data: its words, as they were
        ("settle 3/2", "Bo: settle 3/2 (Ann v Bo, cube 2).",
         "Bo: settle 3/2 (Ann v Bo, cube 2)."),
        ("something new", "Bo: something new (Ann v Bo, cube 2).",
         "Bo: something new (Ann v Bo, cube 2)."),
    ]
    for action, english, danish in lines:
        assert cube_line(cube, action, "bo", names, None) == english
        assert cube_line(cube, action, "bo", names, "da") == danish


def test_an_answer_given_for_a_player_names_him_and_says_why() -> None:
    from bot.words.phrases import cube_line
    from rules.cube import Cube

    cube = Cube("ann", "bo", 2)
    names = {"ann": "Ann", "bo": "Bo"}.__getitem__
    for why, english, danish in [
            ("answered_timed_out", "Ann (timed out): drop (Ann v Bo, cube 2).",
             "Ann (tiden løb ud): afviser (Ann mod Bo, doblingsterning 2)."),
            ("answered_away", "Ann (away): drop (Ann v Bo, cube 2).",
             "Ann (væk): afviser (Ann mod Bo, doblingsterning 2)."),
            ("answered_late", "Ann (nobody answered in time): drop (Ann v Bo, cube 2).",
             "Ann (ingen svarede i tide): afviser (Ann mod Bo, doblingsterning 2).")]:
        assert cube_line(cube, "drop", "ann", names, None, why) == english
        assert cube_line(cube, "drop", "ann", names, "da", why) == danish


def test_an_outcome_keeps_what_happened_and_its_words_are_written_when_shown() -> None:
    """The outbox holds events, not words: the same effects read in English and Danish, and
    whether an event is announced is said without writing its line, for every event of the
    scenarios."""
    from pathlib import Path

    from bot.app.scenario import apply
    from bot.store.codec import dumps, loads

    state, _ = step(TableState(), "open", preset="atlanta", mode="scorekeeper")
    state, _ = step(state, "seat", order=["ann", "bo", "cy"])
    events = decide(state, build("start", ""))
    after = replay(events, state)
    (begins, *_) = [e for e in loads(dumps(effects_for(state, after, events)))
                    if isinstance(e, Announce)]
    assert begins.text == "" and begins.event == events[-1]
    assert begins.words(after, None).startswith("Game 1 begins")
    assert begins.words(after, "da").startswith("Spil 1 begynder")
    for path in sorted((Path(__file__).parents[1] / "scenarios").glob("*.jsonl")):
        for event in apply(path.read_text().splitlines())[1]:
            assert announced(event) == (event_line(event) is not None), event


def test_an_announcement_stored_before_keeps_its_words() -> None:
    from bot.store.codec import loads

    old = '{"$": "Announce", "text": "Ann joins.", "channel": "board", "record": true}'
    assert loads(old).words(TableState(), "da") == "Ann joins."
