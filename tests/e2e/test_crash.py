"""Nothing lost between the store and Discord: the bot killed (kill -9) in the middle of an
action delivers what it had still to show when it starts again."""

import asyncio

from tests.e2e.random_play import delivered, stored
from tests.e2e.session import BOARD, board, open_table, play_until_roll, seats, status
from tests.e2e.support import e2e, hold


@e2e()
async def test_the_teams_prompts_reach_them_after_a_crash_in_the_boxs_double(drv) -> None:
    await open_table(drv, "alice", "bob", "carol")
    await drv.click("alice", board(drv), label="Start game")
    box, team = seats(drv)
    while (shooter := await play_until_roll(drv)) != box:
        await drv.click(shooter, board(drv), label="Roll")
    release = hold(drv, "POST", r"users/@me/channels")  # the first DM waits on the network
    menu = await drv.click(box, board(drv), label="Double")
    await drv.restart()  # the private menu works after a restart too
    (picks,) = drv.selects(menu.message)
    await drv.select(box, menu.message, picks["custom_id"], [drv.user(n)["id"] for n in team])
    await drv.click(box, menu.message, label="Confirm", settle=False)
    await drv.wait_for(lambda: f"to answer {len(team)} cubes" in status(drv), timeout=10)
    await drv.kill_bot()  # stored and drawn; no prompt has reached the Team
    release.set()
    assert not any(drv.dms(p) for p in team)
    await drv.start_bot()
    await drv.wait_ready(require_commands=False)
    await drv.wait_for(lambda: all(drv.dms(p) for p in team), timeout=10)
    await drv.settle()
    for player in team:
        (dm,) = drv.dms(player)
        assert "turned to 2" in dm["content"] and "Drop" in drv.button_labels(dm)
        await drv.click(player, dm, label="Drop")
        assert drv.buttons(dm) == [] and ": drop (" in dm["content"]
    assert status(drv).startswith("Between games")
    assert len([m for m in drv.messages("chouette 1 · atlanta/board")
                if m["content"].startswith("**Score after game 1")]) == 1


@e2e()
async def test_a_record_posted_as_the_bot_died_is_shown_again_once(drv) -> None:
    """The seats drawn and the first game are shown together, their record lines in one
    message. Discord posts it, the bot dies before its outbox knows: started again, it shows
    both actions again, and Discord answers the first's record with the message it has
    (its nonce), which holds the second's lines too: none is lost, none posted twice."""
    await open_table(drv, "alice", "bob", "carol")
    await delivered(drv)  # the joins' deliveries written (a moment after they were shown)
    arrived = asyncio.Event()
    release = hold(drv, "POST", r"channels/(?P<cid>\d+)/messages", arrived)  # the record
    await drv.click("alice", board(drv), label="Start game", settle=False)
    await asyncio.wait_for(arrived.wait(), timeout=10)
    await drv.kill_bot()
    release.set()  # posted on Discord; the answer reaches nobody

    def record() -> list[str]:
        return [m["content"] for m in drv.messages(BOARD)[1:]]

    await drv.wait_for(lambda: any("Game 1 begins" in m for m in record()), timeout=10)
    assert stored(drv)[2] == 2  # both actions still to show, as the bot knows
    posted = record()
    await drv.start_bot()
    await drv.wait_ready(require_commands=False)
    await delivered(drv)
    assert record() == posted  # the seats' and the game's lines, once, in one message
    assert "The dice for seats" in posted[-1] and "\nGame 1 begins" in posted[-1]
    assert "Game 1 begins" in board(drv)["content"]
