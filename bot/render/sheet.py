"""The score sheet image: each game's change and running totals, the losers circled, settling up.

As on the Atlanta score sheet (10.1): one column a player, one row a game with every player's
running total, and under it, smaller and in colour, what the game changed. The loser of each
game is circled: the Box lost when his net for the game is below zero, the Captain likewise;
if both lost, both are circled with a "b" by the Box's circle (the Box follows the Captain in
the rotation). Who was Box and Captain comes from `roles`, one (Box, Captain) pair a sheet
entry (None for an entry that is not a game, such as a leaving settlement); without `roles`
nothing is circled. Under each name, his seat in the next game from `next_roles` (euro ¶17:
"Box", "Partner", "Captain", "2", ...); a line under the title says what order the columns are
in, and a legend under the table what the marks mean. Below: the totals, in money too when the
table's basic stake names an amount with a currency (`bot.render.money`), and who pays whom
to settle (`rules.ledger.breakdown`).

Sized to be read on a phone (the image about 400 pixels wide): up to eight players keep the
800-pixel width, their names cut to the column; more make the image wider. Past `max_rows`
games the oldest are folded into one line of running totals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from PIL import Image, ImageDraw

from bot.render.money import Stake
from bot.render.text import clean, draw_text, fit, length, readable, wrap
from bot.render.theme import DEFAULT, Shown, Theme, encode, same, scale
from bot.render.words import Words, english
from rules.ledger import RoundMode, ScoreSheet, Transfer, format_points

DEFAULT_WIDTH = 800
GameRoles = tuple[str, str] | None
ROW_H = 56  # a game's row at 800 pixels: the running totals, under them the changes
ORDER_NOTE = english("Columns in seating order: Box, Partner, Captain, then the Team in "
                     "rotation.")


def losers(sheet: ScoreSheet, index: int, roles: GameRoles) -> tuple[str, ...]:
    """Who is circled for entry `index`: the Box and/or the Captain, if his net is minus."""
    if roles is None:
        return ()
    nets = sheet.game_net(index)
    return tuple(p for p in dict.fromkeys(roles) if nets.get(p, Fraction(0)) < 0)


def entry_labels(sheet: ScoreSheet) -> list[str]:
    """Each sheet line's label: its game's number, or "fix" for a moderator's correction
    (a line of its own, never counted as a game)."""
    labels, number = [], 0
    for entry in sheet.games:
        if entry and all(t.reason.startswith("correction") for t in entry):
            labels.append(english("fix"))
        else:
            number += 1
            labels.append(str(number))
    return labels


def render_sheet(
    sheet: ScoreSheet,
    seating_order: Sequence[str] = (),
    *,
    roles: Sequence[GameRoles] | None = None,
    next_roles: Mapping[str, str] | None = None,
    rounding: RoundMode = "exact",
    max_rows: int = 40,
    title: str = "Score sheet",
    width: int = DEFAULT_WIDTH,
    theme: Theme = DEFAULT,
    shown: Shown = same,
    payoff: str = "most_minus_first",
    basic: str | None = None,
    order_note: str | None = None,
    words: Words = english,
) -> bytes:
    """The sheet as PNG bytes. The sheet, `seating_order` and `roles` name players by key; the
    column headers and the settle-up lines draw `shown(key)` (by default the key itself);
    `next_roles` maps a key to the label under his name (none for a player not in it).
    `basic` is the table's basic stake ("$5 a point"); by default it is looked for in `title`
    ("Score sheet · $5 a point"). `order_note` says what order the columns are in (by default
    the seating order when `next_roles` is given, else the order players sat down). The
    sheet's own words are `words(english)` (the table's language; `title`, `basic`,
    `order_note` and `next_roles` are drawn as given)."""
    shown = readable(shown)
    stake = Stake.parse(title if basic is None else basic)
    names = list(dict.fromkeys([*seating_order, *sheet.names()]))
    running, labels = sheet.running(), entry_labels(sheet)
    payments = sheet.breakdown(payoff)
    grid = _grid(names, [(next_roles or {}).get(n, "") for n in names], running, shown,
                 stake, rounding, width)
    note = wrap(_note(grid, shown, order_note, next_roles, words), grid.small,
                grid.width - 2 * grid.pad)
    first = max(0, len(running) - max_rows)  # the games before it are folded into one line
    height = _height(grid, len(note), first, len(running) - first, stake,
                     legend_lines=2 if roles is not None else 1, pay_lines=max(1, len(payments)))
    img = Image.new("RGB", (grid.width, height), theme.paper)
    draw = ImageDraw.Draw(img)
    y = _heading(draw, grid, theme, _title(title, labels, words), note)
    y = _column_heads(draw, grid, theme, y, words)
    if first:
        y = _folded(draw, grid, theme, y, f"1-{words(labels[first - 1])}", running[first - 1],
                    rounding)
    for index in range(first, len(running)):
        _row(draw, grid, sheet, index, labels, roles, running, y, theme, rounding, words)
        y = round(y + grid.row_h)
    y = _totals(draw, grid, theme, y, sheet.totals(), stake, rounding, words)
    y = _legend(draw, grid, y, theme, circles=roles is not None, stake=stake, words=words)
    _settle_up(draw, grid, theme, y + round(8 * grid.s), payments, stake, shown, rounding,
               words)
    draw.rectangle((0, 0, grid.width - 1, height - 1), outline=theme.grid,
                   width=max(1, round(grid.s)))
    return encode(img)


@dataclass(frozen=True)
class _Grid:
    """Where a sheet's columns go, and its measures at its scale `s` (that of the width
    asked, though the sheet may be wider): each player's column, its x and width, his name
    in one or two lines and the seat tag under it."""

    s: float
    width: int
    names: list[str]
    tags: list[str]
    heads: list[list[str]]
    xs: list[float]
    cols: list[float]

    @property
    def pad(self) -> int:
        return round(16 * self.s)

    @property
    def row_h(self) -> float:
        return ROW_H * self.s

    @property
    def head_h(self) -> int:
        return round(46 * self.s)

    @property
    def line_h(self) -> int:
        return round(34 * self.s)

    @property
    def size(self) -> int:  # the numbers
        return round(24 * self.s)

    @property
    def small(self) -> int:  # the changes, labels and notes
        return round(20 * self.s)

    @property
    def head(self) -> int:  # the names over the columns
        return round(22 * self.s)

    @property
    def tag_h(self) -> int:
        return round(26 * self.s) if any(self.tags) else 0

    @property
    def name_h(self) -> int:
        return self.head_h + (round(24 * self.s) if any(len(h) > 1 for h in self.heads) else 0)


def _grid(names: list[str], tags: list[str], running: list[dict[str, Fraction]], shown: Shown,
          stake: Stake | None, rounding: RoundMode, width: int) -> _Grid:
    """The columns: each wide enough for its numbers and tag, the names in what is left; the
    sheet wider than `width` only when the numbers need it."""
    s = scale(width)
    pad, size, small, head = round(16 * s), round(24 * s), round(20 * s), round(22 * s)
    label_w = round(62 * s)
    widest = max([length(format_points(v, rounding), size) for row in running
                  for v in row.values()] or [0.0])
    number_w = max(widest, length("-88½", size), length("-$888", small) if stake else 0.0)
    cols = _columns([length(shown(n), head, bold=True) for n in names],
                    [max(number_w, length(tag, small)) for tag in tags],
                    width - 2 * pad - label_w, s)
    width = max(width, round(2 * pad + label_w + sum(cols)))
    heads = [_two_lines(shown(n), head, w - 8 * s) for n, w in zip(names, cols, strict=True)]
    xs = [pad + label_w + sum(cols[:i]) for i in range(len(names))]
    return _Grid(s, width, names, tags, heads, xs, cols)


def _note(grid: _Grid, shown: Shown, order_note: str | None,
          next_roles: Mapping[str, str] | None, words: Words) -> str:
    """The line under the title: what order the columns are in, every name written out when
    one is cut in its column, and what the tags under the names are."""
    note = order_note or (words(ORDER_NOTE) if next_roles else
                          words("Columns in the order the players sat down."))
    if any(h[-1].endswith("…") for h in grid.heads):  # a name cut in its column
        note = note.rstrip(".") + ": " + ", ".join(shown(n) for n in grid.names) + "."
    if next_roles:
        note += words(" Under each name: the seat in the next game.")
    return note


def _total_h(grid: _Grid, stake: Stake | None) -> int:
    """The totals' row: as tall as a game's when it has the money under the points."""
    return round(grid.row_h) if stake else grid.line_h + round(6 * grid.s)


def _height(grid: _Grid, note_lines: int, folded: int, rows: int, stake: Stake | None, *,
            legend_lines: int, pay_lines: int) -> int:
    """The sheet's height: its heading and note, the column heads, the folded line (if
    any), the games' rows, the totals, the legend, and the settle-up lines."""
    s, pad, head_h, line_h = grid.s, grid.pad, grid.head_h, grid.line_h
    folded = 1 if folded else 0
    return round(pad + head_h + note_lines * line_h + grid.name_h + grid.tag_h
                 + folded * line_h + rows * grid.row_h
                 + _total_h(grid, stake) + round(10 * s) + legend_lines * line_h
                 + round(8 * s) + head_h + pay_lines * line_h + pad)


