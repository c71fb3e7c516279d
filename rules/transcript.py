"""A command as a transcript line (contract 2): `parse` reads one, `line` writes one.

A line is {"cmd": NAME, "by": PLAYER, ...arguments}, each argument by its transcript name
(a field's name less its trailing underscore: `for`, `from`, `with`) and of its field's
type (lists for tuples); `build` makes a command from such arguments, for a name chosen at
run time. The commands themselves are rules/commands.py.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import MISSING, fields
from typing import Any

from rules.commands import COMMANDS, BadCommand, Command, respelt


def parse(data: Mapping[str, Any], *, monitor: bool = True) -> Command:
    """A command from a transcript line {"cmd": NAME, "by": PLAYER, ...arguments}, as the
    table's monitor recorded it (`monitor=False`: as a player sent it); BadCommand for an
    unknown command or argument, or an argument of the wrong form."""
    if not isinstance(data, Mapping) or not isinstance(data.get("cmd"), str):
        raise BadCommand(code="command_form")
    verb = data["cmd"]
    kind = COMMANDS.get(verb)
    if kind is None:
        raise BadCommand(code="no_command", verb=repr(verb), verbs=", ".join(sorted(COMMANDS)))
    by = data.get("by", "")
    if not isinstance(by, str):
        raise BadCommand(code="by_form", by=repr(by))
    hints = _HINTS[kind]
    data = respelt(kind, data)  # a transcript's other spelling, read and never written
    keys = {f.name.rstrip("_"): f for f in fields(kind) if f.name not in ("by", "monitor")}
    if strays := [k for k in data if k not in keys and k not in ("cmd", "by")]:
        raise BadCommand(code="takes" if keys else "takes_nothing", verb=verb,
                         strays=", ".join(map(repr, strays)), keys=", ".join(sorted(keys)))
    values = {f.name: _checked(verb, key, data[key], hints[f.name])
              for key, f in keys.items() if key in data}
    if missing := [k for k, f in keys.items() if f.name in _REQUIRED[kind]
                   and f.name not in values]:
        raise BadCommand(code="needs", verb=verb, key=repr(missing[0]))
    return kind(by=by, monitor=monitor, **values)


def line(cmd: Command) -> dict[str, Any]:
    """The transcript line of `cmd` (`parse`'s inverse): the arguments not at their default."""
    data: dict[str, Any] = {"cmd": cmd.verb, "by": cmd.by}
    for f in fields(cmd):
        value = getattr(cmd, f.name)
        default = f.default_factory() if f.default_factory is not MISSING else f.default
        if f.name not in ("by", "monitor") and value != default:
            data[f.name.rstrip("_")] = list(value) if isinstance(value, tuple) else value
    return data


def build(verb: str, by: str = "", **args: Any) -> Command:
    """The command `verb` sent by player `by` (not the monitor), from its arguments by
    their transcript names (`for`, `from`, `with` included): for a name chosen at run time."""
    return parse({"cmd": verb, "by": by, **args}, monitor=False)


def _required(kind: type[Command]) -> frozenset[str]:
    return frozenset(f.name for f in fields(kind)
                     if f.default is MISSING and f.default_factory is MISSING)


def _checked(verb: str, key: str, value: Any, hint: Any) -> Any:
    """`value` of argument `key`, checked against its type `hint` (tuples from lists)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is types.UnionType:
        return None if value is None else _checked(verb, key, value, args[0])
    if hint is Any:
        return value
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise BadCommand(code="wrong_form", verb=verb, key=repr(key), value=repr(value))
        if not all(isinstance(v, str) for v in value):
            raise BadCommand(code="players_form", verb=verb, key=repr(key), value=repr(value))
        return tuple(value)
    expected = {Sequence: list, Mapping: dict}.get(origin, hint)
    if not isinstance(value, expected) or (isinstance(value, bool) and expected is not bool):
        raise BadCommand(code="wrong_form", verb=verb, key=repr(key), value=repr(value))
    return value


_REQUIRED = {kind: _required(kind) for kind in COMMANDS.values()}
_HINTS = {kind: typing.get_type_hints(kind) for kind in COMMANDS.values()}
