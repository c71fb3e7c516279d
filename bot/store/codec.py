"""JSON for the rules' values: events and table snapshots as the event store keeps them.

Dataclasses are written as `{"$": TypeName, field: value, ...}`, enums as `{"$enum":
"Side.BOX"}`, fractions as `{"$frac": "1/2"}`, positions by their gnubg Position ID
(`{"$pos": ID}`), tuples as lists (every sequence in the rules is a tuple, so lists come
back as tuples), a refusal's or a phrase's players marked as `rules.messages` marks them
(`{"$player": key}`, `{"$players": [...]}`, `{"$phrase": code, "params": {...}}`,
`{"$phrases": [...]}`, `{"$ties": [...]}`). Only the types registered are read back (the
rules' here, the application's outcomes and effects by `stored` where they are defined):
an unknown type name is a `CodecError` naming it, never a silent guess. A type no longer
written (`RETIRED`) is left out of the sequence it was stored in; an `Outcome` stored
before refusals were data has its words only (`reason`, no `code`), shown as they are; a
`CubeTurned` stored before its `why` has the reason moved out of `by` (`ANSWERED_BEFORE`),
and its action with figures stays the words it was stored with.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from enum import Enum
from fractions import Fraction
from typing import Any, TypeVar

from rules.board import Position
from rules.commands import COMMANDS, Command, respelt
from rules.cube import Cube, Side
from rules.cube_state import CubeState
from rules.events import EVENT_TYPES
from rules.ledger import ScoreSheet, Transfer
from rules.messages import Phrase, Phrases, Player, Players, Ties
from rules.notation import position_from_id, position_id
from rules.ruleset import RuleSet
from rules.seating import Seating
from rules.state import Game, Member, TableState


class CodecError(ValueError):
    """Stored JSON that this version cannot read (a newer version wrote it, or it is damaged)."""


TYPES: dict[str, type] = {
    **EVENT_TYPES,
    **{cls.__name__: cls for cls in (Cube, Transfer, Seating, ScoreSheet, RuleSet, Game,
                                     Member, TableState)},
}
ENUMS: dict[str, type[Enum]] = {"Side": Side, "CubeState": CubeState}
# Effects older versions stored in outcomes: Announce redraws the board now, and the
# channels' overwrites follow the state (bot.discord.channels), not SetSend and Reseat.
RETIRED = {"EditBoard", "SetSend", "Reseat"}
# A CubeTurned stored before `why` was data had who answered for a player in `by`, English
# words around his key ("ann (timed out)"): read back as his key and the reason's code.
ANSWERED_BEFORE = {" (timed out)": "answered_timed_out", " (away)": "answered_away",
                   " (nobody answered in time)": "answered_late"}
MARKS: dict[type, str] = {Players: "$players", Phrases: "$phrases", Ties: "$ties"}
MARKED: dict[str, type] = {mark: kind for kind, mark in MARKS.items()}
T = TypeVar("T")


def stored(cls: type[T]) -> type[T]:
    """Registers a dataclass of a room above the store (the application's outcomes and
    effects) to be written and read back by its name, as the rules' own types are."""
    TYPES[cls.__name__] = cls
    return cls


def encode(value: Any) -> Any:
    """A JSON-ready form of `value` (see the module docstring)."""
    kind = type(value)
    encoder = _ENCODERS.get(kind) or _ENCODERS.setdefault(kind, _encoder(kind))
    return encoder(value)


_ENCODERS: dict[type, Callable[[Any], Any]] = {}  # by type: see `_encoder`


