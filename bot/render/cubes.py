"""The cube strip under the board: one card per cube of the table, the chouette's own part.

Each card shows the cube with its face (the number the players see), the Team player it
belongs to (and the Box-side player when it is not the Box: a Partner's cube or an extra),
his role (C = Captain, AC = Acting Captain), who holds the cube (a checker of the holder's
colour and his name, or "centred") and its state: in game, offered / beavered / raccooned /
aardvarked (waiting for an answer), dropped, settled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render.theme import RGB, Shown, Theme, checker_sprite, fit, font, plain, same
from rules.cube import Cube, CubeState

COLUMNS = 3
Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Roles:
    """Who plays which part in the game drawn, by the players' keys (as `Cube` names them);
    the drawing functions' `shown` turns a key into the name drawn."""

    box: str
    captain: str
    partner: str | None = None
    acting_captain: str | None = None  # only when it is not the Captain


def strip_height(count: int, s: float) -> int:
    """The height of the strip for `count` cubes at scale `s` (0 without cubes)."""
    if count == 0:
        return 0
    rows = -(-count // COLUMNS)
    return round(rows * _card_h(s) + (rows - 1) * _gap(s) + _gap(s))


def _card_h(s: float) -> int:
    return round(68 * s)


def _gap(s: float) -> int:
    return round(8 * s)


def state_colour(cube: Cube, theme: Theme) -> RGB:
    """The colour that marks a cube's state (border and state word)."""
    if cube.pending:
        return theme.pending
    if cube.state in (CubeState.DROPPED, CubeState.SETTLED):
        return theme.dropped if cube.state is CubeState.DROPPED else theme.centred
    if cube.in_game:
        return theme.in_game
    return theme.centred


_VERBS = {
    CubeState.OFFERED: "doubled",
    CubeState.BEAVERED: "beavered",
    CubeState.RACCOONED: "raccooned",
    CubeState.AARDVARKED: "aardvarked",
}


def _state_word(cube: Cube) -> str:
    if cube.pending:
        return "waiting"
    if cube.state in (CubeState.DROPPED, CubeState.SETTLED):
        return "dropped" if cube.state is CubeState.DROPPED else "settled"
    return "in game" if cube.in_game else ""


def _holder_text(cube: Cube, shown: Shown = same) -> str:
    """What the card says left of the state word when no checker marks a holder."""
    if cube.offered_by is not None:
        actor = cube.offered_by
        if cube.state in (CubeState.BEAVERED, CubeState.AARDVARKED):
            actor = actor.other
        return f"{shown(cube.player(actor))} {_VERBS[cube.state]}"
    if cube.state is CubeState.DROPPED and cube.winner is not None:
        return f"won by {shown(cube.player(cube.winner))}"
    return "centred"


def cube_boxes(count: int, left: int, top: int, width: int, s: float) -> list[Box]:
    """The (x0, y0, x1, y1) of the cube square on each of `count` cards (tests sample them)."""
    boxes: list[Box] = []
    for x, y, _, h in _cards(count, left, top, width, s):
        size = round(48 * s)
        cx, cy = x + round(10 * s), y + (h - size) // 2
        boxes.append((cx, cy, cx + size, cy + size))
    return boxes


def _cards(count: int, left: int, top: int, width: int, s: float) -> list[Box]:
    gap, h = _gap(s), _card_h(s)
    w = (width - (COLUMNS - 1) * gap) / COLUMNS
    return [(round(left + (i % COLUMNS) * (w + gap)), top + (i // COLUMNS) * (h + gap),
             round(w), h) for i in range(count)]


def draw_strip(img: Image.Image, cubes: Sequence[Cube], roles: Roles | None, left: int,
               top: int, width: int, s: float, theme: Theme, *, shown: Shown = same) -> None:
    """Draw one card per cube onto `img`, from (`left`, `top`), `width` pixels wide; each
    player's name is `shown(key)`."""
    draw = ImageDraw.Draw(img)
    cards = _cards(len(cubes), left, top, width, s)
    squares = cube_boxes(len(cubes), left, top, width, s)
    for cube, (x, y, w, h), square in zip(cubes, cards, squares, strict=True):
        over = not cube.live
        draw.rounded_rectangle((x, y, x + w - 1, y + h - 1), radius=round(8 * s),
                               fill=theme.card)
        _draw_cube(draw, cube, square, s, theme)
        tx = square[2] + round(10 * s)
        right = x + w - round(10 * s)
        name_size, small = round(23 * s), round(18 * s)
        tags = _tags(cube, roles)
        tag_w = sum(font(round(15 * s)).getlength(t) + 14 * s for t in tags)
        name = shown(cube.team_player)
        if roles is not None and cube.box_player != roles.box:
            name = f"{name} v {shown(cube.box_player)}"
        ink = theme.card_muted if over else theme.card_ink
        draw.text((tx, y + round(8 * s)), fit(plain(name), name_size, right - tx - tag_w),
                  font=font(name_size), fill=ink, stroke_width=max(1, round(s * 0.8)),
                  stroke_fill=ink)
        tag_x: float = right
        for tag in reversed(tags):
            tag_x = _pill(draw, tag, tag_x, y + round(9 * s), s, theme)
        line2 = y + h - round(12 * s)
        word = _state_word(cube)
        if word:
            draw.text((right, line2), word, font=font(small), fill=state_colour(cube, theme),
                      anchor="rs", stroke_width=1, stroke_fill=state_colour(cube, theme))
        room = right - tx - font(small).getlength(word) - 8 * s
        if cube.owner is None or not cube.live or cube.pending:
            text = fit(plain(_holder_text(cube, shown)), small, room)
            draw.text((tx, line2), text, font=font(small), fill=theme.card_muted, anchor="ls")
        else:
            dot = round(20 * s)
            sprite = checker_sprite(cube.owner, dot, theme)
            img.paste(sprite, (round(tx), line2 - dot + round(3 * s)), sprite)
            holder = shown(cube.player(cube.owner))
            draw.text((tx + dot + 5 * s, line2), fit(plain(holder), small, room - dot),
                      font=font(small), fill=ink, anchor="ls")


def _tags(cube: Cube, roles: Roles | None) -> list[str]:
    tags = []
    if cube.is_extra:
        tags.append("penalty" if cube.penalty else "extra")
    elif roles is not None and cube.team_player == roles.captain:
        tags.append("C")
    elif roles is not None and cube.team_player == roles.acting_captain:
        tags.append("AC")
    return tags


def _pill(draw: ImageDraw.ImageDraw, text: str, right: float, y: int, s: float,
          theme: Theme) -> float:
    f = font(round(15 * s))
    w = f.getlength(text) + 10 * s
    x0 = right - w
    draw.rounded_rectangle((x0, y, right, y + 20 * s), radius=round(5 * s), fill=theme.card_ink)
    draw.text(((x0 + right) / 2, y + 10 * s), text, font=f, fill=theme.card, anchor="mm")
    return x0 - 4 * s


def _draw_cube(draw: ImageDraw.ImageDraw, cube: Cube, square: Box, s: float,
               theme: Theme) -> None:
    x0, y0, x1, y1 = square
    colour = state_colour(cube, theme)
    over = not cube.live
    draw.rounded_rectangle(square, radius=round(7 * s), fill=colour)
    edge = max(2, round(4 * s))
    inner = (x0 + edge, y0 + edge, x1 - edge, y1 - edge)
    draw.rounded_rectangle(inner, radius=round(5 * s), fill=theme.grid if over else theme.cube)
    face = str(cube.face)
    size = round((28 if len(face) < 3 else 21) * s)
    ink = theme.card_muted if over else theme.cube_ink
    draw.text(((x0 + x1) / 2, (y0 + y1) / 2), face, font=font(size), fill=ink, anchor="mm",
              stroke_width=1, stroke_fill=ink)
    if cube.state is CubeState.DROPPED:
        draw.line((x0 + edge, y1 - edge, x1 - edge, y0 + edge), fill=theme.dropped,
                  width=max(2, round(3 * s)))

