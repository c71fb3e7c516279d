"""The bot in the player's language: the catalogues of `locale/` and `translate`.

A catalogue is a gettext `.po` file, `locale/<lang>/LC_MESSAGES/chouette.po`, read with
Babel when it is first asked for (no compile step: a club adds its language by adding the
file and restarting the bot). Its msgids are the English texts, templates with their named
fields (`{player} is not at this table.`): a text is translated first, its fields filled
after. What a catalogue lacks, or marks fuzzy, stays English. `tools/messages.py` (`make
messages`) extracts the msgids anew and updates every catalogue.
"""

from __future__ import annotations

import functools
import re
import string
from pathlib import Path

from babel.messages.pofile import read_po

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "chouette"
ENGLISH = "en"


def catalogue_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def catalogue(language: str) -> dict[str, str]:
    """{English msgid: translation} of one language: its translated, not fuzzy entries
    ({} for a language without a catalogue)."""
    path = catalogue_path(language)
    if not path.is_file():
        return {}
    with path.open("rb") as file:
        read = read_po(file, locale=language)
    return {_key(m.id, m.context): m.string for m in read
            if m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string
            and not m.fuzzy}


def _key(msgid: str, context: str | None) -> str:
    return f"{context}\x04{msgid}" if context else msgid  # as gettext keys a msgctxt


@functools.cache
def language(locale: object) -> str:
    """The catalogue's language for a Discord locale (`da`, `pt-BR`, a `discord.Locale`):
    the locale itself if it has a catalogue (`pt_BR`), else its language (`sv` of
    `sv-SE`); English without one."""
    code = str(getattr(locale, "value", locale) or ENGLISH).replace("-", "_")
    for candidate in (code, code.split("_")[0]):
        if candidate != ENGLISH and catalogue_path(candidate).is_file():
            return candidate
    return ENGLISH


def translate(text: str, locale: object, context: str = "") -> str:
    """`text` (an English msgid, a template with its fields unfilled) in `locale`'s
    language, or as it is where there is no translation. A `context` (gettext's msgctxt)
    tells apart the same English in two roles (a command's name)."""
    return translation(text, locale, context) or text


def translation(text: str, locale: object, context: str = "") -> str | None:
    """`text` in `locale`'s language; None where the catalogue has none."""
    lang = language(locale)
    return None if lang == ENGLISH else catalogue(lang).get(_key(text, context))


def refusal(text: str, templates: tuple[str, ...], locale: object) -> str:
    """A refusal the rules wrote in English (`text`, from one of `templates`), in
    `locale`'s language: the template it was written from is found, translated, and filled
    with the same values. A text of no template stays as it is. (A bridge while a refused
    Outcome carries only its text: with its code and parameters, the writer calls
    `translate(template, locale)` and formats that.)"""
    lang = language(locale)
    if lang == ENGLISH:
        return text
    for template, pattern in _patterns(templates):
        found = pattern.fullmatch(text)
        if found is not None:
            words = catalogue(lang).get(template)
            if words is None:
                return text
            values = {_FIELD.sub("", k): v for k, v in found.groupdict().items()}
            return _filled(words, values)
    return text


_FIELD = re.compile(r"_\d+$")


@functools.cache
def _patterns(templates: tuple[str, ...]) -> list[tuple[str, re.Pattern[str]]]:
    """Each template as a regex that matches its filled-in text, the templates with the
    most fixed words first (the most specific wins)."""
    out = []
    for template in templates:
        parts, seen = [], 0
        for literal, field, _, _ in string.Formatter().parse(template):
            parts.append(re.escape(literal))
            if field is not None:
                seen += 1
                parts.append(rf"(?P<{field}_{seen}>.+?)")
        fixed = sum(len(literal) for literal, *_ in string.Formatter().parse(template))
        out.append((fixed, template, re.compile("".join(parts), re.DOTALL)))
    out.sort(key=lambda f: -f[0])
    return [(template, pattern) for _, template, pattern in out]


def _filled(template: str, values: dict[str, str]) -> str:
    """`template` with each field replaced by the text it had (already converted: `!r`
    was applied when the English was written)."""
    out = []
    for literal, field, _, _ in string.Formatter().parse(template):
        out.append(literal)
        if field is not None:
            out.append(values.get(field, "{" + field + "}"))
    return "".join(out)
