"""A whole session, black-box, with exactly the invite's permissions: open, joins, start,
a Team double the Box takes, the Box's double answered by DM, the game ended, the sheet,
the end and its breakdown; the channels follow the seating throughout."""

import hashlib
import re
from collections import Counter

from tests.e2e.session import BOARD, board, choose, play_until_roll, seats, status
from tests.e2e.support import e2e

TEAM = "chouette 1 · atlanta/team"
BOX = "chouette 1 · atlanta/box"


def records(calls: list, board_id: str) -> list[str]:
    """The public record's messages among `calls`: posted in #board, not the board (nor a
    sheet: both begin in bold)."""
    return [c.body["content"] for c in calls if c.method == "POST"
            and c.path == f"channels/{board_id}/messages"
            and not c.body["content"].startswith("**")]


def overwrite_calls(calls: list) -> Counter[str]:
    """The calls among `calls` that change channels' overwrites, by channel."""
    found = (re.fullmatch(r"channels/(\d+)(/permissions/\d+)?", c.path) for c in calls
             if c.method in ("PUT", "PATCH", "DELETE"))
    return Counter(m[1] for m in found if m)


@e2e()
async def test_a_whole_session_with_the_invites_permissions(drv) -> None:
    before = len(drv.fake.calls)
    r = await drv.slash("alice", "general", "chouette open")
    assert "Table open" in r.text(), r
    (posted,) = [c for c in drv.fake.calls if c.path.startswith("channels/")
                 and isinstance(c.body, dict) and "**Joined** alice" in c.body.get("content", "")]
    assert posted.method == "POST"  # the board, posted as the opener joined: not edited
    board_id = drv.channel(BOARD)["id"]
    # the open and the opener's seat, stored together: their record lines in one message
    opened = drv.fake.calls[before:]
    assert records(opened, board_id) == [
        "A table is open under the atlanta rules (play mode).\nalice joins."]
    assert len(opened) == 9, [f"{c.method} {c.path}" for c in opened]  # the answer deferred,
    # 5 channels, the board, the record, the answer
    for player in ("bob", "carol"):
        assert (await drv.slash(player, "chouette 1 · atlanta/kibitz", "chouette join")).acked
    before = len(drv.fake.calls)
    await drv.click("alice", board(drv), label="Start game")
    # the seats drawn and the first game, stored together: the board drawn once, the click
    # answered with it; their record lines in one message; one call a channel opens the
    # seated players' channels (#team: both Team players at once)
    started = drv.fake.calls[before:]
    (upload,) = [c for c in started if c.files]
    assert "/callback" in upload.path and upload.body["type"] == 7
    (record,) = records(started, board_id)
    assert record.startswith("The dice for seats: ") and "\nGame 1 begins" in record
    by_channel = overwrite_calls(started)
    assert set(by_channel) == {drv.channel(TEAM)["id"], drv.channel(BOX)["id"]}
    assert max(by_channel.values()) == 1, by_channel
    assert len(started) == 4, [f"{c.method} {c.path}" for c in started]
    box, team = seats(drv)
    captain = team[0]
    assert drv.can_view(box, BOX) and not drv.can_view(box, TEAM)
    assert all(drv.can_view(p, TEAM) and not drv.can_view(p, BOX) for p in team)
    assert "Game 1 begins" in board(drv)["content"]

    # the Team's turn to roll comes: the Captain doubles, the Box takes from his menu
    costs: list[int] = []
    while (shooter := await play_until_roll(drv, costs=costs)) != captain:
        await drv.click(shooter, board(drv), label="Roll")
    assert costs and max(costs) <= 2, costs  # API calls per checker play
    await drv.click(captain, board(drv), label="Double")
    assert f"Waiting for {box} to answer" in status(drv)
    await drv.click(team[1], board(drv), label="Double")  # each decides on his own cube
    menu = await drv.click(box, board(drv), label="Answer the doubles")
    assert menu.ephemeral
    await choose(drv, box, menu, {"take": team})  # three-handed: both or none (5.10a)
    assert f"{captain} 2 (held by {box})" in board(drv)["content"]
    assert f"{team[1]} 2 (held by {box})" in board(drv)["content"]
    assert drv.can_send(captain, TEAM)  # a cube in the game: he may consult

    # the Box's turn: he doubles every cube; each Team player drops by DM; the game is over
    while (shooter := await play_until_roll(drv)) != box:
        await drv.click(shooter, board(drv), label="Roll")
    menu = await drv.click(box, board(drv), label="Double")
    before = len(drv.fake.calls)
    await choose(drv, box, menu, {"double": team})
    calls = [f"{c.method} {c.path}" for c in drv.fake.calls[before:]]
    # the menu's two edits (the pick, then the answer), the board, the public record's
    # line, a DM channel and a DM for each Team player: no more
    assert len(calls) <= 4 + 2 * len(team), calls
    for player in team:
        (dm,) = [m for m in drv.dms(player) if "Drop" in drv.button_labels(m)]
        assert "turned to 4" in dm["content"]
        await drv.click(player, dm, label="Drop")
    await drv.settle()
    assert status(drv).startswith("Between games")
    sheets = [m for m in drv.messages(BOARD) if m["content"].startswith("**Score after game 1")]
    assert len(sheets) == 1 and drv.pngs(sheets[0])
    assert f"{box}: +" in sheets[0]["content"] and not re.search(r"\d{15}", sheets[0]["content"])
    # the public record: what happened, in messages never edited
    record = [m for m in drv.messages(BOARD)[1:] if not m["content"].startswith("**")]
    assert all(m.get("edited_timestamp") is None and not m["components"] for m in record)
    text = "\n".join(m["content"] for m in record)
    pledge = re.search(r"Game 1 begins.*SHA-256 is `([0-9a-f]{64})`", text)
    seed = re.search(r"Game 1's dice seed was `([0-9a-f]{64})`", text)
    assert pledge and seed and f"{captain}: double" in text and "The Box wins" in text
    assert re.search(r"The dice for seats: (alice|bob|carol) \d-\d, ", text)  # shown
    assert hashlib.sha256(bytes.fromhex(seed[1])).hexdigest() == pledge[1]

    # the end: the final sheet and who pays whom; the channels become a read-only archive
    r = await drv.slash(team[-1], "chouette 1 · atlanta/kibitz", "chouette end")
    assert r.acked
    assert "The session is over." in board(drv)["content"] and " pays " in board(drv)["content"]
    # the last of the table's own messages (GNU Backgammon's figures may follow: issue 21)
    final = [m for m in drv.messages(BOARD)
             if not m["content"].startswith("**GNU Backgammon")][-1]
    assert final["content"].startswith("**Final score**") and drv.pngs(final)
    assert not drv.can_send("alice", "chouette 1 · atlanta/kibitz")
    assert drv.can_view(box, BOX) and not drv.can_send(box, BOX)