def _encoder(kind: type) -> Callable[[Any], Any]:
    """How values of `kind` are encoded, worked out once a type (every command writes a
    table's events, its outcome and effects: this is the store's hot path)."""
    if issubclass(kind, Player):
        return lambda value: {"$player": str(value)}
    if issubclass(kind, Players | Phrases | Ties):
        mark = MARKS[kind]
        return lambda value: {mark: [encode(v) for v in value]}
    if issubclass(kind, Phrase):
        return lambda value: {"$phrase": value.code, "params": encode(value.params)}
    if issubclass(kind, Position):
        return lambda value: {"$pos": position_id(value)}
    if issubclass(kind, Enum):
        return lambda value: {"$enum": f"{kind.__name__}.{value.name}"}
    if issubclass(kind, Fraction):
        return lambda value: {"$frac": str(value)}
    if dataclasses.is_dataclass(kind):
        name, fields = kind.__name__, tuple(f.name for f in dataclasses.fields(kind))
        return lambda value: {"$": name, **{f: encode(getattr(value, f)) for f in fields}}
    if issubclass(kind, list | tuple):
        return lambda value: [encode(v) for v in value]
    if issubclass(kind, dict):
        return lambda value: {str(k): encode(v) for k, v in value.items()}
    if kind is type(None) or issubclass(kind, bool | int | float | str):
        return lambda value: value

    def refuse(value: Any) -> Any:
        raise CodecError(f"Can't store a {type(value).__name__}: {value!r}")
    return refuse


def decode(data: Any) -> Any:
    """The value `encode` wrote."""
    if isinstance(data, list):
        return tuple(decode(v) for v in data
                     if not (isinstance(v, dict) and v.get("$") in RETIRED))
    if not isinstance(data, dict):
        return data
    if "$player" in data:
        return Player(data["$player"])
    if "$phrase" in data:
        return Phrase(data["$phrase"], **decode(data["params"]))
    if mark := next((m for m in MARKED if m in data), None):
        return MARKED[mark](decode(v) for v in data[mark])
    if "$pos" in data:
        return position_from_id(data["$pos"])
    if "$frac" in data:
        return Fraction(data["$frac"])
    if "$enum" in data:
        kind, _, name = data["$enum"].partition(".")
        if kind not in ENUMS or name not in ENUMS[kind].__members__:
            raise CodecError(f"Unknown value {data['$enum']!r}: written by a newer version?")
        return ENUMS[kind][name]
    if "$" in data:
        cls = TYPES.get(data["$"])
        if cls is None:
            raise CodecError(f"Unknown type {data['$']!r}: written by a newer version of "
                             "chouette-bot? Upgrade before opening this database.")
        known = {f.name for f in dataclasses.fields(cls)}
        fields = {k: decode(v) for k, v in data.items() if k != "$" and k in known}
        if data["$"] == "CubeTurned" and "why" not in data:  # stored before: see above
            fields.update(_answered_before(fields.get("by")))
        try:
            return cls(**fields)
        except (TypeError, ValueError) as exc:
            raise CodecError(f"A stored {data['$']} can't be read back: {exc}") from exc
    return {k: decode(v) for k, v in data.items()}


def _answered_before(by: object) -> dict[str, str]:
    """A stored `CubeTurned.by` of words around a key, as the key and `why`."""
    for words, why in ANSWERED_BEFORE.items():
        if isinstance(by, str) and by.endswith(words):
            return {"by": by.removesuffix(words), "why": why}
    return {}


def command_dumps(command: Command) -> str:
    """A table command as JSON text (the inbox's): its verb and its fields."""
    fields = {f.name: getattr(command, f.name) for f in dataclasses.fields(command)}
    return json.dumps({"verb": command.verb, "fields": encode(fields)}, separators=(",", ":"))


def command_loads(text: str) -> Command:
    """The command `command_dumps` wrote."""
    data = loads(text)
    kind = COMMANDS.get(data.get("verb", "")) if isinstance(data, dict) else None
    if kind is None:
        raise CodecError(f"Unknown command {text[:60]!r}: written by a newer version?")
    return kind(**respelt(kind, data["fields"]))  # stored before: Partner's `partner`


def dumps(value: Any) -> str:
    """`value` as compact JSON text."""
    return json.dumps(encode(value), separators=(",", ":"))


def loads(text: str) -> Any:
    """The value of JSON text written by `dumps`."""
    try:
        return decode(json.loads(text))
    except json.JSONDecodeError as exc:
        raise CodecError(f"Stored JSON is damaged: {exc}") from exc
