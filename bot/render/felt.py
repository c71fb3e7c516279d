"""The board between the legends (frame, felt, bar, trays) and the pieces that stand on it.

The static board (frame, felt, points, numbers, bar, trays) is drawn once per width, theme and
numbering. What stands on it comes in pieces, each in a box that no other piece's box
overlaps: the checkers on a point or one side's on the bar (the places of five checkers), one
side's checkers borne off (half the tray), a die (in the gap between the
halves), and the last play's yellow label on a point's number (`bot.render.lastplay`). A piece
is drawn on the static board where it stands in the picture, so what it looks like depends
only on what it is and that board: `bot.render.board` draws each once, cut out with the board
under it and mapped to the palette, and pastes it wherever it comes back.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.lastplay import BAR, Label, LastPlay, draw_rings, labels
from bot.render.layout import STACK, Layout
from bot.render.text import draw_text
from bot.render.theme import Theme, checker_sprite, die_sprite
from rules.board import CHECKERS, Position
from rules.cube import Side

Box = tuple[int, int, int, int]
_SUPER = 3


@dataclass(frozen=True)
class Felt:
    """What stands on the board: the checkers (`view`: the bottom side's view), the dice of
    the side on roll, the last play marked. The numbers are the side on roll's."""

    view: Position
    bottom: Side
    on_roll: Side
    dice: tuple[int, int] | None
    last: LastPlay | None

    @property
    def numbers_from_bottom(self) -> bool:
        """Whether the points are numbered from the bottom side's view."""
        return self.on_roll is self.bottom


@dataclass(frozen=True)
class Stack:
    """`count` checkers of `side` on `point` (1-24 in the bottom side's numbering, or BAR);
    `bottom`: the bottom side's (whose checkers on the bar wait in the top half)."""

    side: Side
    point: int
    bottom: bool
    count: int

    def box(self, lay: Layout) -> Box:
        """The five places of checkers on the point (or the bar's half), whatever the count."""
        places = [self._place(lay, k) for k in (0, STACK - 1)]
        (x, y0), y1 = min(places), max(y for _, y in places) + lay.checker
        return x, y0, x + lay.checker, y1

    def _place(self, lay: Layout, k: int) -> tuple[int, int]:
        return lay.bar_xy(self.bottom, k) if self.point == BAR else lay.checker_xy(self.point, k)

    def draw(self, img: Image.Image, lay: Layout, theme: Theme) -> None:
        """Up to five checkers, the last with the count on it when there are more."""
        sprite = checker_sprite(self.side, lay.checker, theme)
        xy = (0, 0)
        for k in range(min(self.count, STACK)):
            xy = self._place(lay, k)
            img.paste(sprite, xy, sprite)
        if self.count > STACK:
            centre = (xy[0] + lay.checker / 2, xy[1] + lay.checker / 2)
            draw_text(ImageDraw.Draw(img), centre, str(self.count), round(lay.checker * 0.55),
                      theme.ink(self.side), anchor="mm", bold=True)


@dataclass(frozen=True)
class Tray:
    """`count` checkers of `side` borne off, a slab each; `bottom`: the bottom side's, in the
    lower half of the tray."""

    side: Side
    bottom: bool
    count: int

    def box(self, lay: Layout) -> Box:
        """The tray's half."""
        middle = lay.felt_top + lay.felt_h // 2
        y0, y1 = (middle, lay.felt_top + lay.felt_h) if self.bottom else (lay.felt_top, middle)
        return lay.tray_x, y0, lay.tray_x + lay.tray_w, y1

    def draw(self, img: Image.Image, lay: Layout, theme: Theme) -> None:
        """The slabs, stacked from the frame."""
        s, draw = lay.s, ImageDraw.Draw(img)
        slab, step = round(11 * s), round(13 * s)
        x0 = lay.tray_x + round(6 * s)
        x1 = lay.tray_x + lay.tray_w - round(6 * s)
        for k in range(self.count):
            if self.bottom:
                y = lay.felt_top + lay.felt_h - round(4 * s) - (k + 1) * step
            else:
                y = lay.felt_top + round(4 * s) + k * step
            draw.rounded_rectangle((x0, y, x1, y + slab), radius=round(3 * s),
                                   fill=theme.checker(self.side), outline=theme.rim(self.side),
                                   width=max(1, round(2 * s)))


@dataclass(frozen=True)
class Die:
    """A die showing `value` in the colours of `side`, `size` pixels square at `xy`."""

    value: int
    side: Side
    xy: tuple[int, int]
    size: int

    def box(self, lay: Layout) -> Box:
        """The die's square."""
        x, y = self.xy
        return x, y, x + self.size, y + self.size

    def draw(self, img: Image.Image, lay: Layout, theme: Theme) -> None:
        """The die."""
        sprite = die_sprite(self.value, self.side, self.size, theme)
        img.paste(sprite, self.xy, sprite)


Piece = Stack | Tray | Die | Label


def pieces(lay: Layout, felt: Felt) -> list[Piece]:
    """What stands on the board, but the last play's rings (outlines drawn over the pieces)."""
    found: list[Piece] = []
    view, bottom = felt.view, felt.bottom
    for side, counts, is_bottom in ((bottom, view.player, True),
                                    (bottom.other, view.opponent, False)):
        for index, n in enumerate(counts):
            if n:
                point = BAR if index == 24 else index + 1 if is_bottom else 24 - index
                found.append(Stack(side, point, is_bottom, n))
        off = CHECKERS - sum(counts)
        if off:
            found.append(Tray(side, is_bottom, off))
    if felt.last is not None:
        found += labels(felt.last, bottom, felt.numbers_from_bottom)
    if felt.dice is not None:
        size, between = round(46 * lay.s), round(12 * lay.s)
        x = round(_dice_centre(lay, felt.numbers_from_bottom) - size - between / 2)
        y = lay.felt_top + (lay.felt_h - size) // 2
        for k, value in enumerate(felt.dice):
            found.append(Die(value, felt.on_roll, (x + k * (size + between), y), size))
    return found


def felt_rgb(lay: Layout, theme: Theme, felt: Felt) -> Image.Image:
    """The board with everything on it, in full colour (`board_h` high)."""
    img = canvas(lay, theme, felt.numbers_from_bottom)
    for piece in pieces(lay, felt):
        piece.draw(img, lay, theme)
    if felt.last is not None:
        draw_rings(ImageDraw.Draw(img), lay, felt.view, felt.bottom, felt.last, theme.highlight)
    return img.crop((0, lay.board_top, lay.width, img.height))


def canvas(lay: Layout, theme: Theme, numbers_from_bottom: bool) -> Image.Image:
    """A new image from the picture's top to the board's bottom, the static board in its
    place: pieces are drawn on it where they are in the picture (the same pixels at any
    width, as drawing rounds half to even)."""
    img = Image.new("RGB", (lay.width, lay.board_top + lay.board_h))
    img.paste(static_board(lay.width, theme, numbers_from_bottom), (0, lay.board_top))
    return img


def _dice_centre(lay: Layout, dice_on_right: bool) -> float:
    return lay.column_x(6 if dice_on_right else 0) + 3 * lay.point_w


def dice_boxes(dice_on_right: bool, width: int = 800) -> list[tuple[int, int]]:
    """The centres of the two dice (for tests that sample their colour)."""
    lay = Layout.of(width)
    size, between = round(46 * lay.s), round(12 * lay.s)
    y = lay.felt_top + lay.felt_h // 2
    left = round(_dice_centre(lay, dice_on_right) - size - between / 2)
    return [(left + size // 2, y), (left + size + between + size // 2, y)]


@lru_cache(maxsize=8)
def static_board(width: int, theme: Theme, numbers_from_bottom: bool) -> Image.Image:
    """Frame, felt, points, bar, trays and numbers: drawn once, three times larger, scaled."""
    lay = Layout.of(width)
    k = _SUPER
    h = lay.board_h
    big = Image.new("RGB", (width * k, h * k), theme.background)
    draw = ImageDraw.Draw(big)
    x0, x1 = lay.pad, width - lay.pad
    ft = lay.frame_tb
    draw.rounded_rectangle((x0 * k, 0, x1 * k, h * k - 1), radius=10 * k, fill=theme.frame,
                           outline=theme.frame_edge, width=2 * k)
    felt_right = lay.bar_x + lay.bar_w + 6 * lay.point_w
    draw.rectangle((lay.felt_left * k, ft * k, felt_right * k, (ft + lay.felt_h) * k),
                   fill=theme.felt)
    draw.rectangle((lay.tray_x * k, ft * k, (lay.tray_x + lay.tray_w) * k,
                    (ft + lay.felt_h) * k), fill=theme.tray)
    draw.rectangle((lay.bar_x * k, (ft - 2) * k, (lay.bar_x + lay.bar_w) * k,
                    (ft + lay.felt_h + 2) * k), fill=theme.bar)
    tip = STACK * lay.checker * 0.92
    for point in range(1, 25):
        x, top = lay.point_at(point)
        colour = theme.point_dark if point % 2 else theme.point_light
        base = ft if top else ft + lay.felt_h
        end = base + tip if top else base - tip
        draw.polygon([((x + 1) * k, base * k), ((x + lay.point_w - 1) * k, base * k),
                      ((x + lay.point_w / 2) * k, end * k)], fill=colour)
    tray_mid = ft + lay.felt_h / 2
    draw.line((lay.tray_x * k, tray_mid * k, (lay.tray_x + lay.tray_w) * k, tray_mid * k),
              fill=theme.frame, width=3 * k)
    img = big.resize((width, h), Image.Resampling.LANCZOS)
    draw = ImageDraw.Draw(img)
    size = round(22 * lay.s)
    for point in range(1, 25):
        x, top = lay.point_at(point)
        label = point if numbers_from_bottom else 25 - point
        y = ft / 2 if top else h - ft / 2
        draw_text(draw, (x + lay.point_w / 2, y), str(label), size, theme.number, anchor="mm",
                  bold=True)
    return img