def _title(title: str, labels: list[str], words: Words) -> str:
    """The title with the number of games: "Score sheet · 4 games"."""
    games = sum(label.isdigit() for label in labels)
    return (words("{title} · 1 game") if games == 1
            else words("{title} · {games} games")).format(title=title, games=games)


def _heading(draw: ImageDraw.ImageDraw, grid: _Grid, theme: Theme, heading: str,
             note: list[str]) -> int:
    """The title, and the note's lines under it; the y under them."""
    s, pad, head_h, line_h = grid.s, grid.pad, grid.head_h, grid.line_h
    draw_text(draw, (pad, pad + head_h / 2),
              fit(heading, round(28 * s), grid.width - 2 * pad, True), round(28 * s),
              theme.card_ink, anchor="lm", bold=True)
    y = pad + head_h
    for line in note:
        draw_text(draw, (pad, y + line_h / 2), line, grid.small, theme.card_muted, anchor="lm")
        y += line_h
    return y


def _column_heads(draw: ImageDraw.ImageDraw, grid: _Grid, theme: Theme, y: int,
                  words: Words) -> int:
    """The dark band of the players' names, each seat tag under his; the y under it."""
    s, pad, small, name_h, tag_h = grid.s, grid.pad, grid.small, grid.name_h, grid.tag_h
    draw.rectangle((pad, y, grid.width - pad, y + name_h + tag_h), fill=theme.card_ink)
    draw_text(draw, (pad + 8 * s, y + name_h / 2), words("Game"), small, theme.paper, anchor="lm")
    for lines, tag, x, w in zip(grid.heads, grid.tags, grid.xs, grid.cols, strict=True):
        top = y + name_h / 2 - (len(lines) - 1) * 12 * s
        for k, line in enumerate(lines):
            draw_text(draw, (x + w / 2, top + k * 24 * s), line, grid.head, theme.paper,
                      anchor="mm", bold=True)
        if tag:
            draw_text(draw, (x + w / 2, y + name_h + tag_h / 2 - 4 * s), tag, small,
                      theme.grid, anchor="mm")
    if tag_h:
        draw_text(draw, (pad + 8 * s, y + name_h + tag_h / 2 - 4 * s), words("seats"), small,
                  theme.grid, anchor="lm")
    return y + name_h + tag_h


