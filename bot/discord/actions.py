"""The board's buttons, each declared once: its label, when it shows, what a click does.

An entry of `ACTIONS` is one button of the board message: its label and style, `shows` (from
the table's state, asked of the rules where it can be: the board offers an action only while
someone may take it) and `click` (a private menu or form; by default the table command of
the action's name, from the player who clicked). `table_button` makes them all, each custom
id naming the table and the entry (`TABLE_BUTTON`, routed to `_click`), and `board_view`
lays them out in the table's order. Adding a button is one entry here, plus its rule.

`ROUTES` is every custom id the bot answers, with its handler: the board's buttons, the
questions' (`bot.discord.asks`), the menus' and forms' (`bot.discord.views`); the client's
`Router` dispatches them.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord.asks import BLUE, GREEN, GREY, RED, Question, ask_button, clicker
from bot.discord.asks import ROUTES as QUESTIONS
from bot.discord.host import bot_of
from bot.discord.router import Inert, Route
from bot.discord.views import (
    MOVE_MENU_LIMIT,
    answer_menu,
    box_double_menu,
    first_move,
    first_move_select,
    may_not_move,
    move_form,
    move_select,
    partner_menu,
    plays_of,
)
from bot.discord.views import ROUTES as MENUS
from bot.words.i18n import translate
from rules.actions import allowed, doublers, holders
from rules.answers import answered_as_a_set
from rules.authority import runs_table
from rules.commands import Double, Extra, Partner, Request, Result
from rules.cube_state import CubeState
from rules.game import shooter, waiting_for
from rules.proxies import answerer
from rules.results import confirmers
from rules.roles import boxer_of, own_cubes
from rules.state import TableState
from rules.table import open_choices, partner_invitees
from rules.transcript import build

Click = Callable[[discord.Interaction, str, TableState], Awaitable[None]]


@dataclass(frozen=True)
class Action:
    """One button of the board message."""

    label: str
    style: discord.ButtonStyle
    shows: Callable[[TableState], bool]
    click: Click | None = None  # None: the command of the action's name, from the clicker
    # who may use it now (None: whom the rules would take the command of its name from)
    may: Callable[[TableState, str], bool] | None = None


# -- when the buttons show --------------------------------------------------------------------


def _between(state: TableState) -> bool:
    """Between games (or before the first)."""
    return state.game is None


def _in_game(state: TableState) -> bool:
    """A game, with no resignation waiting for its answers (nothing else moves meanwhile)."""
    return state.game is not None and not state.game.resignations


def _turn(state: TableState, rolled: bool) -> bool:
    """The side on roll's own moment, nothing waiting: before its roll, or after it."""
    game = state.game
    return (_in_game(state) and not waiting_for(state) and game is not None
            and (game.dice is not None) == rolled)


def _offered(state: TableState) -> list[str]:
    """The players whose double waits for its answer."""
    return [p for p, c in waiting_for(state) if c.state is CubeState.OFFERED]


def _box_answers(state: TableState, player: str) -> bool:
    """Whether `player` answers Team doubles for the Box side now (from the board)."""
    return any(answerer(state, p) == player for p, c in waiting_for(state)
               if answered_as_a_set(p, c))


# -- what a click does ------------------------------------------------------------------------


async def _join(interaction: discord.Interaction, table_id: str, state: TableState) -> None:
    await bot_of(interaction).act(interaction, table_id, Request(
        by=clicker(interaction), name=interaction.user.display_name))


async def _start(interaction: discord.Interaction, table_id: str, state: TableState) -> None:
    await bot_of(interaction).start_game(interaction, table_id)


async def _roll(interaction: discord.Interaction, table_id: str, state: TableState) -> None:
    bot = bot_of(interaction)
    await bot.act(interaction, table_id, await bot.flow.next_roll(table_id, clicker(interaction)))


async def _double(interaction: discord.Interaction, table_id: str, state: TableState) -> None:
    """The Box (or a FIBS Partner for the Box) picks the cubes; a Team player doubles their
    own."""
    if state.seating is not None and boxer_of(state, clicker(interaction)):
        await box_double_menu(interaction, table_id, state)
        return
    await bot_of(interaction).act(interaction, table_id, Double(by=clicker(interaction)))


async def _type(interaction: discord.Interaction, table_id: str, state: TableState) -> None:
    """The form only for who may play (else why not, at once)."""
    bot = bot_of(interaction)
    if why := may_not_move(state, clicker(interaction)):
        await bot.reply(interaction, bot.presenter.names(state, why, locale=interaction.locale))
        return
    await interaction.response.send_modal(move_form(table_id, interaction.locale))


async def _confirm(interaction: discord.Interaction, table_id: str, state: TableState) -> None:
    """The result the other side gave, given again by this one."""
    bot = bot_of(interaction)
    offer = state.game.offer if state.game is not None else None
    if offer is None:
        await bot.reply(interaction, translate("No result waits to be confirmed now.",
                                               interaction.locale))
        return
    await bot.act(interaction, table_id, Result(
        by=clicker(interaction), winner=offer.winner.value, kind=offer.kind))


async def _answer(interaction: discord.Interaction, table_id: str, state: TableState) -> None:
    await answer_menu(interaction, table_id, state)


async def _partner(interaction: discord.Interaction, table_id: str, state: TableState) -> None:
    await partner_menu(interaction, table_id, state)


