"""Settings read once from the environment and `.env`, then injected: no globals."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path

from dotenv import dotenv_values

from bot.store.dialect import MASK, shown, url_problem

PROJECT = Path(__file__).resolve().parents[1]  # the checkout: .env and data/ live here
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# For the post-game message: `make bench` analyses a long three-player game (382 decisions)
# in about 15 s at 2 ply on the 2-core test machine, well inside the minute (docs/analysis.md).
POST_GAME_PLIES = 2
# A game's seconds before the analysis worker is killed and the game retried once, then
# skipped: some twenty times that long game at 2 ply (bot.analysis.worker.DEFAULT_TIMEOUT).
ANALYSIS_TIMEOUT = 300.0


class SettingsError(Exception):
    """A setting is missing or malformed; the message says which and where to put it."""


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from its environment (see `.env.example`).

    `Settings.load` finds `.env` and a relative `CHOUETTE_DB` in the project folder, not in
    the shell's current folder, so `make run` and a service manager agree on the files."""

    discord_token: str = ""
    # The store: an SQLite file (CHOUETTE_DB), or a PostgreSQL URL (CHOUETTE_DATABASE_URL)
    database: Path | str = Path("data/chouette.sqlite3")
    database_file: Path = Path("data/chouette.sqlite3")  # CHOUETTE_DB, whichever is used
    dev_guild_id: int | None = None
    moderator_role: str = "Chouette Moderator"  # or Manage Server: may blind kibitzers
    moderator_role_id: int | None = None  # the role by id; then the name is not looked at
    autoroll: bool = True  # roll for the shooter when the double window closes
    max_tables: int = 5  # open tables a server may have at once
    delete_after_hours: float = 0  # remove an ended table's channels after this (0: keep)
    log_level: str = "INFO"
    backup_dir: Path | None = None  # where `backup` writes; None: backups/ beside the database
    container: str = ""  # the image says it runs in a container (CHOUETTE_CONTAINER)
    manual_url: str = ""  # where players read docs/commands.md (/chouette help links it)
    analysis: bool = True  # gnubg's verdict after each game (CHOUETTE_ANALYSIS=off: none)
    analysis_plies: int = POST_GAME_PLIES  # gnubg's depth after each game (issue 21)
    analysis_timeout: float = ANALYSIS_TIMEOUT  # seconds a game before the worker is killed
    draw_processes: int = 1  # processes drawing boards and sheets (0: a thread of the bot's)
    # Shards (issue 23): Discord's gateway split into shard_count shards; this process
    # connects shard_ids (None: all of them) and serves only the tables of their servers
    shard_count: int = 1
    shard_ids: tuple[int, ...] | None = None
    # The club's pages (issue 37): served by the bot at web_bind ("off": not by the bot, by
    # `python -m bot web` or not at all); web_url the public address players open them at
    # (none: no links on Discord)
    web_bind: str = "127.0.0.1:8080"
    web_url: str = ""
    env_file: Path = PROJECT / ".env"  # where the settings file was looked for
    env_found: bool = False  # whether it was there

    @classmethod
    def load(cls, env_file: Path | None = None, environ: Mapping[str, str] | None = None,
             *, root: Path = PROJECT) -> Settings:
        """Settings from `env_file` (default: `CHOUETTE_ENV_FILE`, else `root/.env`), if it
        exists, overridden by the process environment; a relative database is under `root`."""
        environ = os.environ if environ is None else environ
        if env_file is None:
            env_file = Path(environ.get("CHOUETTE_ENV_FILE") or root / ".env")
        found = env_file.is_file()
        values = _values(env_file, found, environ)
        where = f"{env_file} or the environment"
        guild = _digits(values, "CHOUETTE_DEV_GUILD_ID", "a server id", where)
        role_id = _digits(values, "CHOUETTE_MODERATOR_ROLE_ID", "a role id", where)
        level = _log_level(values, where)
        url = _database_url(values, where)
        hours = _delete_after_hours(values, where)
        tables, plies, draw = _limits(values, where)
        count, ids = _shards(values, where, postgres=bool(url))
        database_file = root / (values.get("CHOUETTE_DB") or cls.database_file)
        backups = _text(values, "CHOUETTE_BACKUP_DIR")
        web_bind, web_url = _web(values, where)
        return cls(
            web_bind=web_bind,
            web_url=web_url,
            shard_count=count,
            shard_ids=ids,
            draw_processes=cls.draw_processes if draw is None else draw,
            analysis=_switch(values, "CHOUETTE_ANALYSIS", where),
            analysis_plies=cls.analysis_plies if plies is None else plies,
            analysis_timeout=_analysis_timeout(values, where),
            max_tables=cls.max_tables if tables is None else tables,
            delete_after_hours=hours,
            discord_token=_text(values, "DISCORD_TOKEN"),
            database=url or database_file,
            database_file=database_file,
            dev_guild_id=int(guild) if guild else None,
            moderator_role=values.get("CHOUETTE_MODERATOR_ROLE") or cls.moderator_role,
            moderator_role_id=int(role_id) if role_id else None,
            backup_dir=root / backups if backups else None,
            container=_text(values, "CHOUETTE_CONTAINER"),
            manual_url=_text(values, "CHOUETTE_MANUAL_URL"),
            autoroll=_text(values, "CHOUETTE_AUTOROLL", "1").lower()
            not in ("0", "false", "no", "off"),
            log_level=level,
            env_file=env_file,
            env_found=found,
        )

    def __repr__(self) -> str:
        """The settings as code, but the token masked and the URL without its password."""
        db = self.database
        masked = {"discord_token": MASK if self.discord_token else "",
                  "database": shown(db) if isinstance(db, str) else db}
        values = (f"{f.name}={masked.get(f.name, getattr(self, f.name))!r}"
                  for f in fields(self))
        return f"Settings({', '.join(values)})"

    @property
    def log_level_number(self) -> int:
        """The `logging` level of `log_level`."""
        return logging.getLevelNamesMapping()[self.log_level]

    @property
    def sharded(self) -> bool:
        """Whether Discord's gateway is split into shards (CHOUETTE_SHARD_COUNT above 1, or
        CHOUETTE_SHARD_IDS set)."""
        return self.shard_count > 1 or self.shard_ids is not None

    @property
    def serves_all(self) -> bool:
        """Whether this process serves every server (no other process shares the store)."""
        return self.shard_ids is None or set(self.shard_ids) == set(range(self.shard_count))

    def shard_of(self, guild_id: int | None) -> int:
        """The shard a server's events come on (Discord: `(guild_id >> 22) % shard_count`);
        DMs, and a table without a server, are shard 0's."""
        return 0 if guild_id is None else (guild_id >> 22) % self.shard_count

    def serves(self, guild_id: int | None) -> bool:
        """Whether this process serves the tables of server `guild_id`: resumes them, runs
        their timers, applies their commands. The one place that says so."""
        return self.serves_all or self.shard_of(guild_id) in (self.shard_ids or ())

    def moderator_role_matches(self, role_id: int, role_name: str) -> bool:
        """Whether a role is the moderators': by id where CHOUETTE_MODERATOR_ROLE_ID is set
        (a renamed role stays theirs, a new role of the same name is not), else by name."""
        if self.moderator_role_id is not None:
            return role_id == self.moderator_role_id
        return role_name == self.moderator_role

    def require_token(self) -> str:
        """The bot token, or a SettingsError telling where to put it."""
        if self.discord_token:
            return self.discord_token
        if self.container and not self.env_found:
            raise SettingsError(
                "DISCORD_TOKEN is not set in this container's environment. With Docker "
                "Compose, put DISCORD_TOKEN=<your bot's token> in the .env file beside "
                "compose.yaml and run `docker compose up -d`; with `docker run`, pass "
                "`-e DISCORD_TOKEN=...` or `--env-file .env` (README: Deploying).")
        if self.env_found:
            raise SettingsError(
                f"DISCORD_TOKEN is empty in {self.env_file}: put your bot's token after "
                "'DISCORD_TOKEN=' there (developer portal, Bot -> Reset Token), or export it.")
        example = PROJECT / ".env.example"
        how = (f"Copy {example} to {self.env_file}" if example.is_file()
               else f"Create {self.env_file}")
        raise SettingsError(
            f"DISCORD_TOKEN is not set. {how} and put your bot's token there (README: "
            "'Running the bot on your server'), or export it.")


