"""The score sheet image: running totals per game, the losers circled, totals and settling up.

As on the Atlanta score sheet (10.1): one column a player in rotation order, one row a game
with every player's running total, the loser of each game circled. The Box lost when his net
for the game is below zero, the Captain likewise; if both lost, both are circled with a "b" by
the Box's circle (the Box follows the Captain in the rotation). Who was Box and Captain comes
from `roles`, one (Box, Captain) pair a sheet entry (None for an entry that is not a game,
such as a leaving settlement); without `roles` nothing is circled. Under each name, the
rotation for the next game from `next_roles` (euro ¶17: "Box", "Partner", "Captain", "2",
...). Below: the totals, and who pays whom to settle (`rules.ledger.breakdown`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from PIL import Image, ImageDraw

from bot.render.theme import DEFAULT, Shown, Theme, encode, fit, font, plain, same, scale
from rules.ledger import RoundMode, ScoreSheet, format_points

DEFAULT_WIDTH = 800
GameRoles = tuple[str, str] | None


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
            labels.append("fix")
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
    max_rows: int = 30,
    title: str = "Score sheet",
    width: int = DEFAULT_WIDTH,
    theme: Theme = DEFAULT,
    shown: Shown = same,
    payoff: str = "most_minus_first",
) -> bytes:
    """The sheet as PNG bytes; only the last `max_rows` games are drawn, the rest summed up
    in one line. `width` is the least width: many players make the image wider. The sheet,
    `seating_order` and `roles` name players by key; the column headers and the settle-up
    lines draw `shown(key)` (by default the key itself); `next_roles` maps a key to the label
    under his name (none for a player not in it)."""
    s = scale(width)
    names = list(dict.fromkeys([*seating_order, *sheet.names()]))
    heads = [shown(n) for n in names]
    tags = [(next_roles or {}).get(n, "") for n in names]
    running = sheet.running()
    totals = sheet.totals()
    payments = sheet.breakdown(payoff)
    pad, row_h, head_h = round(16 * s), round(40 * s), round(46 * s)
    size, small = round(22 * s), round(18 * s)
    tag_h = round(18 * s) if any(tags) else 0

    def cell(points: Fraction) -> str:
        return plain(format_points(points, rounding))

    label_w = round(70 * s)
    natural = [max(font(size).getlength(plain(h)), font(size).getlength("-888.5"),
                   font(small).getlength(tag)) + 28 * s for h, tag in zip(heads, tags, strict=True)]
    room = width - 2 * pad - label_w
    stretch = max(1.0, room / sum(natural)) if names else 1.0
    cols = [w * stretch for w in natural]
    width = max(width, round(2 * pad + label_w + sum(cols)))
    first = max(0, len(running) - max_rows)
    skipped = 1 if first else 0
    rows = len(running) - first + skipped
    pay_lines = max(1, len(payments))
    height = (pad + head_h + head_h + tag_h + rows * row_h + row_h + round(12 * s) + head_h
              + pay_lines * round(32 * s) + pad)
    img = Image.new("RGB", (width, height), theme.paper)
    draw = ImageDraw.Draw(img)
    ink = theme.card_ink
    labels = entry_labels(sheet)
    games = sum(label.isdigit() for label in labels)
    heading = f"{title} · {games} game{'s' if games != 1 else ''}"
    draw.text((pad, pad + head_h / 2), fit(plain(heading), round(26 * s), width - 2 * pad),
              font=font(round(26 * s)), fill=ink, anchor="lm", stroke_width=1, stroke_fill=ink)
    y = pad + head_h
    xs = [pad + label_w + sum(cols[:i]) for i in range(len(names))]
    draw.rectangle((pad, y, width - pad, y + head_h + tag_h), fill=theme.card_ink)
    draw.text((pad + 10 * s, y + head_h / 2), "Game", font=font(small), fill=theme.paper,
              anchor="lm")
    if tag_h:
        draw.text((pad + 10 * s, y + head_h + tag_h / 2 - 6 * s), "seats", font=font(small),
                  fill=theme.grid, anchor="lm")
    for head, tag, x, w in zip(heads, tags, xs, cols, strict=True):
        draw.text((x + w / 2, y + head_h / 2), fit(plain(head), size, w - 8 * s),
                  font=font(size), fill=theme.paper, anchor="mm", stroke_width=1,
                  stroke_fill=theme.paper)
        if tag:
            draw.text((x + w / 2, y + head_h + tag_h / 2 - 6 * s), tag, font=font(small),
                      fill=theme.grid, anchor="mm")
    y += head_h + tag_h
    if skipped:
        draw.text((pad + 10 * s, y + row_h / 2), f"games 1-{first} not shown",
                  font=font(small), fill=theme.card_muted, anchor="lm")
        y += row_h
    for index in range(first, len(running)):
        if (index - first) % 2:
            draw.rectangle((pad, y, width - pad, y + row_h), fill=theme.card)
        label = labels[index]
        draw.text((pad + 10 * s, y + row_h / 2), label, font=font(small),
                  fill=theme.card_muted, anchor="lm")
        game = int(label) - 1 if label.isdigit() else None
        game_roles = (roles[game] if roles is not None and game is not None
                      and game < len(roles) else None)
        circled = losers(sheet, index, game_roles)
        for name, x, w in zip(names, xs, cols, strict=True):
            text = cell(running[index].get(name, Fraction(0)))
            cx, cy = x + w / 2, y + row_h / 2
            draw.text((cx, cy), text, font=font(size), fill=ink, anchor="mm")
            if name in circled:
                half = font(size).getlength(text) / 2 + 12 * s
                draw.ellipse((cx - half, cy - row_h / 2 + 3 * s, cx + half,
                              cy + row_h / 2 - 3 * s), outline=theme.circle,
                             width=max(2, round(2.5 * s)))
                if len(circled) == 2 and game_roles is not None and name == game_roles[0]:
                    draw.text((cx + half + 3 * s, cy - 4 * s), "b", font=font(small),
                              fill=theme.circle, anchor="lm", stroke_width=1,
                              stroke_fill=theme.circle)
        y += row_h
    draw.line((pad, y, width - pad, y), fill=ink, width=max(2, round(3 * s)))
    draw.text((pad + 10 * s, y + row_h / 2), "Total", font=font(small), fill=ink, anchor="lm",
              stroke_width=1, stroke_fill=ink)
    for name, x, w in zip(names, xs, cols, strict=True):
        points = totals.get(name, Fraction(0))
        colour = theme.in_game if points > 0 else theme.dropped if points < 0 else ink
        draw.text((x + w / 2, y + row_h / 2), cell(points), font=font(size), fill=colour,
                  anchor="mm", stroke_width=1, stroke_fill=colour)
    y += row_h + round(12 * s)
    draw.text((pad, y + head_h / 2), "Settle up", font=font(round(24 * s)), fill=ink,
              anchor="lm", stroke_width=1, stroke_fill=ink)
    y += head_h
    lines = [p.phrase(shown, rounding) for p in payments]
    for line in lines or ["Nobody owes anything."]:
        draw.text((pad + 10 * s, y + round(16 * s)), fit(plain(line), size, width - 3 * pad),
                  font=font(size), fill=ink, anchor="lm")
        y += round(32 * s)
    draw.rectangle((0, 0, width - 1, height - 1), outline=theme.grid, width=max(1, round(s)))
    return encode(img)
