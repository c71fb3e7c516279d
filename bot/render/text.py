"""Text on the images in any name a Discord user can have: the shipped fonts, one after another.

Pillow draws a string with one font, and a font without a character draws its .notdef box.
So every string is first cleaned (`clean`: NFC, emoji joiners and modifiers left out, a flag
drawn as one flag, a character no font has as "?"), then cut into runs, each drawn with the
first font of the chain that has all of its characters (`assets/fonts/README.md`): Noto Sans
for Latin, Greek and Cyrillic, Droid Sans Fallback for CJK and Hangul, Symbola for emoji. Which
characters a font has is read from its own `cmap` table, so nothing is guessed.
"""

from __future__ import annotations

import struct
import unicodedata
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONTS = Path(__file__).resolve().parents[2] / "assets" / "fonts"
REGULAR = "NotoSans-Regular.ttf"
BOLD = "NotoSans-Bold.ttf"
FALLBACKS = ("DroidSansFallback-CJK.ttf", "Symbola-Emoji.ttf")
MISSING = "?"
EMOJI_SCALE = 1.2
WHITE_FLAG = "\U0001f3f3"
Font = ImageFont.FreeTypeFont
Colour = tuple[int, int, int]

# Left out: joiners, variation selectors, skin tones, tag characters, the keycap's enclosure.
_DROPPED = {0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x20E3}
_DROPPED_RANGES = ((0xFE00, 0xFE0F), (0x1F3FB, 0x1F3FF), (0xE0000, 0xE007F),
                   (0xE0100, 0xE01EF))
_FLAGS = (0x1F1E6, 0x1F1FF)  # regional indicators: two make a flag
_SAME = {"\u2212": "-", "\u00a0": " "}  # characters drawn as another (Noto has no minus)


def cmap(path: Path) -> frozenset[int]:
    """The code points `path` (a TrueType font) maps to a glyph, from its cmap table
    (formats 4 and 12, the Unicode ones)."""
    data = path.read_bytes()
    tables = struct.unpack_from(">H", data, 4)[0]
    offset = next(struct.unpack_from(">4sIII", data, 12 + 16 * i)[2] for i in range(tables)
                  if data[12 + 16 * i:16 + 16 * i] == b"cmap")
    codes: set[int] = set()
    count = struct.unpack_from(">H", data, offset + 2)[0]
    for i in range(count):
        platform, encoding, sub = struct.unpack_from(">HHI", data, offset + 4 + 8 * i)
        if (platform, encoding) not in ((3, 1), (3, 10), (0, 3), (0, 4)):
            continue
        at = offset + sub
        kind = struct.unpack_from(">H", data, at)[0]
        if kind == 4:
            codes |= _format4(data, at)
        elif kind == 12:
            groups = struct.unpack_from(">I", data, at + 12)[0]
            for g in range(groups):
                start, end, glyph = struct.unpack_from(">III", data, at + 16 + 12 * g)
                codes.update(c for c in range(start, end + 1) if glyph + c - start)
    return frozenset(codes)


def _format4(data: bytes, at: int) -> set[int]:
    segments = struct.unpack_from(">H", data, at + 6)[0] // 2
    ends = struct.unpack_from(f">{segments}H", data, at + 14)
    starts = struct.unpack_from(f">{segments}H", data, at + 16 + 2 * segments)
    deltas = struct.unpack_from(f">{segments}h", data, at + 16 + 4 * segments)
    range_at = at + 16 + 6 * segments
    offsets = struct.unpack_from(f">{segments}H", data, range_at)
    codes = set()
    for k, (start, end, delta, off) in enumerate(zip(starts, ends, deltas, offsets,
                                                     strict=True)):
        for c in range(start, min(end, 0xFFFE) + 1):
            if off == 0:
                glyph = (c + delta) & 0xFFFF
            else:
                glyph_at = range_at + 2 * k + off + 2 * (c - start)
                glyph = struct.unpack_from(">H", data, glyph_at)[0]
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                codes.add(c)
    return codes


@lru_cache(maxsize=1)
def _coverage() -> tuple[frozenset[int], ...]:
    """What each font of the chain has: the primary (regular and bold alike), then the
    fallbacks."""
    return tuple(cmap(FONTS / name) for name in (REGULAR, *FALLBACKS))


