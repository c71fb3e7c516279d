"""What the operator sees of the process: logging, the start-up line, the club's pages served
or not (one line), and each way a start can fail told in one line with the fix, and an exit
status a service manager can act on."""

from __future__ import annotations

import contextlib
import logging
import socket
import sys
from dataclasses import dataclass

import aiohttp
import discord
from aiohttp import web

from bot.config import Settings, SettingsError
from bot.discord.channels import INVITE
from bot.render.drawing import Drawing
from bot.store import EventStore, StoreError
from bot.store.dialect import shown
from bot.web.server import Pages, serve

log = logging.getLogger(__name__)

EXIT_SETTINGS = 2  # something to fix first (a setting, the token, the portal, the database)
EXIT_UNREACHABLE = 3  # Discord can't be reached now: starting again later may work


@dataclass(frozen=True)
class Failure:
    """A start-up failure as the operator is told it: one line, and the exit status."""

    message: str
    status: int

    def report(self) -> int:
        """Print the line on stderr; the exit status."""
        print(f"chouette-bot: {self.message}", file=sys.stderr, flush=True)
        return self.status


def setup_logging(level: int) -> None:
    """discord.py's own set-up: timestamps and levels on stderr, at `level` (LOG_LEVEL),
    for the bot's loggers and the library's alike; no password or token in a line."""
    discord.utils.setup_logging(level=level, root=True)
    for handler in logging.getLogger().handlers:
        if not any(isinstance(f, Masked) for f in handler.filters):
            handler.addFilter(Masked())


class Masked(logging.Filter):
    """Masks every password and token in a log line before it is written (`shown`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        with contextlib.suppress(Exception):  # (a malformed call: the handler tells it)
            record.msg, record.args = shown(record.getMessage()), None
        return True


def quiet_voice() -> None:
    """The bot has no voice: no warnings that voice's libraries are missing (a filter on
    discord.py's client logger)."""
    voiceless = logging.getLogger("discord.client")
    if not any(isinstance(f, NoVoiceWarning) for f in voiceless.filters):
        voiceless.addFilter(NoVoiceWarning())


class NoVoiceWarning(logging.Filter):
    """Drops discord.py's warning that a voice library is not installed."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "voice will NOT be supported" not in record.getMessage()


def invite_url(application_id: int) -> str:
    """The link that adds the bot to a server with the README's permissions."""
    return discord.utils.oauth_url(application_id,
                                   permissions=INVITE,
                                   scopes=("bot", "applications.commands"))


def ready_line(client: discord.Client) -> str:
    """Who the bot is, on how many servers, and its invite link."""
    servers = len(client.guilds)
    plural = "" if servers == 1 else "s"
    return (f"ready as {client.user} (id {client.user.id if client.user else '?'}) on "
            f"{servers} server{plural}; invite: {invite_url(client.application_id or 0)}")


async def serve_pages(store: EventStore, drawing: Drawing, bind: str) -> web.AppRunner | None:
    """The club's pages (`bot.web`) served by the bot at `bind` (CHOUETTE_WEB_BIND, "host:port")
    until the runner is cleaned up; None when it is "off", or when the address can't be had
    (in use, a host not this machine's): one warning line, and the bot goes on without them."""
    if bind == "off":
        return None
    try:
        runner = await serve(Pages(store, drawing), bind)
    except (OSError, ValueError) as exc:
        log.warning("the club's pages are not served: can't listen at %s (%s); set "
                    "CHOUETTE_WEB_BIND to a free host:port, or to off", bind, exc)
        return None
    log.info("the club's pages are served at http://%s/", bind)
    return runner


def _token_source(settings: Settings | None) -> str:
    if settings is not None and settings.env_found:
        return f"DISCORD_TOKEN ({settings.env_file} or the environment)"
    return "DISCORD_TOKEN"


def failure(exc: BaseException, settings: Settings | None = None) -> Failure | None:
    """The one line for a start-up failure we know how to explain; None for a bug."""
    if isinstance(exc, SettingsError | StoreError):
        return Failure(str(exc), EXIT_SETTINGS)
    if isinstance(exc, discord.LoginFailure) or (
            isinstance(exc, discord.ConnectionClosed) and exc.code == 4004):
        return Failure(
            f"Discord rejected the token in {_token_source(settings)}: in the developer "
            "portal, open your application, Bot -> Reset Token, and put the new token "
            "there.", EXIT_SETTINGS)
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return Failure(
            "Discord refused the Server Members Intent: in the developer portal, open your "
            "application, Bot -> Privileged Gateway Intents, turn on Server Members Intent "
            "and save, then start the bot again.", EXIT_SETTINGS)
    if isinstance(exc, discord.GatewayNotFound | discord.DiscordServerError):
        return Failure(f"Discord is not answering ({exc}): see discordstatus.com and start "
                       "the bot again later.", EXIT_UNREACHABLE)
    if isinstance(exc, aiohttp.ClientConnectionError | ConnectionError | socket.gaierror
                  | TimeoutError):
        why = str(exc) or type(exc).__name__
        return Failure(f"Can't reach Discord ({why}): check this machine's network "
                       "connection, DNS, proxy and firewall, then start the bot again.",
                       EXIT_UNREACHABLE)
    return None
