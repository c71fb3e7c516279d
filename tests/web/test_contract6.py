"""Contract 6 from outside: `python -m bot links` prints each table's page path, and
`python -m bot web` serves it from the store the settings name, until stopped."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"


def bot(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=ROOT, text=True,
                          capture_output=True, timeout=120, env=env, check=False)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_links_and_web_serve_the_pages_of_a_scenario_table(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite3"
    for name in ("atlanta_play", "danish"):
        assert bot("scenario", str(SCENARIOS / f"{name}.jsonl"), "--db", str(db)).returncode == 0
    listed = bot("links", "--db", str(db))
    assert listed.returncode == 0, listed.stderr
    rows = [json.loads(line) for line in listed.stdout.splitlines()]
    assert [set(r) for r in rows] == [{"table", "page"}] * 2
    assert all(r["page"].startswith("/s/") and r["table"] not in r["page"] for r in rows)
    assert bot("links", "--db", str(db)).stdout == listed.stdout  # the same links each time

    port = free_port()
    env = {**os.environ, "CHOUETTE_DB": str(db), "CHOUETTE_WEB_BIND": f"127.0.0.1:{port}",
           "CHOUETTE_ENV_FILE": str(tmp_path / "none.env")}
    web = subprocess.Popen([sys.executable, "-m", "bot", "web"], cwd=ROOT, env=env, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert web.stdout is not None
        assert f"http://127.0.0.1:{port}/" in web.stdout.readline()  # up
        for row in rows:
            status, page = get(f"http://127.0.0.1:{port}{row['page']}")
            assert status == 200 and "Score sheet" in page
        wrong = rows[0]["page"][:-2] + ("xy" if not rows[0]["page"].endswith("xy") else "yx")
        assert get(f"http://127.0.0.1:{port}{wrong}") == (404, "Not found")
        web.send_signal(signal.SIGTERM)
        assert web.wait(timeout=30) == 0
    finally:
        web.kill()
        web.wait()


def test_web_says_where_to_serve_when_the_bot_serves_nothing(tmp_path: Path) -> None:
    env = {**os.environ, "CHOUETTE_DB": str(tmp_path / "club.sqlite3"),
           "CHOUETTE_WEB_BIND": "off", "CHOUETTE_ENV_FILE": str(tmp_path / "none.env")}
    done = bot("web", env=env)
    assert done.returncode == 2
    assert "--bind HOST:PORT" in done.stderr and "Traceback" not in done.stderr
    env["CHOUETTE_WEB_BIND"] = "nowhere"
    done = bot("web", env=env)
    assert done.returncode == 2 and "CHOUETTE_WEB_BIND" in done.stderr
