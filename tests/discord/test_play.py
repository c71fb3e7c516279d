"""A game through a simulated Discord: seats by the dice, moves by menu, a double answered in
DMs, the Team channel's send permission, and a restart in the middle of the game."""

import dataclasses
from collections.abc import Callable
from typing import Any

import discord

from bot.discord.client import ChouetteBot
from bot.discord.router import Inert
from rules.board import Position, legal_plays
from rules.cube import Side
from rules.events import GameStarted
from rules.notation import format_play
from tests.discord.conftest import ScriptedDice
from tests.discord.test_lobby import (
    agree_result,
    board_message,
    labels,
    open_table,
    table_id,
    table_state,
)


def live_channel(env: Any, guild: Any, name: str) -> discord.TextChannel:
    found = discord.utils.get(env.bot.get_guild(guild.id).text_channels, name=name)
    assert isinstance(found, discord.TextChannel)
    return found


async def pick(env: Any, board: Any, choice: str) -> str:
    """The custom id of one list of the Box's private menu at the table of `board`."""
    verb = "double" if choice == "double" else "answer"
    return f"chouette:{await table_id(env, board)}:pick:{verb}:{choice}"


async def started(env: Any, dice: ScriptedDice, **options: Any
                  ) -> tuple[Any, list[Any], Any]:
    """ann, bo, cy at an Atlanta table (or as `options` say); the dice seat ann Box, bo
    Captain; the Box opens 3-1."""
    guild, members, board = await open_table(env, "ann", "bo", "cy", **options)
    dice.queue = [6, 5, 4, 4, 2, 1, 3, 1]  # seats: 11, 8, 3; opening: Box 3, Team 1
    await members[0].click(board_message(board), label="Start game")
    return guild, members, board


async def six_started(env: Any, dice: ScriptedDice, **options: Any
                      ) -> tuple[Any, list[Any], Any]:
    """a, b, c, d, e, f at a table kept by score; the dice seat them in that order (a Box,
    b Captain) and the first game starts."""
    guild, members, board = await open_table(env, "a", "b", "c", "d", "e", "f",
                                             mode="scorekeeper", **options)
    dice.queue = [6, 6, 6, 5, 5, 5, 5, 4, 4, 4, 4, 3]
    await members[0].click(board_message(board), label="Start game")
    return guild, members, board


async def play(member: Any, board: Any, move: str) -> None:
    """`member` picks `move` from the board's menu of legal plays."""
    await member.select(board_message(board), [move], custom_id=_move_id(board_message(board)))


async def box_doubles_the_team(env: Any, dice: ScriptedDice, board: Any,
                               members: list[Any]) -> None:
    """From the opening: the Box plays 8/5 6/5, the Team 6-5 24/13, the Box doubles both."""
    ann, bo, cy = members
    await play(ann, board, "8/5 6/5")
    dice.queue = [6, 5]
    await bo.click(board_message(board), label="Roll")
    await play(bo, board, "24/13")
    menu = await ann.click(board_message(board), label="Double")
    assert menu.ephemeral
    picks = await pick(env, board, "double")
    await ann.select(menu.response, [str(bo.id), str(cy.id)], custom_id=picks)
    await ann.click(menu.response, label="Confirm")


async def test_seats_by_the_dice_and_the_box_plays_from_the_menu(simcord_env: Any,
                                                                 dice: ScriptedDice) -> None:
    _, (ann, bo, _), board = await started(simcord_env, dice)
    message = board_message(board)
    assert "Waiting for ann to play 3-1" in message.content
    assert message.attachments and message.attachments[0].filename == "board.png"
    refused = await bo.select(message, ["8/5 6/5"], custom_id=_move_id(message))
    assert refused.ephemeral and "ann rolls and plays for the Box" in refused.response.content
    await ann.select(message, ["8/5 6/5"], custom_id=_move_id(message))
    assert "Waiting for bo to roll" in board_message(board).content


async def test_box_double_goes_to_dms_and_a_take_opens_the_team_channel(
        simcord_env: Any, dice: ScriptedDice) -> None:
    guild, (ann, bo, cy), board = await started(simcord_env, dice)
    await box_doubles_the_team(simcord_env, dice, board, [ann, bo, cy])
    bo_dm = bo.user.dm_channel.last_message
    assert bo_dm is not None and "turned to 2" in bo_dm.content
    await bo.user.click(bo_dm, label="Take")
    team = live_channel(simcord_env, guild, "team")
    live_bo = team.guild.get_member(bo.id)
    live_cy = team.guild.get_member(cy.id)
    assert team.permissions_for(live_bo).send_messages
    assert not team.permissions_for(live_cy).send_messages
    await cy.user.click(cy.user.dm_channel.last_message, label="Drop")
    assert "Waiting for ann to roll" in board_message(board).content
    assert simcord_env.bot.persistent_views == []  # the router's views: discord.py keeps none


