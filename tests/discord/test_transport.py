"""The bot's own HTTP/1.1 connections (bot/discord/transport.py) against real servers on
this machine: aiohttp's own server reads its requests (JSON, multipart with a file, query,
headers) as it read aiohttp's client's; a connection is kept for the next request, dropped
when the server closes it, and a request the server closed on unanswered is made again once
on a new connection; answers of every framing are read whole; TLS verifies the server; a
broken connection raises aiohttp's errors, as discord.py expects; discord.py's own REST
call runs on it; its idle rate-limit buckets are swept once a minute, not at each new one."""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import io
import json
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import aiohttp
import discord
import pytest
import trustme
from aiohttp import web
from discord.http import HTTPClient, Route

from bot.discord import transport
from bot.discord.transport import Session, install

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


@pytest.fixture
async def session() -> AsyncIterator[Session]:
    inner = aiohttp.ClientSession(headers={"User-Agent": "chouette-test"},
                                  timeout=aiohttp.ClientTimeout(total=2))
    out = Session(inner)
    yield out
    await out.close()


async def serve_app(routes: web.RouteTableDef, ssl_context: ssl.SSLContext | None = None
                    ) -> tuple[web.AppRunner, str]:
    """aiohttp's server on a free port, and its URL."""
    app = web.Application()
    app.add_routes(routes)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0, ssl_context=ssl_context)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    return runner, f"{'https' if ssl_context else 'http'}://127.0.0.1:{port}"


