"""Settings: read from .env and the environment; a missing token is named, not a traceback."""

import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Settings, SettingsError


def test_env_file_is_read_and_the_environment_wins(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=from-file\nCHOUETTE_DB=/tmp/x.sqlite3\n")
    assert Settings.load(env, environ={}).discord_token == "from-file"
    assert Settings.load(env, environ={}).database == Path("/tmp/x.sqlite3")
    assert Settings.load(env, environ={"DISCORD_TOKEN": "env"}).discord_token == "env"


def test_defaults_without_any_env_file(tmp_path: Path) -> None:
    settings = Settings.load(tmp_path / "missing.env", environ={})
    assert settings.database == Path("data/chouette.sqlite3")
    with pytest.raises(SettingsError, match=r"DISCORD_TOKEN is not set.*\.env"):
        settings.require_token()


def test_bad_guild_id_names_the_setting(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="CHOUETTE_DEV_GUILD_ID"):
        Settings.load(tmp_path / "none", environ={"CHOUETTE_DEV_GUILD_ID": "abc"})


def test_run_without_a_token_says_what_to_do(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-m", "bot", "run"], cwd=tmp_path, text=True,
                          capture_output=True, env={"PYTHONPATH": str(root)}, check=False)
    assert done.returncode == 2
    assert "DISCORD_TOKEN is not set" in done.stderr and "Traceback" not in done.stderr
