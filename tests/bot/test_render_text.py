"""The images' text and what issue 15 asked of them: any name drawn right (no .notdef boxes),
readable at 400 px, the last play marked, the sheet's changes, money, legend and order."""

import contextlib
import io
import json
import unicodedata
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageFont

from bot.render import board as board_module
from bot.render import render_board, render_sheet, render_table
from bot.render import text as text_module
from bot.render.board import sample_board
from bot.render.cubes import Roles
from bot.render.lastplay import LastPlay, last_play
from bot.render.layout import Layout
from bot.render.money import Stake
from bot.render.samples import LAST, full_strip, long_sheet, midgame, sample_sheet
from bot.render.text import (
    FALLBACKS,
    FONTS,
    REGULAR,
    clean,
    cmap,
    draw_text,
    face,
    fit,
    length,
    runs,
)
from bot.render.theme import DEFAULT
from rules.board import Position
from rules.cube import Side
from rules.errors import RuleError
from rules.ledger import ScoreSheet, Transfer
from rules.state import TableState, replay
from rules.table import decide
from rules.transcript import parse

ROOT = Path(__file__).resolve().parents[2]
LAY = Layout.of(800)
# The names: Danish, Spanish, Polish, Russian, Greek, Japanese, and an emoji.
NAMES = ("Søren Ærø", "José", "Łukasz", "Дмитрий", "Γιώργος", "山田", "🎲 DiceQueen")
KEYS = ("Bo", "Ann", "Pat", "Cy", "Dee", "Eve", "Fay")
WORLD = dict(zip(KEYS, NAMES, strict=True))


def image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def drawn(monkeypatch: pytest.MonkeyPatch,
          render: Callable[[], bytes]) -> list[tuple[str, ImageFont.FreeTypeFont]]:
    """Every (run, font) `render` draws, in the order drawn: `bot.render.text.draw_run` draws
    every text, one run of one font at a time. Nothing kept from an earlier board: a band
    drawn before is not drawn again."""
    board_module.forget()
    calls: list[tuple[str, ImageFont.FreeTypeFont]] = []
    real = text_module.draw_run

    def draw_run(draw: ImageDraw.ImageDraw, xy: Any, run: str, font: ImageFont.FreeTypeFont,
                 fill: Any) -> None:
        calls.append((run, font))
        real(draw, xy, run, font, fill)

    with monkeypatch.context() as patch:
        patch.setattr(text_module, "draw_run", draw_run)
        render()
    return calls


def glyph(font: ImageFont.FreeTypeFont, char: str) -> bytes:
    """The bitmap `font` draws for `char`."""
    img = Image.new("L", (120, 120))
    ImageDraw.Draw(img).text((10, 10), char, font=font, fill=255)
    return img.tobytes()


def test_the_fonts_ship_with_their_licences_and_stay_small() -> None:
    files = [REGULAR, "NotoSans-Bold.ttf", *FALLBACKS]
    assert all((FONTS / f).is_file() for f in files)
    for licence in ("LICENSE-OFL-1.1.txt", "LICENSE-Apache-2.0.txt", "LICENSE-Symbola.txt"):
        assert (FONTS / licence).stat().st_size > 100
    assert sum((FONTS / f).stat().st_size for f in files) < 5_000_000


def test_every_letter_of_the_names_has_a_real_glyph_not_the_notdef_box() -> None:
    for name in NAMES:
        for index, run in runs(name):
            font = face(28, False, index)
            box = glyph(font, "\U0010fffd")  # a private code point: no font has it
            for char in run.replace(" ", ""):
                assert ord(char) in cmap(Path(str(font.path))), (name, char)
                assert glyph(font, char) != box, (name, char)
    assert [i for i, _ in runs("Søren Ærø José Łukasz Дмитрий Γιώργος")] == [0]
    assert runs("山田") == ((1, "山田"),)
    assert runs("🎲 DiceQueen") == ((2, "🎲"), (0, " DiceQueen"))