async def test_buttons_work_after_a_restart(simcord_env: Any, dice: ScriptedDice,
                                            make_bot: Callable[[], ChouetteBot]) -> None:
    _, (ann, bo, _), board = await started(simcord_env, dice)
    await play(ann, board, "8/5 6/5")
    await simcord_env.bot.store.close()  # the old process is gone: only the file remains
    await simcord_env.restart_bot(make_bot())
    dice.queue = [6, 5]
    await bo.click(board_message(board), label="Roll")
    assert "Waiting for bo to play 6-5" in board_message(board).content


def _move_id(message: Any) -> str:
    for row in message.components:
        for item in row.children:
            if getattr(item, "custom_id", "").endswith(":move"):
                return str(item.custom_id)
    raise AssertionError("no move menu on the board")


async def test_a_checker_play_costs_at_most_two_api_calls(simcord_env: Any,
                                                          dice: ScriptedDice) -> None:
    _, (ann, bo, _), board = await started(simcord_env, dice)
    before = len(simcord_env.http_requests)
    await play(ann, board, "8/5 6/5")
    calls = simcord_env.http_requests[before:]
    assert 1 <= len(calls) <= 2, [c.path for c in calls]
    dice.queue = [6, 5]
    before = len(simcord_env.http_requests)
    await bo.click(board_message(board), label="Roll")
    assert len(simcord_env.http_requests[before:]) <= 2


async def test_closed_dms_fall_back_to_the_board_channel(simcord_env: Any,
                                                        dice: ScriptedDice) -> None:
    _, (ann, bo, cy), board = await started(simcord_env, dice)
    await play(ann, board, "8/5 6/5")
    dice.queue = [6, 5]
    await bo.click(board_message(board), label="Roll")
    await bo.select(board_message(board), ["24/13"], custom_id=_move_id(board_message(board)))
    simcord_env.inject_error("POST", "/users/@me/channels", status=403, code=50007,
                             message="Cannot send messages to this user", times=None)
    menu = await ann.click(board_message(board), label="Double")
    picks = await pick(simcord_env, board, "double")
    await ann.select(menu.response, [str(bo.id)], custom_id=picks)
    await ann.click(menu.response, label="Confirm")
    asked = [m for m in board.history() if f"<@{bo.id}>" in m.content]
    assert asked and "turned to 2" in asked[-1].content
    refused = await cy.click(asked[-1], label="Take")
    assert refused.ephemeral and "may not act for bo" in refused.response.content
    await bo.click(asked[-1], label="Take")
    channels = await simcord_env.bot.store.channels.find(channel_id=board.id)
    shown = next(m for m in board.history() if m.id == channels.message_id)
    assert "Waiting for ann to roll" in shown.content


async def test_a_decision_that_times_out_goes_to_the_captain(simcord_env: Any,
                                                             dice: ScriptedDice) -> None:
    _, (ann, bo, cy), board = await started(simcord_env, dice)
    await box_doubles_the_team(simcord_env, dice, board, [ann, bo, cy])
    await bo.user.click(bo.user.dm_channel.last_message, label="Take")
    await simcord_env.advance_time(121)  # Atlanta: cy is treated as away; bo decides for him
    state = await table_state(simcord_env, board)
    assert state.member(str(cy.id)).away
    asked = bo.user.dm_channel.last_message
    assert asked is not None and asked.content.startswith("cy's cube against ann")
    await bo.user.click(asked, label="Drop")
    assert "Waiting for ann to roll" in board_message(board).content


async def test_hold_stops_the_captains_roll_until_released(simcord_env: Any,
                                                           dice: ScriptedDice) -> None:
    _, (ann, bo, cy), board = await started(simcord_env, dice)
    await play(ann, board, "8/5 6/5")
    await cy.click(board_message(board), label="Hold the roll")
    assert "cy asked bo to hold the roll" in board_message(board).content
    refused = await bo.click(board_message(board), label="Roll")
    assert refused.ephemeral and "hold the roll" in refused.response.content
    await cy.click(board_message(board), label="Release the roll")
    dice.queue = [6, 5]
    await bo.click(board_message(board), label="Roll")
    assert "Waiting for bo to play 6-5" in board_message(board).content


