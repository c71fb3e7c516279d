"""The lobby through a simulated Discord: open, join, seats by the dice, the board message."""

from typing import Any

import discord
import pytest

from bot.discord.client import ChouetteBot
from rules.commands import InvitePartner, PassBox, Seat
from rules.state import TableState
from tests.discord.conftest import ScriptedDice


def board_message(board: Any) -> Any:
    """The board message: the bot's first in #board, edited in place since (the public
    record, the score sheets and prompts are posted after it)."""
    return next(iter(board.history()))


async def open_table(env: Any, *names: str, **options: Any) -> tuple[Any, list[Any], Any]:
    """A guild with members; the first opens a table and the others join it in #board."""
    guild = env.create_guild()
    lobby = guild.create_text_channel("lobby")
    members = [guild.add_member(env.create_user(n)) for n in names]
    result = await members[0].slash(lobby, "chouette open", **options)
    assert result.ephemeral, result
    board = next(c for c in guild.channels.values() if c.name == "board")
    for member in members[1:]:
        await member.slash(board, "chouette join")
    return guild, members, board


async def table_id(env: Any, board: Any) -> str:
    """The table whose #board is `board`."""
    found = await env.bot.store.channels.find(channel_id=board.id)
    assert found is not None
    return str(found.table_id)


async def table_state(env: Any, board: Any) -> TableState:
    """The state of the table whose #board is `board`."""
    state: TableState = await env.bot.service.state(await table_id(env, board))
    return state


async def agree_result(members: Any, board: Any, **result: Any) -> None:
    """The game's result given by its Box and confirmed by its Captain (each seated player
    says it: only those two are heard, and the game ends when both have)."""
    for member in members:
        await member.slash(board, "chouette result", **result)


async def two_ask_to_join(env: Any) -> tuple[Any, list[Any], Any, Any, Any]:
    """ann, bo, cy play a game (kept by score); then zed and yan ask to join, in that order."""
    guild, members, board = await open_table(env, "ann", "bo", "cy", mode="scorekeeper")
    await members[0].click(board_message(board), label="Start game")
    await agree_result(members, board, winner="box")
    zed = guild.add_member(env.create_user("zed"))
    yan = guild.add_member(env.create_user("yan"))
    await zed.slash(board, "chouette join")
    await yan.slash(board, "chouette join")
    return guild, members, board, zed, yan


async def test_open_makes_the_four_channels_and_a_board_message(simcord_env: Any) -> None:
    guild, (ann, bo, _cy), board = await open_table(simcord_env, "ann", "bo", "cy")
    names = {c.name for c in guild.channels.values()}
    assert {"board", "kibitz", "team", "box"} <= names
    bot: ChouetteBot = simcord_env.bot
    live = bot.get_guild(guild.id)
    assert live is not None
    team = discord.utils.get(live.text_channels, name="team")
    board_ch = discord.utils.get(live.text_channels, name="board")
    assert team is not None and board_ch is not None
    assert not team.permissions_for(live.get_member(ann.id)).view_channel
    assert not board_ch.permissions_for(live.get_member(bo.id)).send_messages
    message = board_message(board)
    assert message is not None and "Waiting" in message.content
    state = await bot.service.state(str(team.category_id))
    assert [m.shown for m in state.members] == ["ann", "bo", "cy"]


async def test_open_takes_house_rule_overrides_and_refuses_bad_ones(simcord_env: Any) -> None:
    guild, (ann, _), board = await open_table(simcord_env, "ann", "bo",
                                              overrides="jacoby = false, max_players = 6")
    bot: ChouetteBot = simcord_env.bot
    found = await bot.store.channels.find(channel_id=board.id)
    assert found is not None
    state = await bot.service.state(found.table_id)
    assert (state.rules.jacoby, state.rules.max_players) == (False, 6)
    lobby = next(c for c in guild.channels.values() if c.name == "lobby")
    bad = await ann.slash(lobby, "chouette open", overrides="beavers = maybe")
    assert bad.ephemeral and "name = value" in bad.response.content
    clash = await ann.slash(lobby, "chouette open", overrides="beavers = false")
    assert clash.ephemeral and "Raccoons need beavers" in clash.response.content
    unknown = await ann.slash(lobby, "chouette open", overrides="beaver = false")
    assert unknown.ephemeral and "Did you mean beavers" in unknown.response.content


