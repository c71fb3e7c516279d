"""Settings: read from .env and the environment; a missing token is named, not a traceback."""

import logging
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import PROJECT, Settings, SettingsError


def test_env_file_is_read_and_the_environment_wins(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=from-file\nCHOUETTE_DB=/tmp/x.sqlite3\n")
    assert Settings.load(env, environ={}).discord_token == "from-file"
    assert Settings.load(env, environ={}).database == Path("/tmp/x.sqlite3")
    assert Settings.load(env, environ={"DISCORD_TOKEN": "env"}).discord_token == "env"


def test_defaults_without_any_env_file(tmp_path: Path) -> None:
    settings = Settings.load(tmp_path / "missing.env", environ={})
    assert settings.database == PROJECT / "data/chouette.sqlite3"
    assert settings.log_level_number == logging.INFO
    with pytest.raises(SettingsError, match=r"DISCORD_TOKEN is not set.*\.env"):
        settings.require_token()


def test_env_and_database_are_found_in_the_project_not_the_current_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".env").write_text("CHOUETTE_DB=store/c.sqlite3\n")
    monkeypatch.chdir(tmp_path / "..")
    settings = Settings.load(environ={}, root=tmp_path)
    assert settings.env_file == tmp_path / ".env" and settings.env_found
    assert settings.database == tmp_path / "store/c.sqlite3"
    assert Settings.load(environ={}).env_file == PROJECT / ".env"
    other = tmp_path / "elsewhere.env"
    other.write_text("DISCORD_TOKEN=t\n")
    chosen = Settings.load(environ={"CHOUETTE_ENV_FILE": str(other)}, root=tmp_path)
    assert chosen.discord_token == "t" and chosen.env_file == other


