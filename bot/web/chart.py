"""The pages' line charts as inline SVG: pure functions of the numbers, no I/O.

A `Chart` is the data (a few named series over the same points, each point's label on the
x axis); `draw` (or `Chart.svg`) writes it as an `<svg>` element sized by its viewBox alone,
so it scales to the page's width (`.chart` in the style sheet): a phone's 400 px or a desk's.
Every value written into it, a player's name, a label, a title, a number, is escaped
(`html.escape`, quotes too) by `_put`, the one way an element is written; the result is an
`Svg`, which a Jinja template writes as it is (the `__html__` protocol its autoescaping
follows). The colours are SVG presentation attributes (no `style` attribute: the pages'
Content-Security-Policy allows no inline style). The words (the titles) come from the
caller, already in the reader's language.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

# Tableau's ten colours (told apart by most readers), then dashes for the eleventh and on.
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
           "#17becf", "#7f7f7f", "#bcbd22")
DASHES = ("none", "6 3", "2 3")
WIDTH = 480  # the viewBox's width: its 13-unit text reads at 10 px on a 380 px phone
LEFT, RIGHT, TOP, PLOT = 56, 14, 12, 220  # the plot's margins and height
LEGEND_TOP, ROW, COLUMNS = 54, 20, 2  # the legend: below the x labels, rows of two names
NAME = 24  # letters of a name the legend shows (the whole name in its <title>)
LABELS = 5  # at most this many labels on the x axis
GRID, AXIS, INK = "#c9d2cc", "#5b675f", "#1d2420"
Place = Callable[[int], float]  # a point's index -> its x in the viewBox
Scale = Callable[[float], float]  # a value -> its y in the viewBox


class Svg(str):
    """SVG markup whose every value was escaped when it was written: a Jinja template
    writes it unescaped, by the `__html__` protocol (MarkupSafe's, which Jinja follows)."""

    __slots__ = ()

    def __html__(self) -> str:
        return str(self)


@dataclass(frozen=True)
class Series:
    """One line: whose it is, and its value at each point."""

    name: str
    values: tuple[float, ...]


@dataclass(frozen=True)
class Chart:
    """A line chart: its series, all as long as `labels` (each point's label on the x
    axis, left to right)."""

    series: tuple[Series, ...]
    labels: tuple[str, ...]

    def svg(self, title: str, x_title: str, y_title: str) -> Svg:
        """The chart as an <svg> element (`draw`)."""
        return draw(self, title, x_title, y_title)


def ticks(low: float, high: float, count: int = 5) -> tuple[float, ...]:
    """About `count` round values (steps of 1, 2 or 5 times a power of ten) from `low` or
    below it to `high` or above it; a single value gets a step of 1 around it."""
    if high < low:
        low, high = high, low
    if high == low:
        low, high = low - 1, high + 1
    raw = (high - low) / count
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw * (1 - 1e-9))
    first, last = math.floor(low / step + 1e-9), math.ceil(high / step - 1e-9)
    return tuple(round(k * step, 10) + 0.0 for k in range(first, last + 1))


def shown(value: float) -> str:
    """A tick's label: "-4", "0", "2.5", "-0.5" (no "-0")."""
    return f"{value + 0.0:g}"


def picked(count: int, most: int = LABELS) -> tuple[int, ...]:
    """Which of `count` points get their label on the x axis: the first, the last, and
    evenly between them, `most` at most."""
    if count <= most:
        return tuple(range(count))
    return tuple(sorted({round(k * (count - 1) / (most - 1)) for k in range(most)}))


def draw(chart: Chart, title: str, x_title: str, y_title: str) -> Svg:
    """The chart as an <svg> element: the y axis' round values and grid (0 darker), the
    x axis' labels, both axes' titles, each series as a line with a dot at each point, and
    the legend under it with each series' colour and name; an empty Svg for a chart
    without a point."""
    count = len(chart.labels)
    if not chart.series or not count:
        return Svg("")
    values = [v for s in chart.series for v in s.values]
    scale = ticks(min([0.0, *values]), max([0.0, *values]))
    low, high = scale[0], scale[-1]
    inner = WIDTH - LEFT - RIGHT

    def x(index: int) -> float:
        return LEFT + (inner / 2 if count == 1 else index * inner / (count - 1))

    def y(value: float) -> float:
        return TOP + (high - value) / (high - low) * PLOT

    rows = math.ceil(len(chart.series) / COLUMNS)
    height = TOP + PLOT + LEGEND_TOP + rows * ROW
    parts = [_put('<svg class="chart" viewBox="0 0 {} {}" role="img" font-size="13" '
                  'xmlns="http://www.w3.org/2000/svg"><title>{}</title>', WIDTH, height, title)]
    parts += _axes(chart.labels, scale, x, y, x_title, y_title)
    parts += _lines(chart.series, x, y)
    parts += _legend(chart.series, TOP + PLOT + LEGEND_TOP)
    parts.append("</svg>")
    return Svg("".join(parts))


