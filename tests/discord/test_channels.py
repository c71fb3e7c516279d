"""The table's channels through a simulated Discord (`channels.reconcile`): several changes
in one channel are one call with the channel's whole list, one change is one call of its
own, and the overwrites the server's admins set on roles are kept as they are."""

from typing import Any

import discord
from simcord.backend.models import Overwrite
from simcord.enums import OverwriteType

from tests.discord.conftest import ScriptedDice
from tests.discord.test_lobby import board_message, open_table

VIEW = discord.Permissions(view_channel=True).value
MANAGE = discord.Permissions(view_channel=True, manage_roles=True).value


def spy(bot: Any) -> list[tuple[str, int]]:
    """The overwrite calls the bot makes from now on: (route, channel id)."""
    calls: list[tuple[str, int]] = []
    for name in ("edit_channel", "edit_channel_permissions", "delete_channel_permissions"):
        real = getattr(bot.http, name)

        def record(channel_id: int, *args: Any, _real: Any = real, _name: str = name,
                   **kwargs: Any) -> Any:
            calls.append((_name, int(channel_id)))
            return _real(channel_id, *args, **kwargs)

        setattr(bot.http, name, record)
    return calls


async def seated_with_staff(env: Any, dice: ScriptedDice, allow: int) -> tuple[Any, Any,
                                                                               list[Any]]:
    """ann, bo and cy at a table whose #team the server's admins opened to a Staff role
    (`allow`), then the seats drawn: ann Box, bo and cy the Team. Returns #team, the role
    and the overwrite calls the start made."""
    guild, members, board = await open_table(env, "ann", "bo", "cy")
    staff = guild.create_role("Staff")
    team = next(c for c in guild.channels.values() if c.name == "team")
    env.backend.set_overwrite(team.id, Overwrite(staff.id, OverwriteType.ROLE, allow=allow))
    calls = spy(env.bot)
    dice.queue = [6, 6, 5, 5, 4, 4]  # seats: ann Box, bo Captain, cy
    await members[0].click(board_message(board), label="Start game")
    return team, staff, calls


async def test_the_seats_drawn_open_team_in_one_call_and_box_in_one(
        simcord_env: Any, dice: ScriptedDice) -> None:
    team, staff, calls = await seated_with_staff(simcord_env, dice, VIEW)
    box = next(c for c in team.guild.channels.values() if c.name == "box")
    assert sorted(calls) == sorted([("edit_channel", team.id),  # bo and cy: the whole list
                                    ("edit_channel_permissions", box.id)])  # ann: his own
    live = simcord_env.bot.get_channel(team.id)
    assert {t.name for t in live.overwrites if isinstance(t, discord.Member)} >= {"bo", "cy"}
    role = live.guild.get_role(staff.id)
    assert live.overwrites[role].pair()[0].value == VIEW  # the admins' own, as they set it


async def test_a_list_the_bot_could_not_set_itself_is_a_call_an_overwrite(
        simcord_env: Any, dice: ScriptedDice) -> None:
    team, staff, calls = await seated_with_staff(simcord_env, dice, MANAGE)  # Manage Roles
    assert [name for name, channel in calls if channel == team.id] == [
        "edit_channel_permissions"] * 2  # bo's and cy's, the admins' overwrite untouched
    live = simcord_env.bot.get_channel(team.id)
    assert live.overwrites[live.guild.get_role(staff.id)].pair()[0].value == MANAGE