def _folded(draw: ImageDraw.ImageDraw, grid: _Grid, theme: Theme, y: int, label: str,
            running: dict[str, Fraction], rounding: RoundMode) -> int:
    """One line for the games not drawn: the running totals after the last of them; the y
    under it."""
    line_h, muted = grid.line_h, theme.card_muted
    draw_text(draw, (grid.pad + 8 * grid.s, y + line_h / 2), label, grid.small, muted,
              anchor="lm")
    for name, x, w in zip(grid.names, grid.xs, grid.cols, strict=True):
        draw_text(draw, (x + w / 2, y + line_h / 2),
                  format_points(running.get(name, Fraction(0)), rounding), grid.size, muted,
                  anchor="mm")
    return y + line_h


def _totals(draw: ImageDraw.ImageDraw, grid: _Grid, theme: Theme, y: int,
            totals: Mapping[str, Fraction], stake: Stake | None, rounding: RoundMode,
            words: Words) -> int:
    """The totals under a thick line, in money too with a stake; the y under them."""
    s, pad, line_h, ink = grid.s, grid.pad, grid.line_h, theme.card_ink
    draw.line((pad, y, grid.width - pad, y), fill=ink, width=max(2, round(3 * s)))
    draw_text(draw, (pad + 8 * s, y + line_h / 2 + 3 * s), words("Total"), grid.small, ink,
              anchor="lm", bold=True)
    for name, x, w in zip(grid.names, grid.xs, grid.cols, strict=True):
        points = totals.get(name, Fraction(0))
        colour = theme.gain if points > 0 else theme.loss if points < 0 else ink
        draw_text(draw, (x + w / 2, y + line_h / 2 + 3 * s), format_points(points, rounding),
                  grid.size, colour, anchor="mm", bold=True)
        if stake:
            draw_text(draw, (x + w / 2, y + line_h + 14 * s),
                      stake.format(points * stake.amount, signed=True), grid.small, colour,
                      anchor="mm")
    return y + _total_h(grid, stake) + round(10 * s)