def as_discord(data: object, status: int = 200, **headers: str) -> web.Response:
    """JSON as Discord answers it: `Content-Type: application/json`, no charset (which
    discord.py's `json_or_text` requires to read it as JSON)."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json", **headers})


async def serve_raw(handler: Handler) -> tuple[asyncio.Server, str]:
    server = await asyncio.start_server(handler, "127.0.0.1", 0)
    return server, f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}"


async def read_request(reader: asyncio.StreamReader) -> bytes:
    head = await reader.readuntil(b"\r\n\r\n")
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            await reader.readexactly(int(line.split(b":")[1]))
    return head


async def test_aiohttp_reads_json_multipart_query_and_headers(session: Session) -> None:
    routes = web.RouteTableDef()
    seen: list[dict[str, object]] = []
    peers: set[object] = set()

    @routes.post("/api/{what}")
    async def echo(request: web.Request) -> web.Response:
        peers.add(request.transport.get_extra_info("peername"))  # type: ignore[union-attr]
        got: dict[str, object] = {"query": dict(request.query), "agent":
                                  request.headers["User-Agent"], "auth":
                                  request.headers.get("Authorization")}
        if request.content_type == "multipart/form-data":
            form = await request.post()
            upload = form["files[0]"]
            assert isinstance(upload, web.FileField)
            got.update(payload=form["payload_json"], filename=upload.filename,
                       file=upload.file.read(), file_type=upload.content_type)
        else:
            got["json"] = await request.json()
        seen.append(got)
        return as_discord({"ok": request.match_info["what"]}, 201,
                          **{"X-RateLimit-Remaining": "4"})

    runner, base = await serve_app(routes)
    try:
        async with session.request("POST", f"{base}/api/one?a=1", data='{"n": 1}',
                                   params={"wait": "true"},
                                   headers={"Authorization": "Bot t",
                                            "Content-Type": "application/json"}) as answer:
            assert (answer.status, answer.reason) == (201, "Created")
            assert answer.headers["x-ratelimit-remaining"] == "4"
            assert answer.headers["content-type"] == "application/json"
            assert await answer.text() == '{"ok": "one"}'
        form = aiohttp.FormData(quote_fields=False)
        form.add_field("payload_json", '{"content": "a \\"board\\""}')
        form.add_field("files[0]", io.BytesIO(b"\x89PNG\r\n--not a boundary"),
                       filename='bo"ard.png', content_type="application/octet-stream")
        answer = await session.request("POST", f"{base}/api/two", data=form,
                                       headers={"User-Agent": "discord.py"})
        assert answer.status == 201
    finally:
        await runner.cleanup()
    assert seen == [
        {"query": {"a": "1", "wait": "true"}, "agent": "chouette-test", "auth": "Bot t",
         "json": {"n": 1}},
        {"query": {}, "agent": "discord.py", "auth": None,
         "payload": '{"content": "a \\"board\\""}', "filename": 'bo"ard.png',
         "file": b"\x89PNG\r\n--not a boundary", "file_type": "application/octet-stream"}]
    assert len(peers) == 1  # one connection, kept for the second request


async def test_answers_of_every_framing_are_read_whole(session: Session) -> None:
    answers = [
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        b"4;x=1\r\nboar\r\n1\r\nd\r\n0\r\nTrailer: t\r\n\r\n",
        b"HTTP/1.1 204 No Content\r\nX-Ratelimit-Remaining: 0\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n%s"
        % (len(gzip.compress(b"zipped")), gzip.compress(b"zipped")),
        b"HTTP/1.1 500\r\nContent-Length: 4\r\n\r\noops",
        b"HTTP/1.1 200 OK\r\n\r\nto the end",  # no length: read until the server closes
    ]
    connections = 0

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connections
        connections += 1
        while answers:
            await read_request(reader)
            answer = answers.pop(0)
            writer.write(answer)
            if b"Length" not in answer and b"chunked" not in answer and b" 204 " not in answer:
                break
        writer.close()

    server, base = await serve_raw(handler)
    async with server:
        got = [(r.status, r.reason, await r.read()) for r in
               [await session.request("GET", f"{base}/{n}") for n in range(5)]]
    assert got == [(200, "OK", b"board"), (204, "No Content", b""), (200, "OK", b"zipped"),
                   (500, "", b"oops"), (200, "OK", b"to the end")]
    assert connections == 1


async def test_a_connection_the_server_closed_is_not_used_again(session: Session) -> None:
    """Closed while idle: dropped; closed as the request went out: the request made again,
    once, on a new connection. A new connection closed unanswered is an error."""
    plan = ["answer, then close when idle", "answer", "close unanswered", "answer",
            "close unanswered"]
    connections = 0

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connections
        connections += 1
        while plan:
            try:
                await read_request(reader)
            except asyncio.IncompleteReadError:
                break
            step = plan.pop(0)
            if step == "close unanswered":
                break
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            if step == "answer, then close when idle":
                await writer.drain()
                break
        writer.close()

    server, base = await serve_raw(handler)
    async with server:
        assert (await session.request("GET", base)).status == 200
        await asyncio.sleep(0.1)  # the server's close reaches the idle connection
        assert (await session.request("GET", base)).status == 200  # a new connection
        assert (await session.request("GET", base)).status == 200  # closed: made again
        assert connections == 3
        with pytest.raises(aiohttp.ServerDisconnectedError):
            await session.request("GET", base)  # closed, and the new one too: no third
        assert connections == 4


async def test_a_connection_idle_too_long_is_not_used_again(
        session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    """A router may forget a connection idle for long without telling either side: one idle
    longer than `IDLE_SECONDS` is closed and a new one made, as aiohttp's keep-alive did."""
    monkeypatch.setattr(transport, "IDLE_SECONDS", 0.2)
    connections = 0

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connections
        connections += 1
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError):
            while True:
                await read_request(reader)
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        writer.close()

    server, base = await serve_raw(handler)
    async with server:
        for _ in range(2):
            assert (await session.request("GET", base)).status == 200
        assert connections == 1  # kept for the next request
        await asyncio.sleep(0.3)
        assert (await session.request("GET", base)).status == 200
        assert connections == 2


