"""A player's error rate over his last sessions as a small chart (`/chouette stats`).

Pure: the data in, PNG bytes out, drawn in the drawing's process like the sheet. One point a
session, oldest on the left, numbered as the command's list numbers them; the rate is in
mEMG with gnubg's sign (a loss is negative), so 0, a perfect session, is the top of the chart
and higher is better. Thin lines mark gnubg's rating words where the chart reaches them
(`bands`: a rate and the word of the rates above it), so a point reads as a rating at a
glance. Sized to be read on a phone: 800 pixels wide, no text under 20 pixels. Every word is
`words(english)` (the reader's language); the name is drawn with the shipped fonts.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render.text import draw_text, fit, length, wrap
from bot.render.theme import DEFAULT, Theme, encode, scale
from bot.render.words import Words, english

WIDTH, HEIGHT = 800, 480
Point = tuple[str, float]  # a session's label ("1", "2", ...) and its rate (mEMG, <= 0)
Band = tuple[float, str]  # a rate (mEMG, < 0) and the rating word of the rates above it
STEPS = (1, 2, 5)  # the grid's steps: 1, 2, 5, 10, 20, 50, ...
NOTE = english("Overall error rate per session in mEMG, as gnubg writes it: 0 is perfect, "
               "higher is better.")


@dataclass(frozen=True)
class Frame:
    """Where the plot is drawn (pixels) and the rates it spans: 0 at `top`, `low` at
    `bottom`; `count` points spaced evenly."""

    left: float
    top: float
    right: float
    bottom: float
    low: float
    count: int
    margin: float = 0.0  # right of the plot: the rating words

    def x(self, index: int) -> float:
        return self.left + (index + 0.5) * (self.right - self.left) / max(self.count, 1)

    def y(self, rate: float) -> float:
        return self.top + (self.bottom - self.top) * min(rate, 0.0) / self.low


def render_chart(points: Sequence[Point], name: str, *, bands: Sequence[Band] = (),
                 width: int = WIDTH, height: int = HEIGHT, theme: Theme = DEFAULT,
                 words: Words = english) -> bytes:
    """The chart of `points` (oldest first) for the player `name`, as PNG bytes."""
    s = scale(width)
    img = Image.new("RGB", (width, height), theme.paper)
    draw = ImageDraw.Draw(img)
    _heading(draw, name, width, theme, words)
    frame = plot_frame(points, bands, width=width, height=height, words=words)
    step = _step(-frame.low)
    for k in range(round(-frame.low / step) + 1):  # the grid and its numbers
        y = frame.y(-k * step)
        draw.line((frame.left, y, frame.right, y), fill=theme.card, width=max(1, round(2 * s)))
        draw_text(draw, (frame.left - 10 * s, y), _number(-k * step), round(20 * s),
                  theme.card_muted, anchor="rm")
    _bands(draw, frame, bands, theme, words, s)
    _points(draw, frame, points, theme, s)
    draw_text(draw, ((frame.left + frame.right) / 2, height - 30 * s),
              words("sessions, oldest first"), round(20 * s), theme.card_muted, anchor="mm")
    draw.rectangle((0, 0, width - 1, height - 1), outline=theme.grid, width=max(1, round(s)))
    return encode(img)


def plot_frame(points: Sequence[Point], bands: Sequence[Band] = (), *, width: int = WIDTH,
               height: int = HEIGHT, words: Words = english) -> Frame:
    """Where `render_chart` draws `points`: each at (`x(i)`, `y(rate)`), under the heading,
    left of it room for the grid's numbers, right of it for the rating words."""
    s = scale(width)
    pad, size = 16 * s, round(20 * s)
    low = _low([rate for _, rate in points])
    step = _step(-low)
    left = pad + max(length(_number(-k * step), size)
                     for k in range(round(-low / step) + 1)) + 18 * s
    margin = min(max((length(words(w), size) for _, w in bands), default=-20 * s) + 20 * s,
                 200 * s)
    top = pad + 46 * s + len(_note(width, words)) * 30 * s + 24 * s
    return Frame(left, top, width - pad - 10 * s - margin, height - pad - 70 * s, low,
                 len(points), margin)


