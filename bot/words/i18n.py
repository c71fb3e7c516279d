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
import gettext
import io
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALE_DIR = Path(__file__).resolve().parents[2] / "locale"
DOMAIN = "chouette"
ENGLISH = "en"


def catalogue_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def _read(language: str) -> Catalog | None:
    """One language's catalogue as Babel reads it (None: the language has none)."""
    path = catalogue_path(language)
    if not path.is_file():
        return None
    with path.open("rb") as file:
        return read_po(file, locale=language)


@functools.cache
def catalogue(language: str) -> dict[str, str]:
    """{English msgid: translation} of one language: its translated, not fuzzy entries
    ({} for a language without a catalogue)."""
    read = _read(language)
    return {} if read is None else {
        _key(m.id, m.context): m.string for m in read
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


def tr(text: str, locale: object, /, **fields: object) -> str:
    """`text` in `locale`'s language with its fields filled (`translate`, then `format`)."""
    return translate(text, locale).format(**fields)


@functools.cache
def _gettext(language: str) -> gettext.NullTranslations:
    """One language's catalogue as gettext reads it, its plural forms with it: compiled
    by Babel (fuzzy entries left out); English's own forms without a catalogue."""
    read = _read(language) if language != ENGLISH else None
    if read is None:
        return gettext.NullTranslations()
    compiled = io.BytesIO()
    write_mo(compiled, read)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def trn(singular: str, plural: str, n: int, locale: object, /, **fields: object) -> str:
    """gettext's `ngettext` on the catalogue: `singular` or `plural` (English msgids) as
    the count `n` asks, in `locale`'s language (its own plural forms: Danish's
    `n != 1`), with its fields filled; English where the catalogue has no translation."""
    text = _gettext(language(locale)).ngettext(singular, plural, n)
    return (text or (singular if n == 1 else plural)).format(**fields)


@dataclass(frozen=True)
class Translation:
    """`translate` into one language as plain data: what an image's words are written with
    (`bot.render`'s `words`). Equal for equal languages and picklable, so a board's
    `Picture` holding it stays a cache key and can be sent to the drawing process."""

    language: str = ENGLISH

    @classmethod
    def of(cls, locale: object) -> Translation:
        """The words of `locale`'s language (`da`, a `discord.Locale`, None: English)."""
        return cls(language(locale))

    def __call__(self, text: str) -> str:
        return translate(text, self.language)


def languages() -> list[str]:
    """The languages a table can be in: English and every catalogue's."""
    return [ENGLISH, *sorted(p.parent.parent.name
                             for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))]


def table_language(chosen: str, server: object) -> str:
    """The language everyone at a table reads (its board, buttons and record, its DM
    questions; the one place this is worked out): `chosen`, the table's own (kept in its
    state: `/chouette open language:`, else the server's when it was opened), else
    `server`'s (the server's preferred locale now: a table opened before tables had a
    language, or the one being opened), else English. A catalogue's language (`da`, `en`)."""
    return chosen or language(server)
