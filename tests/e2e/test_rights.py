"""Who may do what, black-box: a kibitzer runs nothing, a result needs both sides, a
moderator blinds kibitzers only, a leaver loses the private channels at once, and the
channels are made true again from the store after a crash."""

import re

import pytest

from tests.e2e.session import BOARD, KIBITZ, board, open_table, seats, status
from tests.e2e.support import DriverError, e2e

TEAM = "chouette 1 · atlanta/team"
BOX = "chouette 1 · atlanta/box"


@e2e()
async def test_a_kibitzer_runs_nothing_and_a_result_needs_both_sides(drv) -> None:
    await open_table(drv, "alice", "bob", "carol", "dave", mode="scorekeeper")
    start = await drv.click("erin", board(drv), label="Start game")
    assert start.ephemeral and "Only the players at this table" in start.text()
    assert status(drv).startswith("Waiting for players")  # nothing was drawn
    end = await drv.slash("erin", KIBITZ, "chouette end")
    assert end.ephemeral and "Only the players at this table" in end.text()
    await drv.click("alice", board(drv), label="Start game")
    box, (captain, second, _) = seats(drv)
    for outsider in ("erin", second):  # a kibitzer; a Team player who is not the Captain
        r = await drv.slash(outsider, KIBITZ, "chouette result", winner="box",
                            kind="backgammon")
        assert r.ephemeral and "Only the Box side" in r.text()
    r = await drv.slash(box, KIBITZ, "chouette result", winner="box", kind="gammon")
    assert "The game ends when the Captain confirms it" in board(drv)["content"]
    assert status(drv) == f"Waiting for {captain} to confirm the result (or give another)."
    assert not any(m["content"].startswith("**Score") for m in drv.messages(BOARD))
    refused = await drv.click("erin", board(drv), label="Confirm the result")
    assert refused.ephemeral and "Only the Box side" in refused.text()
    records = len(drv.messages(BOARD))
    own = await drv.click(box, board(drv), label="Confirm the result")  # his own word
    assert own.ephemeral and "it stands when the Captain confirms it" in own.text(), own
    assert len(drv.messages(BOARD)) == records  # nothing posted again
    await drv.click(captain, board(drv), label="Confirm the result")
    assert "The Box wins (gammon)" in board(drv)["content"]
    assert status(drv).startswith("Between games")


@e2e()
async def test_moderators_blind_kibitzers_only_and_leavers_lose_the_private_channels(drv):
    mods = await drv.fake.create_role("Chouette Moderator")
    await drv.fake.set_member_roles("dave", [mods["id"]])
    await open_table(drv, "alice", "bob", "carol")
    await drv.click("alice", board(drv), label="Start game")
    box, team = seats(drv)
    r = await drv.slash("dave", KIBITZ, "chouette mod blind", member=team[0])
    assert r.ephemeral and "plays at this table" in r.text()
    r = await drv.slash("alice", KIBITZ, "chouette mod blind", member="erin")
    assert r.ephemeral and "Only a moderator" in r.text()
    await drv.slash("dave", KIBITZ, "chouette mod blind", member="erin")
    assert not any(drv.can_view("erin", f"chouette 1 · atlanta/{n}")
                   for n in ("board", "kibitz", "team", "box"))
    await drv.slash("dave", KIBITZ, "chouette mod unblind", member="erin")
    assert drv.can_view("erin", BOARD) and not drv.can_view("erin", TEAM)

    leaver = team[-1]
    assert drv.can_view(leaver, TEAM)
    r = await drv.slash(leaver, KIBITZ, "chouette leave")
    assert r.acked and not drv.can_view(leaver, TEAM)  # at once, though the game goes on
    assert drv.can_view(team[0], TEAM) and drv.can_view(box, BOX)


@e2e()
async def test_after_a_crash_the_channels_are_made_true_from_the_store(drv) -> None:
    await open_table(drv, "alice", "bob", "carol")
    await drv.click("alice", board(drv), label="Start game")
    box, team = seats(drv)
    await drv.kill_bot()
    # what a crash between the store and Discord leaves: the Box sees #team, the Captain
    # lost it, a kibitzer sees #box
    team_ch = drv.channel(TEAM)
    uid = {n: drv.user(n)["id"] for n in ("alice", "bob", "carol", "erin")}
    team_ch["permission_overwrites"] = [
        o for o in team_ch["permission_overwrites"] if o["id"] != uid[team[0]]] + [
        {"id": uid[box], "type": 1, "allow": "3072", "deny": "0"}]
    drv.channel(BOX)["permission_overwrites"].append(
        {"id": uid["erin"], "type": 1, "allow": "1024", "deny": "0"})
    assert drv.can_view(box, TEAM) and not drv.can_view(team[0], TEAM)
    await drv.start_bot()
    await drv.wait_ready(require_commands=False)
    await drv.wait_for(lambda: drv.can_view(team[0], TEAM) and not drv.can_view(box, TEAM)
                       and not drv.can_view("erin", BOX), timeout=10)
    commitment = re.search(r"SHA-256 is `([^`]*)`", board(drv)["content"])
    assert commitment and re.fullmatch(r"[0-9a-f]{64}", commitment[1])  # never a mention


@e2e()
async def test_names_not_ids_for_a_player_who_left_and_long_input_refused_plainly(drv) -> None:
    await open_table(drv, "alice", "bob", "carol", "dave", mode="scorekeeper")
    await drv.click("alice", board(drv), label="Start game")
    box, (captain, *_) = seats(drv)
    await drv.slash(box, KIBITZ, "chouette result", winner="team")
    await drv.click(captain, board(drv), label="Confirm the result")
    junk = await drv.slash("bob", KIBITZ, "chouette move", play="x" * 60)
    assert junk.ephemeral and "went wrong" not in junk.text() and junk.text().strip()
    with pytest.raises(DriverError):  # Discord's client refuses more than the option takes
        await drv.slash("bob", KIBITZ, "chouette move", play="x" * 2000)
    await drv.slash(captain, KIBITZ, "chouette leave")  # between games: settled now
    await drv.slash(box, KIBITZ, "chouette end")
    final = drv.last_message(BOARD)
    assert final["content"].startswith("**Final score**") and captain in final["content"]
    everything = " ".join(m["content"] for m in drv.messages(BOARD))
    everything = re.sub(r"</chouette [a-z ]+:\d+>", "", everything)  # commands' ids: links
    assert not re.search(r"\d{15,}", everything), everything


@e2e()
async def test_an_overwrite_changed_by_hand_is_set_back_at_the_next_action(drv) -> None:
    """The bot keeps what it made the channels (it does not read them on every action), but
    Discord's word that a channel changed makes it look again."""
    await open_table(drv, "alice", "bob", "carol", mode="scorekeeper")
    await drv.click("alice", board(drv), label="Start game")
    box, _ = seats(drv)
    await drv.slash(box, KIBITZ, "chouette result", winner="box")  # the channels are known
    team_ch = drv.channel(TEAM)  # a server admin lets erin read #team, in Discord's client
    team_ch["permission_overwrites"].append(
        {"id": drv.user("erin")["id"], "type": 1, "allow": "1024", "deny": "0"})
    await drv.fake.dispatch("CHANNEL_UPDATE", team_ch)
    await drv.settle()
    assert drv.can_view("erin", TEAM)
    r = await drv.slash(box, KIBITZ, "chouette result", winner="box", kind="gammon")
    assert not r.ephemeral or "Done" in r.text(), r  # an action that changes no channel
    await drv.wait_for(lambda: not drv.can_view("erin", TEAM), timeout=5)