def _settle_up(draw: ImageDraw.ImageDraw, grid: _Grid, theme: Theme, y: int,
               payments: Sequence[Transfer], stake: Stake | None, shown: Shown,
               rounding: RoundMode, words: Words) -> None:
    """"Settle up": who pays whom, in money too with a stake."""
    s, pad, line_h, ink = grid.s, grid.pad, grid.line_h, theme.card_ink
    draw_text(draw, (pad, y + grid.head_h / 2), words("Settle up"), round(26 * s), ink,
              anchor="lm", bold=True)
    y += grid.head_h
    lines = [p.phrase(shown, rounding, words) + (f" ({stake.of(p.points)})" if stake else "")
             for p in payments]
    for line in lines or [words("Nobody owes anything.")]:
        draw_text(draw, (pad + 8 * s, y + line_h / 2), fit(line, grid.size, grid.width - 3 * pad),
                  grid.size, ink, anchor="lm")
        y += line_h


def _two_lines(name: str, size: int, width: float) -> list[str]:
    """A column's name on one line, or two broken at a space when it does not fit (the
    second cut with "…" if need be)."""
    if length(name, size, True) <= width:
        return [clean(name)]
    lines = wrap(name, size, width, bold=True)
    if len(lines) == 1:
        return lines
    return [lines[0], fit(" ".join(lines[1:]), size, width, bold=True)]


def _columns(name_w: list[float], least: list[float], room: float, s: float) -> list[float]:
    """Each column's width: at least its numbers and label; the names get what is left of
    `room` (up to 150 pixels at 800), cut when there is not enough, and whatever is left
    over is shared out. Only when the numbers alone need more than `room` is the sheet
    wider than asked."""
    base = [w + 18 * s for w in least]
    extra = [max(0.0, min(n, 150 * s) + 18 * s - b) for n, b in zip(name_w, base, strict=True)]
    spare = room - sum(base)
    if spare <= 0 or not base:
        return base
    share = min(1.0, spare / sum(extra)) if sum(extra) else 0.0
    cols = [b + e * share for b, e in zip(base, extra, strict=True)]
    stretch = room / sum(cols)
    return [w * stretch for w in cols]