def test_every_latin_greek_and_cyrillic_letter_is_in_the_main_font() -> None:
    noto = cmap(FONTS / REGULAR)
    blocks = [(0xC0, 0x24F), (0x1E00, 0x1EFF), (0x370, 0x3FF), (0x1F00, 0x1FFF),
              (0x400, 0x52F)]  # Latin-1 to Extended-B, Vietnamese, Greek, Cyrillic
    letters = [chr(c) for lo, hi in blocks for c in range(lo, hi + 1)
               if unicodedata.category(chr(c))[0] == "L"
               and not unicodedata.name(chr(c)).startswith("COPTIC")]
    assert len(letters) > 1000
    assert [c for c in letters if ord(c) not in noto] == []
    assert [c for c in letters if ord(c) not in cmap(FONTS / "NotoSans-Bold.ttf")] == []


@pytest.mark.parametrize("anchor", ["la", "lm", "ls", "mm", "rm", "rs"])
def test_text_lands_where_pillow_would_put_it(anchor: str) -> None:
    # draw_text draws from cached masks on the baseline; Pillow's own anchors are the check.
    ours, pillows = Image.new("RGB", (300, 120)), Image.new("RGB", (300, 120))
    draw_text(ImageDraw.Draw(ours), (150, 60), "Søren Ærø 12", 26, (255, 255, 255),
              anchor=anchor, bold=True)
    ImageDraw.Draw(pillows).text((150, 60), "Søren Ærø 12", font=face(26, True), fill="white",
                                 anchor=anchor)
    a, b = ours.getbbox(), pillows.getbbox()
    assert a is not None and b is not None
    assert all(abs(x - y) <= 1 for x, y in zip(a, b, strict=True)), (a, b)


def test_what_no_font_has_is_replaced_cleanly(monkeypatch: pytest.MonkeyPatch) -> None:
    assert clean("👍🏽 Ann") == "👍 Ann"  # a skin tone left out
    assert clean("👨\u200d👩\u200d👧") == "👨👩👧"  # the joiners left out
    assert clean("🇩🇰 Bo") == "\U0001f3f3 Bo"  # a flag, one white flag
    assert clean("❤️") == "❤"  # the variation selector left out
    assert clean("محمد") == "????"  # Arabic: no font has it, never a box
    assert clean("Jose\u0301") == "José"  # composed (NFC)
    assert clean("a\tb") == "a b"
    # A name of emoji no font has (Unicode 14's melting face) is drawn as "?", not as nothing.
    texts = [t for t, _ in drawn(monkeypatch, lambda: render_board(
        Position.initial(), roles=Roles("\U0001fae0", "Ann")))]
    assert "Box (?)" in texts
    assert fit("Γιώργος Παπαδόπουλος", 22, 120).endswith("…")
    assert length(fit("Γιώργος Παπαδόπουλος", 22, 120), 22) <= 120


def test_board_and_sheet_draw_the_seven_names_with_fonts_that_have_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    cubes = full_strip()[:6]  # Ann, Cy, Dee, Eve, Fay, Gus v Pat: every name on a card
    board = drawn(monkeypatch, lambda: render_board(
        midgame(), on_roll=Side.BOX, dice=(5, 3), cubes=cubes, roles=Roles("Bo", "Ann", "Pat"),
        shown=lambda key: WORLD.get(key, key)))
    sheet, order, roles = sample_sheet()
    names = dict(zip(order, NAMES[1:], strict=False))
    table = drawn(monkeypatch, lambda: render_sheet(sheet, order, roles=roles,
                                                    shown=lambda key: names.get(key, key)))
    for calls in (board, table):
        for text, font in calls:  # no character reaches a font without it: no box
            cover = cmap(Path(str(font.path)))
            assert all(ord(c) in cover for c in text if c != " "), (text, font.path)
    # Each name is drawn whole, the emoji as a run of its own font.
    on_board = "|".join(text for text, _ in board)
    for name in NAMES:
        assert name.replace("🎲 ", "🎲| ") in on_board, name
    on_sheet = "|".join(text for text, _ in table)
    for name in names.values():
        assert name.replace("🎲 ", "🎲| ") in on_sheet, name


