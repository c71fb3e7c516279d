"""The board image: a pure function from a position (and the chouette around it) to PNG bytes.

Viewpoint. Each table is drawn from one fixed viewpoint: the Team's checkers (ivory) at the
bottom, moving counter-clockwise to their home board at the lower right, the Box's (black) at
the top; `bottom=Side.BOX` turns it round. The point numbers are from the view of the side on
roll, as gnubg numbers them, so the shooter reads his play straight off the board. The dice lie
in the right half when the bottom side is on roll and in the left half otherwise, and the legend
row of the side on roll is outlined, and the last checker play is marked: a yellow ring where
each moved checker stood and around each one where it arrived (`bot.render.lastplay`).

Cost. `picture` resolves everything a board shows (names, status) into a hashable `Picture`;
`board_png` draws it in seven bands, top to bottom: the upper legend, the board in three (its
upper half, the gap where the dice lie, its lower half), the lower legend, the status line
with the Position ID, and the cube strip (`bot.render.cubes`). Each band is mapped to the
theme's fixed palette and compressed once and kept by what it shows (the board's halves by
what they show without the dice), so an action compresses only the bands it changed
(`bot.render.png`): a roll the gap and the status line, a play the board and the legends, a
cube the strip and the status line. The board is pasted from pieces drawn once
(`bot.render.felt`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.render import png, text
from bot.render.cubes import Roles, draw_strip, strip_height
from bot.render.felt import Felt, Piece, canvas, felt_rgb, pieces, static_board
from bot.render.lastplay import LastPlay, draw_rings, last_play
from bot.render.layout import STACK, Layout
from bot.render.samples import LAST, ROLES, full_strip, midgame
from bot.render.text import draw_text, fit, length, readable
from bot.render.theme import DEFAULT, Shown, Theme, checker_sprite, die_sprite, same
from bot.render.words import Words, english
from rules.board import Position
from rules.cube import Cube, Side
from rules.game import shooter, waiting_for
from rules.notation import position_id
from rules.roles import acting_captain
from rules.state import TableState

DEFAULT_WIDTH = 800


@dataclass(frozen=True)
class Legend:
    """One side's legend row: a checker of his, his label and sub-label (Partner, Acting
    Captain), his pips and checkers off in words ("167 pips · 3 off"), outlined when he is
    on roll."""

    side: Side
    label: str
    sub: str
    figures: str
    on_roll: bool


@dataclass(frozen=True)
class Strip:
    """The cube strip: the cubes, the roles (for the C and AC tags), each player's name
    drawn, as (key, name) pairs, and the words of its cards (`english`, or the table's
    language as plain data: `bot.words.i18n.Translation`)."""

    cubes: tuple[Cube, ...]
    roles: Roles | None
    names: tuple[tuple[str, str], ...]
    words: Words = english


@dataclass(frozen=True)
class Picture:
    """Everything a board image shows, every text resolved: equal pictures are equal images.
    Plain data, so it can also be sent to another process to draw."""

    width: int
    theme: Theme
    top: Legend
    felt: Felt
    bottom: Legend
    status: tuple[str, str]  # the status line, and the Position ID line under it
    strip: Strip


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


def picture(
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
) -> Picture:
    """What `render_board` draws (its arguments are `render_board`'s): cheap, and equal for
    equal boards."""
    shown = readable(shown)
    labels = _labels(roles, names, shown, words)
    if status is None:
        who = labels[on_roll]
        if roles is not None:
            who = shown(roles.box if on_roll is Side.BOX
                        else roles.acting_captain or roles.captain)
        status = whose_turn(who, dice, words)
    pips, off = _side_map(position.pips, on_roll), _side_map(position.off, on_roll)
    legends = {side: Legend(side, labels[side], _sub_label(side, roles, shown, words),
                            _figures(pips[side], off[side], words), side is on_roll)
               for side in Side}
    view = position if on_roll is bottom else position.swap()  # the bottom side's view
    players = sorted({key for cube in cubes for key in (cube.team_player, cube.box_player)})
    pid = words("Position ID {id}").format(id=position_id(position))
    return Picture(width, theme, legends[bottom.other], Felt(view, bottom, on_roll, dice, last),
                   legends[bottom], (status, pid),
                   Strip(tuple(cubes), roles, tuple((key, shown(key)) for key in players),
                         words))


def board_png(pic: Picture) -> bytes:
    """`pic` as PNG bytes, each band drawn and compressed once (while it is kept)."""
    lay, width, theme = Layout.of(pic.width), pic.width, pic.theme
    gap = lay.frame_tb + STACK * lay.checker  # between the board's halves: the dice lie there
    undiced = replace(pic.felt, dice=None)  # what the halves show
    bands = [_band(_top, width, theme, pic.top),
             _felt_band(width, theme, undiced, 0, gap),
             _felt_band(width, theme, pic.felt, gap, gap + lay.gap),
             _felt_band(width, theme, undiced, gap + lay.gap, lay.board_h),
             _band(_bottom, width, theme, pic.bottom), _band(_status, width, theme, pic.status),
             _band(_strip, width, theme, pic.strip)]
    return png.write(width, _palette(theme), bands)


def board_rgb(pic: Picture) -> Image.Image:
    """`pic` drawn whole in full colour, before its colours are mapped to the palette."""
    lay, theme = Layout.of(pic.width), pic.theme
    bands = [_top(lay, theme, pic.top), felt_rgb(lay, theme, pic.felt),
             _bottom(lay, theme, pic.bottom), _status(lay, theme, pic.status),
             _strip(lay, theme, pic.strip)]
    img = Image.new("RGB", (pic.width, sum(band.height for band in bands)))
    y = 0
    for band in bands:
        img.paste(band, (0, y))
        y += band.height
    return img


def forget(*, drawings: bool = True) -> None:
    """Forget the bands kept, so that each board is drawn anew; with `drawings`, the pieces,
    static boards, sprites, texts and palettes too, as in a new process."""
    for kept in (_band, _felt_band, _felt):
        kept.cache_clear()
    if drawings:
        for cached in (_piece, _canvas, _highlight, _palette, static_board, checker_sprite,
                       die_sprite):
            cached.cache_clear()
        text.forget()


Drawing = Callable[[Layout, Theme, Any], Image.Image]


@lru_cache(maxsize=2048)
def _band(draw: Drawing, width: int, theme: Theme, what: object) -> png.Band:
    """The band `draw` draws of `what`, mapped to the palette and compressed."""
    return png.band(_mapped(draw(Layout.of(width), theme, what), theme))


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
    return _mapped(img.crop(box), theme), box[:2]


@lru_cache(maxsize=8)
def _canvas(width: int, theme: Theme, numbers_from_bottom: bool) -> Image.Image:
    return _mapped(canvas(Layout.of(width), theme, numbers_from_bottom), theme)


@lru_cache(maxsize=4)
def _highlight(theme: Theme) -> int:
    """The palette index the highlight is mapped to."""
    index = _mapped(Image.new("RGB", (1, 1), theme.highlight), theme).getpixel((0, 0))
    assert isinstance(index, int)
    return index


def _mapped(img: Image.Image, theme: Theme) -> Image.Image:
    """`img` in the palette's colours: each pixel the nearest, undithered."""
    return img.quantize(palette=_palette(theme), dither=Image.Dither.NONE)


@lru_cache(maxsize=4)
def _palette(theme: Theme) -> Image.Image:
    """The board's 256 colours: those of the sample board, which has every part a board has
    (both sides' checkers and dice, every cube state, the last play), drawn in `theme`."""
    return board_rgb(sample_picture(theme=theme)).quantize(256, method=Image.Quantize.FASTOCTREE)


def _top(lay: Layout, theme: Theme, legend: Legend) -> Image.Image:
    img = Image.new("RGB", (lay.width, lay.board_top), theme.background)
    _legend(img, lay, legend, lay.pad, theme)
    return img


def _bottom(lay: Layout, theme: Theme, legend: Legend) -> Image.Image:
    img = Image.new("RGB", (lay.width, lay.legend_h), theme.background)
    _legend(img, lay, legend, 0, theme)
    return img


def _status(lay: Layout, theme: Theme, lines: tuple[str, str]) -> Image.Image:
    s, (status, pid) = lay.s, lines
    img = Image.new("RGB", (lay.width, lay.strip_top - lay.status_y), theme.background)
    draw = ImageDraw.Draw(img)
    room = lay.width - 2 * lay.pad
    size = round(26 * s) if length(status, round(26 * s), True) <= room else round(22 * s)
    draw_text(draw, (lay.pad, round(22 * s)), fit(status, size, room, bold=True), size,
              theme.text, anchor="lm", bold=True)
    draw_text(draw, (lay.pad, round(56 * s)), pid, round(22 * s), theme.muted, anchor="lm")
    return img


def _strip(lay: Layout, theme: Theme, strip: Strip) -> Image.Image:
    height = strip_height(len(strip.cubes), lay.s) + lay.pad
    img = Image.new("RGB", (lay.width, height), theme.background)
    draw_strip(img, strip.cubes, strip.roles, lay.pad, 0, lay.width - 2 * lay.pad, lay.s,
               theme, shown=dict(strip.names).__getitem__, words=strip.words)
    return img


def render_table(state: TableState, *, width: int = DEFAULT_WIDTH,
                 theme: Theme = DEFAULT, words: Words = english) -> bytes:
    """The board of a table as PNG bytes: the game in progress, or else the last board.
    Players are drawn by `state.shown` (their display names), not by their keys; the
    words by `words` (the table's language, English by default).

    Raises ValueError when the table has no board to show (nothing played yet, or a
    scorekeeper table).
    """
    return board_png(table_picture(state, width=width, theme=theme, words=words))


def table_picture(state: TableState, *, width: int = DEFAULT_WIDTH,
                  theme: Theme = DEFAULT, words: Words = english) -> Picture:
    """What `render_table` draws (raises as it does)."""
    game, seating = state.game, state.seating
    if game is not None and game.position is not None and game.on_roll is not None:
        position, on_roll = game.position, game.on_roll
    elif state.board is not None:
        position, on_roll = state.board
    else:
        raise ValueError("This table has no board to show yet.")
    cubes = game.cubes if game is not None else ()
    roles = None
    if seating is not None:
        acting = acting_captain(seating, cubes) if cubes else None
        roles = Roles(seating.box, seating.captain, seating.partner,
                      acting if acting != seating.captain else None)
    dice = game.dice if game is not None else None
    return picture(position, on_roll=on_roll, dice=dice, cubes=cubes, roles=roles,
                   status=_table_status(state, words), width=width, theme=theme,
                   shown=state.shown, last=last_play(game), words=words)


def _table_status(state: TableState, words: Words = english) -> str:
    game, shown = state.game, readable(state.shown)
    if game is None:
        return words("Game {number} is over: its last position").format(
            number=state.games_played)
    waits = waiting_for(state)
    if waits:
        players = ", ".join(shown(p) for p in dict.fromkeys(player for player, _ in waits))
        if len(waits) == 1:
            return words("Waiting for {players} to answer a cube").format(players=players)
        return words("Waiting for {players} to answer {cubes} cubes").format(
            players=players, cubes=len(waits))
    key = shooter(state)
    return whose_turn(shown(key) if key is not None else "?", game.dice, words)


def whose_turn(who: str, dice: tuple[int, int] | None, words: Words = english) -> str:
    """"Ann to play 6-5", or "Ann to roll" without dice: the line under the board."""
    if dice:
        return words("{player} to play {dice}").format(player=who, dice=f"{dice[0]}-{dice[1]}")
    return words("{player} to roll").format(player=who)


def _figures(pips: int, off: int, words: Words = english) -> str:
    """A side's pips and checkers off in words: "167 pips · 3 off"."""
    text = (words("{pips} pip") if pips == 1 else words("{pips} pips")).format(pips=pips)
    return text + words(" · {off} off").format(off=off) if off else text


def _side_map(pair: tuple[int, int], on_roll: Side) -> dict[Side, int]:
    return {on_roll: pair[0], on_roll.other: pair[1]}


def _labels(roles: Roles | None, names: Mapping[Side, str] | None,
            shown: Shown = same, words: Words = english) -> dict[Side, str]:
    labels = {Side.BOX: words("Box"), Side.TEAM: words("Team")}
    if roles is not None:
        labels = {Side.BOX: words("Box ({player})").format(player=shown(roles.box)),
                  Side.TEAM: words("Team (Captain {player})").format(
                      player=shown(roles.captain))}
    labels.update(names or {})
    return labels


def _sub_label(side: Side, roles: Roles | None, shown: Shown = same,
               words: Words = english) -> str:
    if roles is None:
        return ""
    if side is Side.BOX:
        return (words("Partner {player}").format(player=shown(roles.partner))
                if roles.partner else "")
    return (words("Acting Captain {player}").format(player=shown(roles.acting_captain))
            if roles.acting_captain else "")


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


def sample_board(width: int = 800, shown: Callable[[str], str] = str) -> bytes:
    """The mid-game board with the full cube strip and the last play marked (the bench's
    case); players drawn as `shown` names them."""
    return board_png(sample_picture(width, shown))


def sample_picture(width: int = 800, shown: Callable[[str], str] = str,
                   theme: Theme = DEFAULT) -> Picture:
    """What `sample_board` draws, in `theme` (its colours are the board's palette)."""
    return picture(midgame(), on_roll=Side.BOX, dice=(5, 3), cubes=full_strip(), roles=ROLES,
                   last=LAST, width=width, shown=shown, theme=theme,
                   status=f"Waiting for {shown('Fay')}: take or drop {shown('Bo')}'s double to 2")
