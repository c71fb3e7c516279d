"""Black-box, on a Discord that rate-limits every channel as the real one does: every
interaction is answered within Discord's 3 s however busy the table's channels are, and
nothing is posted twice."""

import random
import time
from collections import Counter
from typing import Any

from tests.e2e.random_play import PLAYERS, act, check, delivered, restarted, stored
from tests.e2e.session import BOARD, board, choose, open_table, play_until_roll, seats, status
from tests.e2e.support import e2e


def posted_once(drv, preset: str = "atlanta") -> None:
    """No message of the bot's appears twice in a channel (a retry posts it once)."""
    for name in ("board", "kibitz", "team", "box"):
        texts = Counter(m["content"] for m in drv.messages(f"chouette 1 · {preset}/{name}")
                        if m["content"])
        assert all(n == 1 for n in texts.values()), texts.most_common(3)


@e2e(rate_limits=True)
async def test_a_quick_start_is_answered_in_time(drv) -> None:
    """Opened, joined by three and started in quick succession: the #board bucket is full
    (the table's first message, the joins' records, the seats), and the Start click is
    still answered at once."""
    r = await drv.slash("alice", "general", "chouette open")
    assert "Table open" in r.text(), r
    for player in ("bob", "carol"):  # each answered, nobody waits for the channels
        joined = await drv.slash(player, "chouette 1 · atlanta/kibitz", "chouette join",
                                 settle=False)
        assert "Done" in joined.text(), joined.text()
    started = await drv.click("alice", board(drv), label="Start game", settle=False)
    assert started.acked
    await drv.settle()
    assert seats(drv)
    await drv.wait_for(lambda: "Game 1 begins" in board(drv)["content"], timeout=10,
                       what="the board to follow within the channel's limit")
    assert status(drv).startswith("Waiting for")
    assert max(drv.ack_times.values()) < 3
    posted_once(drv)
    assert drv.fake.rate_limiter.hits.get("global", 0) == 0


@e2e(rate_limits=True)
async def test_two_games_at_human_pace(drv) -> None:
    """Two whole games on the rate-limited Discord: the first ends on a Box double the
    Team drops by DM, the second on the Team's doubles the Box drops; every click answered in
    time, the board always the table's latest state, nothing posted twice."""
    await open_table(drv, "alice", "bob", "carol")
    await drv.click("alice", board(drv), label="Start game")
    for game in (1, 2):
        box, team = seats(drv)
        doubler = box if game == 1 else team[0]
        while (shooter := await play_until_roll(drv)) != doubler:
            await drv.click(shooter, board(drv), label="Roll")
        menu = await drv.click(doubler, board(drv), label="Double")
        if game == 1:
            await choose(drv, box, menu, {"double": team})
            for player in team:
                (dm,) = [m for m in drv.dms(player) if "Drop" in drv.button_labels(m)]
                await drv.click(player, dm, label="Drop")
        else:
            await drv.click(team[1], board(drv), label="Double")
            answer = await drv.click(box, board(drv), label="Answer the doubles")
            await drv.click(box, answer.message, label="Confirm")  # nothing taken: dropped
        await drv.settle()
        assert status(drv).startswith("Between games"), status(drv)
        title = f"**Score after game {game}"
        await drv.wait_for(lambda: any(m["content"].startswith(title)  # noqa: B023
                                       for m in drv.messages(BOARD)),
                           timeout=15, what="the sheet, behind #board's limit")
        if game == 1:
            await drv.click(team[0], board(drv), label="Start game")
    assert max(drv.ack_times.values()) < 3, max(drv.ack_times.values())
    posted_once(drv)


