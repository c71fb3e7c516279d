"""Questions to one player, as persistent buttons, each kind declared once: answers to a
cube (take, drop, beaver, raccoon, an extra, a resignation) and agreements the rules need
from someone (a Partner's invitation, a sale, a raccoon, a stake change, a newcomer, a
correction).

An entry of `ASKS` is one kind of button: its label, its style, the fields its custom id
carries and what a click does (one table command through `bot.act`). `ask_button` makes
them all, the whole `Question` in its custom id
(`chouette:{table}:{action}:{field}:{field}...`, the cube's value asked after an `@`), so it
works after a restart; the rules check an answer against the table as it is (a request the
rules must know, a raccoon by consent or a sale, is stored when it is made: the custom id
only names it). Adding a question is one entry here, plus its rule.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord.host import bot_of
from bot.discord.router import Inert, Route, outdated
from bot.words.i18n import tr, translate
from bot.words.markdown import shown
from rules.actions import refusal
from rules.commands import (
    Admit,
    AgreeTurn,
    Approve,
    AskTurn,
    Buy,
    Decline,
    Object,
    Partner,
    Refuse,
    Stake,
)
from rules.transcript import build

GREY, GREEN, BLUE, RED = (discord.ButtonStyle.secondary, discord.ButtonStyle.success,
                          discord.ButtonStyle.primary, discord.ButtonStyle.danger)


@dataclass(frozen=True)
class Question:
    """What a question button asks: its `action` (an entry of `ASKS`) at a table, and the
    fields that entry carries (the players, the cube's value, the price, ...)."""

    table_id: str
    action: str
    player: str = ""
    across: str = ""  # the other player of the cube, when the answer must say which cube
    face: str = ""  # the cube's value asked about: an answer about a value gone is refused
    actor: str = ""  # who turns the cube again, once the other player consents
    number: str = ""  # a correction's
    seller: str = ""
    buyer: str = ""
    points: str = ""
    stake: str = ""


Click = Callable[[discord.Interaction, Question], Awaitable[None]]


@dataclass(frozen=True)
class Ask:
    """One kind of question button."""

    label: str  # formatted with the question's fields (and `name`, a newcomer's)
    style: discord.ButtonStyle
    fields: str  # the custom id's fields after the action: a regex with named groups
    click: Click


def clicker(interaction: discord.Interaction) -> str:
    """Who clicked, as the tables know players: the Discord user's id."""
    return str(interaction.user.id)


async def _only(interaction: discord.Interaction, player: str, refused: str) -> bool:
    """Whether `player` clicked; else the one who did is told (`refused`, in their
    language) that the question is for someone else."""
    if clicker(interaction) != player:
        await bot_of(interaction).reply(interaction, refused)
        return False
    return True


async def _answer_cube(interaction: discord.Interaction, q: Question) -> None:
    """Take, drop, beaver, raccoon, aardvark (an extra's too), accept or reject a resignation,
    or retract: from the player asked or whoever may act for them. Where a raccoon or an
    aardvark needs the other player's consent (Atlanta 5.4), that player is asked first."""
    me = clicker(interaction)
    bot = bot_of(interaction)
    args: dict[str, Any] = {} if me == q.player else {"for": q.player}
    if q.across:
        args["cubes"] = [q.across]
    if q.face and q.action not in ("accept", "reject"):
        args["face"] = int(q.face)
    command = build(q.action, me, **args)
    if q.action in _TURNS_AGAIN and q.across:  # whoever acts for the turner
        state = await bot.service.state(q.table_id)
        rule = state.rules.raccoons if q.action == "raccoon" else state.rules.aardvarks
        if rule == "by_consent":  # Atlanta 5.4: both must agree
            ask = AskTurn(by=me, for_=args.get("for"), turn=q.action, across=q.across,
                          face=args.get("face"))
            if why := refusal(state, ask):  # nothing happens until agreed
                await bot.reply(interaction, bot.presenter.names(state, why,
                                                                 locale=interaction.locale))
                return
            # the table keeps the request (here, or by the process serving it, for a DM)
            await bot.act(interaction, q.table_id, ask)
            locale = await bot.presenter.table_locale(q.table_id, state)
            asked = (tr("{player} asks to raccoon your beaver: that needs your consent here "
                        "(Atlanta 5.4).", locale, player=shown(state, q.player))
                     if q.action == "raccoon" else
                     tr("{player} asks to aardvark your raccoon: that needs your consent here "
                        "(Atlanta 5.4).", locale, player=shown(state, q.player)))
            await ask_consent(interaction, q.across, asked,
                              tr("Asked {player} to agree.", interaction.locale,
                                 player=shown(state, q.across)),
                              Question(q.table_id, f"agree_{q.action}", actor=q.player,
                                       across=q.across), locale=locale)
            return
    await bot.act(interaction, q.table_id, command)


_TURNS_AGAIN = ("raccoon", "aardvark")  # each turns the one before (a beaver, a raccoon)


async def _agree_to_turn(interaction: discord.Interaction, q: Question) -> None:
    """The other player's consent to a raccoon (the beaverer's) or an aardvark (the
    raccooner's), Atlanta 5.4: it makes the turn the table keeps as asked of the clicker
    (the custom id names only whose request)."""
    await bot_of(interaction).act(interaction, q.table_id, AgreeTurn(
        by=clicker(interaction), turn=q.action.removeprefix("agree_"), player=q.actor))


async def _be_partner(interaction: discord.Interaction, q: Question) -> None:
    """The invited player's answer to the Box's invitation to be the Partner."""
    if not await _only(interaction, q.player, translate(
            "This invitation is for someone else.", interaction.locale)):
        return
    bot = bot_of(interaction)
    if q.action == "yes":
        await bot.act(interaction, q.table_id, Partner(by=q.player, player=q.player))
        return
    await bot.act(interaction, q.table_id, Decline(by=q.player))


async def _correction(interaction: discord.Interaction, q: Question) -> None:
    """Agree to or refuse a pending correction (the rules say whose consent it needs)."""
    answer = Approve if q.action == "approve" else Refuse  # a moderator's says so (`act`)
    await bot_of(interaction).act(interaction, q.table_id,
                                  answer(by=clicker(interaction), correction=int(q.number)))


async def _admit(interaction: discord.Interaction, q: Question) -> None:
    """A seated player admits a newcomer who asked to join, or objects."""
    answer = Admit if q.action == "admit" else Object
    await bot_of(interaction).act(interaction, q.table_id, answer(
        by=clicker(interaction), player=q.player))


async def _buy(interaction: discord.Interaction, q: Question) -> None:
    """The buyer's acceptance of a sale the seller offered them (`/chouette sell`), at the
    price the table kept with the offer (the custom id names only the seller)."""
    bot = bot_of(interaction)
    # the bot's dice for a fraction rolled off (Atlanta 4.3) or an odd half (FIBS §2 ¶2)
    await bot.act(interaction, q.table_id, Buy(
        by=clicker(interaction), from_=q.seller, rolloff=bot.dice.rolloff(),
        next_roll=bot.dice.pair()))


async def _stake(interaction: discord.Interaction, q: Question) -> None:
    """The Box agrees to a player's new stake multiple (Atlanta 2.3; the rules refuse anyone
    else)."""
    bot = bot_of(interaction)
    await bot.act(interaction, q.table_id, Stake(
        by=clicker(interaction), player=q.player, stake=int(q.stake)))


_CUBE = r"(?P<player>[^:@]+)(?::(?P<across>[^:@]+))?(?:@(?P<face>\d+))?"
_TURN = r"(?P<actor>\d+):(?P<across>\d+)"

ASKS: dict[str, Ask] = {
    "take": Ask("Take", GREEN, _CUBE, _answer_cube),
    "drop": Ask("Drop", RED, _CUBE, _answer_cube),
    "beaver": Ask("Beaver", BLUE, _CUBE, _answer_cube),
    "raccoon": Ask("Raccoon", BLUE, _CUBE, _answer_cube),
    "aardvark": Ask("Aardvark", BLUE, _CUBE, _answer_cube),
    "accept": Ask("Accept", GREEN, _CUBE, _answer_cube),  # a resignation
    "reject": Ask("Reject", RED, _CUBE, _answer_cube),
    "retract": Ask("Drop the Box's double instead", GREY, _CUBE, _answer_cube),  # Atlanta 5.7
    "agree_raccoon": Ask("Agree to the raccoon", BLUE, _TURN, _agree_to_turn),
    "agree_aardvark": Ask("Agree to the aardvark", BLUE, _TURN, _agree_to_turn),
    "yes": Ask("Be the Partner", GREEN, r"(?P<player>[^:]+)", _be_partner),
    "no": Ask("Decline", RED, r"(?P<player>[^:]+)", _be_partner),
    "approve": Ask("Agree to correction {number}", GREEN, r"(?P<number>\d+)", _correction),
    "refuse": Ask("Refuse correction {number}", RED, r"(?P<number>\d+)", _correction),
    "admit": Ask("Admit {name}", GREEN, r"(?P<player>\d+)", _admit),
    "object": Ask("Object to {name}", RED, r"(?P<player>\d+)", _admit),
    "buy": Ask("Buy the game", GREEN,  # points: in the buttons of older versions
               r"(?P<seller>\d+):(?P<buyer>\d+)(?::(?P<points>[\d/.]+))?", _buy),
    "stake": Ask("Agree to {stake}x stakes", GREEN, r"(?P<player>\d+):(?P<stake>\d+)", _stake),
}
RENAMED = {"racok": "agree_raccoon", "aardok": "agree_aardvark"}  # in DMs sent before
TEMPLATE = rf"chouette:(?P<table>\d+):(?P<action>{'|'.join([*ASKS, *RENAMED])}):(?P<fields>.+)"


def custom_id(q: Question) -> str:
    """`q` as its button's custom id: its fields in the entry's order, the face after `@`."""
    names = re.compile(ASKS[q.action].fields).groupindex
    values = [getattr(q, n) for n in sorted(names, key=names.__getitem__) if n != "face"]
    face = f"@{q.face}" if q.face else ""
    return f"chouette:{q.table_id}:{q.action}:{':'.join(v for v in values if v)}{face}"


def question(custom_id: str) -> Question | None:
    """The question a custom id asks (None: not a question of ours)."""
    found = re.fullmatch(TEMPLATE, custom_id)
    if found is None:
        return None
    action = RENAMED.get(found["action"], found["action"])
    fields = re.fullmatch(ASKS[action].fields, found["fields"])
    return Question(found["table"], action, **fields.groupdict(default="")) if fields else None


def ask_button(q: Question, name: str = "", locale: object = None) -> discord.ui.Button[Any]:
    """A question's button: an entry of `ASKS`, the whole question in its custom id, the
    label in `locale`'s language (`name`: a newcomer's)."""
    entry = ASKS[q.action]
    label = tr(entry.label, locale, **vars(q), name=name or translate("newcomer", locale))
    return discord.ui.Button(label=label[:80], style=entry.style, custom_id=custom_id(q))


async def _click(interaction: discord.Interaction, match: re.Match[str]) -> None:
    """A question's answer: its entry's click."""
    q = question(match.string)
    if q is None:  # the fields of an older version's question
        await outdated(interaction)
        return
    await ASKS[q.action].click(interaction, q)


ROUTES = (Route(TEMPLATE, _click),)


async def ask_consent(interaction: discord.Interaction, player: str, text: str, told: str,
                      *questions: Question, locale: object) -> None:
    """Ask `player` by DM (`text`, a button for each of `questions`) for what the user who
    clicked or typed wants, and tell that user `told` privately. The rules check the
    answer against the table as it is (and the request the caller stored, if any). The
    buttons are in `locale`'s language: the table's (`presenter.table_locale`; the one asked
    has not clicked anything yet)."""
    bot = bot_of(interaction)
    view = Inert()
    for q in questions:
        view.add_item(ask_button(q, locale=locale))
    await bot.reply(interaction, told)
    await bot.presenter.ask(questions[0].table_id, player, text, view)


def prompt_view(table_id: str, player: str, actions: tuple[str, ...],
                across: str = "", face: int | None = None,
                locale: object = None) -> discord.ui.View:
    """Answer buttons for one player's pending cube (against `across`, when it must say; at
    `face`, the value asked about), labelled in `locale`'s language."""
    view = Inert()
    for action in actions:
        view.add_item(ask_button(Question(table_id, action, player=player, across=across,
                                         face=str(face) if face else ""), locale=locale))
    return view
