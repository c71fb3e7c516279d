"""The store's one SQL, as each backend reads it: SQLite's text is the reference; PostgreSQL
gets `?` as `$n` (`placeholders`) and a migration's SQLite-only words rewritten
(`postgres_ddl`), or a migration written for each (`Dialects`). No driver is imported here:
asyncpg is the `postgres` extra's, loaded only for a PostgreSQL URL."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

SCHEMES = ("postgresql://", "postgres://")

_QUOTED_OR_MARK = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\?")
_DDL = ((re.compile(r"\s+WITHOUT\s+ROWID", re.IGNORECASE), ""),
        (re.compile(r"\bINTEGER\b", re.IGNORECASE), "BIGINT"),
        (re.compile(r"strftime\(\s*'%s'\s*,\s*'now'\s*\)", re.IGNORECASE),
         "CAST(EXTRACT(EPOCH FROM now()) AS BIGINT)"))


@dataclass(frozen=True)
class Dialects:
    """A migration whose SQL differs between SQLite and PostgreSQL (most are one text: see
    `postgres_ddl` for what is rewritten by itself)."""

    sqlite: str
    postgres: str


Migration = str | Dialects


def is_url(target: object) -> bool:
    """Whether a store's location is a PostgreSQL URL (else it is an SQLite file)."""
    return isinstance(target, str) and target.startswith(SCHEMES)


def shown(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if not parts.password:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def placeholders(sql: str) -> str:
    """SQLite's `?` placeholders as PostgreSQL's `$1, $2, ...` (not inside quotes)."""
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        if match.group() != "?":
            return match.group()
        count += 1
        return f"${count}"

    return _QUOTED_OR_MARK.sub(number, sql)


def postgres_ddl(migration: Migration) -> str:
    """A migration's PostgreSQL text: its own, or the SQLite text with SQLite's words
    rewritten (INTEGER -> BIGINT: Discord ids need 64 bits, as SQLite's INTEGER has)."""
    if isinstance(migration, Dialects):
        return migration.postgres
    for pattern, replacement in _DDL:
        migration = pattern.sub(replacement, migration)
    return migration
