"""The board image's bands in full colour, each drawn from its part of a `Picture`: the upper
legend, the lower legend, the status line with the Position ID, and the cube strip (the board
between the legends is `bot.render.felt`'s). `board_rgb` stacks them into the whole image;
`bot.render.board` maps each to the palette and compresses it once.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.render.cubes import draw_strip, strip_height
from bot.render.felt import felt_rgb
from bot.render.layout import Layout
from bot.render.picture import Legend, Picture, Strip
from bot.render.text import draw_text, fit, length
from bot.render.theme import Theme, checker_sprite


def board_rgb(pic: Picture) -> Image.Image:
    """`pic` drawn whole in full colour, before its colours are mapped to the palette."""
    lay, theme = Layout.of(pic.width), pic.theme
    bands = [upper_legend(lay, theme, pic.top), felt_rgb(lay, theme, pic.felt),
             lower_legend(lay, theme, pic.bottom), status_line(lay, theme, pic.status),
             cube_strip(lay, theme, pic.strip)]
    img = Image.new("RGB", (pic.width, sum(band.height for band in bands)))
    y = 0
    for band in bands:
        img.paste(band, (0, y))
        y += band.height
    return img


def upper_legend(lay: Layout, theme: Theme, legend: Legend) -> Image.Image:
    """The band above the board: the top side's legend, under the top padding."""
    img = Image.new("RGB", (lay.width, lay.board_top), theme.background)
    _legend(img, lay, legend, lay.pad, theme)
    return img


def lower_legend(lay: Layout, theme: Theme, legend: Legend) -> Image.Image:
    """The band under the board: the bottom side's legend."""
    img = Image.new("RGB", (lay.width, lay.legend_h), theme.background)
    _legend(img, lay, legend, 0, theme)
    return img


def status_line(lay: Layout, theme: Theme, lines: tuple[str, str]) -> Image.Image:
    """The status line (smaller when it does not fit), and the Position ID under it."""
    s, (status, pid) = lay.s, lines
    img = Image.new("RGB", (lay.width, lay.strip_top - lay.status_y), theme.background)
    draw = ImageDraw.Draw(img)
    room = lay.width - 2 * lay.pad
    size = round(26 * s) if length(status, round(26 * s), True) <= room else round(22 * s)
    draw_text(draw, (lay.pad, round(22 * s)), fit(status, size, room, bold=True), size,
              theme.text, anchor="lm", bold=True)
    draw_text(draw, (lay.pad, round(56 * s)), pid, round(22 * s), theme.muted, anchor="lm")
    return img


def cube_strip(lay: Layout, theme: Theme, strip: Strip) -> Image.Image:
    """The cube strip at the foot of the image (`bot.render.cubes`)."""
    height = strip_height(len(strip.cubes), lay.s) + lay.pad
    img = Image.new("RGB", (lay.width, height), theme.background)
    draw_strip(img, strip.cubes, strip.roles, lay.pad, 0, lay.width - 2 * lay.pad, lay.s,
               theme, shown=dict(strip.names).__getitem__, words=strip.words)
    return img


def _legend(img: Image.Image, lay: Layout, legend: Legend, y: int, theme: Theme) -> None:
    s, draw = lay.s, ImageDraw.Draw(img)
    h = lay.legend_h
    x0, x1 = lay.pad, lay.width - lay.pad
    if legend.on_roll:
        draw.rounded_rectangle((x0, y + 3 * s, x1, y + h - 4 * s), radius=round(9 * s),
                               outline=theme.highlight, width=max(2, round(3 * s)))
    dot = round(32 * s)
    sprite = checker_sprite(legend.side, dot, theme)
    mid = y + h // 2
    img.paste(sprite, (x0 + round(9 * s), mid - dot // 2), sprite)
    right = legend.figures
    size, small = round(26 * s), round(22 * s)
    right_w = draw_text(draw, (x1 - 12 * s, mid), right, size, theme.text, anchor="rm")
    tx = x0 + dot + 18 * s
    room = x1 - 24 * s - right_w - tx
    label = fit(legend.label, size, room, bold=True)
    tx += draw_text(draw, (tx, mid), label, size, theme.text, anchor="lm", bold=True) + 14 * s
    room = x1 - 24 * s - right_w - tx
    sub = legend.sub
    if sub and room > min(110 * s, length(sub, small)):
        draw_text(draw, (tx, mid), fit(sub, small, room), small, theme.muted, anchor="lm")
