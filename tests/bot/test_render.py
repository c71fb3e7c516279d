"""The board and score-sheet images: structural checks (sizes, colours where things must be)."""

import ast
import asyncio
import contextlib
import io
import json
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from bot.render import Roles, render_board, render_sheet, render_table
from bot.render import text as text_module
from bot.render.board import sample_board
from bot.render.cubes import cube_boxes
from bot.render.drawing import Drawing
from bot.render.felt import dice_boxes
from bot.render.layout import Layout
from bot.render.picture import _table_status
from bot.render.samples import ROLES, full_strip, midgame, sample_sheet
from bot.render.sheet import losers
from bot.render.theme import DEFAULT, RGB
from rules.board import Position
from rules.cube import Side
from rules.errors import RuleError
from rules.ledger import ScoreSheet, Transfer
from rules.seating import Seating
from rules.state import TableState, replay
from rules.table import decide
from rules.transcript import parse

ROOT = Path(__file__).resolve().parents[2]
LAY = Layout.of(800)


def image(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).convert("RGB")


def near(a: tuple[int, ...], b: RGB, tolerance: int = 12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def checker_centre(point: int, k: int = 0) -> tuple[int, int]:
    """The centre of the k-th checker on `point` in the bottom side's numbering."""
    x, y = LAY.checker_xy(point, k)
    return x + LAY.checker // 2, y + LAY.checker // 2


def count(img: Image.Image, box: tuple[int, int, int, int], colour: RGB) -> int:
    colours = img.crop(box).getcolors(maxcolors=1 << 24) or []
    return sum(n for n, c in colours if near(c, colour))


def test_opening_board_has_checkers_where_they_start_and_felt_elsewhere() -> None:
    img = image(render_board(Position.initial()))
    assert img.width == 800 and 700 < img.height < 900
    for point in (6, 8, 13, 24):  # the Team's, on roll at the bottom
        assert near(img.getpixel(checker_centre(point)), DEFAULT.team), point
    for point in (1, 12, 17, 19):  # the Box's 24, 13, 8, 6 seen from the Team
        assert near(img.getpixel(checker_centre(point)), DEFAULT.box), point
    assert near(img.getpixel(checker_centre(5)), DEFAULT.point_dark)  # an empty point
    assert near(img.getpixel(checker_centre(4)), DEFAULT.point_light)
    middle = (round(LAY.column_x(3)), LAY.felt_top + LAY.felt_h // 2)
    assert near(img.getpixel(middle), DEFAULT.felt)  # no dice without a roll


def test_the_box_on_roll_is_drawn_from_the_same_fixed_viewpoint() -> None:
    # The same opening, but from the Box's view with the Box on roll: the picture is the same,
    # the Team stays at the bottom and the dice move to the left half.
    img = image(render_board(Position.initial(), on_roll=Side.BOX, dice=(6, 5)))
    assert near(img.getpixel(checker_centre(6)), DEFAULT.team)
    assert near(img.getpixel(checker_centre(19)), DEFAULT.box)
    left, right = dice_boxes(False)
    die = DEFAULT.box
    assert count(img, (left[0] - 15, left[1] - 15, left[0] + 15, left[1] + 15), die) > 200
    assert count(img, (right[0] - 15, right[1] - 15, right[0] + 15, right[1] + 15), die) > 200


def test_dice_are_drawn_in_the_colours_of_the_side_on_roll() -> None:
    without = image(render_board(Position.initial()))
    img = image(render_board(Position.initial(), dice=(6, 3)))
    for cx, cy in dice_boxes(True):
        box = (cx - 18, cy - 18, cx + 18, cy + 18)
        assert count(img, box, DEFAULT.team) > 400  # the die's face
        assert count(img, box, DEFAULT.team_ink) > 20  # its pips
        assert count(without, box, DEFAULT.felt) > 1200


def test_bar_tray_and_tall_stacks() -> None:
    img = image(render_board(midgame(), on_roll=Side.BOX, dice=(5, 3)))
    # The Team's checker on the bar waits in the top half, the Box's in the bottom half.
    bar_team = LAY.bar_xy(True, 0)
    bar_box = LAY.bar_xy(False, 0)
    half = LAY.checker // 2
    assert near(img.getpixel((bar_team[0] + half, bar_team[1] + half)), DEFAULT.team)
    assert near(img.getpixel((bar_box[0] + half, bar_box[1] + half)), DEFAULT.box)
    # Six Team checkers on its 13 point: five drawn, the last with the count in ink.
    x, y = LAY.checker_xy(13, 4)
    fifth = (x + 14, y + 14, x + LAY.checker - 14, y + LAY.checker - 14)
    assert count(img, fifth, DEFAULT.team_ink) > 15
    # The Box has borne off two: two slabs in the top tray, none in the bottom one.
    tray = (LAY.tray_x + 8, LAY.felt_top, LAY.tray_x + LAY.tray_w - 8, LAY.felt_top + 40)
    assert count(img, tray, DEFAULT.box) > 100
    bottom = (tray[0], LAY.felt_top + LAY.felt_h - 40, tray[2], LAY.felt_top + LAY.felt_h)
    assert count(img, bottom, DEFAULT.box) == 0


def test_cube_strip_shows_each_cube_in_its_state_colour() -> None:
    cubes = full_strip()
    img = image(sample_board())
    plain = image(render_board(midgame(), on_roll=Side.BOX, dice=(5, 3)))
    assert img.height > plain.height + 300  # four rows of two cards
    squares = cube_boxes(len(cubes), LAY.pad, LAY.strip_top, 800 - 2 * LAY.pad, LAY.s)
    # The dropped cube (won by Bo) is greyed as out of the game, never red as a loss.
    expected = [DEFAULT.over, DEFAULT.in_game, DEFAULT.centred, DEFAULT.in_game,
                DEFAULT.pending, DEFAULT.centred, DEFAULT.in_game]
    for (x0, y0, _, y1), colour in zip(squares, expected, strict=True):
        cy = (y0 + y1) // 2
        assert near(img.getpixel((x0 + 2, cy)), colour)  # the border
        assert near(img.getpixel((x0 + 8, y0 + 8)), DEFAULT.cube) or colour == DEFAULT.over
    whole = (0, LAY.strip_top, img.width, img.height)
    assert count(img, whole, DEFAULT.dropped) == 0


def test_render_table_draws_the_game_in_progress() -> None:
    lines = (ROOT / "tests/scenarios/atlanta_play.jsonl").read_text().splitlines()[:17]
    state = TableState()
    for line in lines:  # the transcript has refused lines on purpose: skip them
        with contextlib.suppress(RuleError):
            state = replay(decide(state, parse(json.loads(line))), state)
    assert state.game is not None and state.game.cubes
    img = image(render_table(state))
    assert img.width == 800 and img.height > 800
    with pytest.raises(ValueError, match="no board"):
        render_table(TableState())


# Discord keys players by user id; the images must draw their display names instead.
DISCORD_IDS = {"Ann": "100000000000000001", "Bob": "100000000000000002",
               "Cy": "100000000000000003"}
DISPLAY = {key: f"{name} the Great" for name, key in DISCORD_IDS.items()}


def discord_table() -> TableState:
    """The atlanta_play game in progress, its players keyed by Discord-like ids, each with a
    display name that is not his key."""
    lines = (ROOT / "tests/scenarios/atlanta_play.jsonl").read_text().splitlines()[:17]
    state = TableState()
    for line in lines:
        for name, key in DISCORD_IDS.items():
            line = line.replace(f'"{name}"', f'"{key}"')
        with contextlib.suppress(RuleError):
            state = replay(decide(state, parse(json.loads(line))), state)
    members = tuple(replace(m, display=DISPLAY[m.player]) for m in state.members)
    return replace(state, members=members)


def recording(calls: list[str], names: dict[str, str]) -> Callable[[str], str]:
    def shown(key: str) -> str:
        calls.append(key)
        return names.get(key, key)
    return shown


def test_render_table_draws_display_names_not_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    state = discord_table()
    assert state.game is not None and state.seating is not None and state.game.cubes
    status = _table_status(state)
    assert "Ann the Great" in status and DISCORD_IDS["Ann"] not in status
    calls: list[str] = []
    real = TableState.shown

    def shown(self: TableState, key: str) -> str:
        calls.append(key)
        return real(self, key)

    monkeypatch.setattr(TableState, "shown", shown)
    img = image(render_table(state))
    assert img.width == 800 and img.height > 800
    keys = set(DISCORD_IDS.values())
    assert set(calls) == keys  # every player drawn by his shown name, and only keys passed
    monkeypatch.undo()
    keyed = image(render_table(replace(state, members=tuple(
        replace(m, display="") for m in state.members))))
    assert img.tobytes() != keyed.tobytes()  # the names drawn differ from the keys


def test_board_and_sheet_pass_every_player_key_through_shown() -> None:
    names = {key: f"<{key}>" for key in ("Ann", "Bo", "Pat", "Cy", "Dee", "Eve", "Fay", "Gus")}
    calls: list[str] = []
    data = render_board(midgame(), on_roll=Side.BOX, dice=(5, 3), cubes=full_strip(),
                        roles=ROLES, shown=recording(calls, names))
    assert set(calls) == set(names)  # legends, cards ("Gus v Pat"), holders, "won by Bo"
    assert image(data).size == image(sample_board()).size
    calls.clear()
    render_board(Position.initial(), roles=Roles("Bo", "Ann"), shown=recording(calls, names))
    assert set(calls) == {"Bo", "Ann"}  # the legends and the default status line
    sheet, order, roles = sample_sheet()
    calls.clear()
    img = image(render_sheet(sheet, order, roles=roles, shown=recording(calls, {})))
    payers = {p for pay in sheet.breakdown() for p in (pay.payer, pay.payee)}
    assert set(order) <= set(calls) and payers <= set(calls)
    assert img.tobytes() == image(render_sheet(sheet, order, roles=roles)).tobytes()
    named = image(render_sheet(sheet, order, roles=roles,
                               shown=lambda key: f"{key} the Great"))
    assert named.tobytes() != img.tobytes()


def test_width_scales_the_whole_picture() -> None:
    small = image(render_board(Position.initial(), cubes=full_strip(),
                               roles=Roles("Bo", "Ann"), width=500))
    big = image(render_board(Position.initial(), cubes=full_strip(),
                             roles=Roles("Bo", "Ann"), width=1000))
    assert small.width == 500 and big.width == 1000
    assert abs(small.height / 500 - big.height / 1000) < 0.03


def test_sheet_grows_with_games_and_circles_the_losers() -> None:
    game = [Transfer("Bob", "Ann", Fraction(1))]
    heights = [image(render_sheet(ScoreSheet.of([game] * n, ["Ann", "Bob"]))).height
               for n in range(1, 5)]
    assert heights == sorted(heights) and len(set(heights)) == len(heights)
    sheet, order, roles = sample_sheet()
    assert losers(sheet, 0, roles[0]) == ("Bob",)  # the Box won: the Captain lost
    assert losers(sheet, 2, roles[2]) == ("Bob", "Cy")  # both lost: both circled, a "b"
    assert losers(sheet, 2, None) == ()
    img = image(render_sheet(sheet, order, roles=roles))
    bare = image(render_sheet(sheet, order))
    assert img.size == (bare.width, bare.height + 34)  # the legend's line for the circles
    whole = (0, 0, img.width, img.height)
    assert count(img, whole, DEFAULT.circle) > count(bare, whole, DEFAULT.circle) + 300


def texts_drawn(monkeypatch: pytest.MonkeyPatch, render: Callable[[], bytes]) -> list[str]:
    """Every text `render` draws on its image, in the order drawn (a run of one font each:
    `bot.render.text.draw_run` draws every text)."""
    texts: list[str] = []
    real = text_module.draw_run

    def draw_run(draw: ImageDraw.ImageDraw, xy: Any, run: str, *args: Any) -> None:
        texts.append(run)
        real(draw, xy, run, *args)

    with monkeypatch.context() as patch:
        patch.setattr(text_module, "draw_run", draw_run)
        render()
    return texts


def test_sheet_labels_each_column_with_his_place_in_the_next_rotation(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Euro ¶17: the rotation is kept at the score sheet. Cy is not seated: no label for him.
    sheet, order, roles = sample_sheet()
    next_roles = {"Dee": "Box", "Eve": "Captain", "Ann": "2", "Bob": "3"}
    tagged = texts_drawn(monkeypatch, lambda: render_sheet(sheet, order, roles=roles,
                                                           next_roles=next_roles))
    bare = texts_drawn(monkeypatch, lambda: render_sheet(sheet, order, roles=roles))
    # The line under the title says what the columns' order is, and what the labels are.
    note = " ".join(tagged[1:tagged.index("Game")])
    assert note == ("Columns in seating order: Box, Partner, Captain, then the Team in "
                    "rotation. Under each name: the seat in the next game.")
    assert bare[1:bare.index("Game")] == ["Columns in the order the players sat down."]
    tagged, bare = tagged[tagged.index("Game"):], bare[bare.index("Game"):]
    assert Counter(tagged) - Counter(bare) == Counter([*next_roles.values(), "seats"])
    assert not Counter(bare) - Counter(tagged)
    header = tagged[tagged.index("Ann"):tagged.index("Eve") + 2]
    assert header == ["Ann", "2", "Bob", "3", "Cy", "Dee", "Box", "Eve", "Captain"]
    img = image(render_sheet(sheet, order, roles=roles, next_roles=next_roles))
    plain = image(render_sheet(sheet, order, roles=roles))
    # The labels' band, under the title (46), the note's two lines (2 * 34) and the names
    # (46): the sheet grows by it and by the note's second line.
    top, band = 16 + 46 + 2 * 34 + 46, 26
    assert img.size == (plain.width, plain.height + band + 34)
    box = (20, top, img.width - 20, top + band)
    assert count(img, box, DEFAULT.card_ink) > count(plain, box, DEFAULT.card_ink) + 5000


def test_the_posted_sheet_labels_the_seating_box_partner_captain_then_places(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.discord import sheets

    seating = Seating("Bo", "Pat", ("Ann", "Cy", "Dee"))
    assert sheets.next_roles(replace(TableState(), seating=seating)) == {
        "Bo": "Box", "Pat": "Partner", "Ann": "Captain", "Cy": "2", "Dee": "3"}
    assert sheets.next_roles(TableState()) == {}
    assert sheets.next_roles(replace(TableState(), seating=seating, ended=True)) == {}
    passed: dict[str, object] = {}

    def render(*args: object, **kwargs: object) -> bytes:
        passed.update(kwargs)
        return b""

    monkeypatch.setattr(sheets, "render_sheet", render)
    asyncio.run(sheets.sheet_file(Drawing(0), discord_table()))
    ann, bob, cy = DISCORD_IDS.values()
    assert passed["next_roles"] == {ann: "Box", bob: "Captain", cy: "2"}


def test_sheet_widens_for_many_players_and_shows_halves() -> None:
    names = [f"Player{i}" for i in range(12)]
    games = [[Transfer(names[i], names[i + 1], Fraction(1, 2))] for i in range(11)]
    img = image(render_sheet(ScoreSheet.of(games, names), names))
    assert img.width > 800


def test_render_package_imports_no_discord() -> None:
    for path in (ROOT / "bot/render").glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [
                    node.module or ""]
                assert not any(n.split(".")[0] == "discord" for n in names), path


def run_render(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", "render", *args], text=True,
                          capture_output=True, check=False, cwd=ROOT)


def test_contract_3_draws_one_board(tmp_path: Path) -> None:
    out = tmp_path / "board.png"
    done = run_render("--id", "4HPwATDgc/ABMA", "--dice", "3", "1", "--out", str(out))
    assert done.returncode == 0, done.stderr
    img = image(out.read_bytes())
    assert img.width == 800
    assert near(img.getpixel(checker_centre(6)), DEFAULT.team)


@pytest.mark.parametrize("args", [["--id", "not-an-id!!"], ["--id", "4HPwATDgc/ABMA",
                                                            "--dice", "7", "1"]])
def test_contract_3_refuses_bad_input_in_one_line(tmp_path: Path, args: list[str]) -> None:
    done = run_render(*args, "--out", str(tmp_path / "x.png"))
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x.png").exists()


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Any position: each side's checkers on points, the bar or off, never sharing a point."""
    mine = draw(st.lists(st.integers(1, 25), max_size=15))
    taken = {25 - p for p in mine if p != 25}
    theirs = draw(st.lists(st.integers(1, 25).filter(lambda p: p not in taken), max_size=15))
    return Position.from_points({p: mine.count(p) for p in set(mine)},
                                {p: theirs.count(p) for p in set(theirs)})


@settings(max_examples=25, deadline=None)
@given(positions(), st.sampled_from(list(Side)), st.none() | st.tuples(st.integers(1, 6),
                                                                        st.integers(1, 6)))
def test_any_position_renders_at_the_same_size(position: Position, on_roll: Side,
                                              dice: tuple[int, int] | None) -> None:
    img = image(render_board(position, on_roll=on_roll, dice=dice))
    assert img.size == (800, LAY.strip_top + LAY.pad)


def test_a_correction_is_a_line_of_its_own_on_the_sheet_not_a_game() -> None:
    from fractions import Fraction

    from bot.render.sheet import entry_labels
    from rules.ledger import ScoreSheet, Transfer

    sheet = ScoreSheet.of([[Transfer("bo", "ann", Fraction(2))],
                           [Transfer("cy", "bo", Fraction(1), "correction: typo")],
                           [Transfer("ann", "bo", Fraction(4))]])
    assert entry_labels(sheet) == ["1", "fix", "2"]
