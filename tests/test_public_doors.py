"""The project uses its dependencies through their public doors only: no private name of a
third-party package (an attribute, a module or an imported name starting with `_`, a
name-mangled `_Class__name`, a dunder the language does not define), no name imported from
a module that does not export it, and no monkeypatching (assigning to or deleting an
attribute of a third-party module or of something imported from one).

A scan of each module's syntax: an attribute is the project's own when the project defines
that name somewhere (a class, function, argument, assignment or `__slots__`), so a private
name of ours is allowed wherever it is used, and any other private name is a dependency's."""

from __future__ import annotations

import ast
import builtins
import enum
import importlib
import importlib.metadata
import importlib.util
import re
import sys
import tomllib
import types
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rules", "bot", "cogs", "analysis")
OURS = {*PACKAGES, "tests", "bench", "tools"}
# The language's own dunders (and the documented ones of the standard library's protocols).
LANGUAGE = {name for kind in (object, type, types.ModuleType, types.FunctionType, int, list,
                              dict, BaseException, property, classmethod, enum.EnumMeta)
            for name in dir(kind)} | {
    "__all__", "__file__", "__path__", "__aenter__", "__aexit__", "__enter__", "__exit__",
    "__await__", "__aiter__", "__anext__", "__iter__", "__next__", "__call__", "__wrapped__",
    "__version__", "__slots__", "__post_init__", "__match_args__", "__dataclass_fields__"}
# Plain modules without `__all__` whose names their package's documentation gives.
DOCUMENTED_MODULES = {"babel.messages.pofile",  # babel.pocoo.org: read_po, write_po
                      "babel.messages.mofile"}  # and read_mo, write_mo
# Documented names of the standard library that start with one underscore.
DOCUMENTED = {"_replace", "_asdict", "_fields", "_make", "_field_defaults", "_missing_",
              "_value_", "_name_", "_generate_next_value_", "_ignore_", "_exit"}


def modules() -> Iterator[Path]:
    for package in PACKAGES:
        yield from sorted((ROOT / package).rglob("*.py"))


def trees() -> list[tuple[Path, ast.Module]]:
    return [(path, ast.parse(path.read_text(), str(path))) for path in modules()]


def third_party(module: str) -> bool:
    top = module.split(".")[0]
    return top not in OURS and top not in sys.stdlib_module_names


def private(name: str) -> bool:
    """Whether `name` is private by Python's convention: `_x`, `_Class__x`, or a dunder
    the language does not define."""
    if name.startswith("__") and name.endswith("__"):
        return name not in LANGUAGE
    return name.startswith("_") and name not in DOCUMENTED


def own_names(parsed: list[tuple[Path, ast.Module]]) -> set[str]:
    """Every name the project defines: its classes, functions, arguments, assigned names,
    the attributes it gives its own objects (`self.x = ...`, not a dunder), and
    `__slots__`."""
    names: set[str] = set()
    for _, tree in parsed:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                  and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
                  and not node.attr.endswith("__")):
                names.add(node.attr)
            elif isinstance(node, ast.alias) and node.asname:
                names.add(node.asname)
            elif (isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets)):
                names.update(c.value for c in ast.walk(node.value)
                             if isinstance(c, ast.Constant) and isinstance(c.value, str))
    return names


def dependencies_names(parsed: list[tuple[Path, ast.Module]]) -> set[str]:
    """Every private name a class of a third-party package the project imports has (its
    methods, class attributes and `__slots__`): a name of ours that is also one of these
    is not ours where it is used on something else than `self`."""
    tops = {alias.name.split(".")[0] for _, tree in parsed for node in ast.walk(tree)
            if isinstance(node, ast.Import) for alias in node.names}
    tops |= {node.module.split(".")[0] for _, tree in parsed for node in ast.walk(tree)
             if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module}
    names: set[str] = set()
    for top in sorted(t for t in tops if third_party(t)):
        importlib.import_module(top)
        for name, module in list(sys.modules.items()):
            if name.split(".")[0] != top or module is None:
                continue
            for kind in vars(module).values():
                if isinstance(kind, type) and kind.__module__ == name:
                    for klass in kind.__mro__:
                        names.update(n for n in vars(klass) if private(n))
                        names.update(n for n in getattr(klass, "__slots__", ())
                                     if isinstance(n, str) and private(n))
    return names


def root(node: ast.expr) -> ast.expr:
    while isinstance(node, ast.Attribute | ast.Subscript | ast.Call):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node


def unexported(module: str, name: str) -> bool:
    """Whether `from module import name` takes a name `module` does not export: one
    missing from its `__all__`, or from a plain module (not a package) whose package does
    not offer it either (discord.py's `discord.http`, say)."""
    found = importlib.import_module(module)
    if isinstance(getattr(found, name, None), types.ModuleType) or (
            hasattr(found, "__path__") and importlib.util.find_spec(f"{module}.{name}")):
        return False  # a module of the package (`from aiohttp import web`), imported or not
    exported = getattr(found, "__all__", None)
    if exported is not None:
        return name not in exported
    if hasattr(found, "__path__") or "." not in module or module in DOCUMENTED_MODULES:
        return False
    parent = importlib.import_module(module.rsplit(".", 1)[0])
    return getattr(parent, name, None) is not getattr(found, name)


