"""The shape of the code: the Discord adapter's imports go one way (client -> inbox ->
presenter -> boards -> actions -> views -> asks -> host -> router -> failures -> channels ->
sync), the game's flow sits between the adapter and the service
(flow -> service -> effects, store), and the process core does not import the adapter
(but the command line, which starts it, and the start-up checks, which name the invite)."""

import ast
from pathlib import Path

BOT = Path(__file__).resolve().parents[2] / "bot"
ORDER = ["client", "inbox", "presenter", "boards", "actions", "views", "asks", "host", "router",
         "failures", "channels", "sync"]
CORE = ["flow", "service", "effects", "store"]


def imported(path: Path) -> set[str]:
    """Every `bot....` module a file imports, anywhere in it (type-only imports too)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:  # a module or names of one
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {n for n in names if n.startswith("bot.")}


def test_the_discord_adapter_imports_one_way() -> None:
    assert sorted(p.stem for p in (BOT / "discord").glob("*.py")) == sorted(
        [*ORDER, "__init__"])
    for i, name in enumerate(ORDER):
        above = {f"bot.discord.{m}" for m in ORDER[:i + 1]}
        assert not imported(BOT / "discord" / f"{name}.py") & above, name


def test_the_core_does_not_import_the_adapter() -> None:
    for path in BOT.rglob("*.py"):
        if "discord" in path.relative_to(BOT).parts or path.stem in ("__main__", "startup"):
            continue
        assert not {m for m in imported(path) if m.startswith("bot.discord")}, path


def test_the_flow_sits_between_the_adapter_and_the_service() -> None:
    for i, name in enumerate(CORE):
        above = {f"bot.{m}" for m in CORE[:i + 1]}
        assert not imported(BOT / f"{name}.py") & above, name
    assert "bot.service" in imported(BOT / "flow.py")
    assert "bot.flow" in imported(BOT / "discord" / "presenter.py")
