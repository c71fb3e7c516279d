"""The board message of each table, kept showing the table's latest state.

Discord limits edits of a channel's messages (5 in 5 s), so an edit may wait seconds for its
turn. Edits of one table's board take turns, and each draws the table as it is when its
turn comes: an edit that waited shows every action stored meanwhile, and those actions need
no edit of their own (they are coalesced). A click on the board is answered with the board
itself when no edit is under way (the interaction's response is not in the channel's
bucket), else at once with an acknowledgement while the board follows: a click is never
left waiting on the channel. Nothing here is game state: what a board shows is a version
of the table's events.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

import discord

from bot.app.flow import Flow
from bot.app.locks import TableLocks
from bot.app.service import TableService
from bot.app.tasks import Timer
from bot.discord.actions import board_view
from bot.discord.failures import waited
from bot.discord.sync import command_ids, linked
from bot.render.drawing import Drawing
from bot.store import Channels, EventStore
from bot.words.i18n import table_language, tr, translate, trn
from bot.words.markdown import escape, shown
from rules.cube_state import CubeState
from rules.game import shooter, waiting_for
from rules.proxies import answerer
from rules.results import confirmers
from rules.state import TableState

ANSWER_WITHIN = 2.0  # seconds from a click to its answer, or else an acknowledgement
Due = Callable[[str, str], float | None]  # when a timer (kind, player) runs out, if it runs


def countdown(when: float | None) -> str:
    """Discord's live countdown to `when` (Unix seconds): "in 2 minutes", "1 minute ago"."""
    return f"<t:{int(when)}:R>" if when is not None else ""


def _until(when: float | None, locale: object = None) -> str:
    if when is None:
        return ""
    return " " + tr("Time runs out {when}.", locale, when=countdown(when))


def status(state: TableState, due: Due = lambda kind, player: None,
           locale: object = None) -> str:
    """Whose decision the table is waiting for, in one line, and when their time runs out
    (`due`: the flow's timers), in `locale`'s language (the table's)."""
    return _status(state, locale) + _until(_deadline(state, due), locale)


def _deadline(state: TableState, due: Due) -> float | None:
    """When the first timer of what the table waits for runs out (None if none runs)."""
    game = state.game
    if state.ended or game is None:
        return None
    timers = ([("decision", p) for p, _ in waiting_for(state)] if waiting_for(state)
              else [("hold", p) for p in game.holds] + [("shooter", "")])
    return min((w for kind, p in timers if (w := due(kind, p)) is not None), default=None)


def _status(state: TableState, locale: object = None) -> str:
    game, seating = state.game, state.seating
    if state.ended:
        return translate("The session is over.", locale)
    if seating is None:
        return translate("Waiting for players: `/chouette join`, then `/chouette start`.", locale)
    if game is None:
        return translate("Between games: `/chouette start` for the next one.", locale)
    pending = waiting_for(state)
    if pending:
        names = ", ".join(sorted({_answering(state, p, locale) for p, _ in pending}))
        count = 1 if state.rules.single_cube else len(pending)  # FIBS: the Team's one cube
        return trn("Waiting for {players} to answer the cube.",
                   "Waiting for {players} to answer {count} cubes.", count, locale,
                   players=names, count=count)
    if game.resignations:
        names = ", ".join(shown(state, p) for p, _, _ in game.resignations)
        return tr("Waiting for the answers to the resignations on {players}'s cubes.", locale,
                  players=names)
    who = shooter(state)
    if who is None and (asked := confirmers(state)):
        names = ", ".join(shown(state, p) for p in asked)
        return tr("Waiting for {players} to confirm the result (or give another).", locale,
                  players=names)
    if who is None:
        return translate("Waiting for the result: `/chouette result`.", locale)
    if game.dice is not None:
        dice = "-".join(map(str, game.dice))
        return tr("Waiting for {player} to play {dice}.", locale, player=shown(state, who),
                  dice=dice)
    if game.holds:
        held = ", ".join(shown(state, p) for p in game.holds)
        return tr("{players} asked {player} to hold the roll: double or release.", locale,
                  players=held, player=shown(state, who))
    return tr("Waiting for {player} to roll (or a double before the roll).", locale,
              player=shown(state, who))


