"""The bot's CPU for one REST request, on aiohttp's client against the bot's own
connections (`bot/discord/transport.py`): a JSON body, and a board PNG as multipart (as
discord.py sends both), to a server in another process on this machine that answers 204 at
once. `python -m bench.transport`."""

from __future__ import annotations

import asyncio
import io
import subprocess
import sys
import time

import aiohttp
import uvloop

from bench.floor_bot import PNG
from bot.discord.transport import Session

ROUNDS = 1500
SERVER = """
import asyncio, sys
async def answer(reader, writer):
    try:
        while True:
            head = await reader.readuntil(b"\\r\\n\\r\\n")
            for line in head.split(b"\\r\\n"):
                if line.lower().startswith(b"content-length:"):
                    await reader.readexactly(int(line.split(b":")[1]))
            writer.write(b"HTTP/1.1 204 No Content\\r\\nX-RateLimit-Remaining: 4\\r\\n\\r\\n")
    except asyncio.IncompleteReadError:
        writer.close()
async def main():
    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    await server.serve_forever()
asyncio.run(main())
"""


async def _per_request(session: aiohttp.ClientSession | Session, url: str, file: bool
                       ) -> float:
    """µs of this process's CPU a request, as discord.py makes it."""
    headers = {"User-Agent": "DiscordBot", "Authorization": "Bot token"}
    payload = '{"type": 7, "data": {"content": "' + "x" * 300 + '"}}'

    async def once() -> None:
        if file:
            data: aiohttp.FormData | str = aiohttp.FormData(quote_fields=False)
            data.add_field("payload_json", payload)
            data.add_field("files[0]", io.BytesIO(PNG), filename="board.png",
                           content_type="application/octet-stream")
        else:
            data = payload
        async with session.request("POST", url, data=data, headers=headers) as response:
            await response.text(encoding="utf-8")

    for _ in range(100):
        await once()
    start = time.process_time()
    for _ in range(ROUNDS):
        await once()
    return 1e6 * (time.process_time() - start) / ROUNDS


async def _measure() -> list[tuple[str, str]]:
    server = subprocess.Popen([sys.executable, "-c", SERVER], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert server.stdout is not None
        url = f"http://127.0.0.1:{server.stdout.readline().strip()}/api/v10/interactions"
        rows = []
        for file in (False, True):
            async with aiohttp.ClientSession() as inner:
                before = await _per_request(inner, url, file)
                own = Session(inner)
                after = await _per_request(own, url, file)
                await own.close()
            what = "with a board PNG (multipart)" if file else "JSON"
            rows.append((f"transport: a request {what}, µs of CPU, aiohttp -> own",
                         f"{before:.0f} -> {after:.0f}"))
        return rows
    finally:
        server.kill()
        server.wait()


def run() -> list[tuple[str, str]]:
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:  # as the bot's
        return runner.run(_measure())


if __name__ == "__main__":
    for name, value in run():
        print(f"{name}  {value}")
