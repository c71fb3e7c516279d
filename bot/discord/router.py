"""The bot's own dispatch of its buttons, menus and forms.

Everything the bot sends that can be clicked, picked or submitted carries a custom id that
says all its answer needs (`chouette:{table}:...`); `ROUTES` (`bot.discord.actions`) pairs
each kind's pattern with its handler, and `Router.dispatch`, the bot's `on_interaction`
listener, hands a click to the first handler whose pattern matches. So a button works after
a restart, and discord.py keeps nothing of it: the views are sent `Inert` and the forms as
`Form`s, both stopped as they are made (`View.stop`), so discord.py stores neither.
(discord.py's `DynamicItem` would rebuild a whole `View` from the clicked message on every
click: about 0.3 ms of the bot's CPU a click, issue 23.)

A handler's errors reach the user as a private reply (`failures.tell`), never as Discord's
"This interaction failed"; a custom id of ours that no pattern matches any more (a button of
an older version) is answered too.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import discord

from bot.discord.failures import guarded, private
from bot.words.i18n import translate

Handler = Callable[[discord.Interaction, re.Match[str]], Awaitable[None]]
PREFIX = "chouette:"  # every custom id of the bot's


@dataclass(frozen=True)
class Route:
    """The custom ids matching `pattern` (a regex with named groups: the whole id must
    match), and what a click on one does."""

    pattern: str
    handle: Handler


class Inert(discord.ui.View):
    """A view of routed items: stopped as it is made, so discord.py sends it and keeps
    nothing of it (the router answers its clicks from the custom id alone)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.stop()


class Form(discord.ui.Modal):
    """A routed form: stopped as it is made, so discord.py keeps nothing of it (the router
    answers its submission from the custom id alone, after a restart too)."""

    def __init__(self, *, title: str, custom_id: str) -> None:
        super().__init__(title=title, custom_id=custom_id, timeout=None)
        self.stop()


class Router:
    """Dispatches the bot's components' interactions to `routes`' handlers."""

    def __init__(self, routes: Sequence[Route]) -> None:
        self._routes = [(re.compile(r.pattern), guarded(r.handle)) for r in routes]

    async def dispatch(self, interaction: discord.Interaction) -> None:
        """The `on_interaction` listener: a click, a pick or a form's submission of ours to
        its handler (commands are the command tree's)."""
        if interaction.type not in (discord.InteractionType.component,
                                    discord.InteractionType.modal_submit):
            return
        custom_id = str(_data(interaction).get("custom_id", ""))
        for pattern, handle in self._routes:
            if match := pattern.fullmatch(custom_id):
                await handle(interaction, match)
                return
        if custom_id.startswith(PREFIX):
            await outdated(interaction)


async def outdated(interaction: discord.Interaction) -> None:
    """Tell the clicker privately that a button of ours is from an older version."""
    await private(interaction, translate(
        "This button is from an older version of the bot: use the buttons of the table's "
        "latest board.", interaction.locale))


def picked(interaction: discord.Interaction) -> list[str]:
    """The values picked in a select menu's interaction."""
    return [str(v) for v in _data(interaction).get("values", ())]


def typed(interaction: discord.Interaction) -> dict[str, str]:
    """A submitted form's text inputs' values, by their custom ids."""
    return {c["custom_id"]: str(c["value"]) for c in _walk(_data(interaction).get("components", ()))
            if "custom_id" in c and "value" in c}


def _data(interaction: discord.Interaction) -> Mapping[str, Any]:
    """The interaction's data as Discord sent it."""
    return cast(Mapping[str, Any], interaction.data or {})


def _walk(components: Sequence[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """Every component, rows and labels opened (a form's text input sits in one)."""
    for component in components:
        yield component
        yield from _walk(component.get("components", ()))
        if isinstance(inner := component.get("component"), Mapping):
            yield from _walk([inner])