def drawable(char: str) -> bool:
    """Whether some font of the chain has `char`."""
    return any(ord(char) in cover for cover in _coverage())


@lru_cache(maxsize=4096)
def clean(text: str) -> str:
    """`text` as it is drawn: NFC; emoji joiners, modifiers and variation selectors left
    out; each flag (two regional indicators) as one 🏳; a control character as a space; any
    other character no font has as "?" (a mark or symbol no font has is left out)."""
    out: list[str] = []
    flag = False
    for char in unicodedata.normalize("NFC", text):
        code = ord(char)
        char = _SAME.get(char, char)
        if code in _DROPPED or any(lo <= code <= hi for lo, hi in _DROPPED_RANGES):
            continue
        if _FLAGS[0] <= code <= _FLAGS[1]:
            flag = not flag
            if flag:
                out.append(WHITE_FLAG)
            continue
        flag = False
        kind = unicodedata.category(char)
        if kind[0] == "C":
            out.append(" ")
        elif drawable(char):
            out.append(char)
        elif kind[0] not in "MS":
            out.append(MISSING)
    return "".join(out)


def readable(shown: Callable[[str], str]) -> Callable[[str], str]:
    """`shown` (a player's key -> his name) made to give a name that draws: cleaned, and "?"
    for one with nothing left to draw (a name of emoji no font has)."""
    def name(key: str) -> str:
        return clean(shown(key)).strip() or MISSING
    return name


@lru_cache(maxsize=4096)
def runs(text: str) -> tuple[tuple[int, str], ...]:
    """`clean(text)` cut into (font index in the chain, run) pieces. A space is Noto's (the
    emoji font's is twice as wide); other characters stay in the current run when its font
    has them."""
    cover = _coverage()
    pieces: list[tuple[int, str]] = []
    for char in clean(text):
        code = ord(char)
        current = pieces[-1][0] if pieces else 0
        index = 0 if char == " " else current if code in cover[current] else next(
            (i for i, c in enumerate(cover) if code in c), 0)
        if pieces and pieces[-1][0] == index:
            pieces[-1] = (index, pieces[-1][1] + char)
        else:
            pieces.append((index, char))
    return tuple(pieces)


@lru_cache(maxsize=128)
def face(size: int, bold: bool = False, index: int = 0) -> Font:
    """Font `index` of the chain (0: Noto Sans, bold or not) at `size` pixels (cached); the
    emoji font a little larger, as its glyphs are drawn small in their em."""
    name = (BOLD if bold else REGULAR) if index == 0 else FALLBACKS[index - 1]
    scale = EMOJI_SCALE if index == len(FALLBACKS) else 1.0
    return ImageFont.truetype(str(FONTS / name), max(round(size * scale), 6))


def font(size: int, bold: bool = False) -> Font:
    """The primary font at `size` pixels: for the metrics of a line."""
    return face(size, bold)


def length(text: str, size: int, bold: bool = False) -> float:
    """How wide `text` is drawn at `size`, in pixels."""
    return sum(_width(run, size, bold, i) for i, run in runs(text))


def fit(text: str, size: int, width: float, bold: bool = False) -> str:
    """`text` (cleaned) cut with "…" so that it fits `width` pixels at `size`."""
    text = clean(text)
    if length(text, size, bold) <= width:
        return text
    low, high = 0, len(text)  # the longest cut that fits is text[:low]: a binary search
    while low < high:
        mid = (low + high + 1) // 2
        if length(text[:mid].rstrip() + "…", size, bold) <= width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + "…"


def wrap(text: str, size: int, width: float, bold: bool = False) -> list[str]:
    """`text` (cleaned) broken at spaces into lines that fit `width` pixels at `size`; a word
    longer than a line is cut with "…"."""
    lines: list[str] = []
    for word in clean(text).split(" "):
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and length(joined, size, bold) <= width:
            lines[-1] = joined
        else:
            lines.append(fit(word, size, width, bold))
    return lines


