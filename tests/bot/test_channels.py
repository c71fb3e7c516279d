"""The table's channels as a function of its state (bot/discord/channels.py): who sees and
speaks where, what the bot may grant, and which permission a server lacks."""

import discord

from bot.discord.channels import BOT, INVITE, SEND, VIEW, Change, diff, missing, overwrites
from bot.store import Channels
from rules.commands import Blind, Command, Double, Drop, EndSession, Leave, Open, Seat, Start, Take
from rules.state import TableState, replay
from rules.table import decide

CH = Channels("1", 100, 1, board_id=2, kibitz_id=3, team_id=4, box_id=5)
BOT_ID = 99


def table(*commands: Command) -> TableState:
    state = TableState()
    for command in (Open(mode="scorekeeper"),
                    Seat(order=["11", "12", "13"]), *commands):
        state = replay(decide(state, command), state)
    return state


def pair(allow: discord.Permissions, deny: discord.Permissions) -> tuple[int, int]:
    return allow.value, deny.value


def test_the_seating_opens_team_and_box_and_the_bot_grants_only_what_it_has() -> None:
    wanted = overwrites(table(), CH, BOT_ID)
    assert wanted[4][100] == (0, VIEW.value) and wanted[5][100] == (0, VIEW.value)
    assert wanted[4][12] == wanted[4][13] == pair(VIEW | SEND, discord.Permissions())
    assert wanted[5] == {100: (0, VIEW.value), BOT_ID: (BOT.value, 0),
                         11: pair(VIEW | SEND, discord.Permissions())}
    granted = {a | d for channel in wanted.values() for a, d in channel.values()}
    assert all(bits & ~INVITE.value == 0 for bits in granted)


def test_send_in_team_follows_the_cubes_and_a_leaver_is_out_at_once() -> None:
    state = table(Start(), Double(by="11"), Drop(by="12"),
                  Take(by="13"))  # only 13's cube is in the game
    team = overwrites(state, CH, BOT_ID)[4]
    assert team[12] == pair(VIEW, SEND) and team[13] == pair(VIEW | SEND, discord.Permissions())
    gone = overwrites(replay(decide(state, Leave(by="13")), state), CH, BOT_ID)
    assert 13 not in gone[4] and 12 in gone[4]  # his game goes on; his channel does not


def test_a_blinded_kibitzer_sees_none_and_an_ended_table_is_read_only() -> None:
    state = table(Blind(by="m", player="77", moderator=True))
    assert all(channel[77] == (0, VIEW.value)
               for cid, channel in overwrites(state, CH, BOT_ID).items() if cid in (2, 3))
    ended = overwrites(table(EndSession()), CH, BOT_ID)
    assert ended[3][100] == (0, SEND.value) and ended[4][100] == (0, (VIEW | SEND).value)
    assert ended[4][12] == pair(VIEW, SEND)  # the players still read the archive


def test_missing_names_the_permissions_as_discords_settings_do() -> None:
    assert missing(INVITE) == [] and missing(discord.Permissions(administrator=True)) == []
    lacking = discord.Permissions(INVITE.value & ~discord.Permissions(manage_roles=True).value)
    assert missing(lacking) == ["Manage Roles"]


def test_the_change_of_a_channel_keeps_the_roles_overwrites_and_drops_stale_members() -> None:
    have = {100: (0, VIEW.value), 11: pair(VIEW, SEND), 14: (VIEW.value, 0), 500: (VIEW.value, 0)}
    wanted = {100: (0, VIEW.value), 11: pair(VIEW | SEND, discord.Permissions()),
              12: (VIEW.value, 0)}
    change = diff(have, wanted, roles={100, 500})  # @everyone and an admins' role
    assert change == Change(put={11: wanted[11], 12: wanted[12]}, delete=(14,),
                            kept={500: (VIEW.value, 0)})
    assert change.count == 3
    assert diff(wanted, wanted, roles={100}).count == 0