async def test_open_refuses_in_the_openers_language_as_other_refusals(
        simcord_env: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rules' refusal of an opening (its options, the opener's seat) is written as any
    refusal (`presenter.names`): in the opener's language, players by their names."""
    guild = simcord_env.create_guild()
    lobby = guild.create_text_channel("lobby")
    ann = guild.add_member(simcord_env.create_user("ann"))
    stake = await ann.slash(lobby, "chouette open", stake=3)
    assert stake.ephemeral and stake.response.content.strip() == (
        "A stake of 3 isn't played here: choose one of 1, 2, 4, 8.")
    written: list[tuple[Any, Any, Any]] = []
    names = simcord_env.bot.presenter.names
    monkeypatch.setattr(simcord_env.bot.presenter, "names", lambda state, refusal, users=None,
                        locale=None: written.append((refusal, users, locale))
                        or names(state, refusal, users, locale))
    real = discord.Interaction._from_data

    def danish(self: discord.Interaction, data: Any) -> None:
        real(self, data)
        self.locale = discord.Locale.danish

    monkeypatch.setattr(discord.Interaction, "_from_data", danish)
    stake = await ann.slash(lobby, "chouette open", stake=3)
    assert stake.response.content.strip() == (
        "En indsats på 3 spilles ikke her: vælg en af 1, 2, 4, 8.")
    option = await ann.slash(lobby, "chouette open", overrides="max_players = 30")
    assert option.response.content.startswith("max_players skal være ")
    assert [(users, locale) for _, users, locale in written] == [
        ({str(ann.id): "ann"}, discord.Locale.danish)] * 2
    assert not [c for c in guild.channels.values() if c.name == "board"]  # nothing opened
    opened = await ann.slash(lobby, "chouette open")  # the bot's own words too
    assert opened.response.content.startswith("Bordet er åbent i <#")
    again = await ann.slash(lobby, "chouette open")
    assert again.response.content.startswith("Der er allerede et bord åbent herfra: <#")


async def test_the_box_invites_a_partner_who_accepts_by_dm(simcord_env: Any) -> None:
    names = ("a", "b", "c", "d", "e", "f")
    _, members, board = await open_table(simcord_env, *names)
    bot: ChouetteBot = simcord_env.bot
    table = await table_id(simcord_env, board)
    await bot.service.handle(table, Seat(order=[str(m.id) for m in members]))
    channels = await bot.store.channels.find(table_id=table)
    assert channels is not None
    version = (await bot.service.current(table)).version
    await bot.presenter.boards.show(channels, version, [])
    box, bottom = members[0], members[-1]
    refused = await bottom.click(board_message(board), label="Invite a Partner")
    assert refused.ephemeral and "Only the Box" in refused.response.content
    menu = await box.click(board_message(board), label="Invite a Partner")
    assert "f first; if they decline, e, d, c, b." in menu.response.content
    await box.click(menu.response, custom_id=f"chouette:{table}:invite:{bottom.id}")
    invitation = bottom.user.dm_channel.last_message
    assert invitation is not None and "invites you to be the Partner" in invitation.content
    await bottom.user.click(invitation, label="Be the Partner")
    state = await bot.service.state(table)
    assert state.seating is not None and state.seating.partner == str(bottom.id)


