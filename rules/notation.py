"""Text forms of the engine's values: gnubg Position IDs and plays in standard notation.

Every form has a parser and a formatter that round-trip. Plays are written the way gnubg
writes them (`24/18 13/11`, `bar/22*`, `6/off(2)`, `24/21*/16`); the parser also takes the
looser forms players type (`b/22`, `8/5 8/5`, `13/7/4`, `25/20`, `6/0`).
"""

from __future__ import annotations

import base64
import binascii
import itertools
import re

from rules.board import BAR, CHECKERS, OFF, Move, Play, Position, legal_plays
from rules.errors import AmbiguousPlay, BadNotation, IllegalPlay

# --- gnubg Position ID -------------------------------------------------------------------


def position_id(position: Position) -> str:
    """The 14-character gnubg Position ID: the side not on roll first, then the side on roll."""
    key = 0
    bit = 0
    for side in (position.opponent, position.player):
        for count in side:
            key |= ((1 << count) - 1) << bit
            bit += count + 1
    return base64.b64encode(key.to_bytes(10, "little")).decode("ascii")[:14]


def position_from_id(pid: str) -> Position:
    """The position of a gnubg Position ID; `BadNotation` if it is not one."""
    text = pid.strip()
    if not re.fullmatch(r"[A-Za-z0-9+/]{14}", text):
        raise BadNotation(code="pid_form", pid=repr(pid))
    try:
        key = int.from_bytes(base64.b64decode(text + "=="), "little")
    except binascii.Error as exc:  # pragma: no cover - the pattern above admits only base64
        raise BadNotation(code="pid_not", pid=repr(pid)) from exc
    sides: list[tuple[int, ...]] = []
    bit = 0
    for _ in range(2):
        counts = []
        for _ in range(25):
            n = 0
            while bit < 80 and key >> bit & 1:
                n += 1
                bit += 1
            bit += 1
            counts.append(n)
        sides.append(tuple(counts))
        if sum(counts) > CHECKERS:
            raise BadNotation(code="pid_checkers", pid=repr(pid), most=CHECKERS)
    if key >> bit:
        raise BadNotation(code="pid_bits", pid=repr(pid))
    try:
        return Position(player=sides[1], opponent=sides[0])
    except ValueError as exc:
        raise BadNotation(code="pid_illegal", pid=repr(pid), why=str(exc)) from exc


# --- plays ---------------------------------------------------------------------------------


def _point(n: int) -> str:
    return "bar" if n == BAR else "off" if n == OFF else str(n)


def format_play(play: Play | tuple[Move, ...]) -> str:
    """A play in gnubg's notation: checkers by source point, highest first; one checker's
    moves joined (`24/16`, `24/21*/16` when it hits on the way); repeats counted (`8/5(2)`);
    a hit marked once with `*`. A pass is the empty string."""
    moves = play.moves if isinstance(play, Play) else play
    hits = {mv.dst for mv in moves if mv.hit}
    pending = sorted(([mv.src, mv.dst] for mv in moves), reverse=True)
    paths: list[list[int]] = []  # [src, hit intermediates..., dst]
    while pending:
        path = pending.pop(0)
        joined = True
        while joined:
            joined = False
            for k, (src, dst) in enumerate(pending):
                if src == path[-1]:
                    if path[-1] not in hits:
                        path.pop()
                    path.append(dst)
                    del pending[k]
                    joined = True
                    break
        paths.append(path)
    groups: list[tuple[list[int], int]] = []
    for path in paths:
        for k, (seen, n) in enumerate(groups):
            if seen == path:
                groups[k] = (seen, n + 1)
                break
        else:
            groups.append((path, 1))
    starred: set[int] = set()
    words = []
    for path, n in groups:
        text = _point(path[0])
        for p in path[1:-1]:
            text += f"/{_point(p)}*"
            starred.add(p)
        text += "/" + _point(path[-1])
        if path[-1] in hits and path[-1] not in starred:
            text += "*"
            starred.add(path[-1])
        words.append(text + (f"({n})" if n > 1 else ""))
    return " ".join(words)


_POINT = r"(?:bar|b|off|o|\d{1,2})"
_WORD = re.compile(rf"({_POINT}\*?(?:/{_POINT}\*?)+)(?:\((\d)\))?")


def _parse_point(text: str) -> int:
    text = text.rstrip("*")
    if text in ("bar", "b"):
        return BAR
    if text in ("off", "o"):
        return OFF
    n = int(text)
    if n > 25:
        raise BadNotation(code="no_point", point=n)
    return n


def parse_paths(text: str) -> list[tuple[list[int], int, set[int]]]:
    """Split a play into checker paths: (points passed, how many checkers, points marked `*`).

    Checks the form only; whether the play is legal is `parse_play`'s question.
    """
    paths = []
    for word in text.lower().replace(",", " ").split():
        match = _WORD.fullmatch(word)
        if not match:
            raise BadNotation(code="cant_read", word=repr(word))
        parts = match.group(1).split("/")
        points = [_parse_point(p) for p in parts]
        marked = {pt for pt, part in zip(points, parts, strict=True) if part.endswith("*")}
        if points[0] == OFF or BAR in points[1:] or OFF in points[:-1]:
            raise BadNotation(code="wrong_way", word=repr(word))
        if any(a <= b for a, b in itertools.pairwise(points)):
            raise BadNotation(code="backwards", word=repr(word))
        count = int(match.group(2) or 1)
        if not 1 <= count <= 4:
            raise BadNotation(code="repeat_count", word=repr(word))
        paths.append((points, count, marked))
    return paths


def parse_play(text: str, position: Position, dice: tuple[int, int]) -> Play:
    """The legal play of `dice` from `position` that `text` describes.

    Raises `BadNotation` for text that is no play, `IllegalPlay` when no legal play reaches the
    position described (the message lists the legal ones), `AmbiguousPlay` when several do.
    """
    plays = legal_plays(position, dice)
    roll = f"{dice[0]}-{dice[1]}"
    if text.strip().lower() in ("", "pass", "none", "no move", "-"):
        if plays[0].moves:
            raise IllegalPlay(code="can_move", roll=roll, legal=_listing(plays))
        return plays[0]
    paths = parse_paths(text)
    board = list(position.player)
    for points, count, _ in paths:
        src, dst = points[0], points[-1]
        if board[src - 1] < count:
            raise IllegalPlay(code="no_checker", point=_point(src), play=repr(text.strip()),
                              roll=roll, legal=_listing(plays))
        board[src - 1] -= count
        if dst:
            board[dst - 1] += count
    target = tuple(board)
    matches = [p for p in plays if p.position.player == target]
    if not matches:
        raise IllegalPlay(code="not_legal", play=text.strip(), roll=roll, legal=_listing(plays))
    if len(matches) > 1:
        # Landing on a blot hits it; a joined move (24/16) says nothing of the points between.
        named = {pt for points, _, marked in paths for pt in (*points[1:], *marked)
                 if pt and position.opponent[24 - pt] == 1}
        exact = [p for p in matches if {mv.dst for mv in p.moves if mv.hit} == named]
        if len(exact) != 1:
            raise AmbiguousPlay(code="ambiguous", play=text.strip(), plays=_listing(matches))
        matches = exact
    return matches[0]


def _listing(plays: tuple[Play, ...] | list[Play], most: int = 8) -> str:
    texts = sorted(format_play(p) or "no move" for p in plays)
    more = f" and {len(texts) - most} more" if len(texts) > most else ""
    return ", ".join(texts[:most]) + more
