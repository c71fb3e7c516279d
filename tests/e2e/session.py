"""Driving a table as its players do, black-box: read the board message, click, choose."""

from __future__ import annotations

import re
from typing import Any

BOARD = "chouette 1 · atlanta/board"
KIBITZ = "chouette 1 · atlanta/kibitz"


def board(drv: Any, where: str = BOARD) -> dict[str, Any]:
    """The board message: the first the bot posted in #board, edited in place since."""
    return drv.messages(where)[0]  # type: ignore[no-any-return]


def read(content: str) -> str:
    """A message's text as Discord shows it: an escaped character as itself, no
    zero-width spaces."""
    return re.sub(r"\\([^A-Za-z0-9\s])", r"\1", content).replace("\u200b", "")


def seats(drv: Any, where: str = BOARD) -> tuple[str, list[str]]:
    """(Box, Team in order) as the board message names them (as Discord shows them)."""
    first = board(drv, where)["content"].split("\n")[0]
    found = re.fullmatch(r"\*\*Box\*\* (.+?)(?: with .+?)? · \*\*Team\*\* (.+)", first)
    assert found, board(drv, where)["content"]
    return read(found[1]), [read(p) for p in found[2].split(", ")]


def status(drv: Any, where: str = BOARD) -> str:
    """The board's bold status line: whose decision the table waits for."""
    found = re.search(r"^\*\*(Waiting[^\n]*|Between[^\n]*|The session[^\n]*)\*\*$",
                      board(drv, where)["content"], re.M)
    assert found, board(drv, where)["content"]
    return found[1]


async def open_table(drv: Any, *players: str, **options: Any) -> None:
    """The first player opens a table from #general; the others join from #kibitz."""
    r = await drv.slash(players[0], "general", "chouette open", **options)
    assert "Table open" in r.text(), r
    kibitz = f"chouette 1 · {options.get('preset', 'atlanta')}/kibitz"
    for player in players[1:]:
        r = await drv.slash(player, kibitz, "chouette join")
        assert r.acked, r


async def play_until_roll(drv: Any, where: str = BOARD, costs: list[int] | None = None) -> str:
    """Each shooter plays the first legal play offered until a side is to roll; returns who.
    `costs` gets the API calls each checker play took."""
    for _ in range(20):
        line = status(drv, where)
        playing = re.match(r"Waiting for (\w+) to play", line)
        if playing:
            message = board(drv, where)
            (menu,) = drv.selects(message)
            before = len(drv.fake.calls)
            chosen = await drv.select(playing[1], message, menu["custom_id"],
                                      [menu["options"][0]["value"]])
            if menu["custom_id"].endswith(":first"):  # more plays than a menu: two steps
                plays = drv.selects(chosen.message)[0]
                assert chosen.ephemeral and plays["custom_id"].endswith(":move:1")
                before = len(drv.fake.calls)
                await drv.select(playing[1], chosen.message, plays["custom_id"],
                                 [plays["options"][0]["value"]])
            if costs is not None:
                costs.append(len(drv.fake.calls) - before)
            continue
        rolling = re.match(r"Waiting for (\w+) to roll", line)
        assert rolling, line
        return rolling[1]
    raise AssertionError("no roll came")


async def choose(drv: Any, user: str, result: Any, picks: dict[str, list[str]]) -> Any:
    """In the ephemeral menu `result` opened, pick each select's values and confirm."""
    for choice, names in picks.items():
        ids = [drv.user(n)["id"] for n in names]
        (menu,) = [s for s in drv.selects(result.message)
                   if s["custom_id"].endswith(f":{choice}")]
        await drv.select(user, result.message, menu["custom_id"], ids)
    return await drv.click(user, result.message, label="Confirm")
