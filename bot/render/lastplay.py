"""The last checker play, as the board marks it: the points it left and the points it reached.

The rules keep the game as it was before its last checker play (`Game.before`, for an undo);
the play is the difference between that position and the one now, read from the mover's view.
A checker that came from the bar has left point 25; one borne off has reached point 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render.layout import STACK, Layout
from bot.render.text import draw_text
from bot.render.theme import Theme
from rules.board import Position
from rules.cube import Side
from rules.state import Game

BAR, OFF = 25, 0


@dataclass(frozen=True)
class LastPlay:
    """Who played last and which points his checkers left and reached, in his numbering
    (1-24, 25 the bar, 0 off)."""

    side: Side
    left: tuple[int, ...]
    reached: tuple[int, ...]

    @classmethod
    def between(cls, side: Side, before: Position, after: Position) -> LastPlay | None:
        """The play of `side` from `before` to `after` (both from `side`'s view); None when
        his checkers did not move."""
        left, reached = [], []
        for index in range(25):
            point = BAR if index == 24 else index + 1
            change = after.player[index] - before.player[index]
            if change < 0:
                left.append(point)
            elif change > 0:
                reached.append(point)
        off = after.off[0] - before.off[0]
        if off > 0:
            reached.append(OFF)
        if not left and not reached:
            return None
        return cls(side, tuple(left), tuple(reached))


def last_play(game: Game | None) -> LastPlay | None:
    """The last checker play of `game`, or None before its first one."""
    if game is None or game.position is None or game.on_roll is None:
        return None
    before = game.before
    if before is None or before.position is None or before.on_roll is None:
        return None
    mover = before.on_roll
    now = game.position if game.on_roll is mover else game.position.swap()
    return LastPlay.between(mover, before.position, now)


def draw_rings(draw: ImageDraw.ImageDraw, lay: Layout, view: Position, bottom: Side,
               last: LastPlay, ink: int | tuple[int, int, int]) -> None:
    """Ring in `ink` (the highlight, or its index in a palette image) where each checker of
    the last play stood (when the point has room to show it) and around each one that
    arrived (the tray's half for one borne off). `view` is the bottom side's view of the
    board now. Plain outlines, so that they are drawn the same on a palette image."""
    is_bottom = last.side is bottom
    counts = view.player if is_bottom else view.opponent
    ring = max(3, round(5 * lay.s))
    grow = round(2 * lay.s)
    for point, arrived in [*((p, False) for p in last.left), *((p, True) for p in last.reached)]:
        if point == OFF:
            x0, x1 = lay.tray_x + round(2 * lay.s), lay.tray_x + lay.tray_w - round(2 * lay.s)
            mid = lay.felt_top + lay.felt_h // 2
            y0, y1 = (mid, lay.felt_top + lay.felt_h) if is_bottom else (lay.felt_top, mid)
            draw.rectangle((x0, y0, x1, y1), outline=ink, width=ring)
            continue
        n = counts[24 if point == BAR else point - 1]
        # the checker that arrived, or the free place where one stood (none on a full point:
        # the yellow number says it)
        k = min(n - 1, STACK - 1) if arrived else n if n < STACK else -1
        if k >= 0:
            own = point if is_bottom else 25 - point
            x, y = lay.bar_xy(is_bottom, k) if point == BAR else lay.checker_xy(own, k)
            box = (x - grow, y - grow, x + lay.checker + grow, y + lay.checker + grow)
            draw.ellipse(box, outline=ink, width=ring if arrived else ring - 1)


def labels(last: LastPlay, bottom: Side, numbers_from_bottom: bool = True) -> list[Label]:
    """The yellow label on the number of each point the last play left or reached (not the
    bar, not off); the numbers are the bottom side's when `numbers_from_bottom`."""
    found = []
    for point in (*last.left, *last.reached):
        if point not in (BAR, OFF):
            own = point if last.side is bottom else 25 - point
            found.append(Label(own, own if numbers_from_bottom else 25 - own))
    return found


@dataclass(frozen=True)
class Label:
    """Point `point`'s (bottom numbering) number `number`, dark on a yellow label in the
    frame."""

    point: int
    number: int

    def _centre(self, lay: Layout) -> tuple[float, float, float, float]:
        """The label's centre, half width and half height."""
        x, top = lay.point_at(self.point)
        ft = lay.frame_tb
        cy = lay.board_top + (ft / 2 if top else lay.board_h - ft / 2)
        return x + lay.point_w / 2, cy, lay.point_w / 2 - 3 * lay.s, ft / 2 - 3 * lay.s

    def box(self, lay: Layout) -> tuple[int, int, int, int]:
        """Every pixel the label covers."""
        cx, cy, half_w, half_h = self._centre(lay)
        return (math.floor(cx - half_w), math.floor(cy - half_h), math.ceil(cx + half_w) + 1,
                math.ceil(cy + half_h) + 1)

    def draw(self, img: Image.Image, lay: Layout, theme: Theme) -> None:
        """The label, and the number on it."""
        draw = ImageDraw.Draw(img)
        cx, cy, half_w, half_h = self._centre(lay)
        draw.rounded_rectangle((cx - half_w, cy - half_h, cx + half_w, cy + half_h),
                               radius=round(5 * lay.s), fill=theme.highlight)
        draw_text(draw, (cx, cy), str(self.number), round(22 * lay.s), theme.cube_ink,
                  anchor="mm", bold=True)
