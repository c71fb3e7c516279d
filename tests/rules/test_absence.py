"""Given/when/then tests of absence: away and back, proxies, held-over games and timeouts."""

import pytest

from rules.cube import Side
from rules.cube_state import CubeState
from rules.errors import CubeNotAvailable, NotYourTurn, RuleError, SeatingError
from rules.ledger import net
from rules.table import partner_invitees
from tests.rules.tables import cube, do, game, scores, table

# -- absence ---------------------------------------------------------------------------------


def test_atlanta_7_1_proxies_chain_and_the_captain_stands_in_by_default() -> None:
    state = do(do(game(), "away", by="di"), "double", by="ann")
    state = do(state, "take", by="bo", **{"for": "di"})  # bo is the Captain: default proxy
    assert cube(state, "di").owner is Side.TEAM
    with pytest.raises(NotYourTurn, match="may not act for cy"):
        do(state, "take", by="di", **{"for": "cy"})
    state = do(do(state, "proxy", by="cy", player="di"), "proxy", by="di", player="bo")
    state = do(state, "drop", by="bo", **{"for": "cy"})  # cy -> di -> bo
    assert not cube(state, "cy").live
    with pytest.raises(SeatingError, match="already acts for you"):
        do(state, "proxy", by="bo", player="cy")


def test_euro_14_with_the_captain_away_the_next_in_order_stands_in_and_rolls() -> None:
    state = do(table(preset="euro", mode="play"), "start", opening=[[1, 3]])  # the Team's roll
    state = do(do(state, "away", by="bo"), "away", by="cy")  # the Captain and the next
    with pytest.raises(NotYourTurn, match="bo rolls and plays for the Team"):
        do(state, "roll", by="ann", dice=[3, 1])  # never the Box
    state = do(state, "move", by="di", play="8/5 6/5")  # di, the next one here, for bo
    state = do(state, "double", by="ann")
    state = do(do(state, "take", by="di", **{"for": "bo"}), "drop", by="di", **{"for": "cy"})
    assert cube(state, "bo").in_game and not cube(state, "cy").live
    with pytest.raises(NotYourTurn, match="may not act for bo"):
        do(do(state, "back", by="cy"), "take", by="di", **{"for": "bo"})


def test_atlanta_5_2_the_captain_turns_a_members_cube_at_his_request() -> None:
    state = game()
    with pytest.raises(NotYourTurn, match="may not act for cy"):
        do(state, "double", by="bo", **{"for": "cy"})
    state = do(state, "proxy", by="cy", player="bo")  # cy asks the Captain to do it
    state = do(state, "double", by="bo", **{"for": "cy"})
    assert cube(state, "cy").state is CubeState.OFFERED and cube(state, "bo").owner is None


def test_villages_13_an_absent_player_without_a_nominee_takes() -> None:
    away = do(game(preset="villages"), "away", by="cy")
    state = do(away, "double", by="ann")
    assert cube(state, "cy").in_game and cube(state, "bo").to_act is Side.TEAM
    with pytest.raises(CubeNotAvailable, match=r"only by doubling the entire Team \(bo, cy, di"):
        do(away, "double", by="ann", cubes=["cy"])  # not him alone
    with pytest.raises(CubeNotAvailable, match="entire Team"):
        do(away, "double", by="ann", cubes=["bo", "cy"])  # nor with only some of the others
    some = do(away, "double", by="ann", cubes=["bo", "di"])  # the others without him: yes
    assert cube(some, "cy").owner is None and cube(some, "di").state is CubeState.OFFERED
    with pytest.raises(NotYourTurn, match="may not act for cy"):
        do(away, "double", by="bo", **{"for": "cy"})  # his cube isn't offered while away
    named = do(away, "proxy", by="cy", player="di")
    assert cube(do(named, "double", by="ann", cubes=["cy"]), "cy").state is CubeState.OFFERED
    assert cube(do(named, "double", by="di", **{"for": "cy"}), "cy").state is CubeState.OFFERED


