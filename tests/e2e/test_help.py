"""/chouette help as a player sees it (black-box: the bot is its own process, the fake is
Discord): the commands as mentions with the id Discord gave them, and his table explained."""

import re

from tests.e2e.support import e2e

BOARD = "chouette 1 · atlanta/board"


@e2e()
async def test_help_mentions_the_registered_commands_and_explains_the_table(drv) -> None:
    (chouette,) = [c for c in drv.commands() if c["name"] == "chouette"]
    outside = await drv.slash("bob", "general", "chouette help")
    assert outside.ephemeral and "not in a chouette table's channels" in outside.text()
    await drv.slash("alice", "general", "chouette open", preset="atlanta")
    await drv.slash("bob", BOARD, "chouette join")
    r = await drv.slash("bob", BOARD, "chouette help")
    assert r.ephemeral, r
    text, (embed,) = r.content or "", r.embeds
    assert "**This table:** atlanta rules" in text and "before the first game" in text
    assert "**You can now:** **Start game**" in text
    ids = set(re.findall(r"</chouette [a-z ]+:(\d+)>", embed["description"]))
    assert ids == {str(chouette["id"])}
    assert f"</chouette join:{chouette['id']}>" in embed["description"]
