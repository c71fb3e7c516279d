"""`rules/` is pure: it imports only the standard library and itself."""

import ast
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "rules"


def test_rules_imports_only_the_standard_library() -> None:
    offenders = []
    for path in sorted(RULES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                if top != "rules" and top not in sys.stdlib_module_names:
                    offenders.append(f"{path.name}: {name}")
            assert not (isinstance(node, ast.Import | ast.ImportFrom)
                        and any(n in ("asyncio", "random", "secrets", "time")
                                for n in names)), f"{path.name} imports I/O, clock or dice"
    assert offenders == []
    assert len(list(RULES.glob("*.py"))) >= 3
