"""discord.py's REST requests on HTTP/1.1 connections of the bot's own.

aiohttp's client spent about 200 µs of the bot's CPU on a request and 400 µs on one with a
file (its multipart writer and payload classes), whatever it held: about a tenth of the
bot's CPU under load (issue 23). Discord's REST needs little of it: a request and its
whole answer, on a connection kept open for the next. `Session` stands in for the
`aiohttp.ClientSession` that discord.py's `HTTPClient` and webhook adapter (interaction
answers) make requests on. discord.py keeps everything it does over a request: rate
limits, retries, its exceptions.

`Session.request` writes the request (JSON, or discord.py's `aiohttp.FormData` as
multipart/form-data) on an idle connection to the host or a new one (TLS for https), reads
the answer whole (its length, chunks, or to the end), and gives the connection back unless
either side closes it. A connection kept idle that the server closed in the meantime, or
idle for longer than `IDLE_SECONDS`, is dropped; one it closes as the request goes out is
retried once on a new connection: Discord read nothing of it. A broken connection or a
malformed answer raises aiohttp's errors, as before. The gateway's
websocket, the CDN (`get`), a proxy or any option it does not know go to the aiohttp session
underneath, as do its `headers` and its timeout (5 minutes a request).
"""

from __future__ import annotations

import asyncio
import io
import secrets
import ssl
import time
import zlib
from collections import defaultdict
from typing import Any
from urllib.parse import urlencode, urlsplit

import aiohttp
from discord.http import HTTPClient
from multidict import CIMultiDict, CIMultiDictProxy

Key = tuple[str, str, int]  # scheme, host, port
Link = tuple[asyncio.StreamReader, asyncio.StreamWriter]

IDLE_KEPT = 100  # idle connections kept to a host (aiohttp kept them all); more are closed
IDLE_SECONDS = 15.0  # an idle connection older is closed, not used (aiohttp's keep-alive):
# a router or firewall may have forgotten it without a word, and a request on it would wait
# for the timeout
HEAD_LIMIT = 1 << 20  # the longest status line and headers read
NO_BODY = frozenset((204, 304))


class Response:
    """What discord.py reads of an `aiohttp.ClientResponse`: its status and reason, headers
    and body (read whole)."""

    __slots__ = ("_body", "headers", "method", "reason", "status", "url")

    def __init__(self, method: str, url: str, status: int, reason: str,
                 headers: CIMultiDictProxy[str], body: bytes) -> None:
        self.method, self.url, self.status, self.reason = method, url, status, reason
        self.headers, self._body = headers, body

    async def read(self) -> bytes:
        return self._body

    async def text(self, encoding: str = "utf-8", errors: str = "strict") -> str:
        return self._body.decode(encoding, errors)

    def __repr__(self) -> str:
        return f"<Response [{self.status} {self.reason}] {self.method} {self.url}>"


class _Call:
    """`session.request(...)` as aiohttp's: awaited or used in `async with`."""

    __slots__ = ("_answer",)

    def __init__(self, answer: Any) -> None:
        self._answer = answer

    def __await__(self) -> Any:
        return self._answer.__await__()

    async def __aenter__(self) -> Any:
        return await self._answer

    async def __aexit__(self, *exc: object) -> None:
        return None