async def test_a_malformed_answer_is_aiohttps_payload_error(
        session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(transport, "HEAD_LIMIT", 1024)
    answers = [b"HTTP/1.1 200 OK\r\nX-Long: " + b"a" * 2048 + b"\r\n\r\n",
               b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
               b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 3\r\n\r\nabc",
               b"SSH-2.0-OpenSSH_9.6\r\n\r\n", b"garbage\r\n\r\n"]

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        writer.write(answers.pop(0))
        await writer.drain()
        await asyncio.sleep(0.5)
        writer.close()

    server, base = await serve_raw(handler)
    async with server:
        for _ in range(5):
            with pytest.raises(aiohttp.ClientPayloadError, match="malformed answer"):
                await session.request("GET", base)


async def test_broken_connections_raise_aiohttps_errors(session: Session) -> None:
    async def half(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf")
        writer.close()

    server, base = await serve_raw(half)
    async with server:
        with pytest.raises(aiohttp.ServerDisconnectedError):
            await session.request("GET", base)
    with pytest.raises(aiohttp.ClientOSError) as refused:
        await session.request("GET", base)  # nobody listens there now
    assert isinstance(refused.value, OSError)

    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        await asyncio.sleep(5)

    server, base = await serve_raw(silent)
    async with server:
        with pytest.raises(TimeoutError):
            await session.request("GET", base)  # the session's 2 s
        with pytest.raises(ValueError, match="newline"):
            await session.request("GET", base, headers={"X-Audit-Log-Reason": "a\r\nb: c"})


async def test_tls_verifies_the_server(session: Session) -> None:
    authority = trustme.CA()
    server_side = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert("127.0.0.1").configure_cert(server_side)
    routes = web.RouteTableDef()

    @routes.get("/")
    async def hello(_: web.Request) -> web.Response:
        return web.Response(text="over TLS")

    runner, base = await serve_app(routes, server_side)
    try:
        with pytest.raises(aiohttp.ClientOSError):  # the system's authorities don't know it
            await session.request("GET", base + "/")
        tls = ssl.create_default_context()
        authority.configure_trust(tls)
        trusting = Session(aiohttp.ClientSession(), tls)
        assert await (await trusting.request("GET", base + "/")).text() == "over TLS"
        await trusting.close()
    finally:
        await runner.cleanup()


async def test_discord_py_requests_on_it() -> None:
    """discord.py's `HTTPClient` makes its REST calls on the session `install` gives it,
    reads Discord's answers and raises its exceptions from them."""
    routes = web.RouteTableDef()

    @routes.get("/api/v10/users/@me")
    async def me(_: web.Request) -> web.Response:
        return as_discord({"id": "1", "username": "chouette", "discriminator": "0",
                           "avatar": None, "bot": True})

    @routes.post("/api/v10/channels/5/messages")
    async def refuse(_: web.Request) -> web.Response:
        return as_discord({"code": 50013, "message": "Missing Permissions"}, 403)

    runner, base = await serve_app(routes)
    http = HTTPClient(asyncio.get_running_loop())
    old = Route.BASE
    Route.BASE = base + "/api/v10"
    try:
        await http.static_login("token")
        install(http)
        assert isinstance(http._HTTPClient__session, Session)  # type: ignore[attr-defined]
        assert (await http.request(Route("GET", "/users/@me")))["username"] == "chouette"
        with pytest.raises(discord.Forbidden, match="Missing Permissions"):
            await http.request(Route("POST", "/channels/{channel_id}/messages",
                                     channel_id=5), json={"content": "hi"})
    finally:
        Route.BASE = old
        await http.close()
        await runner.cleanup()


async def test_idle_rate_limit_buckets_are_swept_once_a_minute_not_at_each_new_one(
        monkeypatch: Any) -> None:
    loop = asyncio.get_running_loop()
    http = discord.http.HTTPClient(loop)
    assert hasattr(http, "_try_clear_expired_ratelimits")  # what `sweep_seldom` slows down
    asked = 0
    inactive = discord.http.Ratelimit.is_inactive

    def counted(bucket: Any) -> bool:
        nonlocal asked
        asked += 1
        return inactive(bucket)

    monkeypatch.setattr(discord.http.Ratelimit, "is_inactive", counted)
    clock = [1000.0]
    monkeypatch.setattr(transport.time, "monotonic", lambda: clock[0])
    transport.sweep_seldom(http)
    for n in range(600):  # a bucket a new channel (discord.py alone: ~120,000 asked)
        http.get_ratelimit(f"POST /channels/{n}/messages")
    assert asked == 0  # swept at the first one (fewer than 256: nothing to do), not since
    for bucket in list(http._buckets.values())[:100]:  # idle for more than 5 minutes
        bucket._last_request = loop.time() - 301
    clock[0] += transport.SWEEP_SECONDS
    http.get_ratelimit("POST /channels/600/messages")
    assert asked == 601 and len(http._buckets) == 501  # a minute on: the idle 100 gone
    http.get_ratelimit("POST /channels/601/messages")
    assert asked == 601 and len(http._buckets) == 502
