"""`bot.health.check`: a heartbeat file is fresh for `max_age` seconds after it was touched."""

import os
from pathlib import Path

from bot.health import check, heartbeat_file, touch


def test_the_heartbeat_file_is_beside_the_database() -> None:
    assert heartbeat_file(Path("/data/chouette.sqlite3")) == Path("/data/chouette.sqlite3.alive")


def test_a_fresh_beat_is_well_an_old_or_missing_one_is_not(tmp_path: Path) -> None:
    alive = tmp_path / "c.sqlite3.alive"
    missing = check(alive)
    assert missing is not None and missing.startswith(f"no heartbeat at {alive}")
    touch(alive)
    assert check(alive, max_age=90) is None
    os.utime(alive, (1000.0, 1000.0))
    assert check(alive, max_age=90, now=1090.0) is None
    old = check(alive, max_age=90, now=1091.0)
    assert old is not None and "is 91 s old (at most 90)" in old