def _answering(state: TableState, player: str, locale: object = None) -> str:
    """Who answers for `player`, by name: the player, or their stand-in "for" them."""
    by = answerer(state, player)
    return shown(state, player) if by in (player, None) else (
        tr("{by} (for {player})", locale, by=shown(state, by), player=shown(state, player)))


_ANSWERS = (CubeState.BEAVERED, CubeState.AARDVARKED)  # turned back by the side doubled


def board_text(state: TableState, lines: list[str],
               due: Due = lambda kind, player: None, locale: object = None) -> str:
    """The board message's text: seats, cubes, the status and the latest actions, in
    `locale`'s language (the table's: everyone reads it)."""
    seating = state.seating
    out = []
    if seating is not None:
        team = ", ".join(shown(state, p) for p in seating.team)
        out.append(tr("**Box** {box} with {partner} · **Team** {team}", locale,
                      box=shown(state, seating.box), partner=shown(state, seating.partner),
                      team=team) if seating.partner else
                   tr("**Box** {box} · **Team** {team}", locale,
                      box=shown(state, seating.box), team=team))
    elif state.members:  # before the seats are drawn: who has joined
        out.append(tr("**Joined** {players}", locale, players=", ".join(
            escape(m.shown) + (f" ({m.stake}x)" if m.stake > 1 else "")
            for m in state.members)))
    if state.game is not None:
        cubes = []
        for cube in state.game.cubes:
            holder = (translate("centred", locale) if cube.owner is None
                      else tr("held by {player}", locale,
                              player=shown(state, cube.player(cube.owner))))
            if cube.offered_by is not None:  # a turn waiting for its answer
                turner = (cube.offered_by.other if cube.state in _ANSWERS
                          else cube.offered_by)
                verb = (translate("doubled", locale) if cube.state is CubeState.OFFERED
                        else translate(cube.state.value, locale))
                holder = tr("{state} by {player}, waiting", locale, state=verb,
                            player=shown(state, cube.player(turner)))
            elif not cube.live:
                holder = translate(cube.state.value, locale)
            name = shown(state, cube.team_player)
            if seating is not None and cube.box_player != seating.box:  # an extra, a Partner's
                name = tr("{team} v {box}", locale, team=name,
                          box=shown(state, cube.box_player))
            cubes.append(f"{name} {cube.face} ({holder})")
        out.append(tr("Cubes: {cubes}", locale, cubes="; ".join(cubes)))
    if state.mode == "scorekeeper":
        out.append(translate("*Scorekeeper mode: play on your own board; double with the "
                             "buttons and give each game's result with `/chouette result`.*",
                             locale))
    out.append(f"**{status(state, due, locale)}**")
    out += [f"> {line}" for line in lines[-6:]]
    return "\n".join(out)[:2000]


class Host(Protocol):
    """What the boards need of the bot."""

    @property
    def store(self) -> EventStore: ...

    @property
    def drawing(self) -> Drawing: ...

    @property
    def service(self) -> TableService: ...

    def get_channel(self, id: int, /) -> Any: ...

    @property
    def flow(self) -> Flow: ...