class Session:
    """The bot's requests to Discord's REST on its own connections; everything else on
    `inner`, the aiohttp session discord.py made."""

    def __init__(self, inner: aiohttp.ClientSession, tls: ssl.SSLContext | None = None
                 ) -> None:
        self._inner = inner
        self._idle: defaultdict[Key, list[tuple[Link, float]]] = defaultdict(list)
        self._tls = tls  # the system's certificate authorities when None
        self._closed = False

    def __getattr__(self, name: str) -> Any:  # ws_connect, get, headers, ...
        return getattr(self._inner, name)

    @property
    def closed(self) -> bool:
        return self._closed or self._inner.closed

    async def close(self) -> None:
        self._closed = True
        for links in self._idle.values():
            for (_, writer), _ in links:
                writer.close()
        self._idle.clear()
        await self._inner.close()

    def request(self, method: str, url: Any, *, headers: dict[str, str] | None = None,
                data: Any = None, params: dict[str, Any] | None = None, proxy: Any = None,
                proxy_auth: Any = None, **options: Any) -> Any:
        """A request as `aiohttp.ClientSession.request` makes it: on this session's own
        connections when it is plain (a URL string, no proxy, no other option)."""
        if proxy is not None or proxy_auth is not None or options or not isinstance(url, str):
            return self._inner.request(method, url, headers=headers, data=data, params=params,
                                       proxy=proxy, proxy_auth=proxy_auth, **options)
        return _Call(self._request(method, url, headers or {}, data, params))

    async def _request(self, method: str, url: str, headers: dict[str, str], data: Any,
                       params: dict[str, Any] | None) -> Response:
        if self._closed:
            raise RuntimeError("Session is closed")
        parts = urlsplit(url)
        scheme, host = parts.scheme, parts.hostname or ""
        key = (scheme, host, parts.port or (443 if scheme == "https" else 80))
        target = parts.path or "/"
        query = "&".join(q for q in (parts.query, params and urlencode(params)) if q)
        if query:
            target += "?" + query
        body, content_type = _body(data)
        given = {name.lower() for name in headers}  # over the session's
        lines = [f"{method} {target} HTTP/1.1", f"Host: {parts.netloc}",
                 *(f"{name}: {value}" for name, value in self._inner.headers.items()
                   if name.lower() not in given),
                 *(f"{name}: {value}" for name, value in headers.items())]
        if "accept" not in given and "Accept" not in self._inner.headers:
            lines.append("Accept: */*")
        lines.append("Accept-Encoding: identity")
        if content_type:
            lines.append(f"Content-Type: {content_type}")
        if body or method in ("POST", "PUT", "PATCH"):
            lines.append(f"Content-Length: {len(body)}")
        head = "\r\n".join(lines)
        if head.count("\n") != len(lines) - 1 or head.count("\r") != len(lines) - 1:
            raise ValueError(f"newline in a header: {lines!r}")  # a header smuggled in
        request = (head + "\r\n\r\n").encode("latin-1") + body
        async with asyncio.timeout(self._inner.timeout.total):
            link, reused = await self._link(key)
            try:
                return await self._exchange(key, link, request, method, url)
            except _Closed:
                if not reused:
                    raise aiohttp.ServerDisconnectedError() from None
            link, _ = await self._link(key, fresh=True)
            try:
                return await self._exchange(key, link, request, method, url)
            except _Closed:
                raise aiohttp.ServerDisconnectedError() from None

    async def _link(self, key: Key, fresh: bool = False) -> tuple[Link, bool]:
        """An idle connection to `key`'s host still open, or a new one; and whether it was
        idle."""
        idle, now = self._idle[key], time.monotonic()
        while idle and not fresh:
            (reader, writer), since = idle.pop()
            if not reader.at_eof() and not writer.is_closing() and now - since < IDLE_SECONDS:
                return (reader, writer), True
            writer.close()
        scheme, host, port = key
        if scheme == "https" and self._tls is None:
            self._tls = ssl.create_default_context()
        try:
            link = await asyncio.open_connection(
                host, port, ssl=self._tls if scheme == "https" else None, limit=HEAD_LIMIT)
        except OSError as error:
            raise aiohttp.ClientOSError(error.errno or 0,
                                        f"Cannot connect to {host}:{port}: {error}") from error
        return link, False

    async def _exchange(self, key: Key, link: Link, request: bytes, method: str,
                        url: str) -> Response:
        """Write `request` on `link`, read the answer whole; `link` goes back to the idle
        ones unless either side closes it. `_Closed` if the server closed it first."""
        reader, writer = link
        keep = False
        try:
            try:
                writer.write(request)
                await writer.drain()
                head = await reader.readuntil(b"\r\n\r\n")
            except asyncio.IncompleteReadError as error:
                if error.partial:
                    raise
                raise _Closed() from None
            except (ConnectionResetError, BrokenPipeError):
                raise _Closed() from None
            version, status, reason, headers = _head(head)
            body, keep = await _read_body(reader, method, status, headers)
            keep = keep and version == "HTTP/1.1" and \
                headers.get("Connection", "").lower() != "close"
            encoding = headers.get("Content-Encoding", "").lower()
            if encoding in ("gzip", "deflate"):
                body = zlib.decompress(body, 47 if encoding == "gzip" else 15)
        except asyncio.IncompleteReadError:
            raise aiohttp.ServerDisconnectedError() from None
        except (asyncio.LimitOverrunError, ValueError, zlib.error) as error:
            raise aiohttp.ClientPayloadError(f"{method} {url}: a malformed answer ({error})") \
                from error
        except OSError as error:  # ssl.SSLError too
            raise aiohttp.ClientOSError(getattr(error, "errno", None) or 0, str(error)) \
                from error
        finally:
            if keep and not self._closed and len(self._idle[key]) < IDLE_KEPT:
                self._idle[key].append((link, time.monotonic()))
            else:
                writer.close()
        return Response(method, url, status, reason, CIMultiDictProxy(headers), body)


