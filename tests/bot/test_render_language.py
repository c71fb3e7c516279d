"""The words drawn into the images in the table's language (issue 22): the board's legends,
status line and cube strip, and the score sheet, built with `words`
(`bot.words.i18n.Translation`)."""

import asyncio
import pickle
from dataclasses import replace

import pytest

from bot.discord import sheets
from bot.render.board import board_png, forget
from bot.render.cubes import Roles
from bot.render.drawing import Drawing
from bot.render.picture import picture, table_picture
from bot.render.samples import ROLES, full_strip, midgame, sample_sheet
from bot.render.sheet import render_sheet
from bot.words.i18n import Translation
from rules.board import Position
from rules.cube import Cube, Side
from rules.cube_state import CubeState
from tests.bot.test_render import DISCORD_IDS, discord_table, texts_drawn

DANISH = Translation("da")


def test_a_danish_table_picture_has_danish_legends_and_status() -> None:
    state = replace(discord_table(), language="da")
    pic = table_picture(state, words=DANISH)
    labels = {pic.top.label, pic.bottom.label}
    assert "Box (Ann the Great)" in labels and "Hold (Kaptajn Bob the Great)" in labels
    assert pic.status[0] == "Venter på, at Ann the Great svarer på 2 doblingsterninger"
    assert pic.status[1].startswith("Positions-ID ")
    assert all(" pips" in legend.figures or " pip" in legend.figures
               for legend in (pic.top, pic.bottom))
    assert pic.strip.words == DANISH
    english = table_picture(state)
    assert english.status[0] == "Waiting for Ann the Great to answer 2 cubes"
    assert english.status[1].startswith("Position ID ")
    assert {english.top.label, english.bottom.label} == {
        "Box (Ann the Great)", "Team (Captain Bob the Great)"}


def test_the_status_line_and_the_figures_in_danish() -> None:
    waiting = picture(Position.initial(), roles=Roles("Bo", "Ann", "Pat", "Cy"), dice=(6, 5),
                      words=DANISH)
    assert waiting.status[0] == "Cy skal spille 6-5"
    assert waiting.top.sub == "Partner Pat" and waiting.bottom.sub == "Fung. Kaptajn Cy"
    assert waiting.bottom.figures == "167 pips"
    off = Position((0,) * 24 + (0,), (2,) + (0,) * 24)  # the mover has borne off all 15
    assert picture(off, words=DANISH).bottom.figures == "0 pips · 15 ude"
    assert picture(off).bottom.figures == "0 pips · 15 off"


def test_the_cube_strip_is_drawn_in_danish(monkeypatch: pytest.MonkeyPatch) -> None:
    cubes = (*full_strip(),
             Cube("Hal", "Bo", 1, state=CubeState.OFFERED, offered_by=Side.TEAM, turned=True),
             Cube("Ivy", "Bo", 2, owner=Side.TEAM, state=CubeState.TAKEN, turned=True,
                  accepted=True, is_extra=True, penalty=True))
    roles = Roles("Bo", "Cy", "Pat", "Dee")

    def drawn(words: Translation | None = None) -> str:
        pic = picture(midgame(), on_roll=Side.BOX, dice=(5, 3), cubes=cubes, roles=roles,
                      **({} if words is None else {"words": words}))
        board_png(pic)  # the palette made (from the English sample board) before
        forget(drawings=False)
        return " | ".join(texts_drawn(monkeypatch, lambda: board_png(pic)))

    danish, english = drawn(DANISH), drawn()
    for word in ("venter", "afvist", "i spil", "i midten", "Bo doblede", "Hal doblede",
                 "Bo vandt", "ekstra", "straf", "Gus mod Pat", "Box (Bo)",
                 "Hold (Kaptajn Cy)", "Partner Pat", "Fung. Kaptajn Dee", "Positions-ID"):
        assert word in danish, word
    for word in ("waiting", "dropped", "in game", "centred", "doubled", "won", "extra",
                 "penalty", "Team", "Captain", "Position ID", " off"):
        assert word not in danish, word
        assert word in english, word
    assert "| K |" in danish and "| FK |" in danish  # the Captain's and Acting Captain's tags


def test_english_words_draw_the_same_bytes_as_before() -> None:
    state = discord_table()
    english = board_png(table_picture(state, words=Translation("en")))
    assert english == board_png(table_picture(state))
    pic = picture(midgame(), on_roll=Side.BOX, dice=(5, 3), cubes=full_strip(), roles=ROLES)
    assert board_png(replace(pic, strip=replace(pic.strip, words=Translation()))) == board_png(pic)
    sheet, order, roles = sample_sheet()
    assert (render_sheet(sheet, order, roles=roles, words=Translation("en"))
            == render_sheet(sheet, order, roles=roles))


def test_a_danish_picture_is_plain_data_for_the_drawing_process() -> None:
    pic = table_picture(discord_table(), words=DANISH)
    assert pickle.loads(pickle.dumps(pic)) == pic
    assert hash(pic) == hash(table_picture(discord_table(), words=Translation.of("da")))


def test_the_sheet_is_drawn_in_danish(monkeypatch: pytest.MonkeyPatch) -> None:
    sheet, order, roles = sample_sheet()
    next_roles = {"Dee": "Box", "Eve": "Kaptajn", "Ann": "2", "Bob": "3"}
    danish = texts_drawn(monkeypatch, lambda: render_sheet(
        sheet, order, roles=roles, next_roles=next_roles, title="Pointliste · 5 kr. a point",
        words=DANISH))
    drawn = " | ".join(danish)
    for words in ("Pointliste · 5 kr. a point · 4 spil", "Kolonner i siddeorden",
                  "pladsen i næste spil.", "Spil", "pladser", "I alt",
                  "Afregning", "løbende stilling", "tabte spillet som Box eller Kaptajn",
                  " betaler "):
        assert words in drawn, words
    for words in ("Game", "seats", "Total", "Settle up", " pays ", "running total"):
        assert words not in drawn, words


def test_the_posted_sheet_is_in_the_table_language(monkeypatch: pytest.MonkeyPatch) -> None:
    passed: dict[str, object] = {}

    def render(*args: object, **kwargs: object) -> bytes:
        passed.update(kwargs)
        return b""

    monkeypatch.setattr(sheets, "render_sheet", render)
    asyncio.run(sheets.sheet_file(Drawing(0), discord_table(), "da"))
    ann, bob, cy = DISCORD_IDS.values()
    assert passed["next_roles"] == {ann: "Box", bob: "Kaptajn", cy: "2"}
    assert passed["words"] == DANISH and passed["title"] == "Pointliste"
    asyncio.run(sheets.sheet_file(Drawing(0), replace(discord_table(), basic="$5 a point"),
                                     "da"))
    assert passed["title"] == "Pointliste · $5 a point"


def test_with_one_cube_a_team_double_is_the_teams_on_every_card() -> None:
    from bot.render.cubes import _holder_text

    cube = Cube("Cy", "Bo", 1, state=CubeState.OFFERED, offered_by=Side.TEAM, turned=True)
    assert _holder_text(cube, roles=Roles("Bo", "Ann", one_cube=True)) == (
        "", "the Team doubled")
    assert _holder_text(cube, roles=Roles("Bo", "Ann"))[1] == "{player} doubled"
    assert _holder_text(cube, words=DANISH, roles=Roles("Bo", "Ann", one_cube=True)) == (
        "", "Holdet doblede")