def test_no_text_is_smaller_than_20_px_at_800_so_10_px_on_a_phone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    sheet, order, roles = sample_sheet()
    for render in (sample_board, lambda: render_sheet(sheet, order, roles=roles,
                                                       next_roles={"Ann": "Box"},
                                                       basic="$5 a point")):
        sizes = {font.size for _, font in drawn(monkeypatch, render)}
        assert min(sizes) >= 20


def test_cube_cards_say_who_won_a_dropped_cube_without_cutting_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [text for text, _ in drawn(monkeypatch, sample_board)]
    assert "Bo won" in texts and "dropped" in texts
    assert not [t for t in texts if t.endswith("…")]
    # A long name is cut, never what happened to the cube.
    long = "Bartholomew Montgomery-Smythe"
    texts = [text for text, _ in drawn(monkeypatch, lambda: sample_board(
        shown=lambda key: long if key == "Bo" else key))]
    assert any(t.startswith("Barth") and t.endswith("… won") for t in texts)
    assert any(t.startswith("Barth") and t.endswith("… doubled") for t in texts)


def test_the_boxs_borne_off_checkers_stand_out_on_the_tray() -> None:
    def luminance(colour: tuple[int, int, int]) -> float:
        return 0.3 * colour[0] + 0.59 * colour[1] + 0.11 * colour[2]

    for side in (DEFAULT.box, DEFAULT.team):
        assert abs(luminance(side) - luminance(DEFAULT.tray)) > 60
    img = image(render_board(midgame(), on_roll=Side.BOX))  # the Box has two off
    tray = (LAY.tray_x + 8, LAY.felt_top, LAY.tray_x + LAY.tray_w - 8, LAY.felt_top + 40)
    colours = img.crop(tray).getcolors(1 << 16) or []
    assert sum(n for n, c in colours if max(abs(a - b) for a, b in zip(c, DEFAULT.box,
                                                                      strict=True)) < 12) > 300


def ring_pixels(img: Image.Image, x: int, y: int) -> int:
    """Highlight-coloured pixels in the square of a checker at (x, y), grown a little."""
    box = (x - 4, y - 4, x + LAY.checker + 4, y + LAY.checker + 4)
    colours = img.crop(box).getcolors(1 << 16) or []
    return sum(n for n, c in colours
               if max(abs(a - b) for a, b in zip(c, DEFAULT.highlight, strict=True)) < 30)


