"""The board as the bot sends it: drawn from kept bands and pieces, the same as drawn whole."""

import io
import random
import zlib

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from bot.render import board, palette
from bot.render.bands import board_rgb
from bot.render.board import board_png
from bot.render.lastplay import LastPlay
from bot.render.palette import sample_picture
from bot.render.picture import picture
from bot.render.png import adler32_combine
from bot.render.samples import LAST, ROLES, full_strip, midgame, world
from rules.board import Position, legal_plays
from rules.cube import Side


def decoded(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    assert img.format == "PNG" and img.mode == "P"
    Image.open(io.BytesIO(data)).verify()  # the chunks' CRCs
    return img


def mapped(pic: board.Picture) -> Image.Image:
    """`pic` drawn whole in full colour, then mapped to the palette (no band, no piece kept)."""
    return palette.mapped(board_rgb(pic), pic.theme)


def test_adler32_of_two_strings_is_combined_as_zlib_would() -> None:
    rng = random.Random(1)
    for _ in range(50):
        a = rng.randbytes(rng.randrange(0, 70000))
        b = rng.randbytes(rng.randrange(0, 70000))
        assert adler32_combine(zlib.adler32(a), zlib.adler32(b), len(b)) == zlib.adler32(a + b)


def test_the_png_is_the_picture_drawn_whole_and_mapped_to_the_palette() -> None:
    for pic in (sample_picture(), sample_picture(shown=world), sample_picture(width=500)):
        img = decoded(board_png(pic))
        assert img.tobytes() == mapped(pic).tobytes()
        assert img.getpalette() == palette.board_palette(pic.theme).getpalette()


def test_the_palette_keeps_the_full_colour_picture_to_the_eye() -> None:
    pic = sample_picture(shown=world)
    full, png = board_rgb(pic), decoded(board_png(pic)).convert("RGB")
    worst = max(high for _, high in ImageChops.difference(full, png).getextrema())
    assert worst <= 20  # antialiased edges a shade off; every flat colour within a few units


def test_a_board_drawn_from_kept_bands_is_the_board_drawn_from_nothing() -> None:
    boards = [picture(midgame(), on_roll=Side.BOX, dice=dice, cubes=full_strip()[:n],
                      roles=ROLES, last=LAST) for dice, n in (((5, 3), 7), (None, 7), ((6, 6), 2))]
    warm = [board_png(pic) for pic in boards + boards]
    assert warm[:3] == warm[3:]
    board.forget()
    assert [board_png(pic) for pic in reversed(boards)] == warm[2::-1]


def test_the_board_stays_small() -> None:
    sizes = [len(board_png(sample_picture(shown=shown))) for shown in (str, world)]
    assert all(30_000 < size < 90_000 for size in sizes), sizes


@st.composite
def boards(draw: st.DrawFn) -> board.Picture:
    """A board reached by legal plays, as the bot draws it: some rolled, the last play marked,
    any side at the bottom, some checkers on the bar and off."""
    rng = random.Random(draw(st.integers(0, 10_000)))
    position, side, last = Position.initial(), Side.TEAM, None
    for _ in range(draw(st.integers(0, 80))):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        after = rng.choice(legal_plays(position, dice)).position
        if after.outcome():
            break
        last = LastPlay.between(side, position, after)
        position, side = after.swap(), side.other
    dice = draw(st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)))
    return picture(position, on_roll=side, dice=dice, last=last,
                   bottom=draw(st.sampled_from(list(Side))), cubes=full_strip()[:2], roles=ROLES)


@settings(max_examples=30, deadline=None)
@given(boards())
def test_any_board_from_pieces_is_the_board_drawn_whole(pic: board.Picture) -> None:
    assert decoded(board_png(pic)).tobytes() == mapped(pic).tobytes()
