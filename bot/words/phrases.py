"""The record's phrases that several lines and messages share: a payment (`paid_line`), a
cube's turn (`cube_line`), a game's kinds, a resignation asked about, and the notices to the
Box side; each in the language it is asked for."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial

from bot.words.i18n import tr, translate, trn
from rules import messages
from rules.cube import Cube
from rules.ledger import Transfer
from rules.messages import Phrase


def paid_line(t: Transfer, n: Callable[[str], str] = str, locale: object = None) -> str:
    """A transfer in words, "Ann pays Bob 2½" (`Transfer.phrase`), in `locale`'s language."""
    return t.phrase(n, words=partial(translate, locale=locale))


KINDS = ("single", "gammon", "backgammon")  # a game's result, translated in the record

TURNED = {  # what a cube's turn is called in the record (CubeTurned.action as stored)
    "double": "{by}: double ({team} v {box}, cube {face}).",
    "take": "{by}: take ({team} v {box}, cube {face}).",
    "drop": "{by}: drop ({team} v {box}, cube {face}).",
    "beaver": "{by}: beaver ({team} v {box}, cube {face}).",
    "raccoon": "{by}: raccoon ({team} v {box}, cube {face}).",
    "aardvark": "{by}: aardvark ({team} v {box}, cube {face}).",
    "extra": "{by}: extra ({team} v {box}, cube {face}).",
    "drop after all": "{by}: drop after all ({team} v {box}, cube {face}).",
    "extra lapses": "{by}: extra lapses ({team} v {box}, cube {face}).",
    "double withdrawn": "{by}: double withdrawn ({team} v {box}, cube {face}).",
    "frozen (penalty)": "{by}: frozen (penalty) ({team} v {box}, cube {face}).",
    "washed (penalty)": "{by}: washed (penalty) ({team} v {box}, cube {face}).",
    "taken by the Box (penalty)": "{by}: taken by the Box (penalty) ({team} v {box}, cube "
                                  "{face}).",
    "taken against him (penalty)": "{by}: taken against the offender (penalty) ({team} v "
                                   "{box}, cube {face}).",  # as stored before
    "taken against the offender (penalty)": "{by}: taken against the offender (penalty) "
                                            "({team} v {box}, cube {face}).",
    "beaver (lone taker, Villages 8)": "{by}: beaver (lone taker, Villages 8) ({team} v {box}, "
                                       "cube {face}).",
}


# a cube's turn with figures of its own: `action` a Phrase of the rules' catalogue
WITH_FIGURES = "{by}: {action} ({team} v {box}, cube {face})."


def cube_line(cube: Cube, action: str | Phrase, by: str, n: Callable[[str], str],
              locale: object, why: str = "") -> str:
    """A cube's turn in the record: "Bo: double (Ann v Bo, cube 2)."; an action with
    figures of its own (a settlement, a sale, a roll-off) is a `Phrase` of the rules'
    catalogue, written with its players named; `why` says who answered for `by` ("Bo
    (timed out)"). An action stored before it was data is shown in its words, as then."""
    words = partial(translate, locale=locale)
    who = (messages.text(why, {"player": messages.Player(by)}, n, words)
           if why in messages.MESSAGES else n(by))
    fields: dict[str, object] = {"by": who, "team": n(cube.team_player),
                                 "box": n(cube.box_player), "face": cube.face}
    if isinstance(action, Phrase):
        return tr(WITH_FIGURES, locale, action=action.text(n, words), **fields)
    template = TURNED.get(action)
    if template is not None:
        return tr(template, locale, **fields)
    return WITH_FIGURES.format(action=action, **fields)  # stored before: as it is


def notice_line(notice: str, fields: Mapping[str, object], locale: object) -> str:
    """A notice to the Box side in #box (Atlanta 3.3, 3.4), by its code, in `locale`'s
    language: what the Box and the Partner may discuss."""
    cubes = fields.get("cubes")
    count = cubes if isinstance(cubes, int) else 2
    match notice:
        case "consult_all":
            return translate("You may always discuss cube decisions here (Atlanta 3.4); and "
                             "checker plays too.", locale)
        case "consult_cubes":
            return trn("You may always discuss cube decisions here (Atlanta 3.4); checker "
                       "plays once {cubes} cube is turned (3.3).",
                       "You may always discuss cube decisions here (Atlanta 3.4); checker "
                       "plays once {cubes} cubes are turned (3.3).", count, locale, cubes=cubes)
        case "no_cube_talk_all":
            return translate("No discussion of cube decisions; and checker plays too.", locale)
        case "no_cube_talk":
            return trn("No discussion of cube decisions; checker plays once {cubes} cube is "
                       "turned (3.3).",
                       "No discussion of cube decisions; checker plays once {cubes} cubes are "
                       "turned (3.3).", count, locale, cubes=cubes)
        case _:  # "consult_now"
            return trn("{cubes} cube turned: Box and Partner may now discuss checker plays "
                       "too.", "{cubes} cubes turned: Box and Partner may now discuss checker "
                       "plays too.", count, locale, cubes=cubes)


def mode_words(mode: str, locale: object) -> str:
    """A table's mode in words ("play mode", "scorekeeper mode"), in `locale`'s language."""
    if mode == "play":
        return translate("play mode", locale)
    if mode == "scorekeeper":
        return translate("scorekeeper mode", locale)
    return mode  # stored before modes had words: as it is


def resigns(kind: str, locale: object) -> str:
    """What a question about a resignation asks: "resigns a gammon", in `locale`'s language."""
    return tr("resigns a {kind}", locale, kind=translate(kind, locale))
