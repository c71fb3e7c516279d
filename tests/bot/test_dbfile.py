"""The SQLite file: one damaged in the middle is refused when it is opened, before the bot
logs in, with the line every damaged file gets."""

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.store import EventStore, StoreError

ROOT = Path(__file__).resolve().parents[2]
PAGE = 4096  # SQLite's default page size, the store's


async def damaged(path: Path) -> None:
    """A store of some 300 pages whose three middle pages are overwritten (page 1, the
    header, is whole: the file opens, and only reading those pages finds the damage)."""
    async with EventStore(path):
        pass  # (the schema)
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO tables (id) VALUES ('t1')")
        db.executemany("INSERT INTO events (table_id, version, type, data) VALUES (?, ?, ?, ?)",
                       [("t1", v, "Moved", json.dumps({"pad": "x" * 3000})) for v in range(1, 400)])
    db.close()
    pages = path.stat().st_size // PAGE
    assert pages > 200 and not path.with_name(path.name + "-wal").exists()
    with path.open("r+b") as fh:
        fh.seek(pages // 2 * PAGE)
        fh.write(b"\xde\xad" * (3 * PAGE // 2))


async def test_a_file_damaged_in_the_middle_is_refused_when_opened(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    await damaged(path)
    with pytest.raises(StoreError, match=rf"{path.name} is not a readable chouette database"):
        await EventStore(path).open()


async def test_the_bot_refuses_a_damaged_file_in_one_line_before_it_logs_in(
        tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    await damaged(path)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONPATH": str(ROOT),
           "CHOUETTE_ENV_FILE": str(tmp_path / "none.env"), "DISCORD_TOKEN": "not-a-token",
           "CHOUETTE_DB": str(path)}
    done = subprocess.run([sys.executable, "-m", "bot", "run"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (f"chouette-bot: {path} is not a readable chouette database "
                           "(damaged or another file): restore it from a backup, or move it "
                           "away to start afresh.\n")
