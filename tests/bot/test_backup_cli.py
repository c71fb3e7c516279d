"""`python -m bot backup`: a consistent copy of the event store, even while it is in use."""

from pathlib import Path

import pytest

from bot.__main__ import main
from bot.app.service import TableService
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
            assert (await restored.events.load("t1")).state == in_memory()


def test_backup_of_no_database_says_so(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["backup", "--db", str(tmp_path / "none.sqlite3")]) == 2
    assert "There is no database" in capsys.readouterr().err


async def test_the_readmes_restore_brings_back_the_tables_as_at_the_backup(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "data" / "chouette.sqlite3"
    async with EventStore(db) as store:
        await run_session(TableService(store), "t1")
    assert main(["backup", "--db", str(db)]) == 0
    copy = Path(capsys.readouterr().out.strip())
    async with EventStore(db) as store:
        await run_session(TableService(store), "t2")  # played after the backup
    # README, Restore: the bot stopped; the old file aside, its -wal and -shm gone; the copy in.
    db.rename(db.with_name("chouette.sqlite3.before-restore"))
    for suffix in ("-wal", "-shm"):
        db.with_name(db.name + suffix).unlink(missing_ok=True)
    db.write_bytes(copy.read_bytes())
    async with EventStore(db) as store:
        service = TableService(store)
        assert await service.resume() == ["t1"]
        assert await service.state("t1") == in_memory()
    async with EventStore(db.with_name("chouette.sqlite3.before-restore")) as kept:
        assert sorted(await TableService(kept).resume()) == ["t1", "t2"]


async def test_backups_go_to_chouette_backup_dir_where_it_is_set(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHOUETTE_ENV_FILE", str(tmp_path / "no.env"))
    monkeypatch.setenv("CHOUETTE_BACKUP_DIR", str(tmp_path / "backups-volume"))
    db = tmp_path / "data" / "chouette.sqlite3"
    async with EventStore(db) as store:
        await run_session(TableService(store))
    assert main(["backup", "--db", str(db)]) == 0
    copy = Path(capsys.readouterr().out.strip())
    assert copy.parent == tmp_path / "backups-volume" and copy.is_file()
    assert not (db.parent / "backups").exists()


def test_backup_of_a_postgresql_store_points_to_pg_dump(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CHOUETTE_ENV_FILE", str(tmp_path / "none.env"))
    monkeypatch.setenv("CHOUETTE_DATABASE_URL", "postgresql://bot@db/chouette")
    assert main(["backup"]) == 2
    assert "pg_dump" in capsys.readouterr().err
