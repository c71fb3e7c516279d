"""Start-up as the operator sees it: `python -m bot run` as a process, each failure one line
on stderr that says what to do (no traceback) and an exit status a service manager can use
(2: fix something first; 3: Discord unreachable, try again later); a good start logs the
bot's name, its servers and the invite link, and SIGTERM stops it cleanly."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.discord.channels import INVITE as USED
from bot.discord.startup import EXIT_SETTINGS, EXIT_UNREACHABLE
from bot.store import EventStore
from tests.e2e.support import HARNESS, INVITE, PROJECT, FakeDiscord

INJECT = HARNESS / "inject"
TIMEOUT = 30.0  # seconds: a start-up that hangs fails the test instead of the run


@dataclass
class Exited:
    """How a bot process ended."""

    status: int
    stderr: str

    def __post_init__(self) -> None:
        self.stderr = re.sub(r"\x1b\[[0-9;]*m", "", self.stderr)  # discord.py's colours

    @property
    def last_line(self) -> str:
        lines = self.stderr.strip().splitlines()
        return lines[-1] if lines else ""


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """The bot's folder: its settings file and its database."""
    return tmp_path


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def environment(home: Path, fake: FakeDiscord | None, **extra: str) -> dict[str, str]:
    """Only what the bot needs: no `.env` of the checkout, and Discord is the fake (or a
    closed port), never the real one."""
    url = fake.http_url if fake else f"http://127.0.0.1:{closed_port()}"
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
           "PYTHONPATH": os.pathsep.join([str(INJECT), str(PROJECT)]),
           "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1",
           "FAKE_DISCORD_HTTP": url, "FAKE_DISCORD_WS": url.replace("http", "ws") + "/gateway",
           "FAKE_DISCORD_GUILD_READY_TIMEOUT": "0.2",
           "CHOUETTE_ENV_FILE": str(home / ".env"), "CHOUETTE_DB": str(home / "c.sqlite3"),
           "CHOUETTE_WEB_BIND": "off",  # bots run side by side: no page served on one port
           "DISCORD_TOKEN": fake.token if fake else "some-token"}
    env.update(extra)
    return {k: v for k, v in env.items() if v}


async def _run(env: dict[str, str]) -> Exited:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run", cwd="/", env=env,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    try:
        out, err = await asyncio.wait_for(proc.communicate(), TIMEOUT)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise
    return Exited(proc.returncode or 0, (out + err).decode())


def run_bot(home: Path, *, fake: FakeDiscord | None = None, **extra: str) -> Exited:
    """`python -m bot run` until it exits (with the fake Discord up meanwhile, if any)."""
    async def main() -> Exited:
        if fake is None:
            return await _run(environment(home, None, **extra))
        await fake.start()
        try:
            return await _run(environment(home, fake, **extra))
        finally:
            await fake.stop()
    return asyncio.run(main())


async def make_database(path: Path) -> None:
    async with EventStore(path):
        pass


def assert_one_line(exited: Exited, status: int, start: str) -> None:
    assert (exited.status, exited.last_line[:len(start)]) == (status, start), exited.stderr
    assert "Traceback" not in exited.stderr, exited.stderr
    assert "Event loop is closed" not in exited.stderr, exited.stderr


def test_no_env_file_says_to_copy_the_example(home: Path) -> None:
    exited = run_bot(home, DISCORD_TOKEN="")
    assert_one_line(exited, EXIT_SETTINGS, "chouette-bot: DISCORD_TOKEN is not set. Copy ")


def test_an_empty_token_in_an_existing_env_file_says_to_fill_it_in(home: Path) -> None:
    (home / ".env").write_text("# the example, copied\nDISCORD_TOKEN=\n")
    exited = run_bot(home, DISCORD_TOKEN="")
    assert_one_line(exited, EXIT_SETTINGS,
                    f"chouette-bot: DISCORD_TOKEN is empty in {home / '.env'}: put your bot's "
                    "token after 'DISCORD_TOKEN='")


def test_a_rejected_token_says_to_reset_it(home: Path) -> None:
    exited = run_bot(home, fake=FakeDiscord(token="the-real-one"), DISCORD_TOKEN="an-old-one")
    assert_one_line(exited, EXIT_SETTINGS, "chouette-bot: Discord rejected the token")
    assert "Reset Token" in exited.last_line


def test_an_unreachable_discord_says_to_check_the_network(home: Path) -> None:
    exited = run_bot(home)
    assert_one_line(exited, EXIT_UNREACHABLE, "chouette-bot: Can't reach Discord")


def test_a_missing_privileged_intent_names_the_switch(home: Path) -> None:
    exited = run_bot(home, fake=FakeDiscord(privileged_intents=0))
    assert_one_line(exited, EXIT_SETTINGS, "chouette-bot: Discord refused the Server Members")
    assert "Privileged Gateway Intents" in exited.last_line


def test_an_empty_database_file_is_refused(home: Path) -> None:
    (home / "c.sqlite3").touch()
    exited = run_bot(home)
    assert_one_line(exited, EXIT_SETTINGS,
                    f"chouette-bot: The database {home / 'c.sqlite3'} is empty (0 bytes)")
    assert (home / "c.sqlite3").stat().st_size == 0


def test_a_database_this_user_cant_write_is_refused(home: Path) -> None:
    """Before, it opened and read fine, and every command failed."""
    path = home / "c.sqlite3"
    asyncio.run(make_database(path))
    if os.geteuid() != 0:
        path.chmod(0o444)
        exited = run_bot(home)
    else:  # root writes through permissions, not through the immutable flag
        if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode:
            pytest.skip("root, and this file system has no immutable flag (chattr +i)")
        try:
            exited = run_bot(home)
        finally:
            subprocess.run(["chattr", "-i", str(path)], check=True)
    assert_one_line(exited, EXIT_SETTINGS, f"chouette-bot: The database {path} can't be")
    assert "write access" in exited.last_line


