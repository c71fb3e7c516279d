"""Extract every text the bot translates into `locale/chouette.pot`, and update each
language's catalogue (`locale/<lang>/LC_MESSAGES/chouette.po`) from it: new texts come in
untranslated, changed ones fuzzy (Babel's guess, shown in English until a translator
checks it), gone ones are kept as obsolete (`#~`). Run it after changing a text (`make
messages`); a translator then fills in the empty `msgstr`s. No Discord connection, no
database.

    .venv/bin/python tools/messages.py [NEW_LANGUAGE ...]

A new language's catalogue is made from the template when its code is given (`sv`, `nl`,
`pt_BR`: Discord's locale with `_`).

The texts: the rules' refusal templates (rules/messages.py), the house rules' lines of
`/chouette rules` (rules/ruleset.py's `templates`), the /chouette commands' names
(msgctxt "command name") and descriptions, the board's and the DM questions' button labels
(bot/discord/actions.py, asks.py), the record's cube turns (with figures too) and game kinds
(bot/words/phrases.py),
gnubg's marks of an error and cube choices (bot/analysis/text.py),
the refusal outside a table (cogs/__init__.py), and every `translate("...")` and
`tr("...")` call in bot/ and cogs/, and every `trn("...", "...", n, ...)` (a singular and its
plural, gettext's `ngettext`: `msgid_plural`, each language's own plural forms); the words
drawn into the images (bot/render/): every `words("...")` call, and every text marked
`english("...")` (kept in data); the web pages' words, every `_("...")` in bot/web/templates
(Jinja2's own extractor for Babel).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po
from discord import app_commands

from bot.analysis.text import CHOICES, MARKS, RATINGS
from bot.analysis.worker import HOW_TO_ENABLE
from bot.discord.actions import ACTIONS
from bot.discord.asks import ASKS
from bot.discord.sync import NAME
from bot.words.i18n import DOMAIN, LOCALE_DIR, catalogue_path
from bot.words.phrases import KINDS, TURNED, WITH_FIGURES
from cogs import NOT_A_TABLE
from rules.messages import MESSAGES
from rules.ruleset import templates
from tools.commands_doc import chouette_group

ROOT = Path(__file__).resolve().parents[1]


def commands(group: app_commands.Group) -> list[tuple[str, str, str]]:
    """(msgid, msgctxt, where) of the group's and its commands' names and descriptions."""
    out = [(group.name, NAME, "/" + group.name), (group.description, "", "/" + group.name)]
    for command in group.walk_commands():
        where = "/" + command.qualified_name
        out += [(command.name, NAME, where), (command.description, "", where)]
        if isinstance(command, app_commands.Command):
            for p in command.parameters:
                out += [(p.name, NAME, f"{where} {p.name}"),
                        (p.description, "", f"{where} {p.name}")]
    return out


def template() -> Catalog:
    """Every text to translate, each with where it is used (an extracted comment)."""
    pot = Catalog(project="chouette-bot", domain=DOMAIN, charset="utf-8")
    for code, text in MESSAGES.items():
        pot.add(text, auto_comments=[f"rules/messages.py: {code}"])
    for text, option in templates().items():
        pot.add(text, auto_comments=[f"rules/ruleset.py: {option} (/chouette rules)"])
    for msgid, context, where in commands(asyncio.run(chouette_group())):
        if msgid and msgid != "…":
            pot.add(msgid, context=context or None, auto_comments=[where])
    pot.add(NOT_A_TABLE, auto_comments=["cogs/__init__.py: NOT_A_TABLE"])
    for action, ask in ASKS.items():
        pot.add(ask.label, auto_comments=[f"bot/discord/asks.py: {action} button"])
    for name, entry in ACTIONS.items():
        pot.add(entry.label, auto_comments=[f"bot/discord/actions.py: {name} button"])
    for action, line in TURNED.items():
        pot.add(line, auto_comments=[f"bot/words/phrases.py: a cube's turn in the record "
                                     f"({action})"])
    pot.add(WITH_FIGURES, auto_comments=["bot/words/phrases.py: a cube's turn with figures in the "
                                         "record ({action}: rules/messages.py's turned_*)"])
    for kind in KINDS:
        pot.add(kind, auto_comments=["bot/words/phrases.py: a game's result (single, gammon, "
                                     "...)"])
    pot.add(HOW_TO_ENABLE, auto_comments=["bot/analysis/worker.py: HOW_TO_ENABLE"])
    for _, word in MARKS:
        pot.add(word, auto_comments=["bot/analysis/text.py: gnubg's mark of an error"])
    for choice in CHOICES:
        pot.add(choice, auto_comments=["bot/analysis/text.py: a cube choice, gnubg's best or "
                                       "the one made"])
    for word in ("Beginner", *(word for _, word in RATINGS)):
        pot.add(word, auto_comments=["bot/analysis/text.py: gnubg's rating word"])
    for folder in ("bot", "cogs"):
        for file, line, msgid, _, context in extract_from_dir(
                ROOT / folder, method_map=[("**.py", "python"),
                                           ("web/templates/**.html", "jinja2.ext:babel_extract")],
                keywords={"translate": (1,), "tr": (1,), "trn": (1, 2), "words": (1,),
                          "english": (1,), "_": (1,)}):
            if isinstance(msgid, str) or (isinstance(msgid, tuple) and all(msgid)):
                pot.add(msgid, locations=[(f"{folder}/{file}", line)], context=context)
    return pot


def main(new: list[str]) -> None:
    pot = template()
    with (LOCALE_DIR / f"{DOMAIN}.pot").open("wb") as file:
        write_po(file, pot, width=100, omit_header=False)
    languages = {p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")}
    for language in sorted(languages | set(new)):
        path = catalogue_path(language)
        if path.is_file():
            with path.open("rb") as file:
                po = read_po(file, locale=language)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            po = Catalog(locale=language, domain=DOMAIN, project="chouette-bot")
        po.update(pot, update_header_comment=False)
        with path.open("wb") as file:
            write_po(file, po, width=100, ignore_obsolete=False)
        untranslated = sum(1 for m in po if m.id and not m.string)
        fuzzy = sum(1 for m in po if m.id and m.fuzzy)
        print(f"{path.relative_to(ROOT)}: {len(pot)} texts, {untranslated} untranslated, "
              f"{fuzzy} fuzzy")


if __name__ == "__main__":
    main(sys.argv[1:])