async def test_only_the_boxs_invitation_makes_a_partner(simcord_env: Any) -> None:
    names = ("a", "b", "c", "d", "e", "f")
    _, members, board = await open_table(simcord_env, *names)
    bot: ChouetteBot = simcord_env.bot
    table = await table_id(simcord_env, board)
    await bot.service.handle(table, Seat(order=[str(m.id) for m in members]))
    box, bottom = members[0], members[-1]
    himself = await bottom.slash(board, "chouette partner", player=bottom)
    assert himself.ephemeral and "has not invited you: ask a to invite you" in (
        himself.response.content)
    channels = await bot.store.channels.find(table_id=table)
    assert channels is not None
    version = (await bot.service.current(table)).version
    await bot.presenter.boards.show(channels, version, [])
    menu = await box.click(board_message(board), label="Invite a Partner")
    await bot.service.handle(table, PassBox(by=str(box.id)))  # b is the Box now
    stale = await box.click(menu.response, custom_id=f"chouette:{table}:invite:{bottom.id}")
    assert stale.ephemeral and "Only the Box (b) invites a Partner" in stale.response.content
    assert bottom.user.dm_channel is None or bottom.user.dm_channel.last_message is None
    state = await bot.service.state(table)
    assert state.invited == () and state.seating is not None and state.seating.partner is None
    await bot.service.handle(table, InvitePartner(by=state.seating.box, player=str(box.id)))
    await box.slash(board, "chouette partner", player=box)  # the bottom now accepts
    state = await bot.service.state(table)
    assert state.seating is not None and state.seating.partner == str(box.id)


async def test_a_stake_from_someone_not_at_the_table_says_how_to_join(
        simcord_env: Any) -> None:
    guild, _, board = await open_table(simcord_env, "ann", "bo")
    zed = guild.add_member(simcord_env.create_user("zed"))
    told = await zed.slash(board, "chouette stake", multiple=2)
    assert told.ephemeral and told.response.content.startswith(
        "zed is not at this table: to play, </chouette join:")


async def test_a_new_box_chooses_to_play_alone_from_the_board(simcord_env: Any,
                                                              dice: ScriptedDice) -> None:
    names = ("a", "b", "c", "d", "e", "f")
    _, members, board = await open_table(simcord_env, *names, mode="scorekeeper")
    a, b, *_ = members
    dice.queue = [6, 6, 6, 5, 5, 5, 5, 4, 4, 4, 4, 3]  # seats: a Box, b Captain, c, d, e, f
    await a.click(board_message(board), label="Start game")
    await agree_result(members, board, winner="box")
    await a.slash(board, "chouette partner", player=b)  # the bottom now (Atlanta 1.3)
    message = board_message(board)
    await a.click(message, label="Start game")
    await agree_result(members, board, winner="team")  # c beat the Box
    message = board_message(board)
    assert "may play without a Partner (6.3)" in message.content
    refused = await b.click(message, label="Box: play alone")
    assert refused.ephemeral and "isn't yours" in refused.response.content
    c = members[2]
    await c.click(message, label="Box: play alone")
    message = board_message(board)
    assert "c plays alone; a goes to the end of the Team (Atlanta 6.3)" in message.content
    assert not any(child.label == "Box: play alone" for row in message.components
                   for child in row.children)


async def test_a_newcomer_asks_once_the_table_is_under_way_and_joins_unless_someone_objects(
        simcord_env: Any) -> None:
    _, (_, bo, cy), board, zed, yan = await two_ask_to_join(simcord_env)
    message = board_message(board)
    assert "yan asks to join: the table decides." in message.content
    await bo.click(message, label="Object to yan")
    message = board_message(board)
    assert "bo objects to yan." in message.content  # by his name, though he never sat
    await cy.click(message, label="Start game")  # Atlanta 6.5: nobody objected to zed
    state = await table_state(simcord_env, board)
    assert state.member(str(zed.id)) is not None and state.member(str(yan.id)) is None
    assert state.seating is not None and state.seating.team[-1] == str(zed.id)


async def test_the_basic_stake_goes_at_the_top_of_the_sheet(simcord_env: Any) -> None:
    guild, (ann, _, _), board = await open_table(simcord_env, "ann", "bo", "cy",
                                                 basic="$5 a point")
    state = await table_state(simcord_env, board)
    assert state.basic == "$5 a point"
    lobby = next(c for c in guild.channels.values() if c.name == "lobby")
    refused = await ann.slash(lobby, "chouette open", basic="x" * 41)
    assert refused.ephemeral and "40 characters at most" in refused.response.content
    assert sum(c.name == "board" for c in guild.channels.values()) == 1  # nothing made


