"""Which exceptions of a start are told in one line, with which exit status (the processes
themselves are run in tests/e2e/test_startup.py)."""

import logging
import socket
from pathlib import Path
from types import SimpleNamespace

import aiohttp
import discord
import pytest

from bot.config import Settings, SettingsError
from bot.discord.startup import EXIT_SETTINGS, EXIT_UNREACHABLE, failure, invite_url, setup_logging
from bot.store import StoreError


def closed(code: int) -> discord.ConnectionClosed:
    return discord.ConnectionClosed(SimpleNamespace(close_code=code), shard_id=None)  # type: ignore[arg-type]


@pytest.mark.parametrize(("exc", "status", "start"), [
    (SettingsError("LOG_LEVEL must be ..."), EXIT_SETTINGS, "LOG_LEVEL"),
    (StoreError("The database x is empty"), EXIT_SETTINGS, "The database"),
    (discord.LoginFailure("Improper token"), EXIT_SETTINGS, "Discord rejected the token"),
    (closed(4004), EXIT_SETTINGS, "Discord rejected the token"),
    (discord.PrivilegedIntentsRequired(None), EXIT_SETTINGS, "Discord refused the Server"),
    (discord.GatewayNotFound(), EXIT_UNREACHABLE, "Discord is not answering"),
    (ConnectionRefusedError(111, "Connection refused"), EXIT_UNREACHABLE, "Can't reach"),
    (socket.gaierror(-2, "Name or service not known"), EXIT_UNREACHABLE, "Can't reach"),
    (TimeoutError(), EXIT_UNREACHABLE, "Can't reach Discord (TimeoutError)"),
    (aiohttp.ServerDisconnectedError(), EXIT_UNREACHABLE, "Can't reach"),
])
def test_known_failures_are_one_line_with_a_status(exc: BaseException, status: int,
                                                   start: str) -> None:
    told = failure(exc)
    assert told is not None and told.status == status and told.message.startswith(start)
    assert "\n" not in told.message


@pytest.mark.parametrize("exc", [RuntimeError("a bug"), closed(4000), PermissionError(13, "x")])
def test_anything_else_keeps_its_traceback(exc: BaseException) -> None:
    assert failure(exc) is None


def test_a_rejected_token_names_the_env_file_it_was_read_from(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=old\n")
    told = failure(discord.LoginFailure(), Settings.load(env, environ={}))
    assert told is not None and f"DISCORD_TOKEN ({env} or the environment)" in told.message


def test_the_invite_asks_for_the_readmes_permissions() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    url = invite_url(1234)
    assert "client_id=1234" in url and "scope=bot+applications.commands" in url
    assert url.split("permissions=")[1] in readme


def test_no_log_line_holds_a_password_or_the_token(capsys: pytest.CaptureFixture[str]) -> None:
    token = "MTIzNDU2Nzg5MDEyMzQ1Njc4OTA.GaBcDe.abcdefghijklmnopqrstuvwxyz0123"
    root = logging.getLogger()
    before, level = list(root.handlers), root.level
    try:
        setup_logging(logging.INFO)
        logging.getLogger("bot.test").warning("connecting to %s as %s",
                                              "postgresql://bot:s3cret@db/c?password=s3cret",
                                              token)
    finally:
        for handler in set(root.handlers) - set(before):
            root.removeHandler(handler)
        root.setLevel(level)
    err = capsys.readouterr().err
    assert "connecting to postgresql://bot:***@db/c?password=*** as ***" in err
    assert "s3cret" not in err and token not in err
