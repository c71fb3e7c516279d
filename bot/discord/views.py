"""The menus and forms behind the board's buttons: the move menus and the typed move, the
Box's private menus (which cubes to double, which doubles to take) and the Partner's
invitation. The buttons themselves are declared in `bot.discord.actions`.

Each item is built by a function of its own and answered by the handler its custom id
routes to (`ROUTES`, `bot.discord.router`), so it keeps working after a restart; a handler
turns the choice into a table command and hands it to `bot.act`, which asks the service and
shows the outcome. A menu's picks are input, never state.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.app.flow import play_options
from bot.discord.asks import Question, ask_consent, clicker
from bot.discord.host import bot_of
from bot.discord.router import Form, Inert, Route, picked, typed
from bot.words.i18n import tr, translate
from bot.words.markdown import shown
from rules.actions import box_doubles, refusal
from rules.commands import Answer, Command, Double, InvitePartner, Move
from rules.cube import Side
from rules.cube_state import CubeState
from rules.errors import RuleError
from rules.one_cube import half_answerable
from rules.roles import box_decider, boxer_of, cube_between
from rules.state import TableState
from rules.table import partner_invitees

MOVE_MENU_LIMIT = 25  # Discord's most options in one select menu


def move_select(table_id: str, plays: list[str], part: str = "", placeholder: str = "",
                locale: object = None) -> discord.ui.Select[Any]:
    """The legal plays of the roll (or some of them: `part` of a longer list), for the
    shooter to choose from."""
    options = [discord.SelectOption(label=p or translate("No move", locale), value=p or "pass")
               for p in (plays or ["pass"])]
    tail = f":{part}" if part else ""
    return discord.ui.Select(custom_id=f"chouette:{table_id}:move{tail}", options=options,
                             placeholder=placeholder or translate("Choose your play", locale))


async def _move(interaction: discord.Interaction, match: re.Match[str]) -> None:
    """The shooter's play, picked from a menu."""
    play = next(iter(picked(interaction)), "")
    await bot_of(interaction).act(interaction, match["table"],
                                  Move(by=str(interaction.user.id), play=play))


def first_move_select(table_id: str, firsts: list[str],
                      locale: object = None) -> discord.ui.Select[Any]:
    """The first step of choosing among more plays than one menu holds: the first checker
    move; the second step is a private menu of the plays that begin with it."""
    return discord.ui.Select(
        custom_id=f"chouette:{table_id}:first",
        options=[discord.SelectOption(label=f, value=f) for f in firsts],
        placeholder=translate("Choose your play: its first move", locale))


async def _first_move(interaction: discord.Interaction, match: re.Match[str]) -> None:
    """The private menu of the plays that begin with the first move picked."""
    bot, table_id = bot_of(interaction), match["table"]
    state = await bot.service.state(table_id)
    first = next(iter(picked(interaction)), "")
    plays = [p for p in plays_of(state) if first_move(p) == first]
    if not plays:
        await bot.reply(interaction, translate(
            "That roll has been played: choose from the board.", interaction.locale))
        return
    if why := may_not_move(state, str(interaction.user.id)):  # now, not at step two
        await bot.reply(interaction, bot.presenter.names(state, why, locale=interaction.locale))
        return
    view = Inert()
    for n, start in enumerate(range(0, min(len(plays), 5 * MOVE_MENU_LIMIT), MOVE_MENU_LIMIT)):
        view.add_item(move_select(table_id, plays[start:start + MOVE_MENU_LIMIT],
                                  part=str(n + 1), locale=interaction.locale,
                                  placeholder=tr("Plays with {first}", interaction.locale,
                                                 first=first)))
    await interaction.response.send_message(
        tr("The plays that begin {first}:", interaction.locale, first=first), view=view,
        ephemeral=True)


def first_move(play: str) -> str:
    """A play's first checker move as written ("24/18" of "24/18 13/11", "bar/22*")."""
    return play.split(" ")[0].split("(")[0]


def move_form(table_id: str, locale: object = None) -> Form:
    """A play typed in notation, for those who would rather type than choose (in the
    clicker's language)."""
    form = Form(title=translate("Your play", locale), custom_id=f"chouette:{table_id}:typed")
    form.add_item(discord.ui.TextInput(label=translate("Play", locale), custom_id="play",
                                       placeholder="24/18 13/11, bar/22*, 6/off(2)",
                                       max_length=60))
    return form


async def _typed_move(interaction: discord.Interaction, match: re.Match[str]) -> None:
    """The play typed in the form."""
    await bot_of(interaction).act(interaction, match["table"], Move(
        by=str(interaction.user.id), play=typed(interaction).get("play", "")))


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


def pick_select(table_id: str, verb: str, choice: str, names: dict[str, str],
                locale: object = None) -> discord.ui.Select[Any]:
    """One list of the Box's private menu (which cubes to double; which doubles to take or
    beaver)."""
    names = names or {"-": "-"}
    return discord.ui.Select(
        custom_id=f"chouette:{table_id}:pick:{verb}:{choice}",
        placeholder=_placeholder(choice, locale), min_values=0, max_values=len(names),
        options=[discord.SelectOption(label=n, value=k) for k, n in names.items()])


async def _pick(interaction: discord.Interaction, match: re.Match[str]) -> None:
    """A pick is written back into the menu's message as the options' defaults, so the menu
    keeps working after a restart: it is input, never the table's state."""
    assert interaction.message is not None
    values, view = picked(interaction), Inert()
    for item in discord.ui.View.from_message(interaction.message, timeout=None).children:
        if isinstance(item, discord.ui.Select) and item.custom_id == match.string:
            for option in item.options:
                option.default = option.value in values
        view.add_item(item)
    await interaction.response.edit_message(view=view)


