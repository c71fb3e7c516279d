"""Tests of the house-rule options: presets load, differ where their documents differ, and
every bad name or value is refused with a message that says what is allowed."""

from __future__ import annotations

import ast
import dataclasses
import re
import sys
import tomllib
from pathlib import Path
from typing import Any, Literal, get_args, get_origin, get_type_hints

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import BadOption, RuleError
from rules.preset import PRESET_DIR, PRESETS, load_preset
from rules.ruleset import RuleSet, allowed, explain

ROOT = Path(__file__).resolve().parents[2]
NAMES = [f.name for f in dataclasses.fields(RuleSet)]
HINTS = get_type_hints(RuleSet)

# What each document says, as the options its preset must end up with.
EXPECTED: list[tuple[str, str, object]] = [
    ("atlanta", "seat_roll_dice", 2),
    ("atlanta", "partner", "optional"),
    ("atlanta", "partner_min_players", 6),
    ("atlanta", "automatic_doubles", "by_agreement"),
    ("atlanta", "box_double_rule", "captain_first"),
    ("atlanta", "box_take_rule", "half_captain_first"),
    ("atlanta", "three_handed_initial", "both_or_none"),
    ("atlanta", "extras", "lone_taker"),
    ("atlanta", "box_retention", "win_profit"),
    ("atlanta", "box_consult_after_cubes", 2),
    ("atlanta", "default_proxy", "captain"),
    ("atlanta", "odd_point", "box"),
    ("atlanta", "whole_points", True),
    ("fibs", "single_cube", True),
    ("fibs", "max_players", 10),
    ("fibs", "partner", "required"),
    ("fibs", "partner_min_players", 6),
    ("fibs", "partner_from", "after_captain"),
    ("fibs", "may_pass_box", False),
    ("fibs", "may_decline_partner", False),
    ("fibs", "automatic_doubles", "none"),
    ("fibs", "beavers", False),
    ("fibs", "jacoby", True),
    ("fibs", "box_retention", "win"),
    ("fibs", "whole_points", False),
    ("fibs", "odd_point", "next_roll"),
    ("fibs", "default_proxy", "follow_captain"),
    ("fibs", "decision_timeout_seconds", 60),
    ("fibs", "shooter_absent", "suspend"),
    ("fibs", "disconnected_loses_place", True),
    ("fibs", "extras_min_players", 4),
    ("fibs", "settlements", "after_initial"),
    ("fibs", "join_approval", "unanimous"),
    ("fibs", "rotation", "fibs"),
    ("villages", "max_players", 5),
    ("villages", "partner", "never"),
    ("villages", "automatic_doubles", "box_option"),
    ("villages", "automatic_double_limit", 1),
    ("villages", "beavers", True),
    ("villages", "raccoons", "allowed"),
    ("villages", "aardvarks", "never"),
    ("villages", "lone_taker_must_beaver", True),
    ("villages", "extras", "none"),  # rule 8 covers the lone taker: he beavers
    ("villages", "box_take_rule", "free"),
    ("villages", "box_double_rule", "free"),
    ("villages", "team_double_order", "after_opener"),
    ("villages", "box_retention", "win_no_loss"),
    ("villages", "default_proxy", "take"),
    ("villages", "join_approval", "box"),
    ("villages", "rotation", "villages"),
    ("danish", "seat_roll_dice", 1),
    ("danish", "box_double_rule", "same_level"),
    ("danish", "box_take_rule", "same_level"),
    ("danish", "team_answer_order", "rotation"),
    ("danish", "extras", "none"),  # ¶16 the sell cube is a variation: an override
    ("danish", "premature_roll", "void"),
    ("danish", "box_retention", "beat_all"),
    ("danish", "partner_cubes", "own"),
    ("danish", "team_consultation", "in_game"),
    ("danish", "automatic_doubles", "none"),  # ¶15 a variation: an override
    ("danish", "rotation", "danish"),
    ("euro", "automatic_doubles", "always"),
    ("euro", "automatic_double_limit", 1),
    ("euro", "beavers", False),
    ("euro", "raccoons", "never"),
    ("euro", "box_take_rule", "half"),
    ("euro", "three_handed_initial", "both_or_none"),  # ¶6 "or pass all cubes" stands
    ("euro", "extras", "none"),  # ¶10 "If not agreed on separately ... no Beavers, Raccoons etc."
    ("euro", "box_retention", "win_profit"),
    ("euro", "profit_counts_penalties", False),
    ("euro", "consultation_penalty", "frozen_cube"),
    ("euro", "partner_from", "captain"),
    ("euro", "team_double_order", "rotation"),
    ("euro", "rotation", "euro"),
]


def _preset_file(name: str) -> dict[str, Any]:
    with (PRESET_DIR / f"{name}.toml").open("rb") as fh:
        return tomllib.load(fh)


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_loads(name: str) -> None:
    assert isinstance(load_preset(name), RuleSet)