async def test_the_roll_goes_ahead_by_itself_when_the_double_window_closes(
        simcord_env: Any, dice: ScriptedDice) -> None:
    _, (ann, _, _), board = await started(simcord_env, dice)
    simcord_env.bot.settings = dataclasses.replace(simcord_env.bot.settings, autoroll=True)
    dice.queue = [6, 5]
    await play(ann, board, "8/5 6/5")
    await simcord_env.advance_time(5)  # Atlanta's window; SimCord runs the wait at once
    assert "Waiting for bo to play 6-5" in board_message(board).content


async def test_a_forced_play_is_played_by_the_bot(simcord_env: Any, dice: ScriptedDice) -> None:
    _, (_, bo, _), board = await started(simcord_env, dice)
    bot: ChouetteBot = simcord_env.bot
    table = await table_id(simcord_env, board)
    loaded = await bot.store.events.load(table)
    # The Team (on roll) has a checker on the bar and the rest on its ace point; the Box holds
    # its 1-5 points: a 6-1 must enter with the 6 and play the 1 with that checker.
    position = Position.from_points({25: 1, 1: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 12: 5})
    assert len({format_play(p) for p in legal_plays(position, (6, 1))}) == 1
    cubes = loaded.state.game.cubes if loaded.state.game else ()
    await bot.store.events.append(table, loaded.version, (GameStarted(
        2, cubes, position=position, on_roll=Side.TEAM),), None, None)
    bot.service._tables.pop(table)  # read the table again from the store
    channels = await bot.store.channels.find(table_id=table)
    assert channels is not None
    version = (await bot.service.current(table)).version
    await bot.presenter.boards.show(channels, version, [])
    dice.queue = [6, 1]
    await bo.click(board_message(board), label="Roll")
    assert "Waiting for ann to roll" in board_message(board).content
    state = await bot.service.state(table)
    assert state.game is not None and state.game.position is not None
    assert state.game.position.opponent[17] == 1  # the Team's checker now on its 18 point


async def test_a_hold_lapses_after_the_rule_sets_time(simcord_env: Any,
                                                      dice: ScriptedDice) -> None:
    _, (ann, bo, cy), board = await started(simcord_env, dice)
    await play(ann, board, "8/5 6/5")
    await cy.click(board_message(board), label="Hold the roll")
    await simcord_env.advance_time(120)  # Atlanta's hold_timeout_seconds
    assert "hold the roll" not in board_message(board).content
    dice.queue = [6, 5]
    await bo.click(board_message(board), label="Roll")
    assert "Waiting for bo to play 6-5" in board_message(board).content


async def test_a_whole_game_from_open_to_the_final_sheet(simcord_env: Any,
                                                         dice: ScriptedDice) -> None:
    _, (ann, bo, cy), board = await started(simcord_env, dice)
    await box_doubles_the_team(simcord_env, dice, board, [ann, bo, cy])
    await bo.user.click(bo.user.dm_channel.last_message, label="Drop")
    await cy.user.click(cy.user.dm_channel.last_message, label="Drop")
    sheets = [m for m in board.history() if m.content.startswith("**Score after game 1**")]
    assert sheets and "ann: +2" in sheets[-1].content
    await ann.slash(board, "chouette end")
    final = [m for m in board.history() if m.content.startswith("**Final score**")]
    assert final and "bo: -1" in final[-1].content and final[-1].attachments
    bot = simcord_env.bot  # nothing of the ended table's board or turns kept in memory
    (table_id,) = await bot.store.events.table_ids(open_only=False)
    boards = bot.presenter.boards
    assert table_id not in boards._shown and table_id not in boards._lines
    assert len(bot.service._locks) == len(bot.flow._timing) == len(boards._turns) == 0


async def test_a_partner_with_cubes_of_his_own_answers_the_teams_doubles_himself(
        simcord_env: Any, dice: ScriptedDice) -> None:
    """euro ¶9: the Box side is a side of several players: each answers his own cubes."""
    guild, members, board = await six_started(simcord_env, dice, preset="euro")
    a, _, c, *_ = members
    await agree_result(members, board, winner="box")  # a keeps the box; b to the end
    await a.slash(board, "chouette partner", player=c)  # euro: the Captain partners the Box
    message = board_message(board)
    await a.click(message, label="Start game")
    box = next(ch for ch in guild.channels.values() if ch.name == "box")
    assert box.last_message.content == ("You may always discuss cube decisions here (Atlanta "
                                        "3.4); checker plays once 2 cubes are turned (3.3).")
    d = members[3]
    message = board_message(board)
    await d.click(message, label="Double")
    message = board_message(board)
    for box_side, take in ((a, True), (c, False)):
        menu = await box_side.click(message, label="Answer the doubles")
        assert menu.ephemeral
        if take:
            picks = await pick(simcord_env, board, "take")
            await box_side.select(menu.response, [str(d.id)], custom_id=picks)
        await box_side.click(menu.response, label="Confirm")
    state = await table_state(simcord_env, board)
    assert state.game is not None
    assert "Box and Partner may now discuss checker plays too" in box.last_message.content
    held = {c.box_player: c.state.value for c in state.game.cubes if c.team_player == str(d.id)}
    assert held == {str(a.id): "taken", str(c.id): "dropped"}
    text = board_message(board)
    assert "d 2 (held by a)" in text.content and "d v c 1 (dropped)" in text.content