def test_fibs_6_a_player_disconnected_follows_the_captain_then_loses_his_place() -> None:
    state = game("ann", "bo", "cy", "di", "ed", preset="fibs")
    with pytest.raises(SeatingError, match="zed is not at this table"):
        do(state, "disconnect", by="bo", player="zed", moderator=True)
    state = do(do(state, "disconnect", by="di", player="cy", moderator=True), "double", by="ann")
    state = do(state, "take", by="bo")  # cy does what the Captain does
    assert cube(state, "cy").in_game
    state = do(do(do(state, "take", by="di"), "take", by="ed"), "result", winner="team")
    assert state.seating is not None and "cy" in state.seating.players  # not yet lost
    state = do(state, "start")  # not back by the start: out
    assert state.seating is not None and "cy" not in state.seating.players
    assert "cy" not in state.present and cube(state, "cy") is None
    state = do(do(state, "back", by="cy"), "result", winner="box")  # back during a game
    assert state.seating is not None and state.seating.team[-1] == "cy"  # a new player
    # Back before the next start, he keeps his place; elsewhere a disconnection is an away.
    kept = do(do(table(preset="fibs"), "disconnect", by="bo", player="cy", moderator=True),
              "back", by="cy")
    assert do(kept, "start").seating == table(preset="fibs").seating
    atlanta = do(do(table(), "disconnect", by="bo", player="cy", moderator=True), "start")
    assert atlanta.seating == table().seating and atlanta.member("cy").away


def test_fibs_6_2_a_game_is_held_over_when_the_captain_is_gone_and_played_out_later() -> None:
    state = do(do(game("ann", "bo", "cy", "di", preset="fibs"), "double", by="bo"),
               "answer", by="ann", take=["bo", "cy", "di"])
    with pytest.raises(NotYourTurn, match="only when the Box"):
        do(state, "hold_over", by="cy")
    state = do(do(state, "disconnect", by="cy", player="bo", moderator=True), "hold_over", by="cy")
    assert state.game is None and [g.number for g, _ in state.held] == [1]
    assert state.seating is not None and state.seating.box == "ann"  # as if the Box won
    assert state.seating.team == ("cy", "di", "bo")  # he goes to the bottom
    with pytest.raises(SeatingError, match="waiting for bo"):
        do(state, "resume", by="ann")
    state = do(do(state, "back", by="bo"), "start")  # game 2: back in time, he plays
    with pytest.raises(RuleError, match="between games"):
        do(state, "resume", by="bo")
    state = do(state, "result", winner="box")
    after_two = state.seating
    state = do(state, "resume", by="bo")  # game 1 again: bo captains at 2, all took
    assert state.game is not None and state.game.number == 1 and cube(state, "cy").value == 2
    assert state.seating is not None and state.seating.captain == "bo" and not state.held
    state = do(state, "result", winner="team")
    assert state.seating == after_two and state.games_played == 2
    assert [net(g).get("bo", 0) for g in state.sheet.games] == [0, -1, 2]  # held, 2, 1
    # Elsewhere the game waits for him; his stand-in plays once his time runs out.
    with pytest.raises(RuleError, match="waits for the Box or the Captain"):
        do(do(game(), "disconnect", by="cy", player="bo", moderator=True), "hold_over", by="cy")


def test_held_over_games_keep_their_bookkeeping_and_a_leaver_does_not_block_them() -> None:
    state = do(do(table("a", "b", "c", "d", "e", "f", preset="fibs"), "partner", by="a",
                  player="c"), "start")
    state = do(do(state, "double", by="a"), "take", by="b")
    state = do(do(do(state, "take", by="d"), "take", by="e"), "drop", by="f")
    state = do(state, "double", by="b")
    state = do(do(state, "answer", by="c", drop=["b", "d", "e"]), "answer", by="a",
               take=["b", "d", "e"])  # c paid his half alone; a plays on for his half
    held = do(do(state, "disconnect", by="d", player="b", moderator=True), "hold_over", by="d")
    held = do(do(do(held, "back", by="b"), "leave", by="e"), "start")  # e leaves the table
    held = do(do(held, "result", winner="box"), "resume", by="b")
    assert held.game is not None and held.game.own_paid == () and held.game.half_share
    with pytest.raises(RuleError, match="held over once already"):
        do(do(held, "disconnect", by="d", player="b", moderator=True), "hold_over", by="d")
    done = do(held, "result", winner="box")  # e, gone, is still in the game
    assert done.game is None and done.resumed_from is None
    assert net(done.sheet.games[-1]) == {"b": -2, "d": -2, "e": -2, "a": 6}  # a's half of 4