def _values(env_file: Path, found: bool, environ: Mapping[str, str]) -> dict[str, str | None]:
    """The settings file's values (none if it is not `found`), overridden by `environ`."""
    try:
        values: dict[str, str | None] = dict(dotenv_values(env_file)) if found else {}
    except UnicodeDecodeError:
        raise SettingsError(f"{env_file} is not UTF-8 text: save it as UTF-8.") from None
    values.update(environ)
    return values


def _text(values: Mapping[str, str | None], key: str, default: str = "") -> str:
    """The setting `key` without the spaces around it (`default` if unset or empty)."""
    return (values.get(key) or default).strip()


def _log_level(values: Mapping[str, str | None], where: str) -> str:
    """LOG_LEVEL, one of `LOG_LEVELS` in any case (default INFO)."""
    level = _text(values, "LOG_LEVEL", "INFO").upper()
    if level not in LOG_LEVELS:
        raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not "
                            f"{values.get('LOG_LEVEL')!r}: fix it in {where}.")
    return level


def _database_url(values: Mapping[str, str | None], where: str) -> str:
    """CHOUETTE_DATABASE_URL, checked: a usable PostgreSQL URL, or "" (the SQLite file)."""
    url = _text(values, "CHOUETTE_DATABASE_URL")
    if url and not url.startswith(("postgresql://", "postgres://")):
        scheme = repr(url.split("://")[0]) if "://" in url else "a value without one"
        raise SettingsError(f"CHOUETTE_DATABASE_URL must be a PostgreSQL URL "
                            "(postgresql://user:password@host/database), not "
                            f"{scheme}: fix it in {where}, or remove it "
                            "to keep the SQLite file (CHOUETTE_DB).")
    if url and (problem := url_problem(url)):
        raise SettingsError(f"CHOUETTE_DATABASE_URL: {problem}: fix it in {where}.")
    return url