@pytest.mark.parametrize(("preset", "option", "value"), EXPECTED,
                         ids=[f"{p}-{o}" for p, o, _ in EXPECTED])
def test_preset_value(preset: str, option: str, value: object) -> None:
    assert getattr(load_preset(preset), option) == value


def test_atlanta_is_the_default_and_its_file_spells_out_every_option() -> None:
    assert load_preset("atlanta") == RuleSet()
    assert sorted(_preset_file("atlanta")) == sorted(NAMES)


def test_the_five_presets_are_all_different() -> None:
    assert len({load_preset(name) for name in PRESETS}) == len(PRESETS)


def test_rotation_names_are_the_presets() -> None:
    assert get_args(HINTS["rotation"]) == PRESETS


@pytest.mark.parametrize("name", PRESETS)
def test_preset_file_has_only_known_keys_each_with_a_citation(name: str) -> None:
    assert set(_preset_file(name)) <= set(NAMES)
    text = (PRESET_DIR / f"{name}.toml").read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            assert "#" in line, f"{name}.toml: no rule cited on {line!r}"


def test_presets_directory_holds_exactly_the_presets() -> None:
    assert sorted(p.stem for p in PRESET_DIR.glob("*.toml")) == sorted(PRESETS)


def test_overrides_apply_on_top_of_the_preset() -> None:
    rules = load_preset("villages", {"max_players": 4, "jacoby": False,
                                     "stake_multiples": [1, 2]})
    assert (rules.max_players, rules.jacoby, rules.stake_multiples) == (4, False, (1, 2))
    assert rules.automatic_doubles == "box_option"  # the rest is the preset's


def test_no_overrides_is_the_preset() -> None:
    assert load_preset("euro", {}) == load_preset("euro") == load_preset("euro", None)


def test_unknown_preset_lists_the_presets() -> None:
    with pytest.raises(BadOption) as err:
        load_preset("atlantaa")
    assert "Did you mean atlanta?" in str(err.value)
    assert "atlanta, fibs, villages, danish, euro" in str(err.value)


@pytest.mark.parametrize("name", ["chess", "../pyproject", "", "Atlanta"])
def test_other_preset_names_are_refused(name: str) -> None:
    with pytest.raises(BadOption, match="Choose one of: atlanta, fibs"):
        load_preset(name)


def test_unknown_option_suggests_the_closest_name() -> None:
    with pytest.raises(BadOption) as err:
        load_preset("atlanta", {"max_player": 5})
    assert "'max_player'" in str(err.value)
    assert "Did you mean max_players" in str(err.value)


def test_unknown_option_without_a_close_name_lists_them_all() -> None:
    with pytest.raises(BadOption) as err:
        load_preset("atlanta", {"zzzz": 1})
    assert all(name in str(err.value) for name in NAMES)


@pytest.mark.parametrize(("option", "value", "says"), [
    ("max_players", "five", "a whole number from 3 to 20"),
    ("max_players", 99, "a whole number from 3 to 20, not 99"),
    ("max_players", True, "a whole number"),
    ("max_players", 5.0, "a whole number"),
    ("beavers", "yes", "true or false"),
    ("beavers", 1, "true or false"),
    ("partner", "sometimes", 'one of "never", "optional", "required", not "sometimes"'),
    ("rotation", "chess", '"atlanta", "fibs", "villages", "danish", "euro"'),
    ("stake_multiples", "1,2", "a list of whole numbers"),
    ("stake_multiples", [1, 3], "doubling steps from 1"),
    ("stake_multiples", [2, 4], "doubling steps from 1"),
    ("stake_multiples", [], "doubling steps from 1"),
    ("min_players", 12, "cannot exceed max_players"),
])
def test_bad_values_say_what_is_allowed(option: str, value: object, says: str) -> None:
    with pytest.raises(BadOption) as err:
        load_preset("atlanta", {option: value})
    assert says in str(err.value)
    assert option in str(err.value)


def test_inconsistent_options_are_refused() -> None:
    with pytest.raises(BadOption, match="Raccoons need beavers"):
        load_preset("villages", {"beavers": False})
    with pytest.raises(BadOption, match="Aardvarks need raccoons"):
        load_preset("atlanta", {"raccoons": "never"})
    assert load_preset("villages", {"beavers": False, "raccoons": "never"}).beavers is False


def test_bad_option_is_a_rule_error() -> None:
    assert issubclass(BadOption, RuleError) and issubclass(BadOption, ValueError)


def test_ruleset_is_frozen_and_replace_validates() -> None:
    rules = RuleSet()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.max_players = 4  # type: ignore[misc]
    with pytest.raises(BadOption):
        dataclasses.replace(rules, max_players=2)
    assert dataclasses.replace(rules, max_players=6).max_players == 6


