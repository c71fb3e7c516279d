"""Where everything goes on the board image, for any width (all in pixels)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.render.theme import scale

STACK = 5  # checkers drawn on a point before the rest are shown as a number


@dataclass(frozen=True)
class Layout:
    """Where everything goes in an image `width` pixels wide (all in pixels)."""

    width: int
    s: float
    pad: int
    legend_h: int
    frame_side: int
    frame_tb: int
    bar_w: int
    tray_w: int
    point_w: float
    checker: int
    gap: int

    @classmethod
    def of(cls, width: int) -> Layout:
        """The layout for `width`."""
        s = scale(width)
        pad, fs, bar_w, tray_w = round(10 * s), round(12 * s), round(50 * s), round(58 * s)
        point_w = (width - 2 * pad - 3 * fs - bar_w - tray_w) / 12
        return cls(width, s, pad, round(50 * s), fs, round(30 * s), bar_w, tray_w, point_w,
                   int(point_w) - 2, round(58 * s))

    @property
    def board_top(self) -> int:
        """The top of the board's frame."""
        return self.pad + self.legend_h

    @property
    def felt_left(self) -> int:
        """The left edge of the playing area."""
        return self.pad + self.frame_side

    @property
    def felt_top(self) -> int:
        """The top edge of the playing area."""
        return self.board_top + self.frame_tb

    @property
    def felt_h(self) -> int:
        """The height of the playing area."""
        return 2 * STACK * self.checker + self.gap

    @property
    def board_h(self) -> int:
        """The height of the board with its frame."""
        return self.felt_h + 2 * self.frame_tb

    @property
    def status_y(self) -> int:
        """The top of the status line, under the bottom legend."""
        return self.board_top + self.board_h + self.legend_h

    @property
    def strip_top(self) -> int:
        """The top of the cube strip, under the status line and the Position ID."""
        return self.status_y + round(76 * self.s)

    @property
    def bar_x(self) -> float:
        """The left edge of the bar."""
        return self.felt_left + 6 * self.point_w

    @property
    def tray_x(self) -> int:
        """The left edge of the borne-off trays."""
        return round(self.bar_x + self.bar_w + 6 * self.point_w + self.frame_side)

    def column_x(self, column: int) -> float:
        """The left edge of point column 0-11, left to right."""
        return self.felt_left + column * self.point_w + (self.bar_w if column >= 6 else 0)

    def point_at(self, point: int) -> tuple[float, bool]:
        """(left edge, on the top row) of `point` 1-24 in the bottom side's numbering."""
        if point <= 12:
            return self.column_x(12 - point), False
        return self.column_x(point - 13), True

    def checker_xy(self, point: int, k: int) -> tuple[int, int]:
        """Top-left of the `k`-th (0-based) checker on `point`, bottom side's numbering."""
        x, top = self.point_at(point)
        left = round(x + (self.point_w - self.checker) / 2)
        if top:
            return left, self.felt_top + k * self.checker
        return left, self.felt_top + self.felt_h - (k + 1) * self.checker

    def bar_xy(self, bottom_side: bool, k: int) -> tuple[int, int]:
        """Top-left of the `k`-th checker on the bar; the bottom side's wait in the top half."""
        left = round(self.bar_x + (self.bar_w - self.checker) / 2)
        middle = self.felt_top + self.felt_h // 2
        if bottom_side:
            return left, middle - self.gap // 2 - (k + 1) * self.checker
        return left, middle + self.gap // 2 + k * self.checker