def _delete_after_hours(values: Mapping[str, str | None], where: str) -> float:
    """CHOUETTE_DELETE_AFTER_HOURS: a number, not negative (default 0: keep the channels)."""
    raw = _text(values, "CHOUETTE_DELETE_AFTER_HOURS")
    try:
        hours = float(raw) if raw else Settings.delete_after_hours
    except ValueError:
        raise SettingsError(f"CHOUETTE_DELETE_AFTER_HOURS must be a number, not {raw!r}: "
                            f"fix it in {where}.") from None
    if hours < 0:
        raise SettingsError(f"CHOUETTE_DELETE_AFTER_HOURS can't be negative: fix it in "
                            f"{where}.")
    return hours


def _web(values: Mapping[str, str | None], where: str) -> tuple[str, str]:
    """CHOUETTE_WEB_BIND (host:port, or off) and CHOUETTE_WEB_URL (http(s)://..., or none),
    checked."""
    bind = _text(values, "CHOUETTE_WEB_BIND", Settings.web_bind)
    host, colon, port = bind.rpartition(":")
    if bind.lower() != "off" and not (colon and host and port.isdecimal()
                                      and int(port) < 65536):
        raise SettingsError(f"CHOUETTE_WEB_BIND is where the club's pages are served, "
                            f"host:port (127.0.0.1:8080) or off, not {bind!r}: fix it in "
                            f"{where}.")
    url = _text(values, "CHOUETTE_WEB_URL").rstrip("/")
    if url and not url.startswith(("http://", "https://")):
        raise SettingsError(f"CHOUETTE_WEB_URL is the pages' public address, starting with "
                            f"https:// (or http://), not {url!r}: fix it in {where}.")
    return ("off" if bind.lower() == "off" else bind), url


def _switch(values: Mapping[str, str | None], key: str, where: str) -> bool:
    """The setting `key`: on (the default: on, 1, true, yes) or off (off, 0, false, no)."""
    raw = _text(values, key, "on").lower()
    if raw not in ("on", "1", "true", "yes", "off", "0", "false", "no"):
        raise SettingsError(f"{key} must be on or off, not {values.get(key)!r}: fix it in "
                            f"{where}.")
    return raw in ("on", "1", "true", "yes")


