"""The store's two backends for the store tests: an SQLite file, and a schema of its own on a
real PostgreSQL 16 server that the suite starts once (pgserver, from PyPI). Each xdist worker
starts its own: sharing one data folder between processes, as pgserver offers, failed here
now and then (a worker reading postmaster.pid while another's initdb wrote it)."""

from __future__ import annotations

import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(scope="session")
def postgres() -> Iterator[Any]:
    """The session's PostgreSQL server, without fsync (a test needs no durability: a
    crashed server's data is thrown away with the run). Its folder is not under pytest's
    (as root, pgserver runs PostgreSQL as a user of its own, and every pytest starting
    makes /tmp/pytest-of-root private again: a server starting then couldn't open its log)."""
    import pgserver

    folder = Path(tempfile.mkdtemp(prefix="chouette-postgres-"))
    server = pgserver.get_server(folder, cleanup_mode="stop")
    server.psql("ALTER SYSTEM SET fsync = off; ALTER SYSTEM SET synchronous_commit = off; "
                "ALTER SYSTEM SET full_page_writes = off; SELECT pg_reload_conf();")
    yield server
    server.cleanup()
    shutil.rmtree(folder, ignore_errors=True)


def new_schema(server: Any, worker: str = "") -> str:
    """The URL of the server's database with a new, empty schema as its search path."""
    name = f"store_{worker}_{uuid.uuid4().hex[:12]}"
    server.psql(f"CREATE SCHEMA {name};")
    return f"{server.get_uri()}&search_path={name}"


@pytest.fixture(params=["sqlite", "postgres"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """Where a store lives: an SQLite file, or a PostgreSQL schema of its own."""
    if request.param == "sqlite":
        return tmp_path / "c.db"
    return new_schema(request.getfixturevalue("postgres"), request.getfixturevalue("worker_id"))
