"""Contract 3 on the command line: `python -m bot render --id ID [--dice D1 D2] --out FILE`."""

from __future__ import annotations

import sys

from bot.render.board import render_board as draw
from rules.cube import Side
from rules.errors import RuleError
from rules.notation import position_from_id


def render_board(pid: str, dice: list[int] | None, out: str, width: int) -> int:
    """Draw the board of `pid` (the side on roll at the bottom) into `out`; a bad input is
    one line on stderr and the exit status 2."""
    try:
        position = position_from_id(pid)
        if dice is not None and not all(1 <= d <= 6 for d in dice):
            raise RuleError(f"dice run from 1 to 6, not {dice[0]} {dice[1]}")
        if not 200 <= width <= 4000:
            raise RuleError(f"--width is 200 to 4000 pixels, not {width}")
        roll = (dice[0], dice[1]) if dice is not None else None
        status = f"To play {roll[0]}-{roll[1]}" if roll else "To roll"
        data = draw(position, dice=roll, status=status, width=width,
                    names={Side.TEAM: "On roll", Side.BOX: "Opponent"})
        with open(out, "wb") as fh:
            fh.write(data)
    except ValueError as exc:  # a RuleError too
        return _bad(str(exc))
    except OSError as exc:
        return _bad(f"can't write {out}: {exc.strerror}")
    return 0


def _bad(message: str) -> int:
    print(f"chouette-bot: {message}", file=sys.stderr)
    return 2