def test_the_last_play_is_ringed_where_it_left_and_where_it_arrived() -> None:
    # LAST: the Team (at the bottom) played 13/8 6/4 before the Box's 5-3.
    marked = image(sample_board())
    plain = image(render_board(midgame(), on_roll=Side.BOX, dice=(5, 3), cubes=full_strip(),
                               roles=Roles("Bo", "Ann", "Pat", "Cy"),
                               status="Waiting for Fay: take or drop Bo's double to 2"))
    team = midgame().swap()  # the Team's view: it is the bottom side
    for point, k in ((8, team.player[7] - 1), (4, team.player[3] - 1), (6, team.player[5])):
        x, y = LAY.checker_xy(point, k)
        assert ring_pixels(marked, x, y) > 150 > ring_pixels(plain, x, y), point
    x, y = LAY.checker_xy(24, 0)  # a point the play did not touch
    assert ring_pixels(marked, x, y) == 0
    # Every point it left or reached has its number on a yellow label, 13 too (a full point:
    # no room for a ring); the others none.
    assert LAST.left == (13, 6) and LAST.reached == (8, 4)
    for point in range(1, 25):
        x, top = LAY.point_at(point)
        cx = round(x + LAY.point_w / 2)
        cy = LAY.board_top + (LAY.frame_tb // 2 if top else LAY.board_h - LAY.frame_tb // 2)
        label = marked.crop((cx - 12, cy - 10, cx + 12, cy + 10)).getcolors(1 << 16) or []
        yellow = sum(n for n, c in label
                     if max(abs(a - b) for a, b in zip(c, DEFAULT.highlight, strict=True)) < 30)
        assert (yellow > 150) == (point in (13, 6, 8, 4)), point


def test_a_checker_borne_off_by_the_last_play_rings_its_tray() -> None:
    before = Position.from_points({6: 3, 5: 3, 4: 2, 3: 2, 2: 1}, {6: 2, 5: 2, 4: 2, 1: 1})
    after = Position.from_points({5: 3, 4: 2, 3: 2, 2: 1, 1: 1}, {6: 2, 5: 2, 4: 2, 1: 1})
    last = LastPlay.between(Side.TEAM, before, after)  # 6/off 6/1, the Team at the bottom
    assert last == LastPlay(Side.TEAM, (6,), (1, 0))
    marked = image(render_board(after.swap(), on_roll=Side.BOX, last=last))
    plain = image(render_board(after.swap(), on_roll=Side.BOX))
    edge = (LAY.tray_x, LAY.felt_top + LAY.felt_h - 60, LAY.tray_x + 8, LAY.felt_top + LAY.felt_h)
    top_edge = (LAY.tray_x, LAY.felt_top, LAY.tray_x + 8, LAY.felt_top + 60)
    for img, expected in ((marked, True), (plain, False)):
        colours = img.crop(edge).getcolors(1 << 16) or []
        yellow = sum(n for n, c in colours if max(abs(a - b) for a, b in
                                                  zip(c, DEFAULT.highlight, strict=True)) < 30)
        assert (yellow > 100) is expected
    colours = marked.crop(top_edge).getcolors(1 << 16) or []  # the Box's tray: not marked
    assert not [c for _, c in colours if max(abs(a - b) for a, b in
                                             zip(c, DEFAULT.highlight, strict=True)) < 30]


def test_last_play_is_read_from_the_game_before_its_last_move() -> None:
    before = Position.initial()
    after = Position.from_points({13: 3, 11: 1, 8: 4, 6: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2})
    assert LastPlay.between(Side.BOX, before, after) == LastPlay(Side.BOX, (13,), (8, 11))
    assert LastPlay.between(Side.BOX, before, before) is None
    lines = (ROOT / "tests/scenarios/atlanta_play.jsonl").read_text().splitlines()[:17]
    state = TableState()
    for line in lines:  # the transcript has refused lines on purpose: skip them
        with contextlib.suppress(RuleError):
            state = replay(decide(state, parse(json.loads(line))), state)
    # The last play is Ann's (the Box) 13/8 13/11, from her own view.
    assert last_play(state.game) == LastPlay(Side.BOX, (13,), (8, 11))
    assert last_play(None) is None
    assert image(render_table(state)).width == 800


def test_the_stake_is_read_as_money_when_it_names_one() -> None:
    assert Stake.parse("$5 a point") == Stake(Fraction(5), "$", True)
    assert Stake.parse("€2.50 a point") == Stake(Fraction(5, 2), "€", True)
    assert Stake.parse("10 kr pr. point") == Stake(Fraction(10), "kr", False)
    assert Stake.parse("Score sheet · 5€ a point") == Stake(Fraction(5), "€", False)
    assert Stake.parse("5 a point") is None and Stake.parse("Score sheet") is None
    dollars = Stake(Fraction(5), "$", True)
    assert dollars.of(Fraction(5, 2)) == "$12.50"
    assert dollars.format(Fraction(-10), signed=True) == "-$10"
    assert Stake(Fraction(10), "kr", False).format(Fraction(30), signed=True) == "+30 kr"


def test_the_sheet_shows_each_games_change_money_and_a_legend(
        monkeypatch: pytest.MonkeyPatch) -> None:
    sheet = ScoreSheet.of([[Transfer("Bob", "Ann", Fraction(2))],
                           [Transfer("Ann", "Bob", Fraction(3))]], ["Ann", "Bob"])
    roles = [("Ann", "Bob"), ("Ann", "Bob")]
    texts = [t for t, _ in drawn(monkeypatch, lambda: render_sheet(
        sheet, ["Ann", "Bob"], roles=roles, title="Score sheet · $5 a point"))]
    game2 = texts[texts.index("2"):texts.index("Total")]
    assert game2 == ["2", "-1", "-3", "+1", "+3"]  # each running total, then the change
    assert "-$5" in texts and "+$5" in texts  # the totals in money
    assert "Bob pays Ann 1 ($5)" not in texts and "Ann pays Bob 1 ($5)" in texts
    assert any(t.startswith("lost the game as Box or Captain") for t in texts)
    assert any(t.startswith("running total, and under it") for t in texts)
    plain = [t for t, _ in drawn(monkeypatch, lambda: render_sheet(sheet, ["Ann", "Bob"]))]
    assert "Ann pays Bob 1" in plain and not [t for t in plain if "$" in t]


def test_eight_players_and_35_games_stay_800_wide_with_every_game(
        monkeypatch: pytest.MonkeyPatch) -> None:
    sheet, order, roles = long_sheet()
    assert len(order) == 8 and len(sheet.games) == 35
    calls = drawn(monkeypatch, lambda: render_sheet(sheet, order, roles=roles,
                                                    shown=lambda key: WORLD.get(key, key)))
    texts = [t for t, _ in calls]
    assert all(str(n) in texts for n in range(1, 36))  # no game folded away
    img = image(render_sheet(sheet, order, roles=roles, shown=lambda key: WORLD.get(key, key)))
    assert img.width == 800  # Discord's 400 px is half of it: 24 px numbers read as 12
    note = "".join(texts[1:texts.index("Game")]).replace(" ", "")
    for name in NAMES:  # a column's name cut to fit is written out in full above the table
        assert name.replace(" ", "") in note


@pytest.mark.parametrize("line", ["Waiting for Søren Ærø to answer a cube", "AVATAR To Ty",
                                  "Position ID mGfwA0DadsAAEA", "Дмитрий to play 6-5"])
def test_a_line_is_set_as_the_font_sets_it(line: str) -> None:
    """Characters are drawn one by one from masks kept (FreeType is slow at it), kerned by
    pairs: the line is as wide as the font's own layout of it."""
    for bold in (False, True):
        font = face(26, bold)
        assert length(line, 26, bold) == pytest.approx(font.getlength(line), abs=1.0)


def test_a_new_line_of_known_characters_draws_no_new_glyph(
        monkeypatch: pytest.MonkeyPatch) -> None:
    text_module.forget()
    img = Image.new("RGB", (800, 60))
    draw_text(ImageDraw.Draw(img), (0, 0), "bob to play 6-5", 26, (255, 255, 255))
    rendered: list[str] = []
    real = ImageFont.FreeTypeFont.getmask2

    def getmask2(font: ImageFont.FreeTypeFont, text: str, *args: Any, **kwargs: Any) -> Any:
        rendered.append(text)
        return real(font, text, *args, **kwargs)

    monkeypatch.setattr(ImageFont.FreeTypeFont, "getmask2", getmask2)
    after = Image.new("RGB", (800, 60))
    draw_text(ImageDraw.Draw(after), (0, 0), "bob to play 5-6", 26, (255, 255, 255))
    assert rendered == []
    assert after.getbbox() == img.getbbox()  # the same glyphs, as wide