def test_a_folder_for_a_database_is_refused_in_one_line(home: Path) -> None:
    """Before, aiosqlite's worker thread outlived the loop and added an "Event loop is
    closed" traceback after the one line, now and then."""
    (home / "c.sqlite3").mkdir()
    exited = run_bot(home)
    assert_one_line(exited, EXIT_SETTINGS,
                    f"chouette-bot: The database {home / 'c.sqlite3'} is a folder")


def test_the_log_level_comes_from_the_environment(home: Path) -> None:
    quiet = run_bot(home, LOG_LEVEL="WARNING")  # Discord unreachable: no INFO on the way
    assert_one_line(quiet, EXIT_UNREACHABLE, "chouette-bot: Can't reach Discord")
    assert quiet.stderr.strip() == quiet.last_line
    wrong = run_bot(home, LOG_LEVEL="chatty")
    assert_one_line(wrong, EXIT_SETTINGS, "chouette-bot: LOG_LEVEL must be one of DEBUG")


def test_a_good_start_logs_name_servers_and_invite_then_stops_on_sigterm(home: Path) -> None:
    async def main() -> Exited:
        fake = FakeDiscord(bot_name="Chouette")
        await fake.start()
        try:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", "run", cwd="/", env=environment(home, fake),
                stdin=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
            assert proc.stderr is not None
            seen = []
            async with asyncio.timeout(TIMEOUT):
                while b"invite" not in (line := await proc.stderr.readline()):
                    assert line, b"".join(seen).decode()
                    seen.append(line)
                seen.append(line)
                proc.send_signal(signal.SIGTERM)
                rest = await proc.stderr.read()
                status = await proc.wait()
            return Exited(status, (b"".join(seen) + rest).decode())
        finally:
            await fake.stop()

    exited = asyncio.run(main())
    assert exited.status == 0, exited.stderr
    ready = next(line for line in exited.stderr.splitlines() if "invite" in line)
    assert "Chouette#4242" in ready and "1 server" in ready
    assert f"permissions={INVITE}" in ready and USED.value == INVITE  # the README's
    assert "scope=bot+applications.commands" in ready
    assert ready.startswith("20") and "INFO" in ready  # a timestamp, a level
    assert "voice will NOT be supported" not in exited.stderr
    assert "Traceback" not in exited.stderr and "Event loop is closed" not in exited.stderr


def test_with_analysis_off_the_bot_runs_and_says_so_once(home: Path) -> None:
    """CHOUETTE_ANALYSIS=off (issue 33): the bot starts, connects, and logs one line that
    analysis is off and why."""
    async def main() -> str:
        fake = FakeDiscord()
        await fake.start()
        try:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", "run", cwd="/", stdin=asyncio.subprocess.DEVNULL,
                env=environment(home, fake, CHOUETTE_ANALYSIS="off"),
                stderr=asyncio.subprocess.PIPE)
            assert proc.stderr is not None
            seen = b""
            async with asyncio.timeout(TIMEOUT):
                while b"analysis is off" not in seen:
                    line = await proc.stderr.readline()
                    assert line, seen.decode()
                    seen += line
                proc.send_signal(signal.SIGTERM)
                seen += await proc.stderr.read()
                assert await proc.wait() == 0, seen.decode()
            return seen.decode()
        finally:
            await fake.stop()

    stderr = asyncio.run(main())
    (line,) = [line for line in stderr.splitlines() if "analysis" in line.lower()]
    assert line.endswith("GNU Backgammon's analysis is off: CHOUETTE_ANALYSIS=off"), line
    assert "invite" in stderr and "Traceback" not in stderr


def test_in_a_container_a_missing_token_says_to_pass_it_in_the_environment(home: Path) -> None:
    exited = run_bot(home, DISCORD_TOKEN="", CHOUETTE_CONTAINER="docker")
    assert_one_line(exited, EXIT_SETTINGS, "chouette-bot: DISCORD_TOKEN is not set in this "
                    "container's environment. With Docker Compose, put DISCORD_TOKEN=")
    assert "Create " not in exited.stderr and "-e DISCORD_TOKEN=" in exited.last_line


def health(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot health` as a HEALTHCHECK runs it, with the bot's settings."""
    return subprocess.run([sys.executable, "-m", "bot", "health", *args], cwd="/", env=env,
                          capture_output=True, text=True, timeout=TIMEOUT, check=False)


def test_health_is_well_while_the_bot_is_connected_and_unwell_before_and_after(
        home: Path) -> None:
    async def main() -> tuple[list[subprocess.CompletedProcess[str]], int]:
        fake = FakeDiscord()
        await fake.start()
        env = environment(home, fake)
        checks = [health(env)]  # before the bot ever ran
        try:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", "run", cwd="/", env=env,
                stdin=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
            async with asyncio.timeout(TIMEOUT):
                while (well := await asyncio.to_thread(health, env)).returncode != 0:
                    await asyncio.sleep(0.2)
                checks.append(well)
                proc.send_signal(signal.SIGTERM)
                status = await proc.wait()
            checks.append(health(env, "--max-age", "0"))  # stopped: no beat comes any more
            return checks, status
        finally:
            await fake.stop()

    (before, well, after), status = asyncio.run(main())
    assert (before.returncode, well.returncode, after.returncode, status) == (1, 0, 1, 0)
    assert "no heartbeat at" in before.stderr and str(home / "c.sqlite3.alive") in before.stderr
    assert well.stderr == "" and "s old (at most 0)" in after.stderr
