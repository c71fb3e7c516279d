"""The menus and forms behind the board's buttons: the move menus and the typed move, the
Box's private menus (which cubes to double, which doubles to take) and the Partner's
invitation. The buttons themselves are declared in `bot.discord.actions`.

Every item is a `DynamicItem` registered in `setup_hook`, so it keeps working after a
restart (but `InviteButton`, the Box's private pick, which lives as long as its private
message); its callback turns the choice into a table command and hands it to `bot.act`,
which asks the service and shows the outcome. A menu's picks are input, never state.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.discord.asks import Question, ask_consent
from bot.discord.failures import guarded
from bot.discord.host import bot_of
from bot.flow import play_options
from bot.i18n import tr, translate
from bot.markdown import escape, shown
from rules.actions import box_doubles, refusal
from rules.commands import Answer, Command, Double, Move
from rules.cube import CubeState, Side
from rules.errors import RuleError
from rules.one_cube import half_answerable
from rules.roles import box_decider, boxer_of, cube_between
from rules.state import TableState
from rules.table import partner_invitees

MOVE_MENU_LIMIT = 25  # Discord's most options in one select menu

class MoveSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                 template=r"chouette:(?P<table>\d+):move(?::(?P<part>\d+))?"):
    """The legal plays of the roll (or some of them: `part` of a longer list), for the
    shooter to choose from."""

    def __init__(self, table_id: str, plays: list[str] | None = None, part: str = "",
                 placeholder: str = "", locale: object = None) -> None:
        options = [discord.SelectOption(label=p or translate("No move", locale),
                                        value=p or "pass") for p in (plays or ["pass"])]
        placeholder = placeholder or translate("Choose your play", locale)
        tail = f":{part}" if part else ""
        super().__init__(discord.ui.Select(custom_id=f"chouette:{table_id}:move{tail}",
                                           placeholder=placeholder, options=options))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> MoveSelect:
        return cls(match["table"], part=match["part"] or "")

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        play = values[0] if values else ""
        await bot_of(interaction).act(interaction, self.table_id,
                                    Move(by=str(interaction.user.id), play=play))


class FirstMoveSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                      template=r"chouette:(?P<table>\d+):first"):
    """The first step of choosing among more plays than one menu holds: the first checker
    move; the second step is a private menu of the plays that begin with it."""

    def __init__(self, table_id: str, firsts: list[str] | None = None,
                 locale: object = None) -> None:
        options = [discord.SelectOption(label=f, value=f) for f in (firsts or ["-"])]
        super().__init__(discord.ui.Select(
            custom_id=f"chouette:{table_id}:first", options=options,
            placeholder=translate("Choose your play: its first move", locale)))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> FirstMoveSelect:
        return cls(match["table"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        state = await bot.service.state(self.table_id)
        first = self.item.values[0] if self.item.values else ""
        plays = [p for p in plays_of(state) if first_move(p) == first]
        if not plays:
            await bot.reply(interaction, translate(
                "That roll has been played: choose from the board.", interaction.locale))
            return
        if why := may_not_move(state, str(interaction.user.id)):  # now, not at step two
            await bot.reply(interaction, bot.presenter.names(state, why, locale=interaction.locale))
            return
        view = discord.ui.View(timeout=None)
        for n, start in enumerate(range(0, min(len(plays), 5 * MOVE_MENU_LIMIT),
                                        MOVE_MENU_LIMIT)):
            view.add_item(MoveSelect(self.table_id, plays[start:start + MOVE_MENU_LIMIT],
                                     part=str(n + 1), locale=interaction.locale,
                                     placeholder=tr("Plays with {first}", interaction.locale,
                                                    first=first)))
        await interaction.response.send_message(
            tr("The plays that begin {first}:", interaction.locale, first=first), view=view,
            ephemeral=True)


def first_move(play: str) -> str:
    """A play's first checker move as written ("24/18" of "24/18 13/11", "bar/22*")."""
    return play.split(" ")[0].split("(")[0]


class MoveModal(discord.ui.Modal, title="Your play"):
    """A play typed in notation, for those who would rather type than choose."""

    play: discord.ui.TextInput[MoveModal] = discord.ui.TextInput(
        label="Play", placeholder="24/18 13/11, bar/22*, 6/off(2)", max_length=60)

    def __init__(self, table_id: str, locale: object = None) -> None:
        super().__init__(title=translate("Your play", locale))  # the clicker's language
        self.play.label = translate("Play", locale)
        self.table_id = table_id

    @guarded
    async def on_submit(self, interaction: discord.Interaction) -> None:
        await bot_of(interaction).act(interaction, self.table_id, Move(
            by=str(interaction.user.id), play=self.play.value))