def _note(width: int, words: Words) -> list[str]:
    s = scale(width)
    return wrap(words(NOTE), round(20 * s), width - 32 * s)


def _heading(draw: ImageDraw.ImageDraw, name: str, width: int, theme: Theme,
             words: Words) -> None:
    """The title, the player's name in it, and the note under it."""
    s = scale(width)
    pad = 16 * s
    title = fit(words("{name}: error rate by session").format(name=name), round(28 * s),
                width - 2 * pad, True)
    draw_text(draw, (pad, pad + 23 * s), title, round(28 * s), theme.card_ink, anchor="lm",
              bold=True)
    for k, line in enumerate(_note(width, words)):
        draw_text(draw, (pad, pad + 46 * s + (k + 0.5) * 30 * s), line, round(20 * s),
                  theme.card_muted, anchor="lm")


def _step(span: float) -> float:
    """The grid's step: 1, 2, 5, 10, ... giving at most five lines under 0."""
    magnitude = 10.0 ** math.floor(math.log10(max(span, 1.0) / 5))
    return next((k * magnitude for k in (*STEPS, 10) if span / (k * magnitude) <= 5),
                10 * magnitude)


def _low(rates: Sequence[float]) -> float:
    """The rate at the bottom of the plot: the worst a little under, on the grid."""
    worst = max([-r for r in rates] + [1.0]) * 1.1
    step = _step(worst)
    return -math.ceil(worst / step) * step


def _number(rate: float) -> str:
    return f"{rate:g}" if rate else "0"


def _rate(rate: float) -> str:
    """A session's rate as gnubg writes it, one decimal: "-4.8", "0.0"."""
    return f"{rate:.1f}" if round(rate, 1) else "0.0"


def _bands(draw: ImageDraw.ImageDraw, frame: Frame, bands: Sequence[Band], theme: Theme,
           words: Words, s: float) -> None:
    """Each rating's line across the plot, and its word right of the plot, in the middle of
    the rates it names (left out where they are too narrow for it)."""
    size, upper, line = round(20 * s), frame.top, frame.top
    for rate, word in sorted(bands, reverse=True):
        y = frame.y(rate) if rate > frame.low else frame.bottom
        if rate > frame.low and y - line >= 8 * s:  # (lines packed together: one)
            draw.line((frame.left, y, frame.right, y), fill=theme.grid,
                      width=max(1, round(2 * s)))
            line = y
        if y - upper >= 22 * s:
            draw_text(draw, (frame.right + 10 * s, (y + upper) / 2),
                      fit(words(word), size, frame.margin - 12 * s), size, theme.over,
                      anchor="lm")
        upper = y
        if rate <= frame.low:
            break


def _points(draw: ImageDraw.ImageDraw, frame: Frame, points: Sequence[Point], theme: Theme,
            s: float) -> None:
    """The line through the sessions' rates, a dot each with its rate over it (under it at a
    low, or where there is no room over it), and the sessions' labels under the plot."""
    xy = [(frame.x(i), frame.y(rate)) for i, (_, rate) in enumerate(points)]
    if len(xy) > 1:
        draw.line(xy, fill=theme.felt, width=max(2, round(4 * s)), joint="curve")
    r, size = 8 * s, round(20 * s)
    for i, ((label, rate), (x, y)) in enumerate(zip(points, xy, strict=True)):
        draw.ellipse((x - r, y - r, x + r, y + r), fill=theme.felt, outline=theme.paper,
                     width=max(1, round(2 * s)))
        near = [xy[j][1] for j in (i - 1, i + 1) if 0 <= j < len(xy)]
        over = y - r - 28 * s > frame.top - 20 * s and (not near or y <= sum(near) / len(near))
        draw_text(draw, (x, y - r - 14 * s if over else y + r + 16 * s), _rate(rate), size,
                  theme.card_ink, anchor="mm", bold=True)
        draw_text(draw, (x, frame.bottom + 20 * s), label, size, theme.card_muted, anchor="mm")
