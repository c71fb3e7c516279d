"""The pages' addresses: a session's, not guessable, and a club's standings, only while its
moderators have them on.

A session's page is `/s/TOKEN`, TOKEN the first 128 bits of an HMAC-SHA256 of the table's id
under the store's own secret (`web.secret` in `meta`, made once by whichever process needs it
first): the bot and a web process reading the same store make the same links, and knowing one
table's link tells nothing of another's. A club's standings are `/club/TOKEN`, a random token
kept while they are on (`web.club.TOKEN` -> the server's id, `web.guild.ID` -> the token):
turned off and on again, the old link is dead.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time

from bot.store import EventStore

SECRET = "web.secret"
CLUB = "web.club."  # + token: the server's id
GUILD = "web.guild."  # + the server's id: its standings' token
REREAD = 1.0  # seconds between two reads of the tables' ids for an unknown link


def token(secret: bytes, text: str) -> str:
    """128 bits of HMAC-SHA256 of `text` under `secret`, in URL-safe base64 (22 letters)."""
    digest = hmac.new(secret, text.encode(), hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


class Links:
    """The links of one store's sessions and clubs, both ways."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._secret: bytes | None = None
        self._tables: dict[str, str] = {}  # token -> table id, as last read
        self._read_at = float("-inf")

    async def secret(self) -> bytes:
        """The store's secret, made if it has none yet."""
        if self._secret is None:
            kept = await self.store.meta.first(SECRET, secrets.token_hex(32))
            self._secret = bytes.fromhex(kept)
        return self._secret

    async def session(self, table_id: str) -> str:
        """The path of a table's session page."""
        return "/s/" + token(await self.secret(), table_id)

    async def table(self, session_token: str) -> str | None:
        """The table whose session page `session_token` is, or None. The tables' ids are read
        again for a token not known, at most once every `REREAD` seconds (a stream of bad
        links costs no more)."""
        if session_token not in self._tables and time.monotonic() - self._read_at > REREAD:
            self._read_at = time.monotonic()
            secret = await self.secret()
            self._tables = {token(secret, t): t
                            for t in await self.store.events.table_ids(open_only=False)}
        return self._tables.get(session_token)

    async def club(self, guild_id: int) -> str | None:
        """The path of the server's standings, or None while they are off."""
        kept = await self.store.meta.shared(f"{GUILD}{guild_id}")
        return None if kept is None else f"/club/{kept}"

    async def guild(self, club_token: str) -> int | None:
        """The server whose standings `club_token` is, or None (off, or no such link)."""
        kept = await self.store.meta.shared(CLUB + club_token)
        return None if kept is None else int(kept)

    async def turn_club(self, guild_id: int, on: bool) -> str | None:
        """The server's standings turned on (a new link, unless on already) or off; the path
        while on."""
        kept = await self.store.meta.shared(f"{GUILD}{guild_id}")
        if on and kept is None:
            kept = secrets.token_urlsafe(16)
            await self.store.meta.set(CLUB + kept, str(guild_id))
            await self.store.meta.set(f"{GUILD}{guild_id}", kept)
        elif not on and kept is not None:
            await self.store.meta.set(f"{GUILD}{guild_id}", None)
            await self.store.meta.set(CLUB + kept, None)
            kept = None
        return None if kept is None else f"/club/{kept}"