def draw_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
              fill: Colour, *, anchor: str = "la", bold: bool = False) -> float:
    """Draw `text` at `xy` with Pillow's `anchor` (horizontal l/m/r, vertical a/m/s), each
    run in its own font, all on the primary font's baseline; the width drawn."""
    pieces = runs(text)
    widths = [_width(run, size, bold, index) for index, run in pieces]
    total = sum(widths)
    x, y = xy
    x -= {"l": 0.0, "m": total / 2, "r": total}[anchor[0]]
    ascent, descent = face(size, bold).getmetrics()
    y += {"a": ascent, "m": (ascent - descent) / 2, "s": 0.0}[anchor[1]]
    for (index, run), w in zip(pieces, widths, strict=True):
        draw_run(draw, (x, y), run, face(size, bold, index), fill)
        x += w
    return total


def draw_run(draw: ImageDraw.ImageDraw, xy: tuple[float, float], run: str, font: Font,
             fill: Colour) -> None:
    """Draw one run in one font, its baseline's left end at `xy`, from its mask (`_line`)."""
    mask, left, top = _line(run, font)
    draw.bitmap((round(xy[0]) + left, round(xy[1]) + top), mask, fill=fill)


@lru_cache(maxsize=4096)
def _line(run: str, font: Font) -> tuple[Image.Image, int, int]:
    """`run`'s mask, and where its top left is from the baseline's left end: its characters'
    masks (`_mask`, each drawn once) set side by side, kerned by pairs. FreeType takes about
    0.2 ms a glyph, and a board's lines ("bob to play 6-5", a new position's ID) are new on
    every board while their characters never are; a line that comes back (a name, a
    heading) is one mask kept."""
    placed: list[tuple[int, int, Image.Image]] = []
    pen, previous = 0.0, ""
    for cluster in _clusters(run):
        pen += _kern(previous, cluster, font)
        if not cluster.isspace():
            mask, left, top = _mask(cluster, font)
            placed.append((round(pen) + left, top, mask))
        pen += _advance(cluster, font)
        previous = cluster
    if not placed:
        return Image.new("L", (1, 1)), 0, 0
    left = min(x for x, _, _ in placed)
    top = min(y for _, y, _ in placed)
    right = max(x + m.width for x, _, m in placed)
    bottom = max(y + m.height for _, y, m in placed)
    line = Image.new("L", (right - left, bottom - top))
    for x, y, mask in placed:  # each over the others, as drawn one by one
        line.paste(255, (x - left, y - top, x - left + mask.width, y - top + mask.height), mask)
    return line, left, top


def forget() -> None:
    """Forget the masks and widths drawn so far (the bench's cold board)."""
    _mask.cache_clear()
    _line.cache_clear()
    _width.cache_clear()
    _advance.cache_clear()
    _kern.cache_clear()
    _clusters.cache_clear()
    runs.cache_clear()


@lru_cache(maxsize=4096)
def _width(run: str, size: int, bold: bool, index: int) -> float:
    """How wide `draw_run` draws `run`: its characters' advances, kerned."""
    font, width, previous = face(size, bold, index), 0.0, ""
    for cluster in _clusters(run):
        width += _kern(previous, cluster, font) + _advance(cluster, font)
        previous = cluster
    return width


@lru_cache(maxsize=4096)
def _clusters(run: str) -> tuple[str, ...]:
    """`run` cut into characters, each with the combining marks that follow it."""
    out: list[str] = []
    for char in run:
        if out and unicodedata.combining(char):
            out[-1] += char
        else:
            out.append(char)
    return tuple(out)


@lru_cache(maxsize=8192)
def _advance(cluster: str, font: Font) -> float:
    return font.getlength(cluster)


@lru_cache(maxsize=16384)
def _kern(left: str, right: str, font: Font) -> float:
    """How much nearer (negative) the font sets `right` after `left` than apart."""
    if not left:
        return 0.0
    return font.getlength(left + right) - _advance(left, font) - _advance(right, font)


@lru_cache(maxsize=8192)
def _mask(run: str, font: Font) -> tuple[Image.Image, int, int]:
    """`run` drawn white on black in `font`, and where its top left is from the baseline."""
    left, top, right, bottom = (int(v) for v in font.getbbox(run, anchor="ls"))
    mask = Image.new("L", (max(right - left, 1), max(bottom - top, 1)))
    ImageDraw.Draw(mask).text((-left, -top), run, font=font, fill=255, anchor="ls")
    return mask, left, top