class _Closed(Exception):
    """The server closed a connection before answering a byte."""


def _head(head: bytes) -> tuple[str, int, str, CIMultiDict[str]]:
    """An answer's HTTP version, status, reason and headers."""
    status_line, *lines = head.decode("latin-1").split("\r\n")
    version, status, reason = [*status_line.split(" ", 2), "", ""][:3]
    if not version.startswith("HTTP/") or not status.isdigit():
        raise ValueError(f"not an HTTP answer: {status_line!r}")  # (`_exchange`'s to say)
    code = int(status)
    headers: CIMultiDict[str] = CIMultiDict()
    for line in lines:
        if line:
            name, _, value = line.partition(":")
            headers.add(name.strip(), value.strip())
    return version, code, reason, headers


async def _read_body(reader: asyncio.StreamReader, method: str, status: int,
                     headers: CIMultiDict[str]) -> tuple[bytes, bool]:
    """The answer's body, and whether the connection can carry another request."""
    if method == "HEAD" or status in NO_BODY or 100 <= status < 200:
        return b"", True
    if "chunked" in headers.get("Transfer-Encoding", "").lower():
        chunks = []
        while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
            chunks.append(await reader.readexactly(size))
            await reader.readexactly(2)
        while await reader.readuntil(b"\r\n") != b"\r\n":  # trailers
            pass
        return b"".join(chunks), True
    if (length := headers.get("Content-Length")) is not None:
        return await reader.readexactly(int(length)), True
    return await reader.read(), False


def _body(data: Any) -> tuple[bytes, str | None]:
    """The request's body and its Content-Type, if the body sets one."""
    if data is None:
        return b"", None
    if isinstance(data, str):
        return data.encode(), None
    if isinstance(data, bytes | bytearray):
        return bytes(data), None
    if isinstance(data, aiohttp.FormData):
        return _multipart(data)
    raise TypeError(f"can't send {type(data).__name__}")


def _multipart(form: aiohttp.FormData) -> tuple[bytes, str]:
    """`form` as multipart/form-data (RFC 7578), each field as discord.py adds it (a name, a
    value, maybe a filename and a type), names unquoted as `quote_fields=False` writes
    them."""
    boundary = secrets.token_hex(16)
    out = []
    for options, headers, value in form._fields:
        disposition = "; ".join(
            f'{name}="{_quoted(text)}"' for name, text in options.items())
        out.append(f"--{boundary}\r\n".encode())
        for name, text in headers.items():  # Content-Type: aiohttp checked it
            out.append(f"{name}: {text}\r\n".encode())
        out.append(f"Content-Disposition: form-data; {disposition}\r\n\r\n".encode())
        if isinstance(value, io.IOBase):
            value = value.read()
        out.append(value.encode() if isinstance(value, str) else bytes(value))
        out.append(b"\r\n")
    out.append(f"--{boundary}--\r\n".encode())
    return b"".join(out), f"multipart/form-data; boundary={boundary}"


def _quoted(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')  # aiohttp checked it


def install(http: HTTPClient) -> None:
    """Make discord.py's `HTTPClient` (logged in: its aiohttp session made) request on a
    `Session` of this module, and sweep its idle rate-limit buckets seldom."""
    http._HTTPClient__session = Session(http._HTTPClient__session)  # type: ignore[attr-defined]
    sweep_seldom(http)


SWEEP_SECONDS = 60.0


def sweep_seldom(http: HTTPClient, every: float = SWEEP_SECONDS) -> None:
    """discord.py forgets a rate-limit bucket idle for 5 minutes by scanning every bucket
    each time it makes a new one, once it holds 256: with buckets for each channel and DM,
    a bot with hundreds of tables scanned thousands at every new channel's first message
    (3% of its CPU while tables open; quadratic in the tables). Here the scan runs once
    `every` seconds at most: idle buckets still go, up to a minute later. (A private method
    of discord.py's: if a version has none, there is nothing to slow down.)"""
    sweep = getattr(http, "_try_clear_expired_ratelimits", None)
    if sweep is None:
        return
    last = -every

    def seldom() -> None:
        nonlocal last
        if (now := time.monotonic()) - last >= every:
            last = now
            sweep()

    http._try_clear_expired_ratelimits = seldom  # type: ignore[method-assign]