@e2e(rate_limits=True)
async def test_a_box_double_answered_by_eight_team_players(drv) -> None:
    """Nine at the table: the Box doubles all eight Team cubes and each Team player takes
    by DM, in the order the rules ask; every answer is acknowledged in time and the board
    follows within the channel's limit. Prints the calls and the time it took."""
    players = ["alice", "bob", "carol", "dave", "erin", "fay", "gus", "hal", "ida"]
    for name in players[5:]:
        await drv.add_member(name)
    await open_table(drv, *players)
    await drv.click("alice", board(drv), label="Start game")
    box, team = seats(drv)
    assert len(team) == 8
    while (shooter := await play_until_roll(drv)) != box:
        await drv.click(shooter, board(drv), label="Roll")
    menu = await drv.click(box, board(drv), label="Double")
    started, calls = time.monotonic(), len(drv.fake.calls)
    await choose(drv, box, menu, {"double": team})
    answered: set[str] = set()
    while len(answered) < len(team):
        def questions() -> list[tuple[str, dict]]:
            return [(p, m) for p in team if p not in answered
                    for m in drv.dms(p) if "Take" in drv.button_labels(m)]

        player, message = (await drv.wait_for(questions, timeout=15,
                                              what="the next Team player's question"))[0]
        await drv.click(player, message, label="Take", settle=False)
        answered.add(player)
    await drv.wait_for(lambda: all(f"{p} 2 (held by {p})" in board(drv)["content"]
                                   for p in team),
                       timeout=20, what="the board with every cube taken")
    took = time.monotonic() - started
    print(f"\nBox double answered by 8: {len(drv.fake.calls) - calls} API calls, "
          f"{took:.2f} s until the board showed every take; slowest acknowledgement "
          f"{max(drv.ack_times.values()):.3f} s")
    assert max(drv.ack_times.values()) < 3
    posted_once(drv)


def played_at_random(preset: str, seed: int) -> Any:
    """A table of `preset` played at random by four players until a game has ended: before
    each action Discord shows what the store says (the board follows the limits)."""
    async def run(drv: Any) -> None:
        rng = random.Random(seed)
        await open_table(drv, *PLAYERS, preset=preset)
        for _ in range(300):
            await delivered(drv)
            check(drv)
            if stored(drv)[0].games_played >= 1:
                break
            await act(drv, rng, settle=True, doubling=0.6)  # cube-happy: cubes meet the
        assert stored(drv)[0].games_played >= 1  # limits (DMs, #box), and games end sooner
        assert max(drv.ack_times.values()) < 3, max(drv.ack_times.values())
        posted_once(drv, preset)
    run.__name__ = f"test_a_{preset}_game_on_the_rate_limited_discord"
    return run


test_an_atlanta_game_on_the_rate_limited_discord = e2e(rate_limits=True)(
    played_at_random("atlanta", 11))
test_a_fibs_game_on_the_rate_limited_discord = e2e(rate_limits=True)(
    played_at_random("fibs", 12))
test_a_villages_game_on_the_rate_limited_discord = e2e(rate_limits=True)(
    played_at_random("villages", 13))
test_a_danish_game_on_the_rate_limited_discord = e2e(rate_limits=True)(
    played_at_random("danish", 14))
test_a_euro_game_on_the_rate_limited_discord = e2e(rate_limits=True)(
    played_at_random("euro", 15))


@e2e(rate_limits=True)
async def test_killed_mid_game_on_the_rate_limited_discord(drv) -> None:
    """kill -9 in the middle of a game while the channels are limited: after the restart
    Discord shows what the store says, and the game plays on to its end, every click in
    time and nothing posted twice."""
    rng = random.Random(7)
    await open_table(drv, *PLAYERS)
    killed = False
    for step in range(300):
        await delivered(drv)
        check(drv)
        state = stored(drv)[0]
        if state.games_played >= 1:
            break
        if not killed and step >= 6 and state.game is not None:  # the game under way
            await restarted(drv)
            check(drv)
            killed = True
        await act(drv, rng, settle=True, doubling=0.6)
    assert killed and stored(drv)[0].games_played >= 1
    assert max(drv.ack_times.values()) < 3
    posted_once(drv)
