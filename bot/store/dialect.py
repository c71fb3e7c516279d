"""The store's one SQL, as each backend reads it: SQLite's text is the reference; PostgreSQL
gets `?` as `$n` (`placeholders`) and a migration's SQLite-only words rewritten
(`postgres_ddl`), or a migration written for each (`Dialects`). No driver is imported here:
asyncpg is the `postgres` extra's, loaded only for a PostgreSQL URL."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypeGuard
from urllib.parse import urlsplit

SCHEMES = ("postgresql://", "postgres://")
MASK = "***"
# What `shown` hides: a URL's password (`user:PASSWORD@`, the whole value or after `://`;
# `?password=` or `&password=`) and a Discord bot token (three dot-separated base64 parts)
_SECRETS = ((re.compile(r"((?:^|://)[^\s:/?#@]*:)[^\s/?#]*@"), rf"\g<1>{MASK}@"),
            (re.compile(r"([?&]password=)[^\s&#]*", re.IGNORECASE), rf"\g<1>{MASK}"),
            (re.compile(r"\b[\w-]{24,}\.[\w-]{6}\.[\w-]{27,}\b"), MASK))

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


def is_url(target: object) -> TypeGuard[str]:
    """Whether a store's location is a PostgreSQL URL (else it is an SQLite file)."""
    return isinstance(target, str) and target.startswith(SCHEMES)


def shown(text: str) -> str:
    """A URL, or any text that may hold one (a message, a log line), with every password
    and Discord token in it masked: the one masking of secrets, for messages and logs."""
    for secret, mask in _SECRETS:
        text = secret.sub(mask, text)
    return text


def url_problem(url: str) -> str | None:
    """What is wrong with a PostgreSQL URL that its driver would fail on with a traceback
    (a port that is not a number), said with the URL masked; None if nothing is."""
    hosts = urlsplit(url).netloc.rpartition("@")[2]
    for host in hosts.split(","):  # (libpq's URLs may list several hosts)
        port = host.rpartition("]")[2].partition(":")[2]  # (after an IPv6 [address])
        if port and not (port.isascii() and port.isdecimal()):
            return f"the port {port!r} in {shown(url)} is not a number"
    return None


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