async def test_two_newcomers_roll_for_their_order_as_the_game_starts(
        simcord_env: Any, dice: ScriptedDice) -> None:
    _, (ann, _, _), board, zed, yan = await two_ask_to_join(simcord_env)
    dice.queue = [1, 2, 6, 5]  # zed 3, yan 11: yan ahead though he asked second
    message = board_message(board)
    await ann.click(message, label="Start game")
    state = await table_state(simcord_env, board)
    assert state.seating is not None
    assert state.seating.team[-2:] == (str(yan.id), str(zed.id))


async def test_a_stake_change_waits_for_the_boxs_agreement(simcord_env: Any,
                                                          dice: ScriptedDice) -> None:
    _, (ann, bo, cy), board = await open_table(simcord_env, "ann", "bo", "cy",
                                              mode="scorekeeper")
    early = await bo.slash(board, "chouette stake", multiple=2)  # the rules' refusal
    assert early.ephemeral and early.response.content.startswith(  # a clickable command
        "Draw the seats first: Start game on the board, or </chouette start:")
    dice.queue = [6, 6, 5, 5, 4, 4]  # seats: ann Box, bo Captain, cy
    await ann.click(board_message(board), label="Start game")
    await agree_result((ann, bo, cy), board, winner="box")
    told = await bo.slash(board, "chouette stake", multiple=2)
    assert told.ephemeral and "Asked ann" in told.response.content
    table = await table_id(simcord_env, board)
    assert (await simcord_env.bot.service.state(table)).member(str(bo.id)).stake == 1
    await ann.user.click(ann.user.dm_channel.last_message, label="Agree to 2x stakes")
    assert (await simcord_env.bot.service.state(table)).member(str(bo.id)).stake == 2
    wrong = await bo.slash(board, "chouette stake", multiple=3)
    assert "A stake of 3 isn't played here" in wrong.response.content


def labels(message: Any) -> list[str]:
    return [child.label for row in message.components for child in row.children]


async def villages_between_games(env: Any, dice: ScriptedDice) -> tuple[list[Any], Any, str]:
    """ann Box, bo Captain, cy at a Villages table, after a game the Box won."""
    _, members, board = await open_table(env, "ann", "bo", "cy", preset="villages",
                                         mode="scorekeeper")
    dice.queue = [6, 6, 5, 5, 4, 4]  # seats: ann Box, bo Captain, cy
    await members[0].click(board_message(board), label="Start game")
    await agree_result(members, board, winner="box")  # Villages 15: he stays
    table = await table_id(env, board)
    return members, board, table


async def test_villages_15_the_box_passes_the_box_from_the_board(simcord_env: Any,
                                                                 dice: ScriptedDice) -> None:
    (ann, bo, cy), board, table = await villages_between_games(simcord_env, dice)
    before = (await simcord_env.bot.service.state(table)).seating
    assert before is not None and before.captain == str(cy.id)  # bo rotated to the bottom
    await ann.click(board_message(board), label="Pass the box")
    seating = (await simcord_env.bot.service.state(table)).seating
    assert seating is not None  # the Captain takes the box; ann goes to the bottom
    assert (seating.box, seating.team) == (str(cy.id), (str(bo.id), str(ann.id)))
    assert board_message(board).content.startswith("**Box** cy · **Team** bo, ann")


async def test_only_the_box_may_pass_the_box(simcord_env: Any, dice: ScriptedDice) -> None:
    (_, bo, _), board, table = await villages_between_games(simcord_env, dice)
    before = (await simcord_env.bot.service.state(table)).seating
    refused = await bo.click(board_message(board), label="Pass the box")
    assert refused.ephemeral and "Only the Box (ann) can pass the box" in refused.response.content
    assert (await simcord_env.bot.service.state(table)).seating == before


async def test_the_pass_the_box_button_follows_may_pass_box(simcord_env: Any) -> None:
    for overrides, shown in (("", False), ("may_pass_box = true", True)):
        _, members, board = await open_table(simcord_env, "ann", "bo", "cy", preset="fibs",
                                             mode="scorekeeper", overrides=overrides)
        await members[0].click(board_message(board), label="Start game")
        await agree_result(members, board, winner="box")
        assert "Start game" in labels(board_message(board))
        assert ("Pass the box" in labels(board_message(board))) is shown, overrides