def plays_of(state: TableState) -> tuple[str, ...]:
    """The legal plays of the roll waiting to be played (none without one)."""
    game = state.game
    if game is None or game.position is None or game.dice is None:
        return ()
    return play_options(game.position, game.dice)


def may_not_move(state: TableState, player: str) -> RuleError | None:
    """Why the rules would not take a play of this roll from `player` (None: they would)."""
    plays = plays_of(state)
    return refusal(state, Move(by=player, play=plays[0])) if plays else None


class PickSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                 template=r"chouette:(?P<table>\d+):pick:(?P<verb>double|answer)"
                          r":(?P<choice>double|take|beaver)"):
    """One list of the Box's private menu (which cubes to double; which doubles to take or
    beaver). A pick is written back into the menu's message as the options' defaults, so
    the menu keeps working after a restart: it is input, never the table's state."""

    def __init__(self, table_id: str, verb: str, choice: str,
                 names: dict[str, str] | None = None, locale: object = None) -> None:
        names = names or {"-": "-"}
        super().__init__(discord.ui.Select(
            custom_id=f"chouette:{table_id}:pick:{verb}:{choice}",
            placeholder=_placeholder(choice, locale), min_values=0,
            max_values=len(names),
            options=[discord.SelectOption(label=n, value=k) for k, n in names.items()]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> PickSelect:
        return cls(match["table"], match["verb"], match["choice"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        assert interaction.message is not None
        view = discord.ui.View.from_message(interaction.message, timeout=None)
        for item in view.children:
            if isinstance(item, discord.ui.Select) and item.custom_id == self.item.custom_id:
                for option in item.options:
                    option.default = option.value in self.item.values
        await interaction.response.edit_message(view=view)


def _placeholder(choice: str, locale: object) -> str:
    """A pick's placeholder in the Box's private menu."""
    return {"double": translate("Double…", locale), "take": translate("Take…", locale),
            "beaver": translate("Beaver…", locale)}[choice]


class PickConfirm(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"chouette:(?P<table>\d+):confirm:(?P<verb>double|answer)"
                           r"(?P<order>:order)?"):
    """Send the picks of the Box's private menu to the table (`order`: the Box insists on
    answers in rotation order, Atlanta 5.8)."""

    def __init__(self, table_id: str, verb: str, order: bool = False,
                 locale: object = None) -> None:
        tail = ":order" if order else ""
        label = (translate("Confirm, answers in rotation order", locale) if order
                 else translate("Confirm", locale))
        style = discord.ButtonStyle.secondary if order else discord.ButtonStyle.success
        super().__init__(discord.ui.Button(
            label=label, style=style, custom_id=f"chouette:{table_id}:confirm:{verb}{tail}"))
        self.table_id, self.verb, self.order = table_id, verb, order

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> PickConfirm:
        return cls(match["table"], match["verb"], bool(match["order"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        assert interaction.message is not None
        picked: dict[str, list[str]] = {}
        offered: list[str] = []
        for row in interaction.message.components:
            for item in getattr(row, "children", ()):
                if isinstance(item, discord.SelectMenu) and item.custom_id:
                    choice = item.custom_id.rsplit(":", 1)[-1]
                    picked[choice] = [o.value for o in item.options if o.default]
                    offered = [o.value for o in item.options]
        me = str(interaction.user.id)
        if self.verb == "double":
            command: Command = Double(by=me, cubes=tuple(picked.get("double", [])),
                                      in_order=self.order)
        else:
            chosen = {p for v in picked.values() for p in v}
            command = Answer(by=me, take=tuple(picked.get("take", [])),
                             beaver=tuple(picked.get("beaver", [])),
                             drop=tuple(k for k in offered if k not in chosen))
        await bot_of(interaction).act(interaction, self.table_id, command)


def _menu(table_id: str, verb: str, names: dict[str, str], choices: tuple[str, ...],
          order: bool = False, locale: object = None) -> discord.ui.View:
    """A private menu of the Box's, in the clicker's language (`locale`)."""
    view = discord.ui.View(timeout=None)
    for choice in choices:
        view.add_item(PickSelect(table_id, verb, choice, names, locale))
    view.add_item(PickConfirm(table_id, verb, locale=locale))
    if order:
        view.add_item(PickConfirm(table_id, verb, order=True, locale=locale))
    return view


async def box_double_menu(interaction: discord.Interaction, table_id: str,
                          state: TableState) -> None:
    """The Box (or a Partner with cubes of their own) picks which cubes to double."""
    game, seating = state.game, state.seating
    if game is None or seating is None:
        return
    me = str(interaction.user.id)
    names = {p: state.shown(p) for p in box_doubles(state, me)}  # a FIBS Partner's too
    if not names:  # said at once, not after the menu
        await bot_of(interaction).reply(interaction, translate(
            "None of your cubes can be doubled now.", interaction.locale))
        return
    if why := refusal(state, Double(by=me, cubes=tuple(names))):
        await bot_of(interaction).reply(interaction, bot_of(interaction).presenter.names(
            state, why, locale=interaction.locale))
        return
    view = _menu(table_id, "double", names, ("double",),  # Atlanta 5.8: the Box may insist
                 order=state.rules.team_answer_order == "box_choice", locale=interaction.locale)
    await interaction.response.send_message(translate("Double which cubes?", interaction.locale),
                                            view=view, ephemeral=True)


async def answer_menu(interaction: discord.Interaction, table_id: str,
                      state: TableState) -> None:
    """The Box (or a Partner with cubes of their own) answers every Team double on those
    cubes at once: take, beaver; the rest are dropped. A FIBS Partner answers for their
    half."""
    game, seating = state.game, state.seating
    me = str(interaction.user.id)
    half = seating is not None and me == seating.partner and bool(half_answerable(state))
    boxer = boxer_of(state, me) or (seating.box if half and seating else None)
    if game is None or seating is None or boxer is None:
        box = (shown(state, box_decider(state)) if seating
               else translate("the Box", interaction.locale))
        await interaction.response.send_message(
            tr("Only {box} answers the Team's doubles.", interaction.locale, box=box),
            ephemeral=True)
        return
    offered = {p: state.shown(p) for p in seating.team
               if (c := cube_between(game, p, boxer)) is not None
               and c.state is CubeState.OFFERED and c.offered_by is Side.TEAM}
    choices = ("take", "beaver") if state.rules.beavers and not half else ("take",)
    await interaction.response.send_message(
        translate("Take (or beaver) which doubles? The others are dropped.", interaction.locale),
        view=_menu(table_id, "answer", offered, choices, locale=interaction.locale),
        ephemeral=True)


async def partner_menu(interaction: discord.Interaction, table_id: str,
                       state: TableState) -> None:
    """The Box invites a Partner: the first the rule set asks who has not declined."""
    seating = state.seating
    invitees = partner_invitees(state)
    if seating is None or str(interaction.user.id) != seating.box or not invitees:
        await interaction.response.send_message(translate(
            "Only the Box invites a Partner, between games, at a table large enough.",
            interaction.locale), ephemeral=True)
        return
    view = discord.ui.View(timeout=300)
    first = invitees[0]
    locale = interaction.locale  # a private reply: the clicker's language
    view.add_item(InviteButton(table_id, first, tr("Invite {player}", locale,
                                                   player=state.shown(first))))
    after = ", ".join(shown(state, p) for p in invitees[1:])
    await interaction.response.send_message(
        tr("The rules ask {player} first; if they decline, {after}.", locale,
           player=shown(state, first), after=after) if after else
        tr("The rules ask {player} first.", locale, player=shown(state, first)),
        view=view, ephemeral=True)


class InviteButton(discord.ui.Button[discord.ui.View]):
    """The Box's private button inviting `player` to be the Partner: a DM asks them."""

    def __init__(self, table_id: str, player: str, label: str) -> None:
        super().__init__(label=label, custom_id=f"invite:{player}")
        self.table_id, self.player = table_id, player

    async def callback(self, interaction: discord.Interaction) -> None:
        table_id, player = self.table_id, self.player
        bot = bot_of(interaction)
        state = await bot.service.state(table_id)
        answers = ("yes", "no") if state.rules.may_decline_partner else ("yes",)
        locale = await bot.presenter.table_locale(table_id, state)
        await ask_consent(interaction, player,
                          tr("{box} (the Box) invites you to be the Partner for the next game.",
                             locale, box=escape(interaction.user.display_name)),
                          tr("{player} is invited.", interaction.locale,
                             player=shown(state, player)),
                          *(Question(table_id, a, player=player) for a in answers),
                          locale=locale)
