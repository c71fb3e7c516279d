"""The shape of the code, drawn from its imports: `bot/` is rooms on floors, each importing
only the floors below it (the command line above them all; the Discord adapter's modules
one way among themselves: opening -> client -> startup -> inbox -> presenter -> ...), and no
circle of files anywhere in the bot."""

import ast
from collections.abc import Collection
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

BOT = Path(__file__).resolve().parents[2] / "bot"
# Top floor first: a room may import its own modules and those of the floors below it.
FLOORS = [["__main__"], ["discord"], ["web"], ["analysis"], ["records"], ["app"],
          ["config", "health"], ["render"], ["store"], ["words"]]
ADAPTER = ["opening", "client", "startup", "inbox", "presenter", "sheets", "boards", "actions",
           "views", "asks", "host", "router", "failures", "channels", "sync"]


def imported(path: Path, known: Collection[str] = ()) -> set[str]:
    """Every `bot....` module a file imports, anywhere in it (type-only imports too): a name
    imported from a module, or the module itself when the name is one of `known` modules."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            subs = {f"{node.module}.{alias.name}" for alias in node.names}
            names.update(subs & set(known) or {node.module, *subs})
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {n for n in names if n.startswith("bot.")}


def module(path: Path) -> str:
    parts = path.relative_to(BOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def room(name: str) -> str:
    return name.split(".")[1]


def modules() -> dict[str, set[str]]:
    """Each module of the bot and the modules of the bot it imports (names of a module
    imported from it are the module)."""
    paths = {module(p): p for p in BOT.rglob("*.py")}
    return {name: {m for m in imported(path, paths) if m in paths and m != name}
            for name, path in paths.items()}


def test_every_module_of_the_bot_is_in_a_room_on_a_floor() -> None:
    rooms = {r for floor in FLOORS for r in floor}
    assert {room(m) for m in modules() if m != "bot"} == rooms
    for path in BOT.iterdir():
        if path.is_dir() and path.name != "__pycache__":
            assert (path / "__init__.py").read_text().startswith('"""'), path  # says what it owns


def test_rooms_import_only_the_floors_below_them() -> None:
    floor = {r: i for i, rooms in enumerate(FLOORS) for r in rooms}
    for name, imports in modules().items():
        if name == "bot":
            continue
        for other in imports:
            if room(other) != room(name):
                assert floor[room(other)] > floor[room(name)], f"{name} imports {other}"


def test_no_circle_of_files() -> None:
    try:
        tuple(TopologicalSorter(modules()).static_order())
    except CycleError as exc:
        raise AssertionError(f"a circle of imports: {exc.args[1]}") from exc


def test_the_discord_adapter_imports_one_way() -> None:
    assert sorted(p.stem for p in (BOT / "discord").glob("*.py")) == sorted(
        [*ADAPTER, "__init__"])
    for i, name in enumerate(ADAPTER):
        above = {f"bot.discord.{m}" for m in ADAPTER[:i + 1]}
        assert not imported(BOT / "discord" / f"{name}.py") & above, name


def test_the_flow_sits_between_the_adapter_and_the_service() -> None:
    app = modules()
    assert "bot.app.flow" not in app["bot.app.service"]
    assert "bot.app.service" in app["bot.app.flow"]
    assert "bot.app.flow" in app["bot.discord.presenter"]
