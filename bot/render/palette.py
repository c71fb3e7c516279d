"""The board's palette: its 256 colours are those of the sample board (the mid-game with the
full cube strip and the last play marked: every part a board has, both sides' checkers and
dice, every cube state, the rings), drawn in the theme. Every band of every board is mapped
to them, undithered, so a board's bands share one palette and its PNG one PLTE chunk.
The sample board is also the bench's case and a reference image (`bot.render.reference`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from PIL import Image

from bot.render.bands import board_rgb
from bot.render.picture import Picture, picture
from bot.render.samples import LAST, ROLES, full_strip, midgame
from bot.render.theme import DEFAULT, Theme
from rules.cube import Side


def sample_picture(width: int = 800, shown: Callable[[str], str] = str,
                   theme: Theme = DEFAULT) -> Picture:
    """What `bot.render.board.sample_board` draws, in `theme` (its colours are the board's
    palette)."""
    return picture(midgame(), on_roll=Side.BOX, dice=(5, 3), cubes=full_strip(), roles=ROLES,
                   last=LAST, width=width, shown=shown, theme=theme,
                   status=f"Waiting for {shown('Fay')}: take or drop {shown('Bo')}'s double to 2")


@lru_cache(maxsize=4)
def board_palette(theme: Theme) -> Image.Image:
    """The board's 256 colours: those of the sample board, which has every part a board has
    (both sides' checkers and dice, every cube state, the last play), drawn in `theme`."""
    return board_rgb(sample_picture(theme=theme)).quantize(256, method=Image.Quantize.FASTOCTREE)


def mapped(img: Image.Image, theme: Theme) -> Image.Image:
    """`img` in the palette's colours: each pixel the nearest, undithered."""
    return img.quantize(palette=board_palette(theme), dither=Image.Dither.NONE)