def test_review_regressions_penalty_cube_extras_sold_seats_proxies_and_the_holder() -> None:
    state = do(do(do(game(), "double", by="ann"), "take", by="bo"), "drop", by="cy")
    state = do(do(do(state, "drop", by="di"), "extra", by="cy"), "take", by="bo")
    penalised = do(state, "penalty", by="bo", player="cy", action="cube")
    assert penalised.game is not None and len([c for c in penalised.game.cubes
                                               if c.is_extra]) == 2  # the extra stays
    sold = do(game("ann", "bo", "cy", "di", team_double_order="rotation"), "double", by="bo")
    sold = do(sold, "sell", by="kib", rolloff=[[[1, 1], [1, 2]]], **{"from": "di", "to": "kib"})
    sold = do(sold, "double", by="kib")  # di's game, doubled by its buyer
    with pytest.raises(NotYourTurn, match="cy comes before di"):
        do(sold, "double", by="cy")
    named = do(do(table(mode="play"), "start", opening=[[1, 3]]), "proxy", by="bo",
               player="cy")
    with pytest.raises(NotYourTurn, match="bo rolls and plays for the Team"):
        do(named, "move", by="cy", play="8/5 6/5")  # bo is here: he plays
    assert do(do(named, "away", by="bo"), "move", by="cy", play="8/5 6/5").game
    with pytest.raises(SeatingError, match="other side"):
        do(table(), "proxy", by="ann", player="bo")
    fibs = do(do(table("a", "b", "c", "d", "e", "f", preset="fibs", mode="play"), "partner",
                 by="a", player="c"), "start", opening=[[3, 1]])
    fibs = do(do(fibs, "settle", by="c", points=1, **{"with": "a"}), "disconnect", by="b",
              player="c", moderator=True)  # c bought a's share and shoots for the side
    assert do(fibs, "timeout", player="c").held


def test_a_shooter_whose_time_runs_out_is_away_or_his_game_is_held_over() -> None:
    atlanta = do(table(mode="play"), "start", opening=[[1, 3]])  # bo, the Team, to play
    state = do(atlanta, "timeout", player="bo")
    assert state.member("bo").away and state.game is not None
    state = do(state, "move", by="cy", play="8/5 6/5")  # the next in order plays for him
    with pytest.raises(NotYourTurn, match="No decision of cy"):
        do(atlanta, "timeout", player="cy")
    fibs = do(table(preset="fibs", mode="play"), "start", opening=[[1, 3]])
    held = do(fibs, "timeout", player="bo")
    assert held.game is None and held.held and held.member("bo").disconnected


def test_fibs_an_absent_player_does_what_the_captain_does() -> None:
    state = do(do(game(preset="fibs"), "away", by="di"), "double", by="ann")
    state = do(state, "take", by="bo")
    assert cube(state, "di").in_game and cube(state, "cy").to_act is Side.TEAM


def test_a_timeout_treats_the_laggard_as_away_or_takes_as_the_rule_set_says() -> None:
    state = do(do(game(preset="villages"), "double", by="ann"), "timeout", player="cy")
    assert cube(state, "cy").in_game  # Villages: away, and an absent player takes
    state = do(do(game(), "double", by="ann"), "timeout", player="cy")
    assert state.member("cy").away and cube(state, "cy").to_act is Side.TEAM  # type: ignore[union-attr]
    state = do(state, "drop", by="bo", **{"for": "cy"})  # the Captain decides for him
    assert not cube(state, "cy").live
    dropper = do(do(game(timeout_action="drop"), "double", by="ann"),
                 "timeout", player="cy")
    assert not cube(dropper, "cy").live


def test_resignations_are_offered_and_answered_per_cube() -> None:
    state = do(do(game(), "double", by="bo"), "answer", by="ann", take=["bo"])
    state = do(state, "resign", by="ann", kind="gammon")  # the Box offers a gammon to all
    with pytest.raises(NotYourTurn, match="resignations"):
        do(state, "double", by="cy")
    state = do(state, "accept", by="bo")  # bo's cube is in the game: 2 x gammon
    state = do(state, "reject", by="cy")  # cy plays on
    state = do(state, "accept", by="di")  # di's cube is centred: Jacoby makes it a single
    assert scores(state) == {"ann": -5, "bo": 4, "di": 1}
    assert state.game is not None and cube(state, "cy").live
    state = do(state, "resign", by="cy")  # cy resigns his own cube for a single
    with pytest.raises(NotYourTurn, match="No resignation"):
        do(state, "accept", by="bo")
    state = do(state, "accept", by="ann", cubes=["cy"])
    assert state.game is None and scores(state)["ann"] == -4
    assert sum(scores(state).values()) == 0


