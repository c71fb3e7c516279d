"""The board image: a pure function from a position (and the chouette around it) to PNG bytes.

Viewpoint. Each table is drawn from one fixed viewpoint: the Team's checkers (ivory) at the
bottom, moving counter-clockwise to their home board at the lower right, the Box's (black) at
the top; `bottom=Side.BOX` turns it round. The point numbers are from the view of the side on
roll, as gnubg numbers them, so the shooter reads his play straight off the board. The dice lie
in the right half when the bottom side is on roll and in the left half otherwise, and the legend
row of the side on roll is outlined, and the last checker play is marked: a yellow ring where
each moved checker stood and around each one where it arrived (`bot.render.lastplay`).

The static board (frame, felt, points, numbers, bar, trays) is drawn once per width, theme and
numbering and cached; each render pastes it into a new image and adds the checkers, the dice,
the legends, the status line with the Position ID, and the cube strip (`bot.render.cubes`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.cubes import Roles, draw_strip, strip_height
from bot.render.lastplay import LastPlay, last_play, mark_last
from bot.render.layout import STACK, Layout
from bot.render.text import draw_text, fit, length, readable
from bot.render.theme import DEFAULT, Shown, Theme, checker_sprite, die_sprite, encode, same
from rules.board import CHECKERS, Position
from rules.cube import Cube, Side
from rules.game import shooter, waiting_for
from rules.notation import position_id
from rules.state import TableState, acting_captain

DEFAULT_WIDTH = 800
_SUPER = 3


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
) -> bytes:
    """The board as PNG bytes.

    `position` is from the view of `on_roll`, as `Game.position` is. `names` overrides the
    legend labels (by default "Box (name)" and "Team (Captain name)" from `roles`, or just
    "Box" and "Team"); `status` the line under the board (by default who is to roll or play).
    `roles` and the cubes name players by key; every name drawn for them is `shown(key)`
    (by default the key itself). `names` and `status` are drawn as given. `last` marks the
    last checker play on the board.
    """
    lay = Layout.of(width)
    s = lay.s
    shown = readable(shown)
    status_y, strip_top = lay.status_y, lay.strip_top
    height = strip_top + strip_height(len(cubes), s) + lay.pad
    img = Image.new("RGB", (width, height), theme.background)
    img.paste(_static_board(width, theme, on_roll is bottom), (0, lay.board_top))
    view = position if on_roll is bottom else position.swap()  # the bottom side's view
    labels = _labels(roles, names, shown)
    _draw_checkers(img, lay, view, bottom, theme)
    if last is not None:
        mark_last(img, lay, view, bottom, last, theme, numbers_from_bottom=on_roll is bottom)
    if dice is not None:
        _draw_dice(img, lay, dice, on_roll, on_roll is bottom, theme)
    pips, off = _side_map(position.pips, on_roll), _side_map(position.off, on_roll)
    for side, y in ((bottom.other, lay.pad), (bottom, lay.board_top + lay.board_h)):
        _legend(img, lay, side, y, labels[side], _sub_label(side, roles, shown), pips[side],
                off[side], side is on_roll, theme)
    draw = ImageDraw.Draw(img)
    if status is None:
        who = labels[on_roll]
        if roles is not None:
            who = shown(roles.box if on_roll is Side.BOX
                        else roles.acting_captain or roles.captain)
        status = whose_turn(who, dice)
    room = width - 2 * lay.pad
    size = round(26 * s) if length(status, round(26 * s), True) <= room else round(22 * s)
    draw_text(draw, (lay.pad, status_y + round(22 * s)), fit(status, size, room, bold=True),
              size, theme.text, anchor="lm", bold=True)
    draw_text(draw, (lay.pad, status_y + round(56 * s)),
              f"Position ID {position_id(position)}", round(22 * s), theme.muted, anchor="lm")
    draw_strip(img, cubes, roles, lay.pad, strip_top, width - 2 * lay.pad, s, theme,
               shown=shown)
    return encode(img)


def render_table(state: TableState, *, width: int = DEFAULT_WIDTH,
                 theme: Theme = DEFAULT) -> bytes:
    """The board of a table as PNG bytes: the game in progress, or else the last board.
    Players are drawn by `state.shown` (their display names), not by their keys.

    Raises ValueError when the table has no board to show (nothing played yet, or a
    scorekeeper table).
    """
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
    return render_board(position, on_roll=on_roll, dice=dice, cubes=cubes, roles=roles,
                        status=_table_status(state), width=width, theme=theme,
                        shown=state.shown, last=last_play(game))


def _table_status(state: TableState) -> str:
    game, shown = state.game, readable(state.shown)
    if game is None:
        return f"Game {state.games_played} is over: its last position"
    waits = waiting_for(state)
    if waits:
        players = [shown(p) for p in dict.fromkeys(player for player, _ in waits)]
        cubes = len(waits)
        what = "a cube" if cubes == 1 else f"{cubes} cubes"
        return f"Waiting for {', '.join(players)} to answer {what}"
    key = shooter(state)
    return whose_turn(shown(key) if key is not None else "?", game.dice)


def whose_turn(who: str, dice: tuple[int, int] | None) -> str:
    """"Ann to play 6-5", or "Ann to roll" without dice: the line under the board, and the
    board message's status (`bot.discord.presenter.status`)."""
    return f"{who} to play {dice[0]}-{dice[1]}" if dice else f"{who} to roll"


