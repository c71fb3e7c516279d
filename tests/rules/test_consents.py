"""Tests of agreements the table keeps until they are answered: a raccoon or an aardvark by
consent (Atlanta 5.4) and a game offered for sale (Atlanta 4.4)."""

import pytest

from rules.cube_state import CubeState
from rules.errors import CubeNotAvailable, NotYourTurn
from tests.rules.tables import cube, do, game, scores


def test_atlanta_5_4_a_raccoon_is_made_only_by_the_consent_asked_of_the_beaverer() -> None:
    beavered = do(do(game(), "double", by="ann", cubes=["bo"]), "beaver", by="bo")
    with pytest.raises(NotYourTurn, match="ann is not asking you to agree to a raccoon"):
        do(beavered, "agree_turn", by="bo", turn="raccoon", player="ann")  # nobody asked
    asked = do(beavered, "ask_turn", by="ann", turn="raccoon", across="bo")
    assert cube(asked, "bo").state is CubeState.BEAVERED  # nothing until bo agrees
    for by, player in (("cy", "ann"), ("ann", "ann"), ("bo", "cy")):  # not the one asked
        with pytest.raises(NotYourTurn, match="not asking you"):
            do(asked, "agree_turn", by=by, turn="raccoon", player=player)
    with pytest.raises(NotYourTurn, match="not asking you to agree to an aardvark"):
        do(asked, "agree_turn", by="bo", turn="aardvark", player="ann")
    raccooned = do(asked, "agree_turn", by="bo", turn="raccoon", player="ann")
    assert cube(raccooned, "bo").state is CubeState.RACCOONED and raccooned.asked == ()
    dropped = do(asked, "drop", by="ann", cubes=["bo"])  # the cube moved on: asked no more
    assert dropped.asked == ()


def test_atlanta_5_4_a_raccoon_sent_without_the_consent_is_refused_where_it_needs_one() -> None:
    """A raccoon or an aardvark sent as an answer (a transcript line, a typed command) is
    refused where the rule set wants the other player's consent, saying how to ask it; where
    the rule set allows it outright (Villages 9), it is made at once."""
    beavered = do(do(game(), "double", by="ann", cubes=["bo"]), "beaver", by="bo")
    with pytest.raises(CubeNotAvailable, match=r"needs the consent .* the Raccoon button asks"):
        do(beavered, "raccoon", by="ann", cubes=["bo"])
    raccooned = do(do(beavered, "ask_turn", by="ann", turn="raccoon", across="bo"),
                   "agree_turn", by="bo", turn="raccoon", player="ann")
    with pytest.raises(CubeNotAvailable, match="An aardvark needs the consent"):
        do(raccooned, "aardvark", by="bo")
    villages = do(do(game(preset="villages"), "double", by="ann"), "beaver", by="bo")
    assert cube(do(villages, "raccoon", by="ann", cubes=["bo"]), "bo").state is (
        CubeState.RACCOONED)


def test_atlanta_4_4_a_game_is_bought_only_as_offered_to_the_buyer_at_its_price() -> None:
    state = game()  # ann Box; bo Captain, cy, di
    with pytest.raises(NotYourTurn, match="cy offers you no game"):
        do(state, "buy", by="di", **{"from": "cy"})  # nothing offered
    offered = do(state, "offer_sale", by="cy", to="di", points=1)
    assert cube(offered, "cy").state is CubeState.CENTRED  # nothing until di buys
    with pytest.raises(NotYourTurn, match="cy offers you no game"):
        do(offered, "buy", by="bo", **{"from": "cy"})  # offered to di, not to bo
    bought = do(offered, "buy", by="di", **{"from": "cy"})
    assert scores(bought)["cy"] == 1 and scores(bought)["di"] == -1  # the price offered
    assert bought.offers == ()
    doubled = do(offered, "double", by="ann")  # the cube moved on
    with pytest.raises(NotYourTurn, match="cy offers you no game"):
        do(doubled, "buy", by="di", **{"from": "cy"})
