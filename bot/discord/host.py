"""What the buttons, menus and questions need of the bot, named here so that nothing below
the client imports it: `bot_of(interaction)` is the bot behind a click, as a `TableBot`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol, cast

import discord

from bot.app.dice import Dice
from bot.app.effects import Outcome, Refusal
from bot.app.flow import Flow
from bot.app.service import TableService
from rules.commands import Command
from rules.state import TableState


class Asker(Protocol):
    """What the buttons and questions need of the presenter."""

    def names(self, state: TableState, refusal: Refusal,
              users: Mapping[str, str] | None = None, locale: object = None) -> str:
        """A refusal in words, the players it names by their names, in `locale`'s language."""

    async def table_locale(self, table_id: str, state: TableState) -> str:
        """What the table reads in: its language, else its server's (`Boards.locale`)."""

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

    @property
    def flow(self) -> Flow: ...

    async def act(self, interaction: discord.Interaction, table_id: str, command: Command,
                  *, key: str | None = None) -> Outcome | None:
        """Send `command` to the table as the user; a refusal is a private reply."""

    async def reply(self, interaction: discord.Interaction, text: str) -> None:
        """A private answer."""

    async def start_game(self, interaction: discord.Interaction, table_id: str) -> None:
        """Draw seats if needed and start a game."""

    def is_moderator(self, user: discord.User | discord.Member) -> bool:
        """Whether `user` is a moderator of the server."""


def bot_of(interaction: discord.Interaction) -> TableBot:
    """The chouette bot behind an interaction."""
    return cast(TableBot, interaction.client)