def _axes(labels: Sequence[str], scale: Sequence[float], x: Place, y: Scale,
          x_title: str, y_title: str) -> list[str]:
    """The grid at each round value with its label, the x axis' labels and both titles."""
    parts = []
    for value in scale:
        parts.append(_put('<line x1="{}" x2="{}" y1="{}" y2="{}" stroke="{}" stroke-width="{}"/>'
                          '<text x="{}" y="{}" text-anchor="end" dominant-baseline="middle" '
                          'fill="{}">{}</text>', LEFT, WIDTH - RIGHT, y(value), y(value),
                          AXIS if value == 0 else GRID, 1.5 if value == 0 else 1,
                          LEFT - 6, y(value), AXIS, shown(value)))
    bottom = TOP + PLOT
    for index in picked(len(labels)):
        anchor = ("middle" if len(labels) == 1 else "start" if index == 0
                  else "end" if index == len(labels) - 1 else "middle")
        parts.append(_put('<text x="{}" y="{}" text-anchor="{}" fill="{}">{}</text>',
                          x(index), bottom + 18, anchor, AXIS, labels[index]))
    parts.append(_put('<text x="{}" y="{}" text-anchor="middle" fill="{}">{}</text>',
                      LEFT + (WIDTH - LEFT - RIGHT) / 2, bottom + 36, INK, x_title))
    parts.append(_put('<text transform="translate(14 {}) rotate(-90)" text-anchor="middle" '
                      'fill="{}">{}</text>', TOP + PLOT / 2, INK, y_title))
    return parts


def _lines(series: Sequence[Series], x: Place, y: Scale) -> list[str]:
    """Each series as a line through its points, a dot at each, its name as its title."""
    parts = []
    for number, line in enumerate(series):
        colour, dash = _pen(number)
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(line.values))
        dots = "".join(_put('<circle cx="{}" cy="{}" r="3"/>', x(i), y(v))
                       for i, v in enumerate(line.values))
        parts.append(_put('<g fill="{}"><title>{}</title><polyline points="{}" fill="none" '
                          'stroke="{}" stroke-width="2" stroke-dasharray="{}"/>', colour,
                          line.name, points, colour, dash) + dots + "</g>")
    return parts


def _legend(series: Sequence[Series], top: int) -> list[str]:
    """Each series' colour and name, in rows of `COLUMNS`, a long name cut short."""
    parts = []
    width = (WIDTH - LEFT - RIGHT) / COLUMNS
    for number, line in enumerate(series):
        colour, dash = _pen(number)
        left = LEFT + (number % COLUMNS) * width
        middle = top + (number // COLUMNS) * ROW
        name = line.name if len(line.name) <= NAME else line.name[:NAME - 1] + "…"
        parts.append(_put('<g><title>{}</title><line x1="{}" x2="{}" y1="{}" y2="{}" '
                          'stroke="{}" stroke-width="3" stroke-dasharray="{}"/><text x="{}" '
                          'y="{}" dominant-baseline="middle" fill="{}">{}</text></g>',
                          line.name, left, left + 20, middle, middle, colour, dash,
                          left + 26, middle, INK, name))
    return parts


def _pen(number: int) -> tuple[str, str]:
    """The colour and dashes of the `number`-th series."""
    return PALETTE[number % len(PALETTE)], DASHES[number // len(PALETTE) % len(DASHES)]


def _put(template: str, *values: object) -> str:
    """An element: `template` with each value escaped (quotes too), a float to one
    decimal place."""
    return template.format(*(escape(f"{v:.1f}" if isinstance(v, float) else str(v))
                             for v in values))
