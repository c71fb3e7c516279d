"""Pillow images of a table: the board with its cube strip, and the score sheet.

Pure functions from state to PNG bytes; no Discord, no I/O. Render off the event loop
(`asyncio.to_thread`): a board takes some 20 ms. Text is drawn with the fonts shipped in
`assets/fonts` (`bot.render.text`), so any display name is drawn right.
"""

from bot.render.board import render_board, render_table
from bot.render.cubes import Roles
from bot.render.lastplay import LastPlay, last_play
from bot.render.sheet import render_sheet
from bot.render.theme import DEFAULT, Theme

__all__ = ["DEFAULT", "LastPlay", "Roles", "Theme", "last_play", "render_board", "render_sheet",
           "render_table"]
