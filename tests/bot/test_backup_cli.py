"""`python -m bot backup`: a consistent copy of the event store, even while it is in use."""

from pathlib import Path

import pytest

from bot.__main__ import main
from bot.service import TableService
from bot.store import EventStore
from tests.bot.test_store import in_memory, run_session


async def test_backup_copies_the_database_in_use(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "data" / "chouette.sqlite3"
    async with EventStore(db) as store:
        await run_session(TableService(store))
        assert main(["backup", "--db", str(db), "--out", str(tmp_path / "copy.sqlite3")]) == 0
        assert main(["backup", "--db", str(db)]) == 0  # dated, in backups/ beside it
    first, second = capsys.readouterr().out.split()
    assert first == str(tmp_path / "copy.sqlite3")
    assert Path(second).parent == db.parent / "backups"
    assert Path(second).name.startswith("chouette-") and second.endswith(".sqlite3")
    for copy in (first, second):
        async with EventStore(copy) as restored:
            assert (await restored.load("t1")).state == in_memory()


def test_backup_of_no_database_says_so(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["backup", "--db", str(tmp_path / "none.sqlite3")]) == 2
    assert "There is no database" in capsys.readouterr().err


def test_backup_of_a_postgresql_store_points_to_pg_dump(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CHOUETTE_ENV_FILE", str(tmp_path / "none.env"))
    monkeypatch.setenv("CHOUETTE_DATABASE_URL", "postgresql://bot@db/chouette")
    assert main(["backup"]) == 2
    assert "pg_dump" in capsys.readouterr().err
