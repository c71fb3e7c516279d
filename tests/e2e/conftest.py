"""The e2e tests' fixtures: the PostgreSQL server of the store tests (pgserver), for bots on
shards sharing one database (`test_shards.py`); and bots that serve no club's pages unless a
test gives them an address (`test_web.py`): bots run in parallel would all want the one
default address, 127.0.0.1:8080."""

import pytest

from tests.bot.conftest import new_schema, postgres

__all__ = ["new_schema", "no_pages", "postgres"]


@pytest.fixture(autouse=True)
def no_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    """CHOUETTE_WEB_BIND=off in the environment the driver passes on to the bot (its own
    `env=`, a test's, comes after it)."""
    monkeypatch.setenv("CHOUETTE_WEB_BIND", "off")
