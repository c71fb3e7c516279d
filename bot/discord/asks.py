"""Questions to one player, as persistent buttons: answers to a cube (take, drop, beaver,
raccoon, an extra, a resignation) and agreements the rules need from someone (a Partner's
invitation, a sale, a raccoon, a stake change, a newcomer, a correction).

Each is a `DynamicItem` whose custom id carries the whole question, so it works after a
restart; nothing is stored until it is answered, and then the rules check it against the
table as it is. The answer is one table command through `bot.act`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Protocol, cast

import discord

from bot.dice import Dice
from bot.discord.failures import guarded
from bot.effects import Outcome
from bot.markdown import shown
from bot.service import TableService
from rules.actions import refusal
from rules.commands import (
    Admit,
    Approve,
    Command,
    Decline,
    Object,
    Partner,
    Refuse,
    Sell,
    Stake,
    build,
)
from rules.state import TableState

_LABELS = {"take": ("Take", discord.ButtonStyle.success),
           "drop": ("Drop", discord.ButtonStyle.danger),
           "beaver": ("Beaver", discord.ButtonStyle.primary),
           "raccoon": ("Raccoon", discord.ButtonStyle.primary),
           "aardvark": ("Aardvark", discord.ButtonStyle.primary),
           "accept": ("Accept", discord.ButtonStyle.success),
           "reject": ("Reject", discord.ButtonStyle.danger),
           "retract": ("Drop the Box's double instead", discord.ButtonStyle.secondary),
           "yes": ("Be the Partner", discord.ButtonStyle.success),
           "no": ("Decline", discord.ButtonStyle.danger),
           "approve": ("Agree to correction", discord.ButtonStyle.success),
           "refuse": ("Refuse correction", discord.ButtonStyle.danger)}


class Asker(Protocol):
    """What the buttons and questions need of the presenter."""

    def names(self, state: TableState, text: str,
              users: Mapping[str, str] | None = None) -> str:
        """A refusal with the players it names by their names."""

    async def ask(self, table_id: str, player: str, text: str,
                  view: discord.ui.View) -> None:
        """A question with buttons for one player."""


class TableBot(Protocol):
    """What the buttons, menus and questions need of the bot: the client provides it
    (named here, so that nothing below the client imports it)."""

    @property
    def service(self) -> TableService: ...

    @property
    def presenter(self) -> Asker: ...

    @property
    def dice(self) -> Dice: ...

    async def act(self, interaction: discord.Interaction, table_id: str, command: Command,
                  *, key: str | None = None) -> Outcome | None:
        """Send `command` to the table as the user; a refusal is a private reply."""

    async def reply(self, interaction: discord.Interaction, text: str) -> None:
        """A private answer."""

    async def roll_command(self, table_id: str, who: str) -> Command:
        """The next roll of the game in progress, from its seed."""

    async def start_game(self, interaction: discord.Interaction, table_id: str) -> None:
        """Draw seats if needed and start a game."""

    def is_moderator(self, user: discord.User | discord.Member) -> bool:
        """Whether `user` is a moderator of the server."""


def bot_of(interaction: discord.Interaction) -> TableBot:
    """The chouette bot behind an interaction."""
    return cast(TableBot, interaction.client)


class PromptButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"chouette:(?P<table>\d+)"
                            r":(?P<action>take|drop|beaver|raccoon|aardvark|accept|reject|retract)"
                            r":(?P<player>[^:]+)(?::(?P<across>[^:@]+))?(?:@(?P<face>\d+))?"):
    """A take / drop / beaver / raccoon / aardvark button sent to the player who must answer;
    `across` names the other player of the cube when the answer must say which cube (a Team
    player doubled by both the Box and a Partner with cubes of his own), `face` the value the
    question is about: an answer to a question that is gone is refused (the cube moved on)."""

    def __init__(self, table_id: str, action: str, player: str, across: str = "",
                 face: int | None = None) -> None:
        label, style = _LABELS[action]
        tail = (f":{across}" if across else "") + (f"@{face}" if face else "")
        super().__init__(discord.ui.Button(
            label=label, style=style,
            custom_id=f"chouette:{table_id}:{action}:{player}{tail}"))
        self.table_id, self.action, self.player, self.across = table_id, action, player, across
        self.face = face

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> PromptButton:
        face = int(match["face"]) if match["face"] else None
        return cls(match["table"], match["action"], match["player"], match["across"] or "",
                   face)

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        me = str(interaction.user.id)
        bot = bot_of(interaction)
        args: dict[str, Any] = {} if me == self.player else {"for": self.player}
        if self.across:
            args["cubes"] = [self.across]
        if self.face and self.action not in ("accept", "reject"):
            args["face"] = self.face
        command = build(self.action, me, **args)
        if self.action in _TURNS_AGAIN and self.across:  # whoever acts for the turner
            state = await bot.service.state(self.table_id)
            rule = state.rules.raccoons if self.action == "raccoon" else state.rules.aardvarks
            if rule == "by_consent":  # Atlanta 5.4: both must agree
                if why := refusal(state, command):  # nothing happens until agreed
                    await bot.reply(interaction, bot.presenter.names(state, why))
                    return
                view = discord.ui.View(timeout=None)
                view.add_item(RaccoonButton(self.table_id, self.action, self.player,
                                            self.across))
                await bot.reply(interaction, f"Asked {shown(state, self.across)} to agree.")
                await bot.presenter.ask(self.table_id, self.across, (
                    f"{shown(state, self.player)} asks to {self.action} your "
                    f"{_TURNS_AGAIN[self.action]}: that needs your consent here "
                    "(Atlanta 5.4)."), view)
                return
        await bot.act(interaction, self.table_id, command)


_TURNS_AGAIN = {"raccoon": "beaver", "aardvark": "raccoon"}  # each turns the one before
_CONSENT_IDS = {"raccoon": "racok", "aardvark": "aardok"}
_CONSENT_ACTIONS = {kind: action for action, kind in _CONSENT_IDS.items()}


class RaccoonButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"chouette:(?P<table>\d+):(?P<kind>racok|aardok)"
                             r":(?P<actor>\d+):(?P<across>\d+)"):
    """The other player's consent to a raccoon (the beaverer's) or an aardvark (the
    raccooner's), Atlanta 5.4: it makes the turn."""

    def __init__(self, table_id: str, action: str, actor: str, across: str) -> None:
        super().__init__(discord.ui.Button(
            label=f"Agree to the {action}", style=discord.ButtonStyle.primary,
            custom_id=f"chouette:{table_id}:{_CONSENT_IDS[action]}:{actor}:{across}"))
        self.table_id, self.action, self.actor, self.across = table_id, action, actor, across

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> RaccoonButton:
        return cls(match["table"], _CONSENT_ACTIONS[match["kind"]], match["actor"],
                   match["across"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        if str(interaction.user.id) != self.across:
            await bot.reply(interaction, "This question is for someone else.")
            return
        await bot.act(interaction, self.table_id,
                      build(self.action, self.actor, cubes=[self.across]))


class InviteButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"chouette:(?P<table>\d+):(?P<answer>yes|no):(?P<player>[^:]+)"):
    """The invited player's answer to the Box's invitation to be his Partner."""

    def __init__(self, table_id: str, answer: str, player: str) -> None:
        label, style = _LABELS[answer]
        super().__init__(discord.ui.Button(
            label=label, style=style, custom_id=f"chouette:{table_id}:{answer}:{player}"))
        self.table_id, self.answer, self.player = table_id, answer, player

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> InviteButton:
        return cls(match["table"], match["answer"], match["player"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        if str(interaction.user.id) != self.player:
            await bot.reply(interaction, "This invitation is for someone else.")
            return
        if self.answer == "yes":
            await bot.act(interaction, self.table_id,
                          Partner(by=self.player, player=self.player))
            return
        await bot.act(interaction, self.table_id, Decline(by=self.player))


class ConsentButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"chouette:(?P<table>\d+):(?P<answer>approve|refuse)"
                             r":(?P<number>\d+)"):
    """Agree to or refuse a pending correction (the rules say whose consent it needs)."""

    def __init__(self, table_id: str, answer: str, number: int) -> None:
        label, style = _LABELS[answer]
        super().__init__(discord.ui.Button(
            label=f"{label} {number}", style=style,
            custom_id=f"chouette:{table_id}:{answer}:{number}"))
        self.table_id, self.answer, self.number = table_id, answer, number

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> ConsentButton:
        return cls(match["table"], match["answer"], int(match["number"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        answer = Approve if self.answer == "approve" else Refuse  # a moderator's says so (`act`)
        await bot.act(interaction, self.table_id,
                      answer(by=str(interaction.user.id), correction=self.number))


class AdmitButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"chouette:(?P<table>\d+):(?P<answer>admit|object):(?P<player>\d+)"):
    """A seated player admits a newcomer who asked to join, or objects."""

    def __init__(self, table_id: str, answer: str, player: str, name: str = "") -> None:
        label = f"{'Admit' if answer == 'admit' else 'Object to'} {name or 'newcomer'}"
        style = discord.ButtonStyle.success if answer == "admit" else discord.ButtonStyle.danger
        super().__init__(discord.ui.Button(
            label=label[:80], style=style, custom_id=f"chouette:{table_id}:{answer}:{player}"))
        self.table_id, self.answer, self.player = table_id, answer, player

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> AdmitButton:
        return cls(match["table"], match["answer"], match["player"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        answer = Admit if self.answer == "admit" else Object
        await bot_of(interaction).act(interaction, self.table_id, answer(
            by=str(interaction.user.id), player=self.player))


class BuyButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                template=r"chouette:(?P<table>\d+):buy:(?P<seller>\d+):(?P<buyer>\d+)"
                         r"(?::(?P<points>[\d/.]+))?"):
    """The buyer's acceptance of a sale the seller offered him (`/chouette sell`), at the
    points offered (none: the rule set's price, FIBS half the cube)."""

    def __init__(self, table_id: str, seller: str, buyer: str, points: str = "") -> None:
        tail = f":{points}" if points else ""
        super().__init__(discord.ui.Button(
            label="Buy the game", style=discord.ButtonStyle.success,
            custom_id=f"chouette:{table_id}:buy:{seller}:{buyer}{tail}"))
        self.table_id, self.seller, self.buyer, self.points = table_id, seller, buyer, points

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> BuyButton:
        return cls(match["table"], match["seller"], match["buyer"], match["points"] or "")

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        if str(interaction.user.id) != self.buyer:
            await bot.reply(interaction, "This offer is for someone else.")
            return
        # the bot's dice for a fraction rolled off (Atlanta 4.3) or an odd half (FIBS §2 ¶2)
        await bot.act(interaction, self.table_id, Sell(
            by=self.buyer, from_=self.seller, to=self.buyer, points=self.points or None,
            rolloff=bot.dice.rolloff(), next_roll=bot.dice.pair()))


class StakeButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"chouette:(?P<table>\d+):stake:(?P<player>\d+):(?P<stake>\d+)"):
    """The Box agrees to a player's new stake multiple (Atlanta 2.3)."""

    def __init__(self, table_id: str, player: str, stake: int) -> None:
        super().__init__(discord.ui.Button(
            label=f"Agree to {stake}x stakes", style=discord.ButtonStyle.success,
            custom_id=f"chouette:{table_id}:stake:{player}:{stake}"))
        self.table_id, self.player, self.stake = table_id, player, stake

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> StakeButton:
        return cls(match["table"], match["player"], int(match["stake"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        state = await bot.service.state(self.table_id)
        if state.seating is None or str(interaction.user.id) != state.seating.box:
            box = shown(state, state.seating.box) if state.seating else "the Box"
            await bot.reply(interaction, f"Only the Box ({box}) agrees to a stake change now "
                                         "(Atlanta 2.3): ask again with `/chouette stake`.")
            return
        await bot.act(interaction, self.table_id, Stake(
            by=str(interaction.user.id), player=self.player, stake=self.stake))


def prompt_view(table_id: str, player: str, actions: tuple[str, ...],
                across: str = "", face: int | None = None) -> discord.ui.View:
    """Answer buttons for one player's pending cube (against `across`, when it must say; at
    `face`, the value asked about)."""
    view = discord.ui.View(timeout=None)
    for action in actions:
        view.add_item(PromptButton(table_id, action, player, across, face))
    return view
