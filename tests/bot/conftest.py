"""The store's two backends for the store tests: an SQLite file, and a database of its own on
a real PostgreSQL 16 server that the suite starts once (pgserver, from PyPI)."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

_databases = itertools.count(1)


@pytest.fixture(scope="session")
def postgres(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One PostgreSQL server for the session (each xdist worker starts its own), stopped
    and deleted at the end."""
    import pgserver

    started = time.perf_counter()
    server = pgserver.get_server(tmp_path_factory.mktemp("pg"), cleanup_mode="delete")
    server.startup_seconds = time.perf_counter() - started
    yield server
    server.cleanup()


def new_database(server: Any) -> str:
    """The URL of a new, empty database on the server."""
    name = f"store_{next(_databases)}"
    server.psql(f"CREATE DATABASE {name};")
    return str(server.get_uri(name))


@pytest.fixture(params=["sqlite", "postgres"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """Where a store lives: an SQLite file, or a PostgreSQL database of its own."""
    if request.param == "sqlite":
        return tmp_path / "c.db"
    return new_database(request.getfixturevalue("postgres"))
