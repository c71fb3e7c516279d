"""The Danish catalogue speaks the glossary's words (docs/glossary.md): where a text's English
has a term of the game, its Danish has the glossary's Danish for it; and the doubling cube is
never "terning" alone (a die), only in a text about dice."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.words.i18n import catalogue_path

GLOSSARY = Path(__file__).resolve().parents[2] / "docs" / "glossary.md"
DICE = re.compile(r"\b(dice|die|Dice)\b")
OTHER_SENSE = {  # an English word of the glossary in another sense: no term of the game
    "the player whose connection dropped",
    "your new stake multiple, like 2 for double stakes",
}
LONE_DIE = re.compile(r"(?<![Dd]oblings)(?<!\w)[Tt]erning\w*")


def checks(text: str) -> list[tuple[str, re.Pattern[str], tuple[str, ...]]]:
    """The glossary's checked rows: (its English, the English words as a pattern, the Danish
    words one of which the Danish must have). A capitalised English word (Box, Team) is
    matched as written, any other in any case."""
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or "→" not in cells[-1]:
            continue
        english, _, danish = cells[-1].strip("`").partition("→")
        words = [w.strip() for w in english.split(",") if w.strip()]
        alternatives = "|".join(re.escape(w) for w in words)
        flags = 0 if words[0][0].isupper() else re.IGNORECASE
        rows.append((cells[0], re.compile(rf"\b(?:{alternatives})\b", flags),
                     tuple(w.strip().lower() for w in danish.split(",") if w.strip())))
    return rows


def entries(path: Path) -> list[tuple[str, str]]:
    """(English, Danish) of each translated text of a catalogue, each plural form apart; not
    a command's name (msgctxt: those stay English) nor a fuzzy entry (shown in English)."""
    with path.open("rb") as file:
        po = read_po(file, locale="da")
    out = []
    for m in po:
        if not m.id or m.context or m.fuzzy:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        for i, string in enumerate(strings):
            if string:
                out.append((ids[min(i, len(ids) - 1)], string))
    return out


def unspoken(english: str) -> str:
    """What a text says in words: without its `code`, its {fields} and the option it names
    first ("settle needs points", "settle: 2 is not ...": the option's name stays English)."""
    english = re.sub(r"^[a-z_]+(?=: | needs )", "", english)
    return re.sub(r"\{[^{}]*\}", "", re.sub(r"`[^`]*`", "", english))


def glossary_misses(path: Path) -> list[str]:
    """Every text whose Danish lacks the glossary's word for a term its English uses."""
    rows = checks(GLOSSARY.read_text(encoding="utf-8"))
    misses = []
    for english, danish in entries(path):
        if english in OTHER_SENSE:
            continue
        said = unspoken(english)
        for term, pattern, words in rows:
            if pattern.search(said) and not any(w in danish.lower() for w in words):
                misses.append(f"{term}: {english!r} -> {danish!r}")
    return misses


def lone_dice(path: Path) -> list[str]:
    """Every Danish text with "terning" (a die) whose English is about no dice."""
    return [f"{english!r} -> {danish!r}" for english, danish in entries(path)
            if LONE_DIE.search(danish) and not DICE.search(english)]


def test_the_glossary_has_its_terms_checked() -> None:
    terms = [term for term, _, _ in checks(GLOSSARY.read_text(encoding="utf-8"))]
    for term in ("cube", "drop", "settle", "resign", "Box", "Captain", "Team", "Partner",
                 "beaver", "raccoon", "gammon", "Jacoby", "extra"):
        assert any(t.startswith(term) or term in t for t in terms), term


@pytest.mark.parametrize("language", ["da"])
def test_the_catalogue_uses_the_glossarys_words(language: str) -> None:
    assert glossary_misses(catalogue_path(language)) == []


@pytest.mark.parametrize("language", ["da"])
def test_the_cube_is_never_a_die(language: str) -> None:
    assert lone_dice(catalogue_path(language)) == []


def test_the_checks_find_the_old_words(tmp_path: Path) -> None:
    """A catalogue in the words the glossary replaced fails both checks."""
    old = tmp_path / "chouette.po"
    old.write_text('msgid ""\nmsgstr ""\n"Language: da\\n"\n"Plural-Forms: nplurals=2; '
                   'plural=(n != 1);\\n"\n\n'
                   'msgid "Drop"\nmsgstr "Giv op"\n\n'
                   'msgid "Answer the cube first; settle after."\n'
                   'msgstr "Svar på terningen først; afgør bagefter."\n', encoding="utf-8")
    assert len(glossary_misses(old)) == 3  # drop; cube and settle
    assert len(lone_dice(old)) == 1


def test_a_count_takes_its_plural_form_in_each_language() -> None:
    from bot.words.i18n import trn

    one, many = "Waiting for {players} to answer the cube.", "Waiting for {players} to answer " \
        "{count} cubes."
    assert trn(one, many, 1, None, players="Ann", count=1) == "Waiting for Ann to answer the cube."
    assert trn(one, many, 2, "en", players="Ann", count=2) == "Waiting for Ann to answer 2 cubes."
    assert trn(one, many, 1, "da", players="Ann", count=1) == (
        "Venter på, at Ann svarer på doblingsterningen.")
    assert trn(one, many, 3, "da", players="Ann", count=3) == (
        "Venter på, at Ann svarer på 3 doblingsterninger.")