def _side_map(pair: tuple[int, int], on_roll: Side) -> dict[Side, int]:
    return {on_roll: pair[0], on_roll.other: pair[1]}


def _labels(roles: Roles | None, names: Mapping[Side, str] | None,
            shown: Shown = same) -> dict[Side, str]:
    labels = {Side.BOX: "Box", Side.TEAM: "Team"}
    if roles is not None:
        labels = {Side.BOX: f"Box ({shown(roles.box)})",
                  Side.TEAM: f"Team (Captain {shown(roles.captain)})"}
    labels.update(names or {})
    return labels


def _sub_label(side: Side, roles: Roles | None, shown: Shown = same) -> str:
    if roles is None:
        return ""
    if side is Side.BOX:
        return f"Partner {shown(roles.partner)}" if roles.partner else ""
    return f"Acting Captain {shown(roles.acting_captain)}" if roles.acting_captain else ""


def _legend(img: Image.Image, lay: Layout, side: Side, y: int, label: str, sub: str,
            pips: int, off: int, on_roll: bool, theme: Theme) -> None:
    s, draw = lay.s, ImageDraw.Draw(img)
    h = lay.legend_h
    x0, x1 = lay.pad, lay.width - lay.pad
    if on_roll:
        draw.rounded_rectangle((x0, y + 3 * s, x1, y + h - 4 * s), radius=round(9 * s),
                               outline=theme.highlight, width=max(2, round(3 * s)))
    dot = round(32 * s)
    sprite = checker_sprite(side, dot, theme)
    mid = y + h // 2
    img.paste(sprite, (x0 + round(9 * s), mid - dot // 2), sprite)
    right = f"{pips} pip{'' if pips == 1 else 's'}" + (f" · {off} off" if off else "")
    size, small = round(26 * s), round(22 * s)
    right_w = draw_text(draw, (x1 - 12 * s, mid), right, size, theme.text, anchor="rm")
    tx = x0 + dot + 18 * s
    room = x1 - 24 * s - right_w - tx
    label = fit(label, size, room, bold=True)
    tx += draw_text(draw, (tx, mid), label, size, theme.text, anchor="lm", bold=True) + 14 * s
    room = x1 - 24 * s - right_w - tx
    if sub and room > min(110 * s, length(sub, small)):
        draw_text(draw, (tx, mid), fit(sub, small, room), small, theme.muted, anchor="lm")


def _draw_checkers(img: Image.Image, lay: Layout, view: Position, bottom: Side,
                   theme: Theme) -> None:
    draw = ImageDraw.Draw(img)
    size = round(lay.checker * 0.55)
    for side, counts, is_bottom in ((bottom, view.player, True),
                                    (bottom.other, view.opponent, False)):
        sprite = checker_sprite(side, lay.checker, theme)
        for index in range(25):
            n = counts[index]
            if not n:
                continue
            xy = None
            for k in range(min(n, STACK)):
                if index == 24:
                    xy = lay.bar_xy(is_bottom, k)
                else:
                    point = index + 1 if is_bottom else 24 - index
                    xy = lay.checker_xy(point, k)
                img.paste(sprite, xy, sprite)
            if n > STACK and xy is not None:
                centre = (xy[0] + lay.checker / 2, xy[1] + lay.checker / 2)
                draw_text(draw, centre, str(n), size, theme.ink(side), anchor="mm", bold=True)
        _draw_tray(draw, lay, side, CHECKERS - sum(counts), is_bottom, theme)


def _draw_tray(draw: ImageDraw.ImageDraw, lay: Layout, side: Side, off: int, is_bottom: bool,
               theme: Theme) -> None:
    s = lay.s
    slab, step = round(11 * s), round(13 * s)
    x0 = lay.tray_x + round(6 * s)
    x1 = lay.tray_x + lay.tray_w - round(6 * s)
    for k in range(off):
        if is_bottom:
            y = lay.felt_top + lay.felt_h - round(4 * s) - (k + 1) * step
        else:
            y = lay.felt_top + round(4 * s) + k * step
        draw.rounded_rectangle((x0, y, x1, y + slab), radius=round(3 * s),
                               fill=theme.checker(side), outline=theme.rim(side),
                               width=max(1, round(2 * s)))


def _draw_dice(img: Image.Image, lay: Layout, dice: tuple[int, int], side: Side,
               bottom_on_roll: bool, theme: Theme) -> None:
    size = round(46 * lay.s)
    between = round(12 * lay.s)
    first = 6 if bottom_on_roll else 0
    centre_x = lay.column_x(first) + 3 * lay.point_w
    y = lay.felt_top + (lay.felt_h - size) // 2
    x = round(centre_x - size - between / 2)
    for d in dice:
        sprite = die_sprite(d, side, size, theme)
        img.paste(sprite, (x, y), sprite)
        x += size + between


def dice_boxes(dice_on_right: bool, width: int = DEFAULT_WIDTH) -> list[tuple[int, int]]:
    """The centres of the two dice (for tests that sample their colour)."""
    lay = Layout.of(width)
    size, between = round(46 * lay.s), round(12 * lay.s)
    centre_x = lay.column_x(6 if dice_on_right else 0) + 3 * lay.point_w
    y = lay.felt_top + lay.felt_h // 2
    left = round(centre_x - size - between / 2)
    return [(left + size // 2, y), (left + size + between + size // 2, y)]


@lru_cache(maxsize=8)
def _static_board(width: int, theme: Theme, numbers_from_bottom: bool) -> Image.Image:
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
