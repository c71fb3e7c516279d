"""The words drawn into the images, in a table's language.

Every text an image shows goes through a `words` callable (English text -> the text in the
table's language; a template's fields are filled after): `english` by default, which
leaves it as it is, so an English image is the same as before. The Discord side passes
`bot.words.i18n.Translation` (the table's language: plain data, so a `Picture` holding it stays
hashable and can be sent to the drawing process). `make messages` extracts every
`words("...")` call's text and every text marked `english("...")` (the texts kept in data,
such as a cube state's word) into the catalogue.
"""

from __future__ import annotations

from collections.abc import Callable

Words = Callable[[str], str]


def english(text: str) -> str:
    """`text` as it is: the English words, and the mark of a text kept in data that
    `make messages` extracts."""
    return text