async def test_fibs_a_non_doubler_offers_his_game_and_the_box_buys_it_by_dm(
        simcord_env: Any, dice: ScriptedDice) -> None:
    _, members, board = await open_table(simcord_env, "ann", "bo", "cy", "di", preset="fibs",
                                         mode="scorekeeper")
    ann, bo, cy, _ = members
    dice.queue = [6, 6, 5, 5, 4, 4, 3, 3]  # seats: ann Box, bo Captain, cy, di
    await ann.click(board_message(board), label="Start game")
    await bo.click(board_message(board), label="Double")  # the Captain turns the one cube
    told = await cy.slash(board, "chouette sell", buyer=ann)
    assert told.ephemeral and "cy offers their game to ann" in told.response.content
    assert "Offered to ann" in told.followups[0].content
    offer = ann.user.dm_channel.last_message
    assert "cy offers to sell you their game" in offer.content
    await ann.user.click(offer, label="Buy the game")
    state = await table_state(simcord_env, board)
    assert state.game is not None
    bought = next(c for c in state.game.cubes if c.team_player == str(cy.id))
    assert not bought.live
    assert "bought out for 1/2" in board_message(board).content
    atlanta = await open_table(simcord_env, "x", "y", "z")
    nope = await atlanta[1][1].slash(atlanta[2], "chouette sell", buyer=atlanta[1][0])
    assert "No game is in progress" in nope.response.content


async def test_atlanta_5_4_a_raccoon_is_made_only_when_the_beaverer_agrees(
        simcord_env: Any, dice: ScriptedDice) -> None:
    guild, (ann, bo, cy), board = await started(simcord_env, dice)
    await box_doubles_the_team(simcord_env, dice, board, [ann, bo, cy])
    await bo.user.click(bo.user.dm_channel.last_message, label="Beaver")
    await cy.user.click(cy.user.dm_channel.last_message, label="Take")
    box = next(c for c in guild.channels.values() if c.name == "box")
    asked = next(m for m in reversed(list(box.history())) if m.components)
    told = await ann.click(asked, label="Raccoon")
    assert "ann asks bo to agree to a raccoon" in told.response.content
    assert "Asked bo to agree" in told.followups[0].content
    table = await table_id(simcord_env, board)

    async def bos_cube() -> tuple[str, int]:
        state = await simcord_env.bot.service.state(table)
        assert state.game is not None
        cube = next(c for c in state.game.cubes if c.team_player == str(bo.id))
        return cube.state.value, cube.value

    assert await bos_cube() == ("beavered", 4)  # nothing yet: bo has not agreed
    question = bo.user.dm_channel.last_message
    assert "asks to raccoon your beaver" in question.content
    await bo.user.click(question, label="Agree to the raccoon")
    assert await bos_cube() == ("raccooned", 8)
    # The aardvark the same way: bo asks, ann agrees (Atlanta: by consent).
    told = await bo.user.click(bo.user.dm_channel.last_message, label="Aardvark")
    assert "bo asks ann to agree to an aardvark" in told.response.content
    assert "Asked ann to agree" in told.followups[0].content
    assert await bos_cube() == ("raccooned", 8)
    question = ann.user.dm_channel.last_message
    assert "asks to aardvark your raccoon" in question.content
    await ann.user.click(question, label="Agree to the aardvark")
    assert await bos_cube() == ("aardvarked", 16)


