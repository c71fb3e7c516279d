"""Opening a table on a server that granted exactly the README invite's permissions, and
the refusals around it (black-box: the bot is its own process, the fake is Discord)."""

import asyncio

import discord

from bot.discord.channels import INVITE as USED
from tests.e2e.session import read
from tests.e2e.support import INVITE, Perm, e2e

BOARD = "chouette 1 · atlanta/board"


def test_the_invite_asks_for_exactly_what_the_bot_uses() -> None:
    assert INVITE == USED.value == (Perm.VIEW_CHANNEL | Perm.SEND_MESSAGES | Perm.ATTACH_FILES
                                    | Perm.MANAGE_CHANNELS | Perm.MANAGE_ROLES)
    assert not discord.Permissions(INVITE).administrator


@e2e()
async def test_open_with_the_invites_permissions_makes_a_private_table(drv) -> None:
    r = await drv.slash("alice", "general", "chouette open", preset="atlanta")
    assert r.ephemeral and "Table open" in r.text(), r
    assert [c["name"] for c in drv.children("chouette 1 · atlanta")] == [
        "board", "kibitz", "team", "box"]
    team, box = drv.channel("chouette 1 · atlanta/team"), drv.channel("chouette 1 · atlanta/box")
    assert not drv.can_view("bob", team) and not drv.can_view("alice", box)
    assert not drv.can_send("bob", BOARD) and drv.can_view("bob", BOARD)
    assert drv.can_send("bob", "chouette 1 · atlanta/kibitz")
    for channel in (team, box, BOARD):  # the bot granted itself nothing it lacks
        mine = drv.overwrite_for(channel, "TestBot")
        assert int(mine["allow"]) & ~INVITE == 0
    board, *record = drv.messages(BOARD)  # the board, and the public record
    assert "alice joins" in board["content"] and board["components"]
    assert board["content"].startswith("**Joined** alice\n")  # who has joined, before seats
    assert [m["content"] for m in record] == [  # the open and her seat: one message
        "A table is open under the atlanta rules (play mode).\nalice joins."]
    assert not any(m["components"] for m in record)


@e2e(permissions=INVITE & ~Perm.MANAGE_ROLES)
async def test_open_says_which_permission_the_server_must_give(drv) -> None:
    r = await drv.slash("alice", "general", "chouette open")
    assert r.ephemeral and "Manage Roles" in r.text() and "\n" not in r.text().strip(), r
    assert not drv.categories() or all("chouette" not in c["name"] for c in drv.categories())


@e2e()
async def test_bad_options_make_nothing_and_mentions_ping_nobody(drv) -> None:
    r = await drv.slash("alice", "general", "chouette open", stake=3)
    assert r.ephemeral and "A stake of 3 isn't played here" in r.text()
    r = await drv.slash("alice", "general", "chouette open", overrides="beavers = maybe")
    assert r.ephemeral and "Can't read the overrides" in r.text()
    assert all("chouette" not in c["name"] for c in drv.categories())
    bob = drv.user("bob")["id"]
    await drv.slash("alice", "general", "chouette open", basic=f"@everyone <@{bob}> pay")
    opened = drv.messages(BOARD)[1]  # the note reads as typed, and pings nobody
    assert f"@everyone <@{bob}> pay" in read(opened["content"])
    for message in drv.messages(BOARD):
        assert not message["mention_everyone"] and message["mentions"] == []
    await drv.slash("bob", "chouette 1 · atlanta/kibitz", "chouette join")
    alone = await drv.click("alice", drv.messages(BOARD)[0], label="Start game")
    assert alone.ephemeral and "at least 3 players; 2 are seated" in alone.text()
    assert "Waiting for players" in drv.messages(BOARD)[0]["content"]  # no seats were drawn
    assert not any("Seats" in m["content"] for m in drv.messages(BOARD))