def test_an_empty_token_in_an_existing_env_file_says_to_fill_it_in(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=\n")
    with pytest.raises(SettingsError) as caught:
        Settings.load(env, environ={}).require_token()
    assert str(caught.value).startswith(f"DISCORD_TOKEN is empty in {env}")
    assert "Copy" not in str(caught.value)


def test_bad_guild_id_names_the_setting(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="CHOUETTE_DEV_GUILD_ID"):
        Settings.load(tmp_path / "none", environ={"CHOUETTE_DEV_GUILD_ID": "abc"})


def test_log_level_comes_from_the_environment(tmp_path: Path) -> None:
    assert Settings.load(tmp_path / "none", environ={"LOG_LEVEL": "debug"}).log_level == "DEBUG"
    with pytest.raises(SettingsError, match="LOG_LEVEL must be one of DEBUG"):
        Settings.load(tmp_path / "none", environ={"LOG_LEVEL": "loud"})


def test_run_without_a_token_says_what_to_do(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-m", "bot", "run"], cwd=tmp_path, text=True,
                          capture_output=True, check=False,
                          env={"PYTHONPATH": str(root),
                               "CHOUETTE_ENV_FILE": str(tmp_path / "missing.env")})
    assert done.returncode == 2
    assert "DISCORD_TOKEN is not set" in done.stderr and "Traceback" not in done.stderr


def test_the_moderator_role_is_matched_by_id_where_one_is_set_else_by_name(
        tmp_path: Path) -> None:
    by_name = Settings.load(tmp_path / "none", environ={"CHOUETTE_MODERATOR_ROLE": "Mods"})
    assert by_name.moderator_role_id is None
    assert by_name.moderator_role_matches(1, "Mods") and not by_name.moderator_role_matches(
        1, "Chouette Moderator")
    by_id = Settings.load(tmp_path / "none", environ={
        "CHOUETTE_MODERATOR_ROLE_ID": " 123456789012345678 ", "CHOUETTE_MODERATOR_ROLE": "Mods"})
    assert by_id.moderator_role_id == 123456789012345678
    assert by_id.moderator_role_matches(123456789012345678, "renamed")
    assert not by_id.moderator_role_matches(42, "Mods")  # the name no longer counts
    with pytest.raises(SettingsError, match=r"CHOUETTE_MODERATOR_ROLE_ID must be a role id "
                       r"\(digits\), not '@Mods'"):
        Settings.load(tmp_path / "none", environ={"CHOUETTE_MODERATOR_ROLE_ID": "@Mods"})


def test_in_a_container_a_missing_token_is_an_environment_variable_to_pass(
        tmp_path: Path) -> None:
    settings = Settings.load(tmp_path / "none", environ={"CHOUETTE_CONTAINER": "docker"})
    with pytest.raises(SettingsError, match=r"not set in this container's environment\. "
                       r"With Docker Compose, put DISCORD_TOKEN=") as caught:
        settings.require_token()
    assert ".env.example" not in str(caught.value) and "Create" not in str(caught.value)


def test_a_postgresql_url_chooses_the_postgresql_store(tmp_path: Path) -> None:
    url = "postgresql://bot:pw@db.example:5432/chouette"
    env = tmp_path / ".env"
    env.write_text(f"CHOUETTE_DB=c.sqlite3\nCHOUETTE_DATABASE_URL={url}\n")
    settings = Settings.load(env, environ={}, root=tmp_path)
    assert settings.database == url  # the store the bot opens
    assert settings.database_file == tmp_path / "c.sqlite3"  # what move-to copies from
    assert Settings.load(env, environ={"CHOUETTE_DATABASE_URL": ""},
                         root=tmp_path).database == tmp_path / "c.sqlite3"
    with pytest.raises(SettingsError, match=r"CHOUETTE_DATABASE_URL must be a PostgreSQL URL"
                                            r".*not 'mysql'.*CHOUETTE_DB"):
        Settings.load(env, environ={"CHOUETTE_DATABASE_URL": "mysql://x:secret@h/d"})


def test_shards_are_read_checked_and_say_which_servers_this_process_serves(
        tmp_path: Path) -> None:
    env, url = tmp_path / "none.env", "postgresql://bot:pw@db/chouette"

    def load(**values: str) -> Settings:
        return Settings.load(env, environ=values, root=tmp_path)

    alone = load()
    assert (alone.shard_count, alone.shard_ids, alone.sharded, alone.serves_all) == (
        1, None, False, True)
    assert alone.serves(123 << 22) and alone.serves(None)
    every = load(CHOUETTE_SHARD_COUNT="2")  # one process, both shards: SQLite is fine
    assert every.sharded and every.serves_all and every.serves((1 << 22) + 5)
    assert load(CHOUETTE_SHARD_COUNT="2", CHOUETTE_SHARD_IDS="1,0").serves_all
    one = load(CHOUETTE_SHARD_COUNT="2", CHOUETTE_SHARD_IDS="1", CHOUETTE_DATABASE_URL=url)
    assert one.shard_ids == (1,) and not one.serves_all
    assert one.serves(3 << 22) and not one.serves(4 << 22)
    assert not one.serves(None)  # DMs and tables without a server: shard 0's
    assert one.shard_of(3 << 22) == 1
    for bad, says in (({"CHOUETTE_SHARD_COUNT": "0"}, "CHOUETTE_SHARD_COUNT must be a whole"),
                      ({"CHOUETTE_SHARD_COUNT": "two"}, "not 'two'"),
                      ({"CHOUETTE_SHARD_IDS": "0"}, "needs CHOUETTE_SHARD_COUNT"),
                      ({"CHOUETTE_SHARD_COUNT": "2", "CHOUETTE_SHARD_IDS": "2"},
                       "from 0 to 1 separated by commas"),
                      ({"CHOUETTE_SHARD_COUNT": "2", "CHOUETTE_SHARD_IDS": "0;1"}, "not '0;1'"),
                      ({"CHOUETTE_SHARD_COUNT": "2", "CHOUETTE_SHARD_IDS": "1"},
                       "set CHOUETTE_DATABASE_URL")):
        with pytest.raises(SettingsError, match=says) as caught:
            load(**bad)
        assert "\n" not in str(caught.value)


@pytest.mark.parametrize("raw", ["2.5", "-1", "five"])
def test_the_tables_a_server_may_have_are_a_whole_number(raw: str) -> None:
    with pytest.raises(SettingsError, match="CHOUETTE_MAX_TABLES is how many tables"):
        Settings.load(environ={"CHOUETTE_MAX_TABLES": raw})
    assert Settings.load(environ={"CHOUETTE_MAX_TABLES": "12"}).max_tables == 12


def test_analysis_is_on_by_default_off_by_a_setting_and_has_a_time_per_game(
        tmp_path: Path) -> None:
    def load(**values: str) -> Settings:
        return Settings.load(tmp_path / "missing.env", environ=values)

    assert load().analysis and load().analysis_timeout == 300
    assert not load(CHOUETTE_ANALYSIS="Off").analysis and load(CHOUETTE_ANALYSIS="on").analysis
    assert load(CHOUETTE_ANALYSIS_TIMEOUT="45.5").analysis_timeout == 45.5
    with pytest.raises(SettingsError, match="CHOUETTE_ANALYSIS must be on or off, not 'maybe'"):
        load(CHOUETTE_ANALYSIS="maybe")
    for bad in ("0", "-5", "soon", "nan", "inf"):
        with pytest.raises(SettingsError, match="CHOUETTE_ANALYSIS_TIMEOUT is a game's seconds"):
            load(CHOUETTE_ANALYSIS_TIMEOUT=bad)


SECRET_URL = "postgresql://bot:s3cret@db/chouette?sslmode=require&password=s3cret"
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OTA.GaBcDe.abcdefghijklmnopqrstuvwxyz0123"


def test_the_settings_repr_shows_neither_the_token_nor_the_password(tmp_path: Path) -> None:
    settings = Settings.load(tmp_path / "none", environ={
        "DISCORD_TOKEN": TOKEN, "CHOUETTE_DATABASE_URL": SECRET_URL})
    shown = repr(settings)
    assert TOKEN not in shown and "s3cret" not in shown
    assert "discord_token='***'" in shown and "postgresql://bot:***@db/chouette" in shown
    assert settings.discord_token == TOKEN and settings.database == SECRET_URL  # (kept)


def test_a_database_url_that_is_not_postgresql_is_refused_without_its_password(
        tmp_path: Path) -> None:
    for url in ("bot:s3cret@db/chouette", "mysql://bot:s3cret@db/chouette"):
        with pytest.raises(SettingsError, match="must be a PostgreSQL URL") as refused:
            Settings.load(tmp_path / "none", environ={"CHOUETTE_DATABASE_URL": url})
        assert "s3cret" not in str(refused.value)
