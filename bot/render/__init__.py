"""Pillow images of a table: the board with its cube strip, and the score sheet.

Pure functions from state to PNG bytes; no Discord, no I/O. Render off the event loop
(`asyncio.to_thread`): a board takes a few ms, as the bands a board shares with the one before
it are kept (`bot.render.board`); `table_picture(state)` says cheaply what a table's board
shows (equal pictures, equal images) and `board_png` draws it. Text is drawn with the fonts
shipped in `assets/fonts` (`bot.render.text`), so any display name is drawn right.
"""

from bot.render.board import board_png, render_board, render_table
from bot.render.cubes import Roles
from bot.render.lastplay import LastPlay, last_play
from bot.render.picture import Picture, picture, table_picture
from bot.render.sheet import render_sheet
from bot.render.theme import DEFAULT, Theme

__all__ = ["DEFAULT", "LastPlay", "Picture", "Roles", "Theme", "board_png", "last_play", "picture",
           "render_board", "render_sheet", "render_table", "table_picture"]
