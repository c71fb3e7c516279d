"""The cube strip under the board: one card per cube of the table, the chouette's own part.

Each card shows the cube with its face (the number the players see), the Team player it
belongs to (and the Box-side player when it is not the Box: a Partner's cube or an extra),
his role (C = Captain, AC = Acting Captain), who holds the cube (a checker of the holder's
colour and his name, or "centred") and its state: in game, offered / beavered / raccooned /
aardvarked (waiting for an answer), dropped (and who won it), settled. Two cards a row, so
that a name and the state line are read whole on a phone (the image about 400 pixels wide).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render.text import draw_text, fit, length
from bot.render.theme import RGB, Shown, Theme, checker_sprite, same
from bot.render.words import Words, english
from rules.cube import Cube, Side
from rules.cube_state import CubeState

COLUMNS = 2
Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Roles:
    """Who plays which part in the game drawn, by the players' keys (as `Cube` names them);
    the drawing functions' `shown` turns a key into the name drawn."""

    box: str
    captain: str
    partner: str | None = None
    acting_captain: str | None = None  # only when it is not the Captain
    one_cube: bool = False  # FIBS: the Team's cubes turn as one, whoever turned them


def strip_height(count: int, s: float) -> int:
    """The height of the strip for `count` cubes at scale `s` (0 without cubes)."""
    if count == 0:
        return 0
    rows = -(-count // COLUMNS)
    return round(rows * _card_h(s) + (rows - 1) * _gap(s) + _gap(s))


def _card_h(s: float) -> int:
    return round(76 * s)


def _gap(s: float) -> int:
    return round(8 * s)


def state_colour(cube: Cube, theme: Theme) -> RGB:
    """The colour that marks a cube's state (border and state word): a cube out of the game
    (dropped, so won by the other side, or settled) is greyed, never red."""
    if cube.pending:
        return theme.pending
    if cube.state in (CubeState.DROPPED, CubeState.SETTLED):
        return theme.over
    if cube.in_game:
        return theme.in_game
    return theme.centred


_VERBS = {  # who turned a cube waiting for an answer, and how
    CubeState.OFFERED: english("{player} doubled"),
    CubeState.BEAVERED: english("{player} beavered"),
    CubeState.RACCOONED: english("{player} raccooned"),
    CubeState.AARDVARKED: english("{player} aardvarked"),
}
_TEAM_VERBS = {  # the same, with one cube for the Team (FIBS): the Team turned it
    CubeState.OFFERED: english("the Team doubled"),
    CubeState.BEAVERED: english("the Team beavered"),
    CubeState.RACCOONED: english("the Team raccooned"),
    CubeState.AARDVARKED: english("the Team aardvarked"),
}


def _state_word(cube: Cube, words: Words = english) -> str:
    if cube.pending:
        return words("waiting")
    if cube.state in (CubeState.DROPPED, CubeState.SETTLED):
        return words("dropped") if cube.state is CubeState.DROPPED else words("settled")
    return words("in game") if cube.in_game else ""


def _holder_text(cube: Cube, shown: Shown = same, words: Words = english,
                 roles: Roles | None = None) -> tuple[str, str]:
    """What the card says left of the state word when no checker marks a holder, as (a
    player's name, the words around it: a template with `{player}`): the name is what is
    cut when the line is short. With one cube (FIBS) a Team double is the Team's, not the
    card's player's."""
    if cube.offered_by is not None:
        actor = cube.offered_by
        if cube.state in (CubeState.BEAVERED, CubeState.AARDVARKED):
            actor = actor.other
        if roles is not None and roles.one_cube and actor is Side.TEAM:
            return "", words(_TEAM_VERBS[cube.state])
        return shown(cube.player(actor)), words(_VERBS[cube.state])
    if cube.state is CubeState.DROPPED and cube.winner is not None:
        return shown(cube.player(cube.winner)), words("{player} won")
    return "", words("centred")


def _fitted(parts: tuple[str, str], size: int, room: float) -> str:
    """The name cut to what the words around it leave of `room`, put into them."""
    name, around = parts
    if not name:
        return around
    before, _, after = around.partition("{player}")
    return before + fit(name, size, room - length(before + after, size)) + after


def cube_boxes(count: int, left: int, top: int, width: int, s: float) -> list[Box]:
    """The (x0, y0, x1, y1) of the cube square on each of `count` cards (tests sample them)."""
    boxes: list[Box] = []
    for x, y, _, h in _cards(count, left, top, width, s):
        size = round(52 * s)
        cx, cy = x + round(10 * s), y + (h - size) // 2
        boxes.append((cx, cy, cx + size, cy + size))
    return boxes


def _cards(count: int, left: int, top: int, width: int, s: float) -> list[Box]:
    gap, h = _gap(s), _card_h(s)
    w = (width - (COLUMNS - 1) * gap) / COLUMNS
    return [(round(left + (i % COLUMNS) * (w + gap)), top + (i // COLUMNS) * (h + gap),
             round(w), h) for i in range(count)]


def draw_strip(img: Image.Image, cubes: Sequence[Cube], roles: Roles | None, left: int,
               top: int, width: int, s: float, theme: Theme, *, shown: Shown = same,
               words: Words = english) -> None:
    """Draw one card per cube onto `img`, from (`left`, `top`), `width` pixels wide; each
    player's name is `shown(key)`, each word `words(english)`."""
    draw = ImageDraw.Draw(img)
    cards = _cards(len(cubes), left, top, width, s)
    squares = cube_boxes(len(cubes), left, top, width, s)
    for cube, (x, y, w, h), square in zip(cubes, cards, squares, strict=True):
        over = not cube.live
        draw.rounded_rectangle((x, y, x + w - 1, y + h - 1), radius=round(8 * s),
                               fill=theme.card)
        _draw_cube(draw, cube, square, s, theme)
        tx = square[2] + round(12 * s)
        right = x + w - round(10 * s)
        name_size, small = round(26 * s), round(22 * s)
        tags = _tags(cube, roles, words)
        tag_w = sum(length(t, round(20 * s), bold=True) + 16 * s for t in tags)
        name = shown(cube.team_player)
        if roles is not None and cube.box_player != roles.box:
            name = words("{team} v {box}").format(team=name, box=shown(cube.box_player))
        ink = theme.card_muted if over else theme.card_ink
        line1 = y + round(26 * s)
        draw_text(draw, (tx, line1), fit(name, name_size, right - tx - tag_w, bold=True),
                  name_size, ink, anchor="lm", bold=True)
        tag_x: float = right
        for tag in reversed(tags):
            tag_x = _pill(draw, tag, tag_x, line1, s, theme)
        line2 = y + h - round(14 * s)
        word = _state_word(cube, words)
        word_w = 0.0
        if word:
            word_w = draw_text(draw, (right, line2), word, small, state_colour(cube, theme),
                               anchor="rs", bold=True)
        room = right - tx - word_w - 10 * s
        holder = cube.owner if cube.live and not cube.pending else (
            cube.winner if cube.state is CubeState.DROPPED else None)
        if holder is None:
            text = _fitted(_holder_text(cube, shown, words, roles), small, room)
            draw_text(draw, (tx, line2), text, small, theme.card_muted, anchor="ls")
            continue
        dot = round(22 * s)
        sprite = checker_sprite(holder, dot, theme)
        img.paste(sprite, (round(tx), line2 - dot + round(4 * s)), sprite)
        parts = ((shown(cube.player(holder)), "{player}") if cube.live
                 else _holder_text(cube, shown, words, roles))
        draw_text(draw, (tx + dot + 6 * s, line2), _fitted(parts, small, room - dot - 6 * s),
                  small, ink if cube.live else theme.card_muted, anchor="ls")


def _tags(cube: Cube, roles: Roles | None, words: Words = english) -> list[str]:
    tags = []
    if cube.is_extra:
        tags.append(words("penalty") if cube.penalty else words("extra"))
    elif roles is not None and cube.team_player == roles.captain:
        tags.append(words("C"))  # the Captain's cube
    elif roles is not None and cube.team_player == roles.acting_captain:
        tags.append(words("AC"))  # the Acting Captain's
    return tags


def _pill(draw: ImageDraw.ImageDraw, text: str, right: float, mid: int, s: float,
          theme: Theme) -> float:
    size = round(20 * s)
    w = length(text, size, bold=True) + 12 * s
    x0 = right - w
    draw.rounded_rectangle((x0, mid - 14 * s, right, mid + 14 * s), radius=round(6 * s),
                           fill=theme.card_ink)
    draw_text(draw, ((x0 + right) / 2, mid), text, size, theme.card, anchor="mm", bold=True)
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
    size = round((30 if len(face) < 3 else 23) * s)
    ink = theme.card_muted if over else theme.cube_ink
    draw_text(draw, ((x0 + x1) / 2, (y0 + y1) / 2), face, size, ink, anchor="mm", bold=True)



def card_words(cube: Cube, shown: Shown = same, words: Words = english,
               roles: Roles | None = None) -> str:
    """A card's words in one line, without the drawing: who holds the cube or turned it
    ("Ann doubled", "centred") and its state ("waiting", "in game", ...), for a page."""
    name, around = _holder_text(cube, shown, words, roles)
    state = _state_word(cube, words)
    holder = around.replace("{player}", name)
    return f"{holder} · {state}" if state else holder