def _row(draw: ImageDraw.ImageDraw, grid: _Grid, sheet: ScoreSheet, index: int,
         labels: list[str], roles: Sequence[GameRoles] | None,
         running: list[dict[str, Fraction]], y: int, theme: Theme, rounding: RoundMode,
         words: Words = english) -> None:
    """One game: the running totals, under each the game's change; the losers circled."""
    s, pad, xs, cols = grid.s, grid.pad, grid.xs, grid.cols
    row_h, size, small = grid.row_h, grid.size, grid.small
    if index % 2:
        draw.rectangle((pad, y, xs[-1] + cols[-1] if xs else pad, y + row_h), fill=theme.card)
    label = labels[index]
    draw_text(draw, (pad + 8 * s, y + row_h / 2), words(label), small, theme.card_muted,
              anchor="lm")
    game = int(label) - 1 if label.isdigit() else None
    game_roles = (roles[game] if roles is not None and game is not None and game < len(roles)
                  else None)
    circled = losers(sheet, index, game_roles)
    nets = sheet.game_net(index)
    top, bottom = y + 19 * s, y + row_h - 12 * s
    for name, x, w in zip(grid.names, xs, cols, strict=True):
        text = format_points(running[index].get(name, Fraction(0)), rounding)
        cx = x + w / 2
        drawn = draw_text(draw, (cx, top), text, size, theme.card_ink, anchor="mm")
        change = nets.get(name, Fraction(0))
        colour = theme.gain if change > 0 else theme.loss if change < 0 else theme.card_muted
        draw_text(draw, (cx, bottom), format_points(change, rounding) if change else "·",
                  small, colour, anchor="mm", bold=bool(change))
        if name in circled:
            half = drawn / 2 + 10 * s
            draw.ellipse((cx - half, top - 16 * s, cx + half, top + 15 * s),
                         outline=theme.circle, width=max(2, round(2.5 * s)))
            if len(circled) == 2 and game_roles is not None and name == game_roles[0]:
                draw_text(draw, (cx + half + 2 * s, top - 6 * s), words("b"), small, theme.circle,
                          anchor="lm", bold=True)


def _legend(draw: ImageDraw.ImageDraw, grid: _Grid, y: int, theme: Theme, *, circles: bool,
            stake: Stake | None, words: Words = english) -> int:
    """What the marks mean, one line each; the y under the legend."""
    s, pad, line_h, width = grid.s, grid.pad, grid.line_h, grid.width
    small, muted = grid.small, theme.card_muted
    x = pad + 8 * s
    mid = y + line_h / 2
    draw_text(draw, (x, mid), "12", small, theme.card_ink, anchor="lm")
    draw_text(draw, (x + 36 * s, mid), "+2", small, theme.gain, anchor="lm", bold=True)
    text = words("running total, and under it what the game changed")
    if stake:
        text += words("; one point is {amount}").format(amount=stake.format(stake.amount))
    draw_text(draw, (x + 76 * s, mid), fit(text, small, width - 2 * pad - 84 * s), small, muted,
              anchor="lm")
    y += line_h
    if circles:
        mid = y + line_h / 2
        draw.ellipse((x, mid - 12 * s, x + 34 * s, mid + 12 * s), outline=theme.circle,
                     width=max(2, round(2.5 * s)))
        draw_text(draw, (x + 38 * s, mid - 4 * s), words("b"), small, theme.circle,
                  anchor="lm", bold=True)
        text = words("lost the game as Box or Captain; b: both lost, by the Box's circle")
        draw_text(draw, (x + 60 * s, mid), fit(text, small, width - 2 * pad - 68 * s), small,
                  muted, anchor="lm")
        y += line_h
    return y