def test_repr_is_valid_code() -> None:
    rules = load_preset("danish")
    assert eval(repr(rules), {"RuleSet": RuleSet}) == rules


@pytest.mark.parametrize("name", PRESETS)
def test_describe_gives_one_sentence_per_option(name: str) -> None:
    lines = explain(load_preset(name))
    assert len(lines) == len(NAMES)
    assert all(line[0].isupper() and line.endswith(".") and "{" not in line for line in lines)


def test_describe_words_the_values() -> None:
    lines = explain(load_preset("villages"))
    assert "At most 5 players may sit at the table." in lines
    assert "Seats are drawn by rolling one die each." in explain(load_preset("danish"))
    assert "A player may play for 1, 2, 4, 8 times the basic stake, if the Box agrees." in lines


def _values(name: str) -> list[Any]:
    hint = HINTS[name]
    if get_origin(hint) is Literal:
        return list(get_args(hint))
    if hint is bool:
        return [True, False]
    return []


@pytest.mark.parametrize("name", [n for n in NAMES if _values(n)])
def test_every_value_of_every_choice_has_its_own_words(name: str) -> None:
    index = NAMES.index(name)
    fewer: dict[str, Any] = {"raccoons": "never", "aardvarks": "never"}  # beavers/raccoons off
    # Options some values need with them (a rotation's own retention and Partner rules).
    needs: dict[object, dict[str, Any]] = {"danish": {"box_retention": "beat_all"},
                                           "villages": {"partner": "never"},
                                           # halves kept go with a sheet of halves
                                           "keep_halves": {"whole_points": False},
                                           "next_roll": {"whole_points": False}}
    said = {explain(RuleSet(**{**fewer, name: v}) if v in (False, "never")
                     else RuleSet(**{**needs.get(v, {}), name: v}))[index]
            for v in _values(name)}
    assert len(said) == len(_values(name))


def test_allowed_describes_every_option() -> None:
    assert all(allowed(name) for name in NAMES)


def _option_values(name: str) -> st.SearchStrategy[object]:
    if _values(name):
        return st.sampled_from(_values(name))
    if HINTS[name] is int:
        meta = next(f.metadata for f in dataclasses.fields(RuleSet) if f.name == name)
        return st.integers(meta["lo"], meta["hi"])
    return st.sampled_from([[1], [1, 2], [1, 2, 4, 8, 16]])


@given(st.fixed_dictionaries({}, optional={n: _option_values(n) for n in NAMES}))
def test_any_valid_overrides_load_or_are_refused_as_bad_options(over: dict[str, object]) -> None:
    try:
        rules = load_preset("atlanta", over)
    except BadOption:
        return
    assert all(getattr(rules, k) == (tuple(v) if isinstance(v, list) else v)
               for k, v in over.items())
    assert len(explain(rules)) == len(NAMES)


def test_ruleset_imports_only_the_standard_library() -> None:
    tree = ast.parse((ROOT / "rules" / "ruleset.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [
                node.module or ""]
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top in ("rules", "__future__"), name


def test_every_option_is_documented_in_rules_md() -> None:
    doc = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    missing = [name for name in NAMES if f"`{name}" not in doc]
    assert not missing, f"docs/rules.md never mentions {missing}"


def test_rules_md_matches_the_presets() -> None:
    """Every `option = value` written in a preset's section of docs/rules.md is its value."""
    doc = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    sections = re.split(r"^## ", doc, flags=re.M)
    checked = set()
    for section in sections:
        preset = section.split(":", 1)[0]
        if preset not in PRESETS:
            continue
        rules = load_preset(preset)
        for name, value in re.findall(r"`(\w+) = ([^`]+)`", section):
            assert name in NAMES, f"docs/rules.md ({preset}) cites unknown option {name}"
            want = tomllib.loads(f"v = {value}")["v"]
            want = tuple(want) if isinstance(want, list) else want
            assert getattr(rules, name) == want, f"docs/rules.md ({preset}): {name} = {value}"
            checked.add(preset)
    assert checked == set(PRESETS)


def _cell(text: str) -> object:
    text = text.strip("* ")
    if text in ("true", "false"):
        return text == "true"
    if text.isdigit():
        return int(text)
    if text.startswith("["):
        return tuple(int(n) for n in text.strip("[]").split(","))
    return text


def test_rules_md_glance_table_matches_the_presets() -> None:
    doc = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| [^|]+ \|(.+)\|$", doc, flags=re.M)
    assert [name for name, _ in rows] == NAMES
    for name, cells in rows:
        values = [c.strip() for c in cells.split("|")]
        atlanta = _cell(values[0])
        for preset, shown in zip(PRESETS, values, strict=True):
            want = atlanta if shown == "=" else _cell(shown)
            assert getattr(load_preset(preset), name) == want, (preset, name)
