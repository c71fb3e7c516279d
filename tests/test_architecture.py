"""docs/architecture.md tells the truth: every path it cites exists, every name it cites is
defined where it says (a module's name, a class's method or field, or a name some module of
the project defines), and its examples of a new button and a new command run: put into the
modules they name, the button shows on a game's board for the player on roll and sends its
command, and the command is decided, refused, folded and written in the record."""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAP = ROOT / "docs" / "architecture.md"
PACKAGES = ("rules", "bot", "cogs", "analysis")
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def cited() -> list[str]:
    """Every `quoted` token of the page's prose (its code blocks apart)."""
    prose = re.sub(r"```.*?```", "", MAP.read_text(), flags=re.S)
    return re.findall(r"`([^`\n]+)`", prose)


@cache
def definitions() -> dict[str, set[str]]:
    """Each name the project's modules define at their top level, and each class's names
    (its methods, fields and attributes) under "Class.name" (and its methods and fields
    alone too)."""
    names: dict[str, set[str]] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.parse(path.read_text()).body:
                for name in _defined(node):
                    names.setdefault(name, set()).add(str(path))
                if isinstance(node, ast.ClassDef):
                    for inner in node.body:
                        for name in _defined(inner):
                            names.setdefault(f"{node.name}.{name}", set()).add(str(path))
                            names.setdefault(name, set()).add(str(path))  # `act`: a method
                    for method in node.body:  # attributes set in __init__ (self.x = ...)
                        if isinstance(method, ast.FunctionDef) and method.name == "__init__":
                            for target in ast.walk(method):
                                if (isinstance(target, ast.Attribute)
                                        and isinstance(target.value, ast.Name)
                                        and target.value.id == "self"):
                                    names.setdefault(f"{node.name}.{target.attr}", set())
    return names


def _defined(node: ast.stmt) -> list[str]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.Assign):
        return [t.id for t in node.targets if isinstance(t, ast.Name)]
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return [node.target.id]
    return []


def resolves(dotted: str) -> bool:
    """Whether `package.module.name...` is a module, or a name found in one."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            if not hasattr(found, attr):
                return False
            found = getattr(found, attr)
        return True
    return False


def test_every_path_the_map_cites_exists() -> None:
    paths = [t for t in cited() if re.fullmatch(r"[\w./-]+(/|\.py|\.md|\.toml)", t)]
    assert len(paths) > 40
    for path in paths:
        if "/" in path.rstrip("/"):
            assert (ROOT / path).exists(), path
        else:  # a module or folder of the room its row names: somewhere in the project
            assert any(ROOT.glob(f"**/{path.rstrip('/')}")), path


def test_every_name_the_map_cites_is_defined() -> None:
    checked = 0
    for token in cited():
        if "/" in token or " " in token.split("(")[0] or ":" in token.split("(")[0]:
            continue  # a path, a command line, a custom id
        name = token.split("(")[0]
        if not re.fullmatch(r"[A-Za-z_][\w.]*", name) or name.endswith((".py", ".md")):
            continue
        if name.split(".")[0] in PACKAGES:
            assert resolves(name), token
        elif name.startswith("on_"):
            continue  # discord.py's event
        else:
            known = name in definitions() or name.split(".")[-1] in definitions()
            assert known, token
        checked += 1
    assert checked > 60


EXAMPLES = '''
import importlib, sys
from rules.commands import Join, Open, Seat, Start
from rules.errors import NotYourTurn
from rules.state import TableState, replay
from rules.table import decide

blocks = eval(sys.argv[1])
new = {}
for path, code in blocks:
    module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
    space = vars(module)
    space.update({k: v for k, v in new.items() if k not in space})
    if code.startswith('"'):  # an entry of a dict: ACTIONS
        module.ACTIONS.update(eval("{" + code + "}", space))
        continue
    if path.startswith("cogs/"):  # a method of the cog
        code = "class Example(Subcommands):\\n" + "".join(
            "    " + line + "\\n" for line in code.splitlines())
    before = set(space)
    exec(code, space)
    new.update({k: space[k] for k in set(space) - before})

from bot.discord.actions import ACTIONS, board_view, usable
from bot.words.lines import event_line
from rules.game import shooter
from rules.transcript import build

state = TableState()
for command in (Open(), Join(by="1"), Join(by="2"), Join(by="3"),
                Seat(order=["1", "2", "3"]), Start(opening=[[3, 1]])):
    state = replay(decide(state, command), state)
who = shooter(state)
other = next(p for p in ("1", "2", "3") if p != who)
labels = [getattr(item, "label", None) for item in board_view("7", state).children]
assert "Concede" in labels, labels
assert "resign" in usable(state, who), usable(state, who)
assert decide(state, build("resign", who))
paused = decide(state, new["Pause"](by=who))
assert paused == (new["GamePaused"](who),), paused
assert replay(paused, state) == state
assert event_line(paused[0], {"1": "Ann", "2": "Bo", "3": "Cy"}.get) == (
    f"{ {'1': 'Ann', '2': 'Bo', '3': 'Cy'}[who] } pauses the game.")
try:
    decide(state, new["Pause"](by=other))
except NotYourTurn as refused:
    assert str(who) in refused.text()
else:
    raise AssertionError("a pause by someone not on roll was taken")
assert any(c.name == "pause" for c in new["Example"](None).get_app_commands())
print("ran")
'''


def test_the_maps_examples_run() -> None:
    blocks = []
    for code in re.findall(r"```python\n(.*?)```", MAP.read_text(), flags=re.S):
        first, _, rest = code.partition("\n")
        where = re.fullmatch(r"# ([\w/]+\.py)\b.*", first)
        assert where, first  # each example names the module it goes in
        blocks.append((where[1], rest))
    assert len(blocks) == 6
    ran = subprocess.run([sys.executable, "-c", EXAMPLES, repr(blocks)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert ran.stdout.strip() == "ran", ran.stderr
