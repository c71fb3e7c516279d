"""Choosing any legal play without typing, black-box: when a roll has more plays than one
menu holds (about one roll in four), the board offers the first move, then a private menu
of the plays that begin with it. A player whose roll it is not is told so at once."""

import re

from tests.e2e.session import board, open_table, status
from tests.e2e.support import e2e


@e2e()
async def test_a_play_from_more_than_25_is_chosen_in_two_steps(drv) -> None:
    await open_table(drv, "alice", "bob", "carol")
    await drv.click("alice", board(drv), label="Start game")
    for _ in range(200):  # rolls until one has more plays than a menu: (3/4)^200 it never does
        line = status(drv)
        if line.startswith("Between games"):  # a game can end first: play the next one
            await drv.click("alice", board(drv), label="Start game")
            continue
        if rolling := re.match(r"Waiting for (\w+) to roll", line):
            await drv.click(rolling[1], board(drv), label="Roll")
            continue
        playing = re.match(r"Waiting for (\w+) to play", line)
        assert playing, line
        other = "bob" if playing[1] != "bob" else "carol"  # not his roll: the rules say no
        form = await drv.click(other, board(drv), label="Type a move")
        assert form.response_type == 4 and form.ephemeral and "rolls and plays" in form.text()
        (menu,) = drv.selects(board(drv))
        if not menu["custom_id"].endswith(":first"):
            await drv.select(playing[1], board(drv), menu["custom_id"],
                             [menu["options"][0]["value"]])
            continue
        first = menu["options"][-1]["value"]
        refused = await drv.select(other, board(drv), menu["custom_id"], [first])
        assert refused.ephemeral and not drv.selects(refused.message)
        assert f"{playing[1]} rolls and plays for the" in refused.text()
        step = await drv.select(playing[1], board(drv), menu["custom_id"], [first])
        assert step.ephemeral and f"The plays that begin {first}" in step.text()
        plays = [o["value"] for s in drv.selects(step.message) for o in s["options"]]
        assert plays and all(p.split(" ")[0].split("(")[0] == first for p in plays)
        before = board(drv)["content"]
        chosen = plays[-1]
        await drv.select(playing[1], step.message, drv.selects(step.message)[-1]["custom_id"],
                         [chosen])
        assert f"plays {chosen}." in board(drv)["content"] and board(drv)["content"] != before
        assert drv.buttons(step.message) == [] and not drv.selects(step.message)  # answered
        return
    raise AssertionError("no roll with more than 25 plays in 200 rolls")


@e2e()
async def test_a_typed_move_sent_after_a_restart_is_played(drv) -> None:
    """The form carries its table in its custom id: opened before the bot restarted and sent
    after, the play is made (a form only discord.py remembered would fail)."""
    await open_table(drv, "alice", "bob", "carol")
    await drv.click("alice", board(drv), label="Start game")
    playing = re.match(r"Waiting for (\w+) to play", status(drv))
    assert playing, status(drv)
    (menu,) = drv.selects(board(drv))  # an opening roll has fewer plays than a menu holds
    assert menu["custom_id"].endswith(":move"), menu["custom_id"]
    play = menu["options"][-1]["value"]
    form = await drv.click(playing[1], board(drv), label="Type a move")
    assert form.modal, form.text()
    await drv.restart()
    field = form.modal["components"][0]["components"][0]["custom_id"]
    sent = await drv.submit_modal(playing[1], form, {field: play})
    assert not sent.ephemeral and f"plays {play}." in board(drv)["content"]