class Boards:
    """Every table's board message; one per bot."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self._turns = TableLocks()
        self._shown: dict[str, tuple[int, int]] = {}  # the version each board shows, and
        # the version of the action whose lines it quotes
        self._lines: dict[str, tuple[int, list[str]]] = {}  # the newest action's lines

    def forget(self, table_id: str) -> None:
        """An ended table's board: what it shows is not kept (a show after it edits the
        board once more)."""
        self._shown.pop(table_id, None)
        self._lines.pop(table_id, None)

    def note(self, table_id: str, version: int, lines: list[str]) -> tuple[int, list[str]]:
        """Keep `lines` if they are the newest action's; the newest action's version and
        lines. (Actions stored together are noted first, so that the board drawn for the
        first quotes the last, and the others need no edit of their own.)"""
        if lines and version >= self._lines.get(table_id, (-1, []))[0]:
            self._lines[table_id] = (version, lines)
        return self._lines.get(table_id, (-1, []))

    @staticmethod
    def on_board(interaction: discord.Interaction | None, channels: Channels) -> bool:
        """Whether `interaction` is a click on the board message itself."""
        return (interaction is not None and interaction.message is not None
                and interaction.message.id == channels.message_id)

    async def answer(self, interaction: discord.Interaction, channels: Channels,
                     version: int, lines: list[str]) -> None:
        """Answer a click on the board message: with the board drawn anew when no edit is
        under way, else with an acknowledgement at once, the board following in turn. A
        board not drawn by `ANSWER_WITHIN` of the click (the drawing process busy or stuck)
        is acknowledged first and shown when drawn: Discord forgets a click after 3 s."""
        table_id = channels.table_id
        if self._turns.locked(table_id):
            await interaction.response.defer()
            await self.show(channels, version, lines)
            return
        async with self._turns(table_id):  # free: taken without waiting
            loaded = await self.bot.service.current(table_id)
            noted, newest = self.note(table_id, version, lines)
            drawn = asyncio.ensure_future(self._draw(loaded.state, channels, newest))
            await asyncio.wait({drawn}, timeout=max(0.0, ANSWER_WITHIN - waited(interaction)))
            if drawn.done():
                text, files, view = drawn.result()
                await interaction.response.edit_message(content=text, attachments=files,
                                                        view=view)
            else:
                await interaction.response.defer()
                text, files, view = await drawn
                await interaction.edit_original_response(content=text, attachments=files,
                                                         view=view)
            self._shown[table_id] = (loaded.version, noted)

    async def show(self, channels: Channels, version: int, lines: list[str]) -> None:
        """Make the board message show the table at `version` or later, with this
        action's `lines` or a later action's (returns at once when it does already)."""
        table_id = channels.table_id
        self.note(table_id, version, lines)
        async with self._turns(table_id):
            drawn, quoted = self._shown.get(table_id, (-1, -1))
            if drawn >= version and (quoted >= version or not lines):
                return
            loaded = await self.bot.service.current(table_id)
            latest = await self.bot.store.channels.find(table_id=table_id)  # the message posted
            noted, newest = self._lines.get(table_id, (-1, []))
            await self._edit(loaded.state, latest or channels, newest)
            self._shown[table_id] = (loaded.version, noted)

    async def _edit(self, state: TableState, channels: Channels, lines: list[str]) -> None:
        channel = self.bot.get_channel(channels.board_id)
        if not isinstance(channel, discord.TextChannel):
            return
        text, files, view = await self._draw(state, channels, lines)
        if channels.message_id is not None:
            try:
                await channel.get_partial_message(channels.message_id).edit(
                    content=text, attachments=files, view=view)
                return
            except discord.NotFound:
                pass
        posted = await channel.send(text, files=files, view=view)
        await self.bot.store.channels.save(replace(channels, message_id=posted.id))

    async def _draw(self, state: TableState, channels: Channels, lines: list[str]
                    ) -> tuple[str, list[discord.File], discord.ui.View]:
        locale = self.locale(state, channels)
        image = await self.bot.drawing.board(state, locale)
        files = [discord.File(io.BytesIO(image), "board.png")] if image else []
        timers = self.bot.flow.timers

        def due(kind: str, player: str) -> float | None:
            return timers.due(Timer(kind, channels.table_id, player))

        text = linked(board_text(state, lines, due, locale), await command_ids(self.bot.store))
        return text, files, board_view(channels.table_id, state, locale)

    def locale(self, state: TableState, channels: Channels | None) -> str:
        """What the table reads in, its board, buttons, record and DM questions (the one
        place this is asked: `i18n.table_language`): its language, else its server's
        preferred locale, the server of its #board (a table's server never changes; a click
        in a DM has none), else English (no channels: no server to ask)."""
        board = self.bot.get_channel(channels.board_id) if channels is not None else None
        server = board.guild.preferred_locale if isinstance(board, discord.TextChannel) else None
        return table_language(state.language, server)