@e2e(env={"CHOUETTE_MAX_TABLES": "2"})
async def test_one_table_per_channel_and_a_limit_per_server(drv) -> None:
    await drv.slash("alice", "general", "chouette open")
    again = await drv.slash("bob", "general", "chouette open")
    assert again.ephemeral and "already open from here" in again.text()
    inside = await drv.slash("bob", "chouette 1 · atlanta/kibitz", "chouette open")
    assert inside.ephemeral and "already open from here" in inside.text()
    for name in ("second", "third"):
        await drv.fake.create_channel(name)
    await drv.settle()
    assert "Table open" in (await drv.slash("bob", "second", "chouette open")).text()
    full = await drv.slash("carol", "third", "chouette open")
    assert full.ephemeral and "2 open tables, its limit" in full.text()
    names = sorted(c["name"] for c in drv.categories() if c["name"].startswith("chouette"))
    assert names == ["chouette 1 · atlanta", "chouette 2 · atlanta"]


@e2e(env={"CHOUETTE_MAX_TABLES": "2"})
async def test_opens_at_the_same_moment_keep_both_limits_and_the_numbering(drv) -> None:
    """Twenty opens from one channel and ten from two others, all at once (a double tap is
    enough for two): one table a channel, two on the server, numbered 1 and 2."""
    for name in ("second", "third"):
        await drv.fake.create_channel(name)
    await drv.settle()
    users = ("alice", "bob", "carol", "dave", "erin")
    asked = [("general", users[i % 5]) for i in range(20)]
    asked += [(channel, user) for channel in ("second", "third") for user in users]
    results = await asyncio.gather(*(drv.slash(user, channel, "chouette open", settle=False)
                                     for channel, user in asked))
    await drv.settle()
    texts = [r.text() for r in results]
    assert sum("Table open" in t for t in texts) == 2, texts
    assert all("Table open" in t or "already open from here" in t or "its limit" in t
               for t in texts), texts
    here = [t for t, (channel, _) in zip(texts, asked, strict=True) if channel == "general"]
    assert sum("Table open" in t for t in here) == 1
    names = sorted(c["name"] for c in drv.categories() if c["name"].startswith("chouette"))
    assert names == ["chouette 1 · atlanta", "chouette 2 · atlanta"]


@e2e()
async def test_discord_errors_reach_the_user_privately_and_the_action_stays(drv) -> None:
    await drv.slash("alice", "general", "chouette open")
    drv.fake.rate_limit_next[r"channels/\d+/messages/\d+"] = 1  # discord.py waits it out
    drv.fake.fail_next[r"channels/\d+/messages/\d+"] = (503, 0, "Service Unavailable")
    r = await drv.slash("bob", "chouette 1 · atlanta/kibitz", "chouette join")
    assert r.ephemeral and "Discord did not take the bot's request (503)" in r.text(), r
    assert "went wrong" not in r.text()
    again = await drv.slash("bob", "chouette 1 · atlanta/kibitz", "chouette join")
    assert "bob is already at this table" in again.text()  # his join was recorded
    assert "503" in drv.bot_log() and "Traceback" not in drv.bot_log()


@e2e(env={"CHOUETTE_DELETE_AFTER_HOURS": "0.0005"})
async def test_an_ended_table_is_removed_after_the_delay_the_server_set(drv) -> None:
    await drv.slash("alice", "general", "chouette open")
    await drv.slash("alice", "chouette 1 · atlanta/kibitz", "chouette end")
    await drv.wait_for(lambda: not any(c["name"].startswith("chouette")
                                       for c in drv.categories()), timeout=10)
    assert not [c for c in drv.fake.channels.values() if c.get("name") == "board"]


@e2e()
async def test_a_table_opened_in_danish_shows_danish_buttons_and_record(drv) -> None:
    """The server's language is English (en-US): `language:da` makes this table Danish for
    everyone, its board, buttons and record; a refusal stays in the clicker's (English)."""
    await drv.slash("alice", "general", "chouette open", language="da")
    board, *record = drv.messages(BOARD)
    assert drv.button_labels(board) == ["Kom med", "Start spil"]
    assert board["content"].startswith("**Kommet med** alice\n**Venter på spillere")
    assert [m["content"] for m in record] == [
        "Et bord er åbent efter atlanta-reglerne (spilletilstand).\nalice kommer med."]
    await drv.click("bob", drv.messages(BOARD)[0], label="Kom med")
    assert drv.messages(BOARD)[-1]["content"] == "bob kommer med."
    alone = await drv.click("alice", drv.messages(BOARD)[0], label="Start spil")
    assert alone.ephemeral and "at least 3 players; 2 are seated" in alone.text()
