"""The e2e tests' fixtures: the PostgreSQL server of the store tests (pgserver), for bots on
shards sharing one database (`test_shards.py`)."""

from tests.bot.conftest import new_schema, postgres

__all__ = ["new_schema", "postgres"]
