"""The Docker build context: every path the Dockerfile COPYs is let through `.dockerignore`
(a path it keeps out fails the build with "not found"), checked without a Docker daemon.

`.dockerignore` is read as Docker reads it (moby/patternmatcher, the rules in Docker's
"Dockerignore files" documentation), closely enough for the patterns we write:
- one pattern a line; blank lines and lines starting with `#` are ignored; a leading `/`
  and a trailing `/` are dropped (paths are relative to the context);
- `!` before a pattern lets back in what an earlier pattern kept out; the last pattern
  matching a path decides;
- a pattern matching a folder matches everything under it;
- `*` is any run of characters but `/`, `?` one character but `/`, `[...]` a class (as
  Go's filepath.Match), and `**` any number of folders, none included.
"""

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def compile_pattern(pattern: str) -> re.Pattern[str]:
    """A `.dockerignore` pattern as a regular expression matching a whole relative path."""
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif pattern[i] == "?":
            out, i = out + "[^/]", i + 1
        elif pattern[i] == "[" and (end := pattern.find("]", i)) > i:
            inside = pattern[i + 1:end]  # (Go writes a negated class [^...] as Python does)
            out, i = out + "[" + inside + "]", end + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return re.compile(out)


def rules(text: str) -> list[tuple[bool, re.Pattern[str]]]:
    """(lets in, pattern) for each line of a `.dockerignore`, in order."""
    found = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        back = line.startswith("!")
        found.append((back, compile_pattern(line.lstrip("!").strip("/"))))
    return found


def sent(path: str, patterns: list[tuple[bool, re.Pattern[str]]]) -> bool:
    """Whether the path (relative, with `/`) goes into the build context."""
    parts = path.split("/")
    prefixes = ["/".join(parts[:n]) for n in range(1, len(parts) + 1)]
    kept_out = False
    for back, pattern in patterns:
        if any(pattern.fullmatch(p) for p in prefixes):
            kept_out = not back
    return not kept_out


def copied() -> list[str]:
    """The sources of every COPY of the Dockerfile (not those of another stage)."""
    sources = []
    for line in (ROOT / "Dockerfile").read_text().splitlines():
        if line.split()[:1] != ["COPY"]:
            continue
        words = shlex.split(line)
        if not any(w.startswith("--from") for w in words):
            sources += [w for w in words[1:-1] if not w.startswith("--")]
    return sources


def test_the_matching_reads_patterns_as_docker_does() -> None:
    patterns = rules("# comment\n*\n!bot/\n**/__pycache__\n!/docs/*.md\ndocs/[a-c]*.md\n")
    assert sent("bot/store/__init__.py", patterns) and not sent("tests/x.py", patterns)
    assert not sent("bot/__pycache__/store.cpython-311.pyc", patterns)
    assert sent("docs/map.md", patterns) and not sent("docs/analysis.md", patterns)
    assert not sent("docs/sub/map.md", patterns)  # `*` stops at a folder


def test_every_path_the_dockerfile_copies_is_in_the_build_context() -> None:
    patterns = rules((ROOT / ".dockerignore").read_text())
    sources = copied()
    assert {"requirements/image.txt", "bot", "locale"} <= set(sources)
    for source in sources:
        assert sent(source, patterns), f"{source} is copied but .dockerignore keeps it out"
        under = [p for p in (ROOT / source).rglob("*") if p.is_file()]
        for path in (ROOT / source, *under):
            name = path.relative_to(ROOT).as_posix()
            assert sent(name, patterns) or "__pycache__" in path.parts, name


def test_no_secret_or_database_goes_into_the_context() -> None:
    patterns = rules((ROOT / ".dockerignore").read_text())
    for name in (".env", "data/chouette.sqlite3", "backups/x.sqlite3", "tests/bot/conftest.py",
                 ".git/config", "bot/__pycache__/store.cpython-311.pyc"):
        assert not sent(name, patterns), name