def test_atlanta_5_9_a_team_player_holds_the_roll_until_he_doubles_or_releases() -> None:
    state = do(table(mode="play"), "start", opening=[[3, 1]])
    state = do(state, "move", by="ann", play="8/5 6/5")
    state = do(do(state, "hold", by="cy"), "hold", by="di")
    with pytest.raises(NotYourTurn, match="cy, di asked to hold the roll"):
        do(state, "roll", by="bo", dice=[6, 5])
    state = do(state, "double", by="cy")  # doubling releases his hold
    state = do(do(state, "answer", by="ann", take=["cy"]), "release", by="di")
    state = do(state, "roll", by="bo", dice=[6, 5])
    assert state.game is not None and state.game.dice == (6, 5) and not state.game.holds
    with pytest.raises(NotYourTurn, match="before the Captain rolls"):
        do(state, "hold", by="di")


def test_villages_15_the_box_may_pass_the_box_and_fibs_may_not() -> None:
    state = do(do(game(preset="villages"), "result", winner="box"), "pass_box", by="ann")
    assert state.seating is not None and state.seating.box == "cy"  # the next Captain
    assert state.seating.team[-1] == "ann"
    fibs = do(game(preset="fibs"), "result", winner="box")
    with pytest.raises(SeatingError, match="may not pass the box"):
        do(fibs, "pass_box", by="ann")


def test_atlanta_2_3_a_stake_changes_between_games_only() -> None:
    with pytest.raises(RuleError, match="between games"):
        do(game(), "stake", by="bo", stake=2)
    with pytest.raises(NotYourTurn, match=r"when the Box \(ann\) agrees"):
        do(do(game(), "result", winner="box"), "stake", by="bo", stake=2)
    state = do(do(game(), "result", winner="box"), "stake", by="ann", player="bo", stake=2)
    state = do(do(state, "start"), "result", winner="team")
    assert scores(state)["bo"] == -1 + 2


def test_atlanta_5_4_an_aardvark_only_where_allowed() -> None:
    state = do(do(game(), "double", by="ann", cubes=["bo"]), "beaver", by="bo")
    state = do(do(state, "ask_turn", by="ann", turn="raccoon", across="bo"), "agree_turn",
               by="bo", turn="raccoon", player="ann")  # Atlanta 5.4: by consent
    state = do(do(state, "ask_turn", by="bo", turn="aardvark", across="ann"), "agree_turn",
               by="ann", turn="aardvark", player="bo")
    assert cube(state, "bo").face == 16 and cube(state, "bo").to_act is Side.BOX
    villages = do(do(game(preset="villages"), "double", by="ann"), "beaver", by="bo")
    villages = do(villages, "raccoon", by="ann", cubes=["bo"])
    with pytest.raises(CubeNotAvailable, match="Aardvarks aren't allowed"):
        do(villages, "aardvark", by="bo")


def test_fibs_an_accidental_double_may_be_taken_back() -> None:
    state = do(game(preset="fibs"), "double", by="bo")
    state = do(state, "withdraw", by="bo")
    assert all(cube(state, p).state is CubeState.CENTRED and cube(state, p).face == 1
               for p in ("bo", "cy", "di"))
    with pytest.raises(CubeNotAvailable, match="stands"):
        do(do(game(), "double", by="bo"), "withdraw", by="bo")


def test_atlanta_6_5_the_bottom_of_the_rotation_is_invited_first() -> None:
    state = table("a", "b", "c", "d", "e", "f")
    assert partner_invitees(state) == ("f", "e", "d", "c", "b")
    assert partner_invitees(table()) == ()  # four players: no Partner under Atlanta
    assert partner_invitees(table("a", "b", "c", "d", "e", preset="villages",
                                  partner_min_players=3)) == ()  # Villages: never a Partner
    fibs = table("a", "b", "c", "d", "e", "f", preset="fibs")
    assert partner_invitees(fibs)[0] == "c"  # FIBS: the player after the Captain


def test_an_invited_player_declines_where_the_rule_set_lets_him() -> None:
    state = table("a", "b", "c", "d", "e", "f")
    with pytest.raises(SeatingError, match=r"f is asked first to be Partner \(the bottom"):
        do(state, "partner", by="a", player="e")
    declined = do(do(state, "invite_partner", by="a", player="f"), "decline", by="f")
    assert declined.seating == state.seating  # the next one is asked
    assert do(declined, "partner", by="a", player="e").seating.partner == "e"
    assert do(declined, "partner", by="f").seating.partner == "f"  # he may change his mind
    with pytest.raises(SeatingError, match="Only a player"):
        do(state, "decline", by="a")
    with pytest.raises(SeatingError, match="may not refuse"):
        do(table("a", "b", "c", "d", "e", "f", preset="fibs"), "decline", by="c")
