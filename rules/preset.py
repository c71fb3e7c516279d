"""A table's rule set as it opens: one of the five presets, with the table's overrides.

A preset (`rules/presets/<name>.toml`) sets the options where its own document differs from
the Atlanta rules, `RuleSet`'s defaults (rules/ruleset.py); a table may override options
when it is opened: `load_preset()`. A table opened before an option existed kept the rule it
was played by (`UNSTATED`).
"""

from __future__ import annotations

import difflib
import functools
import tomllib
from collections.abc import Mapping
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from rules.errors import BadOption
from rules.ruleset import RuleSet

PRESETS: tuple[str, ...] = ("atlanta", "fibs", "villages", "danish", "euro")
PRESET_DIR = Path(__file__).parent / "presets"
# The rule a table opened before an option existed was played by, where it is not the
# option's default (a table's opening stores every option it knew: `TableOpened.options`).
UNSTATED: dict[str, object] = {"partner_invited": False}  # anyone first in line took it

_NAMES = tuple(f.name for f in fields(RuleSet))  # every option, in field order


def _options(values: Mapping[str, object], where: str) -> dict[str, Any]:
    """Known options from a preset file or overrides, TOML lists made tuples; else BadOption."""
    options: dict[str, Any] = {}
    for key, value in values.items():
        if key not in _NAMES:
            close = difflib.get_close_matches(str(key), list(_NAMES), n=3, cutoff=0.6)
            raise BadOption(code="no_option_close" if close else "no_option", where=where,
                            key=repr(key), close=" or ".join(close), options=", ".join(_NAMES))
        options[key] = tuple(value) if isinstance(value, list) else value
    return options


def load_preset(name: str, overrides: Mapping[str, object] | None = None) -> RuleSet:
    """The rule set of preset `name` with `overrides` applied; BadOption on any bad name/value."""
    if name not in PRESETS:
        close = difflib.get_close_matches(name, PRESETS, n=1, cutoff=0.5)
        raise BadOption(code="no_preset_close" if close else "no_preset", name=repr(name),
                        close=close[0] if close else "", presets=", ".join(PRESETS))
    return replace(_preset(name), **_options(overrides or {}, "Override"))


@functools.cache
def _preset(name: str) -> RuleSet:
    """A preset's rule set, its file read once (the presets ship with the rules; every
    table opened, and every replay of one, asks again)."""
    path = PRESET_DIR / f"{name}.toml"
    with path.open("rb") as fh:
        options = _options(tomllib.load(fh), f"Preset {name}")
    try:
        return replace(RuleSet(), **options)
    except BadOption as e:
        raise BadOption(code="preset_broken", name=name, file=path.name, why=str(e)) from e
