"""Bad input to `python -m bot` (issue 34): one line on stderr and a status that is not 0,
never a traceback; each case as the operator met it, through the command line."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.analysis.worker import available

ROOT = Path(__file__).resolve().parents[2]
TRANSCRIPT = ROOT / "tests" / "analysis" / "data" / "chouette.jsonl"
DEEP = "[" * 100_000  # json.loads: RecursionError
NOT_UTF8 = b'{"cmd": "open", "preset": "atlanta", "mode": "play"}\n\xff\xfe\n'
needs_gnubg = pytest.mark.skipif(not available(), reason="the analysis extra (gnubg)")


def bot(tmp_path: Path, *args: str, stdin: str = "", **settings: str
        ) -> subprocess.CompletedProcess[str]:
    """`python -m bot ARGS` with only `settings` as its environment (no .env of the
    checkout's, a database under `tmp_path`)."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONPATH": str(ROOT),
           "PYTHONDONTWRITEBYTECODE": "1", "CHOUETTE_ENV_FILE": str(tmp_path / "none.env"),
           "CHOUETTE_DB": str(tmp_path / "c.db"), **settings}
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=tmp_path, env=env,
                          input=stdin, capture_output=True, text=True, timeout=120)


def one_line(done: subprocess.CompletedProcess[str], status: int = 2) -> str:
    """The one line the command wrote on stderr, its status checked."""
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.returncode == status and len(done.stderr.splitlines()) == 1, done.stderr
    return done.stderr


def test_a_file_that_is_not_utf8_is_named_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "latin.jsonl"
    bad.write_bytes(NOT_UTF8)
    for command in (["scenario", str(bad)], ["analyse", str(bad)],
                    ["export", "--scenario", str(bad), "--out", str(tmp_path / "x.mat")]):
        assert f"{bad} is not UTF-8 text" in one_line(bot(tmp_path, *command)), command


def test_an_env_file_that_is_not_utf8_stops_the_start_in_one_line(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_bytes(b"DISCORD_TOKEN=abc\nCHOUETTE_MODERATOR_ROLE=Mod\xe9rateur\n")
    line = one_line(bot(tmp_path, "run", CHOUETTE_ENV_FILE=str(env)))
    assert f"{env} is not UTF-8 text" in line


def test_a_line_nested_too_deep_is_refused_as_any_line_that_is_not_json(
        tmp_path: Path) -> None:
    """`legal` answers the line with an error (status 1), `scenario` lists it under
    `rejected` (contract 2: a refused line does not stop the run)."""
    assert "recursion" in one_line(bot(tmp_path, "legal", stdin=DEEP + "\n"), status=1)
    path = tmp_path / "deep.jsonl"
    path.write_text(TRANSCRIPT.read_text() + DEEP + "\n")
    done = bot(tmp_path, "scenario", str(path))
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout)["rejected"][-1]["reason"].startswith("Not a JSON command")


@needs_gnubg
def test_analyse_passes_over_a_line_nested_too_deep(tmp_path: Path) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_text("\n".join([*TRANSCRIPT.read_text().splitlines()[:6], DEEP]) + "\n")
    done = bot(tmp_path, "analyse", str(path))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    decisions = json.loads(done.stdout)["decisions"]  # (those of the six lines before it)
    assert [d["kind"] for d in decisions] == ["move", "double", "double", "move"]


@needs_gnubg
def test_analyse_of_a_file_without_one_command_says_so(tmp_path: Path) -> None:
    for text in ("garbage\nmore garbage\n", DEEP + "\n"):
        path = tmp_path / "garbage.jsonl"
        path.write_text(text)
        assert "no line of the transcript is a command" in one_line(
            bot(tmp_path, "analyse", str(path)))


@pytest.mark.parametrize(("name", "setting"), [
    ("CHOUETTE_SHARD_IDS", {"CHOUETTE_SHARD_COUNT": "3", "CHOUETTE_SHARD_IDS": "0,²"}),
    ("CHOUETTE_DEV_GUILD_ID", {"CHOUETTE_DEV_GUILD_ID": "¹²³"}),
    ("CHOUETTE_MODERATOR_ROLE_ID", {"CHOUETTE_MODERATOR_ROLE_ID": "4⁵"}),
])
def test_ids_in_superscript_digits_are_refused_in_one_line(
        tmp_path: Path, name: str, setting: dict[str, str]) -> None:
    """`isdigit` takes superscripts, which `int` refuses: a setting's digits are decimal."""
    assert name in one_line(bot(tmp_path, "run", DISCORD_TOKEN="abc", **setting))


def test_a_database_url_whose_port_is_not_a_number_is_one_line_without_its_password(
        tmp_path: Path) -> None:
    url = "postgresql://bot:s3cret@db:54x2/chouette"
    for done in (bot(tmp_path, "run", DISCORD_TOKEN="abc", CHOUETTE_DATABASE_URL=url),
                 bot(tmp_path, "stats", "--db", url),
                 bot(tmp_path, "move-to", url)):
        line = one_line(done)
        assert "the port '54x2'" in line and "s3cret" not in line and "bot:***@" in line