def offences(path: Path, tree: ast.Module, own: set[str],
             theirs: frozenset[str] = frozenset()) -> Iterator[str]:
    where = path.relative_to(ROOT)
    foreign: set[str] = set()  # names bound to a third-party module or to what it exports
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if third_party(alias.name):
                    foreign.add(alias.asname or alias.name.split(".")[0])
                    if any(private(part) for part in alias.name.split(".")):
                        yield f"{where}:{node.lineno} imports {alias.name}"
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if not third_party(node.module):
                continue
            for alias in node.names:
                foreign.add(alias.asname or alias.name)
                if any(private(part) for part in [*node.module.split("."), alias.name]):
                    yield f"{where}:{node.lineno} imports {node.module}.{alias.name}"
                elif unexported(node.module, alias.name):
                    yield (f"{where}:{node.lineno} imports {alias.name}, which "
                           f"{node.module} does not export")

    def theirs_touched(receiver: ast.expr, name: str) -> bool:
        """Whether `receiver.name` is a dependency's private name: not ours, or one that
        a dependency's class has too, on something else than `self`."""
        mine = isinstance(receiver, ast.Name) and receiver.id in ("self", "cls")
        return private(name) and (name not in own or (name in theirs and not mine))

    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and theirs_touched(node.value, node.attr):
            yield f"{where}:{node.lineno} touches .{node.attr}"
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "setattr", "hasattr", "delattr")
                and len(node.args) > 1 and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)
                and theirs_touched(node.args[0], node.args[1].value)):
            yield f"{where}:{node.lineno} touches .{node.args[1].value}"
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign | ast.Delete):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("setattr", "delattr") and node.args):
            targets = [ast.Attribute(value=node.args[0], attr="?", ctx=ast.Store(),
                                     lineno=node.lineno)]
        for target in targets:
            base = root(target)
            if (isinstance(target, ast.Attribute) and isinstance(base, ast.Name)
                    and base.id in foreign):
                yield f"{where}:{target.lineno} monkeypatches {base.id}"


def scan() -> list[str]:
    parsed = trees()
    own = own_names(parsed) - {name for name in dir(builtins) if name.startswith("_")}
    theirs = frozenset(dependencies_names(parsed))
    return [found for path, tree in parsed for found in offences(path, tree, own, theirs)]


def test_no_private_name_of_a_dependency_and_no_monkeypatch() -> None:
    assert scan() == []


def test_the_scan_finds_what_it_looks_for(tmp_path: Path) -> None:
    """Each kind of offence, written as the bot once did, is found; the project's own
    private names and the language's dunders are not."""
    code = '''
import discord
import aiohttp
from discord.http import Route
from discord.ext import commands
from PIL import Image


class Mine:
    def __init__(self):
        self._mine = 1

    def touch(self, interaction, http, cog, other):
        state = interaction._state
        cog.__cog_app_commands__ = []
        session = http._HTTPClient__session
        http._try_clear_expired_ratelimits = None
        discord.http.Route.BASE = "x"
        setattr(aiohttp, "ClientSession", None)
        return other._mine, self.__class__, type(self).__name__, getattr(http, "_session")
'''
    tree = ast.parse(code)
    own = own_names([(ROOT / "bot" / "x.py", tree)]) | {"_session"}  # a name of ours too
    theirs = frozenset(dependencies_names([(ROOT / "bot" / "x.py", tree)]))
    found = "\n".join(offences(ROOT / "bot" / "x.py", tree, own, theirs))
    for expected in ("imports Route, which discord.http does not export",
                     "touches ._state", "touches .__cog_app_commands__",
                     "touches ._HTTPClient__session", "touches ._try_clear_expired_ratelimits",
                     "monkeypatches discord", "monkeypatches aiohttp", "touches ._session"):
        assert expected in found, expected
    assert "_mine" not in found and "__class__" not in found and "__name__" not in found
    assert "ext.commands" not in found and "Image" not in found


def test_every_dependency_imported_is_declared() -> None:
    """Each third-party package the project imports is installed by a distribution that
    pyproject.toml names (a dependency or an extra's)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = [*project["dependencies"],
              *(r for extra in project["optional-dependencies"].values() for r in extra)]
    declared = {re.split(r"[\s\[<>=!~;]", r, maxsplit=1)[0].lower() for r in wanted}
    tops = {node.module.split(".")[0] if isinstance(node, ast.ImportFrom) else alias.name
            .split(".")[0]
            for _, tree in trees() for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom)
            and not (isinstance(node, ast.ImportFrom) and (node.level or not node.module))
            for alias in node.names}
    providers = importlib.metadata.packages_distributions()
    undeclared = {top: providers.get(top) for top in tops if third_party(top)
                  and not {d.lower() for d in providers.get(top, [])} & declared}
    assert undeclared == {}
