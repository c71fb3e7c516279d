"""The bot's CPU for one answer or message, discord.py's call against the lean path's
(`bot/discord/rest.py`), in this process against a stub HTTP session: what each spends
between the bot's call and the socket (the payload built, the request, the body Discord
returns parsed, the model built from it), not the network. Discord's answers are the
board message as the test suite's fake Discord makes it (a board PNG, a 25-play menu and
five buttons): a callback asked `with_response` gets it back, one not asked gets 204 No
Content; a message posted or edited always comes back whole. `python -m bench.rest`."""

from __future__ import annotations

import asyncio
import io
import json
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import discord

from bench.floor_bot import PNG, TEXT, view
from bot.discord import rest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "e2e" / "harness"))
from fake_discord import FakeDiscord, UploadedFile

ROUNDS = 400


class _Response:
    def __init__(self, status: int, text: str) -> None:
        self.status = status
        self._text = text
        self.headers = {"content-type": "application/json"} if text else {}

    async def text(self, encoding: str = "utf-8") -> str:
        return self._text

    async def __aenter__(self) -> _Response:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


class _Session:
    """Discord's answers, at once: a callback's body only when asked `with_response`."""

    def __init__(self, callback: str, message: str) -> None:
        self.callback, self.message = callback, message

    def request(self, method: str, url: str, params: Any = None, **_: Any) -> _Response:
        if url.endswith("/callback"):
            return _Response(200, self.callback) if params else _Response(204, "")
        return _Response(200, self.message)


def _discord_answers() -> tuple[dict[str, Any], str, str, dict[str, Any]]:
    """A click on the board message, the callback's answer with it, the message as Discord
    returns it, and the bot's user."""
    fake = FakeDiscord(users=("ann",))
    channel = fake.add_channel("board")
    components = view("1").to_components()
    message = fake.new_message(channel, fake.app_id, {"content": TEXT, "components": components,
                                                      "attachments": [{"id": 0,
                                                                       "filename": "board.png"}]},
                               [UploadedFile(0, "board.png", PNG, "image/png")])
    callback = {"interaction": {"id": "1", "type": 3, "response_message_id": message["id"],
                                "response_message_loading": False,
                                "response_message_ephemeral": False},
                "resource": {"type": 7, "message": message}}
    click = {"id": "1", "application_id": fake.app_id, "type": 3, "token": "t" * 80,
             "version": 1, "channel_id": channel["id"], "guild_id": channel["guild_id"],
             "channel": dict(channel),
             "member": {**fake.guilds[channel["guild_id"]]["members"][fake.user("ann")["id"]],
                        "permissions": "0"},
             "message": message, "locale": "en-US", "guild_locale": "en-US",
             "entitlements": [], "authorizing_integration_owners": {},
             "attachment_size_limit": 10 * 1024 * 1024, "app_permissions": "0",
             "data": {"custom_id": "b:1:roll", "component_type": 2}}
    return click, json.dumps(callback), json.dumps(message), fake.user(fake.app_id)


async def _timed(make: Callable[[], Awaitable[Any]]) -> float:
    """CPU microseconds a call, over `ROUNDS` calls (what the call is given, the click, the
    image, the view, made by `make` before the clock runs)."""
    total = 0.0
    for _ in range(ROUNDS):
        call = make()
        start = time.process_time()
        await call
        total += time.process_time() - start
    return total / ROUNDS * 1e6


async def _measure() -> list[tuple[str, str]]:
    click, callback, message, me = _discord_answers()
    client = discord.Client(intents=discord.Intents.none())
    state = client._connection
    state.user = discord.ClientUser(state=state, data=me)  # type: ignore[arg-type]
    state.http._HTTPClient__session = _Session(callback, message)  # type: ignore[attr-defined]
    state.http._global_over = asyncio.Event()  # as `static_login` makes them
    state.http._global_over.set()
    channel = client.get_partial_messageable(int(click["channel_id"]))
    board = channel.get_partial_message(int(click["message"]["id"]))

    def png() -> list[discord.File]:
        return [discord.File(io.BytesIO(PNG), "board.png")]

    def interaction() -> discord.Interaction:
        return discord.Interaction(data=click, state=state)

    def old_answer() -> Awaitable[Any]:
        return interaction().response.edit_message(content=TEXT, attachments=png(),
                                                   view=view("1"))

    def new_answer() -> Awaitable[Any]:
        return rest.update(interaction(), content=TEXT, attachments=png(), view=view("1"))

    def old_edit() -> Awaitable[Any]:
        return board.edit(content=TEXT, attachments=png(), view=view("1"))

    def new_edit() -> Awaitable[Any]:
        return rest.edit(board, content=TEXT, attachments=png(), view=view("1"))

    calls: dict[str, tuple[Callable[[], Awaitable[Any]], Callable[[], Awaitable[Any]]]] = {
        "answer the click with the board": (old_answer, new_answer),
        "edit the board message": (old_edit, new_edit),
        "post a line of record": (lambda: channel.send("Ann plays 13/10 13/9."),
                                  lambda: rest.post(channel, "Ann plays 13/10 13/9.")),
    }
    rows = []
    for name, (old, new) in calls.items():
        before, after = [], []
        for _ in range(3):  # interleaved, the best of three
            before.append(await _timed(old))
            after.append(await _timed(new))
        rows.append((f"rest: {name} (µs CPU, discord.py -> lean)",
                     f"{min(before):.0f} -> {min(after):.0f}"))
    return rows


def run() -> list[tuple[str, str]]:
    """The table's rows: CPU per call, discord.py's and the lean path's."""
    return asyncio.run(_measure())


if __name__ == "__main__":
    for row_name, value in run():
        print(f"{row_name}  {value}")