ACTIONS: dict[str, Action] = {  # in the order the board shows them
    "join": Action("Join", GREY, _between, _join,
                   lambda s, me: allowed(s, Request(by=me))),
    "start": Action("Start game", GREEN, _between, _start,  # (the opening's dice come
                    lambda s, me: runs_table(s, me)),  # at the click: no dry run of Start)
    "partner": Action("Invite a Partner", GREY,
                      lambda s: _between(s) and bool(partner_invitees(s)), _partner,
                      lambda s, me: allowed(s, Partner(by=me, player=partner_invitees(s)[0]))),
    "captain": Action("Partner: captain instead", GREY,
                      lambda s: _between(s) and any(c == "captain" for c, _ in open_choices(s))),
    "alone": Action("Box: play alone", GREY,
                    lambda s: _between(s) and any(c == "alone" for c, _ in open_choices(s))),
    "pass_box": Action("Pass the box", GREY,  # Villages 15
                       lambda s: _between(s) and s.seating is not None and s.rules.may_pass_box),
    "resume": Action("Play out the held game", BLUE,  # FIBS §6 ¶2
                     lambda s: _between(s) and bool(s.held)),
    "confirm": Action("Confirm the result", GREEN, lambda s: bool(confirmers(s)), _confirm,
                      lambda s, me: me in confirmers(s)),
    "answer": Action("Answer the doubles", RED, lambda s: s.game is not None and any(
        own_cubes(s, p) for p in _offered(s)), _answer, _box_answers),
    "withdraw": Action("Take back my double", GREY,  # FIBS: a double turned by mistake
                       lambda s: s.rules.withdraw_double and bool(_offered(s))),
    "extra": Action("Give an extra", GREY,  # Atlanta 5.7, Danish sell cube
                    lambda s: _turn(s, False) and s.rules.extras != "none" and s.game is not None
                    and any(allowed(s, Extra(by=p)) for p in s.game.box_round)),
    "type": Action("Type a move", GREY, lambda s: _turn(s, True), _type,  # after the menus
                   lambda s, me: may_not_move(s, me) is None),
    "roll": Action("Roll", BLUE, lambda s: _turn(s, False) and s.mode == "play"
                   and shooter(s) is not None, _roll, lambda s, me: shooter(s) == me),
    "double": Action("Double", RED, lambda s: _in_game(s) and any(doublers(s)), _double,
                     lambda s, me: me in doublers(s)),
    "hold": Action("Hold the roll", GREY,
                   lambda s: _turn(s, False) and s.mode == "play" and bool(holders(s)),
                   may=lambda s, me: me in holders(s)),
    "release": Action("Release the roll", GREY,
                      lambda s: _turn(s, False) and s.game is not None and bool(s.game.holds),
                      may=lambda s, me: s.game is not None and me in s.game.holds),
}


def usable(state: TableState, player: str) -> list[str]:
    """The board's actions `player` may use now, in the board's order: those it shows
    (`shows`) that are theirs (`may`, else the rules would take the command of the action's
    name from them). `/chouette help` tells them from this, as the board shows them."""
    if state.ended:
        return []
    return [name for name, action in ACTIONS.items() if action.shows(state) and (
        action.may(state, player) if action.may else allowed(state, build(name, player)))]


TABLE_BUTTON = rf"chouette:(?P<table>\d+):(?P<action>{'|'.join(ACTIONS)})"


def table_button(table_id: str, action: str, locale: object = None) -> discord.ui.Button[Any]:
    """A button of the board message: an entry of `ACTIONS`, labelled in the table's language
    (everyone sees it)."""
    entry = ACTIONS[action]
    return discord.ui.Button(label=translate(entry.label, locale), style=entry.style,
                             custom_id=f"chouette:{table_id}:{action}")


async def _click(interaction: discord.Interaction, match: re.Match[str]) -> None:
    """A click on a board button: its entry's `click`, else the command of its name."""
    bot, table_id = bot_of(interaction), match["table"]
    state = await bot.service.state(table_id)
    click = ACTIONS[match["action"]].click
    if click is not None:
        await click(interaction, table_id, state)
        return
    await bot.act(interaction, table_id, build(match["action"], clicker(interaction)))


def board_view(table_id: str, state: TableState, locale: object = None) -> discord.ui.View:
    """The actions open now, for the board message: the game's (the move menus before Type
    a move), then the answers to the first two newcomers asking to join and to the latest
    two corrections; labelled in `locale`'s language (the table's)."""
    view = Inert()
    for name, action in ACTIONS.items():
        if state.ended or not action.shows(state):
            continue
        if name == "type":
            for item in _move_menus(table_id, state, locale):
                view.add_item(item)
        view.add_item(table_button(table_id, name, locale))
    for request, _ in state.requests[:2]:
        shown = request.display or request.player
        for answer in ("admit", "object"):
            view.add_item(ask_button(Question(table_id, answer, player=request.player), shown,
                                     locale))
    for proposal, _ in state.proposals[-2:]:
        for answer in ("approve", "refuse"):
            view.add_item(ask_button(Question(table_id, answer, number=str(proposal.number)),
                                     locale=locale))
    return view


def _move_menus(table_id: str, state: TableState,
                locale: object = None) -> list[discord.ui.Item[Any]]:
    """The roll's legal plays in one menu, or (more than a menu holds) their first moves."""
    plays = plays_of(state)
    if len(plays) <= MOVE_MENU_LIMIT:
        return [move_select(table_id, list(plays), locale=locale)]
    firsts = list(dict.fromkeys(first_move(p) for p in plays))  # then the plays of one
    return [first_move_select(table_id, firsts[:MOVE_MENU_LIMIT], locale)]


ROUTES = (Route(TABLE_BUTTON, _click), *QUESTIONS, *MENUS)  # every custom id of ours
