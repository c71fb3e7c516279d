"""The look of the images: colours, fonts and the sprites (checkers, dice) drawn once.

Everything is sized for an image `width` pixels wide and scaled from a reference width of
800 (`Theme.scale`); Discord shows it about 400 pixels wide on a phone, so no text is drawn
smaller than 20 pixels at 800. The text and its fonts are `bot.render.text`. Sprites are drawn
four times larger and scaled down, which gives round checkers smooth edges.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from rules.cube import Side

RGB = tuple[int, int, int]
Shown = Callable[[str], str]  # a player's key -> the name drawn for him
REFERENCE_WIDTH = 800
_SUPER = 4


@dataclass(frozen=True)
class Theme:
    """Colours of the board and the cube strip; hashable, so it can key the caches."""

    background: RGB = (43, 33, 26)
    frame: RGB = (92, 58, 33)
    frame_edge: RGB = (58, 36, 20)
    felt: RGB = (38, 92, 66)
    point_light: RGB = (222, 202, 158)
    point_dark: RGB = (160, 62, 44)
    bar: RGB = (78, 48, 27)
    tray: RGB = (150, 116, 78)  # light wood: both sides' borne-off checkers stand out
    number: RGB = (246, 236, 214)
    text: RGB = (246, 238, 222)
    muted: RGB = (196, 180, 158)
    team: RGB = (246, 242, 232)  # the Team's checkers: ivory
    team_rim: RGB = (150, 138, 118)
    team_ink: RGB = (30, 30, 30)
    box: RGB = (34, 34, 38)  # the Box's checkers: black
    box_rim: RGB = (150, 150, 160)
    box_ink: RGB = (250, 250, 250)
    highlight: RGB = (255, 196, 46)  # the side on roll, and the last play's points
    card: RGB = (240, 233, 218)
    card_ink: RGB = (36, 30, 26)
    card_muted: RGB = (112, 100, 88)
    cube: RGB = (252, 252, 248)
    cube_ink: RGB = (20, 20, 20)
    centred: RGB = (128, 124, 118)
    in_game: RGB = (36, 140, 64)
    pending: RGB = (230, 140, 0)
    dropped: RGB = (196, 40, 40)
    over: RGB = (150, 140, 128)  # a cube out of the game: dropped (won) or settled
    gain: RGB = (30, 120, 54)  # a plus on the sheet
    loss: RGB = (186, 36, 36)  # a minus on the sheet
    paper: RGB = (250, 247, 240)
    grid: RGB = (206, 198, 184)
    circle: RGB = (196, 40, 40)

    def checker(self, side: Side) -> RGB:
        """The fill colour of `side`'s checkers."""
        return self.team if side is Side.TEAM else self.box

    def rim(self, side: Side) -> RGB:
        """The rim colour of `side`'s checkers."""
        return self.team_rim if side is Side.TEAM else self.box_rim

    def ink(self, side: Side) -> RGB:
        """Text drawn on `side`'s checkers and dice (a count, the pips)."""
        return self.team_ink if side is Side.TEAM else self.box_ink


DEFAULT = Theme()


def same(key: str) -> str:
    """The default `shown`: draw a player's key as his name."""
    return key


def scale(width: int) -> float:
    """How much larger than the 800-pixel reference an image `width` wide is drawn."""
    return width / REFERENCE_WIDTH


@lru_cache(maxsize=32)
def checker_sprite(side: Side, diameter: int, theme: Theme) -> Image.Image:
    """One checker of `side`, `diameter` pixels across, with an alpha edge."""
    big = diameter * _SUPER
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    rim, fill = theme.rim(side), theme.checker(side)
    draw.ellipse((0, 0, big - 1, big - 1), fill=(*rim, 255))
    edge = max(big // 14, _SUPER)
    draw.ellipse((edge, edge, big - 1 - edge, big - 1 - edge), fill=(*fill, 255))
    inner = big // 5
    draw.ellipse((inner, inner, big - 1 - inner, big - 1 - inner), outline=(*rim, 255),
                 width=max(big // 40, 2))
    return img.resize((diameter, diameter), Image.Resampling.LANCZOS)


_PIPS = {
    1: ((1, 1),), 2: ((0, 0), (2, 2)), 3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)), 5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}


@lru_cache(maxsize=32)
def die_sprite(value: int, side: Side, size: int, theme: Theme) -> Image.Image:
    """One die showing `value`, in the colours of `side`'s checkers, `size` pixels square."""
    big = size * _SUPER
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=big // 6, fill=(*theme.rim(side), 255))
    edge = max(big // 22, _SUPER)
    draw.rounded_rectangle((edge, edge, big - 1 - edge, big - 1 - edge), radius=big // 7,
                           fill=(*theme.checker(side), 255))
    r = big // 11
    for col, row in _PIPS[value]:
        cx = big * (0.26 + 0.24 * col)
        cy = big * (0.26 + 0.24 * row)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(*theme.ink(side), 255))
    return img.resize((size, size), Image.Resampling.LANCZOS)


def encode(img: Image.Image) -> bytes:
    """`img` as PNG bytes, reduced to a 256-colour palette: flat colours and text survive
    unchanged to the eye, and the file is about a quarter of the RGB one, made faster."""
    buf = io.BytesIO()
    img.quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(buf, "PNG")
    return buf.getvalue()