def _analysis_timeout(values: Mapping[str, str | None], where: str) -> float:
    """CHOUETTE_ANALYSIS_TIMEOUT: seconds, more than 0 (default `ANALYSIS_TIMEOUT`)."""
    raw = _text(values, "CHOUETTE_ANALYSIS_TIMEOUT")
    try:
        seconds = float(raw) if raw else ANALYSIS_TIMEOUT
    except ValueError:
        seconds = -1.0
    if not 0 < seconds < float("inf"):
        raise SettingsError(f"CHOUETTE_ANALYSIS_TIMEOUT is a game's seconds of analysis, more "
                            f"than 0, not {raw!r}: fix it in {where}.")
    return seconds


def _limits(values: Mapping[str, str | None],
            where: str) -> tuple[int | None, int | None, int | None]:
    """CHOUETTE_MAX_TABLES, CHOUETTE_ANALYSIS_PLIES and CHOUETTE_DRAW_PROCESSES, each checked
    (None where unset)."""
    tables = _whole(values, "CHOUETTE_MAX_TABLES", "is how many tables a server may have "
                    "open at once, a whole number", where)
    plies = _whole(values, "CHOUETTE_ANALYSIS_PLIES", "is gnubg's depth, 0 to 4", where,
                   high=4)
    draw = _whole(values, "CHOUETTE_DRAW_PROCESSES", "is how many processes draw the "
                  "boards, 0 to 64 (0: the bot's own)", where, high=64)
    return tables, plies, draw


def _shards(values: Mapping[str, str | None], where: str, *,
            postgres: bool) -> tuple[int, tuple[int, ...] | None]:
    """CHOUETTE_SHARD_COUNT and CHOUETTE_SHARD_IDS, checked: (count, ids or None for all)."""
    given = _whole(values, "CHOUETTE_SHARD_COUNT", "must be a whole number of shards, 1 or "
                   "more", where, low=1)
    raw_ids = (values.get("CHOUETTE_SHARD_IDS") or "").strip()
    count = 1 if given is None else given
    if not raw_ids:
        return count, None
    if given is None:
        raise SettingsError(f"CHOUETTE_SHARD_IDS needs CHOUETTE_SHARD_COUNT (how many shards in "
                            f"all): set it in {where}.")
    parts = [p.strip() for p in raw_ids.split(",")]
    if not all(p.isdecimal() for p in parts) or not all(int(p) < count for p in parts):
        raise SettingsError(f"CHOUETTE_SHARD_IDS must be shard numbers from 0 to {count - 1} "
                            f"separated by commas (e.g. 0,1), not {raw_ids!r}: fix it in "
                            f"{where}.")
    ids = tuple(sorted({int(p) for p in parts}))
    if set(ids) != set(range(count)) and not postgres:
        raise SettingsError(f"CHOUETTE_SHARD_IDS={raw_ids} serves only some of the "
                            f"{count} shards: the other processes need the same database, so "
                            "set CHOUETTE_DATABASE_URL (PostgreSQL; README: shards).")
    return count, ids


def _whole(values: Mapping[str, str | None], key: str, what: str, where: str, *,
           low: int = 0, high: int | None = None) -> int | None:
    """The setting `key` if set: a whole number from `low` to `high` (None: no bound), or a
    SettingsError saying what it is (`what`: "is gnubg's depth, 0 to 4")."""
    raw = (values.get(key) or "").strip()
    if not raw:
        return None
    if not raw.isdecimal() or int(raw) < low or (high is not None and int(raw) > high):
        raise SettingsError(f"{key} {what}, not {raw!r}: fix it in {where}.")
    return int(raw)


def _digits(values: Mapping[str, str | None], key: str, what: str, where: str) -> str | None:
    """The setting `key` if set: digits (a Discord id), or a SettingsError saying so (not
    `isdigit`: it takes superscripts, which `int` refuses)."""
    raw = (values.get(key) or "").strip() or None
    if raw is not None and not raw.isdecimal():
        raise SettingsError(f"{key} must be {what} (digits), not {raw!r}: fix it in {where}.")
    return raw
