"""Settings read once from the environment and `.env`, then injected: no globals."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from dotenv import dotenv_values


class SettingsError(Exception):
    """A setting is missing or malformed; the message says which and where to put it."""


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from its environment (see `.env.example`)."""

    discord_token: str = ""
    database: Path = Path("data/chouette.sqlite3")
    dev_guild_id: int | None = None
    moderator_role: str = "Chouette Moderator"  # or Manage Server: may blind kibitzers
    autoroll: bool = True  # roll for the shooter when the double window closes
    max_tables: int = 5  # open tables a server may have at once
    delete_after_hours: float = 0  # remove an ended table's channels after this (0: keep)

    @classmethod
    def load(cls, env_file: Path = Path(".env"),
             environ: Mapping[str, str] | None = None) -> Settings:
        """Settings from `env_file` (if it exists) overridden by the process environment."""
        values: dict[str, str | None] = dict(dotenv_values(env_file)) if env_file.exists() else {}
        values.update(os.environ if environ is None else environ)
        guild = values.get("CHOUETTE_DEV_GUILD_ID") or None
        if guild is not None and not guild.isdigit():
            raise SettingsError(f"CHOUETTE_DEV_GUILD_ID must be a server id (digits), not "
                                f"{guild!r}: fix it in {env_file} or the environment.")
        numbers = {}
        for key, name in (("CHOUETTE_MAX_TABLES", "max_tables"),
                          ("CHOUETTE_DELETE_AFTER_HOURS", "delete_after_hours")):
            raw = (values.get(key) or "").strip()
            try:
                numbers[name] = float(raw) if raw else getattr(cls, name)
            except ValueError:
                raise SettingsError(f"{key} must be a number, not {raw!r}: fix it in "
                                    f"{env_file} or the environment.") from None
            if numbers[name] < 0:
                raise SettingsError(f"{key} can't be negative: fix it in {env_file}.")
        return cls(
            max_tables=int(numbers["max_tables"]),
            delete_after_hours=numbers["delete_after_hours"],
            discord_token=values.get("DISCORD_TOKEN") or "",
            database=Path(values.get("CHOUETTE_DB") or cls.database),
            dev_guild_id=int(guild) if guild else None,
            moderator_role=values.get("CHOUETTE_MODERATOR_ROLE") or cls.moderator_role,
            autoroll=(values.get("CHOUETTE_AUTOROLL") or "1").strip().lower()
            not in ("0", "false", "no", "off"),
        )

    def require_token(self, env_file: Path = Path(".env")) -> str:
        """The bot token, or a SettingsError telling where to put it."""
        if not self.discord_token:
            raise SettingsError(
                f"DISCORD_TOKEN is not set. Copy .env.example to {env_file} and put your bot's "
                "token there (README: 'Running the bot on your server'), or export it."
            )
        return self.discord_token