async def test_a_sale_is_made_at_the_price_the_table_kept_not_the_buttons(
        simcord_env: Any, dice: ScriptedDice) -> None:
    _, (_, bo, cy), board = await started(simcord_env, dice)  # ann Box; bo, cy Team
    bot: ChouetteBot = simcord_env.bot
    table = await table_id(simcord_env, board)
    forged = Inert()  # a buy button as versions before wrote it, its price in the id
    forged.add_item(discord.ui.Button(label="Buy the game",
                                      custom_id=f"chouette:{table}:buy:{cy.id}:{bo.id}:3"))
    await bot.presenter.ask(table, str(bo.id), "Buy cy's game?", forged)
    nothing = await bo.user.click(bo.user.dm_channel.last_message, label="Buy the game")
    assert "cy offers you no game now" in nothing.response.content  # none offered
    await cy.slash(board, "chouette sell", buyer=bo, points="1")
    offer = bo.user.dm_channel.last_message
    assert "cy offers to sell you their game for 1 points" in offer.content
    await bot.presenter.ask(table, str(bo.id), "Buy cy's game?", forged)
    await bo.user.click(bo.user.dm_channel.last_message, label="Buy the game")
    state = await bot.service.state(table)
    assert state.game is not None and state.offers == ()
    paid = [t for t in state.game.transfers if t.reason.startswith(f"{bo.id} bought")]
    assert [(t.payer, t.payee, t.points) for t in paid] == [(str(bo.id), str(cy.id), 1)]


async def test_fibs_a_captain_who_lets_his_time_run_out_has_his_game_held_over(
        simcord_env: Any, dice: ScriptedDice) -> None:
    _, (ann, bo, cy), board = await started(simcord_env, dice, preset="fibs")
    await play(ann, board, "8/5 6/5")
    await simcord_env.advance_time(121)  # bo neither rolls nor answers: FIBS §6 ¶2
    assert "the game is put on hold" in board_message(board).content
    refused = await ann.click(board_message(board), label="Play out the held game")
    assert refused.ephemeral and "waiting for bo" in refused.response.content
    await bo.slash(board, "chouette back")
    await cy.click(board_message(board), label="Play out the held game")
    state = await table_state(simcord_env, board)
    assert state.game is not None and state.game.number == 1 and not state.held
    assert "Waiting for bo to roll" in board_message(board).content


async def test_atlanta_5_7_a_dropper_gives_the_lone_taker_an_extra_from_the_board(
        simcord_env: Any, dice: ScriptedDice) -> None:
    _, (ann, bo, cy), board = await started(simcord_env, dice)
    await box_doubles_the_team(simcord_env, dice, board, [ann, bo, cy])
    await bo.user.click(bo.user.dm_channel.last_message, label="Drop")
    assert "Give an extra" not in labels(board_message(board))  # cy has not answered
    await cy.user.click(cy.user.dm_channel.last_message, label="Take")
    refused = await cy.click(board_message(board), label="Give an extra")
    assert refused.ephemeral and "Only a player who dropped" in refused.response.content
    await bo.click(board_message(board), label="Give an extra")
    offer = cy.user.dm_channel.last_message
    assert offer is not None and "Drop the Box's double instead" in labels(offer)
    assert "Give an extra" not in labels(board_message(board))  # one each


async def test_fibs_a_double_turned_by_mistake_is_taken_back_from_the_board(
        simcord_env: Any, dice: ScriptedDice) -> None:
    _, (ann, bo, _), board = await started(simcord_env, dice, preset="fibs")
    await play(ann, board, "8/5 6/5")
    await bo.click(board_message(board), label="Double")
    await bo.click(board_message(board), label="Take back my double")
    assert "double withdrawn" in board_message(board).content
    assert "Take back my double" not in labels(board_message(board))


async def test_fibs_2_11_the_partner_drops_his_half_from_the_answer_menu(
        simcord_env: Any, dice: ScriptedDice) -> None:
    _, members, board = await six_started(simcord_env, dice, preset="fibs")
    a, b, c, *team = members  # FIBS: c partners the Box
    menu = await a.click(board_message(board), label="Double")
    await a.click(menu.response, label="Confirm")  # one cube: turned for the whole Team
    for player in (b, *team):
        await player.user.click(player.user.dm_channel.last_message, label="Take")
    await b.click(board_message(board), label="Double")  # the Team redoubles to 4
    menu = await c.click(board_message(board), label="Answer the doubles")
    assert menu.ephemeral and "Beaver" not in str(menu.response.components)
    await c.click(menu.response, label="Confirm")  # nothing taken: he drops his half
    assert "c answers for their half: drop" in board_message(board).content
    menu = await a.click(board_message(board), label="Answer the doubles")
    picks = await pick(simcord_env, board, "take")
    await a.select(menu.response, [str(p.id) for p in (b, *team)], custom_id=picks)
    await a.click(menu.response, label="Confirm")
    state = await table_state(simcord_env, board)
    assert state.game is not None and state.game.half_share
    assert "a plays on alone for their half" in board_message(board).content
