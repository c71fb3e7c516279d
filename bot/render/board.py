"""The board image: a pure function from a position (and the chouette around it) to PNG bytes.

Viewpoint. Each table is drawn from one fixed viewpoint: the Team's checkers (ivory) at the
bottom, moving counter-clockwise to their home board at the lower right, the Box's (black) at
the top; `bottom=Side.BOX` turns it round. The point numbers are from the view of the side on
roll, as gnubg numbers them, so the shooter reads his play straight off the board. The dice lie
in the right half when the bottom side is on roll and in the left half otherwise, and the legend
row of the side on roll is outlined, and the last checker play is marked: a yellow ring where
each moved checker stood and around each one where it arrived (`bot.render.lastplay`).

Cost. `picture` resolves everything a board shows (names, status) into a hashable `Picture`
(`bot.render.picture`); `board_png` draws it in seven bands, top to bottom: the upper legend,
the board in three (its upper half, the gap where the dice lie, its lower half), the lower
legend, the status line with the Position ID, and the cube strip (`bot.render.bands`,
`bot.render.cubes`). Each band is mapped to the theme's fixed palette (`bot.render.palette`)
and compressed once and kept by what it shows (the board's halves by what they show without
the dice), so an action compresses only the bands it changed (`bot.render.png`): a roll the gap
and the status line, a play the board and the legends, a cube the strip and the status line.
The board is pasted from pieces drawn once (`bot.render.felt`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.render import png, text
from bot.render.bands import cube_strip, lower_legend, status_line, upper_legend
from bot.render.cubes import Roles
from bot.render.felt import Felt, Piece, canvas, pieces, static_board
from bot.render.lastplay import LastPlay, draw_rings
from bot.render.layout import STACK, Layout
from bot.render.palette import board_palette, mapped, sample_picture
from bot.render.picture import DEFAULT_WIDTH, Picture, picture, table_picture
from bot.render.theme import DEFAULT, Shown, Theme, checker_sprite, die_sprite, same
from bot.render.words import Words, english
from rules.board import Position
from rules.cube import Cube, Side
from rules.state import TableState


def render_board(
    position: Position,
    *,
    on_roll: Side = Side.TEAM,
    dice: tuple[int, int] | None = None,
    cubes: Sequence[Cube] = (),
    roles: Roles | None = None,
    names: Mapping[Side, str] | None = None,
    status: str | None = None,
    bottom: Side = Side.TEAM,
    width: int = DEFAULT_WIDTH,
    theme: Theme = DEFAULT,
    shown: Shown = same,
    last: LastPlay | None = None,
    words: Words = english,
) -> bytes:
    """The board as PNG bytes.

    `position` is from the view of `on_roll`, as `Game.position` is. `names` overrides the
    legend labels (by default "Box (name)" and "Team (Captain name)" from `roles`, or just
    "Box" and "Team"); `status` the line under the board (by default who is to roll or play).
    `roles` and the cubes name players by key; every name drawn for them is `shown(key)`
    (by default the key itself). `names` and `status` are drawn as given. `last` marks the
    last checker play on the board. Every other word is `words(english)` (the table's
    language; by default English).
    """
    return board_png(picture(position, on_roll=on_roll, dice=dice, cubes=cubes, roles=roles,
                             names=names, status=status, bottom=bottom, width=width,
                             theme=theme, shown=shown, last=last, words=words))


def render_table(state: TableState, *, width: int = DEFAULT_WIDTH,
                 theme: Theme = DEFAULT, words: Words = english) -> bytes:
    """The board of a table as PNG bytes: the game in progress, or else the last board.
    Players are drawn by `state.shown` (their display names), not by their keys; the
    words by `words` (the table's language, English by default).

    Raises ValueError when the table has no board to show (nothing played yet, or a
    scorekeeper table).
    """
    return board_png(table_picture(state, width=width, theme=theme, words=words))


def sample_board(width: int = 800, shown: Callable[[str], str] = str) -> bytes:
    """The mid-game board with the full cube strip and the last play marked (the bench's
    case); players drawn as `shown` names them."""
    return board_png(sample_picture(width, shown))


def board_png(pic: Picture) -> bytes:
    """`pic` as PNG bytes, each band drawn and compressed once (while it is kept)."""
    lay, width, theme = Layout.of(pic.width), pic.width, pic.theme
    gap = lay.frame_tb + STACK * lay.checker  # between the board's halves: the dice lie there
    undiced = replace(pic.felt, dice=None)  # what the halves show
    bands = [_band(upper_legend, width, theme, pic.top),
             _felt_band(width, theme, undiced, 0, gap),
             _felt_band(width, theme, pic.felt, gap, gap + lay.gap),
             _felt_band(width, theme, undiced, gap + lay.gap, lay.board_h),
             _band(lower_legend, width, theme, pic.bottom),
             _band(status_line, width, theme, pic.status),
             _band(cube_strip, width, theme, pic.strip)]
    return png.write(width, board_palette(theme), bands)


def forget(*, drawings: bool = True) -> None:
    """Forget the bands kept, so that each board is drawn anew; with `drawings`, the pieces,
    static boards, sprites, texts and palettes too, as in a new process."""
    for kept in (_band, _felt_band, _felt):
        kept.cache_clear()
    if drawings:
        for cached in (_piece, _canvas, _highlight, board_palette, static_board, checker_sprite,
                       die_sprite):
            cached.cache_clear()
        text.forget()


Drawing = Callable[[Layout, Theme, Any], Image.Image]


@lru_cache(maxsize=2048)
def _band(draw: Drawing, width: int, theme: Theme, what: object) -> png.Band:
    """The band `draw` draws of `what`, mapped to the palette and compressed."""
    return png.band(mapped(draw(Layout.of(width), theme, what), theme))


@lru_cache(maxsize=1024)
def _felt_band(width: int, theme: Theme, felt: Felt, top: int, bottom: int) -> png.Band:
    """Rows `top` to `bottom` of the board (from its top) with `felt` on it, compressed."""
    return png.band(_felt(width, theme, felt).crop((0, top, width, bottom)))


@lru_cache(maxsize=16)
def _felt(width: int, theme: Theme, felt: Felt) -> Image.Image:
    """`felt_rgb` mapped to the palette, made of pieces mapped once: the same pixels."""
    lay, numbers = Layout.of(width), felt.numbers_from_bottom
    img = _canvas(width, theme, numbers).copy()
    for piece in pieces(lay, felt):
        img.paste(*_piece(width, theme, numbers, piece))
    if felt.last is not None:
        draw_rings(ImageDraw.Draw(img), lay, felt.view, felt.bottom, felt.last,
                   _highlight(theme))
    return img.crop((0, lay.board_top, width, img.height))


@lru_cache(maxsize=2048)
def _piece(width: int, theme: Theme, numbers_from_bottom: bool,
           piece: Piece) -> tuple[Image.Image, tuple[int, int]]:
    """`piece` drawn on the static board, cut out and mapped, and where it goes."""
    lay = Layout.of(width)
    img = canvas(lay, theme, numbers_from_bottom)
    piece.draw(img, lay, theme)
    box = piece.box(lay)
    return mapped(img.crop(box), theme), box[:2]


@lru_cache(maxsize=8)
def _canvas(width: int, theme: Theme, numbers_from_bottom: bool) -> Image.Image:
    return mapped(canvas(Layout.of(width), theme, numbers_from_bottom), theme)


@lru_cache(maxsize=4)
def _highlight(theme: Theme) -> int:
    """The palette index the highlight is mapped to."""
    index = mapped(Image.new("RGB", (1, 1), theme.highlight), theme).getpixel((0, 0))
    assert isinstance(index, int)
    return index
