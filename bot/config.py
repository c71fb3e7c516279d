"""Settings read once from the environment and `.env`, then injected: no globals."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from dotenv import dotenv_values

from bot.analysis_client import POST_GAME_PLIES

PROJECT = Path(__file__).resolve().parents[1]  # the checkout: .env and data/ live here
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class SettingsError(Exception):
    """A setting is missing or malformed; the message says which and where to put it."""


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from its environment (see `.env.example`).

    `Settings.load` finds `.env` and a relative `CHOUETTE_DB` in the project folder, not in
    the shell's current folder, so `make run` and a service manager agree on the files."""

    discord_token: str = ""
    database: Path = Path("data/chouette.sqlite3")
    dev_guild_id: int | None = None
    moderator_role: str = "Chouette Moderator"  # or Manage Server: may blind kibitzers
    autoroll: bool = True  # roll for the shooter when the double window closes
    max_tables: int = 5  # open tables a server may have at once
    delete_after_hours: float = 0  # remove an ended table's channels after this (0: keep)
    log_level: str = "INFO"
    analysis_plies: int = POST_GAME_PLIES  # gnubg's depth after each game (issue 21)
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
        values: dict[str, str | None] = dict(dotenv_values(env_file)) if found else {}
        values.update(environ)
        where = f"{env_file} or the environment"
        guild = (values.get("CHOUETTE_DEV_GUILD_ID") or "").strip() or None
        if guild is not None and not guild.isdigit():
            raise SettingsError(f"CHOUETTE_DEV_GUILD_ID must be a server id (digits), not "
                                f"{guild!r}: fix it in {where}.")
        level = (values.get("LOG_LEVEL") or "INFO").strip().upper()
        if level not in LOG_LEVELS:
            raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not "
                                f"{values.get('LOG_LEVEL')!r}: fix it in {where}.")
        numbers = {}
        for key, name in (("CHOUETTE_MAX_TABLES", "max_tables"),
                          ("CHOUETTE_DELETE_AFTER_HOURS", "delete_after_hours")):
            raw = (values.get(key) or "").strip()
            try:
                numbers[name] = float(raw) if raw else getattr(cls, name)
            except ValueError:
                raise SettingsError(f"{key} must be a number, not {raw!r}: fix it in "
                                    f"{where}.") from None
            if numbers[name] < 0:
                raise SettingsError(f"{key} can't be negative: fix it in {where}.")
        plies = (values.get("CHOUETTE_ANALYSIS_PLIES") or "").strip()
        if plies and (not plies.isdigit() or int(plies) > 4):
            raise SettingsError(f"CHOUETTE_ANALYSIS_PLIES is gnubg's depth, 0 to 4, not "
                                f"{plies!r}: fix it in {where}.")
        return cls(
            analysis_plies=int(plies) if plies else cls.analysis_plies,
            max_tables=int(numbers["max_tables"]),
            delete_after_hours=numbers["delete_after_hours"],
            discord_token=(values.get("DISCORD_TOKEN") or "").strip(),
            database=root / (values.get("CHOUETTE_DB") or cls.database),
            dev_guild_id=int(guild) if guild else None,
            moderator_role=values.get("CHOUETTE_MODERATOR_ROLE") or cls.moderator_role,
            autoroll=(values.get("CHOUETTE_AUTOROLL") or "1").strip().lower()
            not in ("0", "false", "no", "off"),
            log_level=level,
            env_file=env_file,
            env_found=found,
        )

    @property
    def log_level_number(self) -> int:
        """The `logging` level of `log_level`."""
        return logging.getLevelNamesMapping()[self.log_level]

    def require_token(self) -> str:
        """The bot token, or a SettingsError telling where to put it."""
        if self.discord_token:
            return self.discord_token
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