def _placeholder(choice: str, locale: object) -> str:
    """A pick's placeholder in the Box's private menu."""
    return {"double": translate("Double…", locale), "take": translate("Take…", locale),
            "beaver": translate("Beaver…", locale)}[choice]


def pick_confirm(table_id: str, verb: str, order: bool = False,
                 locale: object = None) -> discord.ui.Button[Any]:
    """Send the picks of the Box's private menu to the table (`order`: the Box insists on
    answers in rotation order, Atlanta 5.8)."""
    return discord.ui.Button(
        label=(translate("Confirm, answers in rotation order", locale) if order
               else translate("Confirm", locale)),
        style=discord.ButtonStyle.secondary if order else discord.ButtonStyle.success,
        custom_id=f"chouette:{table_id}:confirm:{verb}{':order' if order else ''}")


async def _confirm_picks(interaction: discord.Interaction, match: re.Match[str]) -> None:
    """The Box's picks, read from the menu's message, as one command."""
    assert interaction.message is not None
    picked_: dict[str, list[str]] = {}
    offered: list[str] = []
    for row in interaction.message.components:
        for item in getattr(row, "children", ()):
            if isinstance(item, discord.SelectMenu) and item.custom_id:
                choice = item.custom_id.rsplit(":", 1)[-1]
                picked_[choice] = [o.value for o in item.options if o.default]
                offered = [o.value for o in item.options]
    me = str(interaction.user.id)
    if match["verb"] == "double":
        command: Command = Double(by=me, cubes=tuple(picked_.get("double", [])),
                                  in_order=bool(match["order"]))
    else:
        chosen = {p for v in picked_.values() for p in v}
        command = Answer(by=me, take=tuple(picked_.get("take", [])),
                         beaver=tuple(picked_.get("beaver", [])),
                         drop=tuple(k for k in offered if k not in chosen))
    await bot_of(interaction).act(interaction, match["table"], command)


def _menu(table_id: str, verb: str, names: dict[str, str], choices: tuple[str, ...],
          order: bool = False, locale: object = None) -> discord.ui.View:
    """A private menu of the Box's, in the clicker's language (`locale`)."""
    view = Inert()
    for choice in choices:
        view.add_item(pick_select(table_id, verb, choice, names, locale))
    view.add_item(pick_confirm(table_id, verb, locale=locale))
    if order:
        view.add_item(pick_confirm(table_id, verb, order=True, locale=locale))
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
    await interaction.response.send_message(
        translate("Double which cubes?", interaction.locale), view=view, ephemeral=True)


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


def invite_button(table_id: str, player: str, shown: str,
                  locale: object = None) -> discord.ui.Button[Any]:
    """The Box's invitation to `player` (called `shown`) to be the Box's Partner."""
    return discord.ui.Button(label=tr("Invite {player}", locale, player=shown)[:80],
                             custom_id=f"chouette:{table_id}:invite:{player}")


async def partner_menu(interaction: discord.Interaction, table_id: str,
                       state: TableState) -> None:
    """The Box invites a Partner: the first the rule set asks who has not declined."""
    invitees, bot = partner_invitees(state), bot_of(interaction)
    if not invitees:
        await bot.reply(interaction, translate(
            "Only the Box invites a Partner, between games, at a table large enough.",
            interaction.locale))
        return
    if why := refusal(state, InvitePartner(by=clicker(interaction), player=invitees[0])):
        await bot.reply(interaction, bot.presenter.names(state, why, locale=interaction.locale))
        return
    view, first = Inert(), invitees[0]
    locale = interaction.locale  # a private reply: the clicker's language
    view.add_item(invite_button(table_id, first, state.shown(first), locale))
    after = ", ".join(shown(state, p) for p in invitees[1:])
    await interaction.response.send_message(
        tr("The rules ask {player} first; if they decline, {after}.", locale,
           player=shown(state, first), after=after) if after else
        tr("The rules ask {player} first.", locale, player=shown(state, first)),
        view=view, ephemeral=True)


async def _invite(interaction: discord.Interaction, match: re.Match[str]) -> None:
    """The Box's private button inviting `player` to be the Partner: the rules store the
    invitation (refused unless the Box sent it, to the player they ask now), then a DM asks
    the player."""
    table_id, player = match["table"], match["player"]
    bot = bot_of(interaction)
    if await bot.act(interaction, table_id, InvitePartner(by=clicker(interaction),
                                                          player=player)) is None:
        return  # refused: the clicker was told why
    state = await bot.service.state(table_id)
    answers = ("yes", "no") if state.rules.may_decline_partner else ("yes",)
    locale = await bot.presenter.table_locale(table_id, state)
    box = state.seating.box if state.seating is not None else clicker(interaction)
    await ask_consent(interaction, player,
                      tr("{box} (the Box) invites you to be the Partner for the next game.",
                         locale, box=shown(state, box)),
                      tr("{player} is invited.", interaction.locale,
                         player=shown(state, player)),
                      *(Question(table_id, a, player=player) for a in answers),
                      locale=locale)


ROUTES = (
    Route(r"chouette:(?P<table>\d+):move(?::(?P<part>\d+))?", _move),
    Route(r"chouette:(?P<table>\d+):first", _first_move),
    Route(r"chouette:(?P<table>\d+):typed", _typed_move),
    Route(r"chouette:(?P<table>\d+):pick:(?P<verb>double|answer):(?P<choice>double|take|beaver)",
          _pick),
    Route(r"chouette:(?P<table>\d+):confirm:(?P<verb>double|answer)(?P<order>:order)?",
          _confirm_picks),
    Route(r"chouette:(?P<table>\d+):invite:(?P<player>\d+)", _invite),
)
