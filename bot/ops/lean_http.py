"""A lean HTTP/1.1 transport for the bot's Bot API calls, opt-in (``PORTES_HTTP_CLIENT=lean``).

httpx stays the client (URLs, headers, form and multipart bodies, content decoding, proxies:
a proxied URL goes through httpx's own transport); only the transport under it is replaced.
httpcore's costs about 1 ms of CPU per call, more than the rest of a call: an anyio cancel
scope around every socket operation, h11's event machinery, a scan of the whole pool at each
request. This one keeps up to ``max_connections`` keep-alive connections per origin on plain
asyncio streams (TLS with the given context), one request at a time each, and maps failures
to httpx's exceptions as httpcore does (python-telegram-bot turns those into ``TimedOut`` and
``NetworkError``): a connection that fails, times out or is cancelled mid-call is closed, never
reused; an idle one is dropped after ``keepalive_expiry`` seconds or once the server closed it.
Nothing is retried (a call that may have reached Telegram is never sent twice), as with httpx.
"""

from __future__ import annotations

import asyncio
import ssl
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import TypeVar

import httpx

T = TypeVar("T")
Origin = tuple[bytes, bytes, int]
NO_BODY_STATUSES = frozenset({204, 304})


@dataclass
class _Connection:
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    idle_since: float = field(default_factory=time.monotonic)

    def usable(self, expiry: float) -> bool:
        return (time.monotonic() - self.idle_since < expiry and not self.reader.at_eof()
                and not self.writer.is_closing())

    def close(self) -> None:
        self.writer.close()


async def _within(seconds: float | None, step: Awaitable[T]) -> T:
    if seconds is None:
        return await step
    async with asyncio.timeout(seconds):
        return await step


class LeanTransport(httpx.AsyncBaseTransport):
    """See the module's docstring."""

    def __init__(self, *, max_connections: int = 16, keepalive_expiry: float = 5.0,
                 ssl_context: ssl.SSLContext | None = None) -> None:
        self.max_connections = max_connections
        self.keepalive_expiry = keepalive_expiry
        self.ssl_context = ssl_context
        self._idle: dict[Origin, list[_Connection]] = {}
        self._slots: asyncio.Semaphore | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        timeout = request.extensions.get("timeout", {})
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.max_connections)
        try:
            await _within(timeout.get("pool"), self._slots.acquire())
        except TimeoutError as exc:
            raise httpx.PoolTimeout("no connection free in time", request=request) from exc
        try:
            url = request.url
            origin = (url.raw_scheme, url.raw_host, url.port or (443 if url.raw_scheme == b"https"
                                                                 else 80))
            conn = self._take(origin) or await self._connect(origin, timeout, request)
            done = False
            try:
                status, headers, body, reusable = await self._exchange(conn, request, timeout)
                done = True
            finally:
                if done and reusable:
                    conn.idle_since = time.monotonic()
                    self._idle.setdefault(origin, []).append(conn)
                else:
                    conn.close()
        finally:
            self._slots.release()
        return httpx.Response(status, headers=headers, stream=httpx.ByteStream(body),
                              extensions={"http_version": b"HTTP/1.1"})

    async def aclose(self) -> None:
        for conns in self._idle.values():
            for conn in conns:
                conn.close()
        self._idle.clear()

    def _take(self, origin: Origin) -> _Connection | None:
        conns = self._idle.get(origin, [])
        while conns:
            conn = conns.pop()
            if conn.usable(self.keepalive_expiry):
                return conn
            conn.close()
        return None

    async def _connect(self, origin: Origin, timeout: dict[str, float | None],
                       request: httpx.Request) -> _Connection:
        scheme, host, port = origin
        tls = (self.ssl_context or ssl.create_default_context()) if scheme == b"https" else None
        try:
            reader, writer = await _within(timeout.get("connect"), asyncio.open_connection(
                host.decode("ascii"), port, ssl=tls,
                server_hostname=host.decode("ascii") if tls else None))
        except TimeoutError as exc:
            raise httpx.ConnectTimeout(str(exc) or "connect timed out", request=request) from exc
        except OSError as exc:
            raise httpx.ConnectError(str(exc), request=request) from exc
        return _Connection(reader, writer)

    async def _exchange(self, conn: _Connection, request: httpx.Request,
                        timeout: dict[str, float | None],
                        ) -> tuple[int, list[tuple[bytes, bytes]], bytes, bool]:
        try:
            await _within(timeout.get("write"), self._send(conn.writer, request))
        except TimeoutError as exc:
            raise httpx.WriteTimeout("write timed out", request=request) from exc
        except OSError as exc:
            raise httpx.WriteError(str(exc), request=request) from exc
        try:
            return await _Reader(conn.reader, timeout.get("read")).response(request.method)
        except TimeoutError as exc:
            raise httpx.ReadTimeout("read timed out", request=request) from exc
        except asyncio.IncompleteReadError as exc:
            raise httpx.RemoteProtocolError(
                "Server disconnected without sending a complete response",
                request=request) from exc
        except (asyncio.LimitOverrunError, ValueError, IndexError) as exc:
            raise httpx.RemoteProtocolError(f"malformed response: {exc}",
                                            request=request) from exc
        except OSError as exc:
            raise httpx.ReadError(str(exc), request=request) from exc

    @staticmethod
    async def _send(writer: asyncio.StreamWriter, request: httpx.Request) -> None:
        url = request.url
        target = url.raw_path or b"/"
        head = [request.method.encode("ascii"), b" ", target, b" HTTP/1.1\r\n"]
        for name, value in request.headers.raw:
            head += [name, b": ", value, b"\r\n"]
        head.append(b"\r\n")
        writer.write(b"".join(head))
        chunked = request.headers.get("transfer-encoding", "").lower() == "chunked"
        assert isinstance(request.stream, httpx.AsyncByteStream)
        async for chunk in request.stream:
            if chunked and chunk:
                writer.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            elif chunk:
                writer.write(chunk)
            await writer.drain()
        if chunked:
            writer.write(b"0\r\n\r\n")
        await writer.drain()


class _Reader:
    """One HTTP/1.1 response off a connection, each read within the read timeout."""

    def __init__(self, reader: asyncio.StreamReader, timeout: float | None) -> None:
        self.reader = reader
        self.timeout = timeout

    async def line(self) -> bytes:
        return await _within(self.timeout, self.reader.readuntil(b"\r\n"))

    async def exactly(self, n: int) -> bytes:
        return await _within(self.timeout, self.reader.readexactly(n))

    async def response(self, method: str) -> tuple[int, list[tuple[bytes, bytes]], bytes, bool]:
        while True:  # informational answers (100 Continue) come before the real one
            version, status = await self._status()
            headers = await self._headers()
            if not 100 <= status < 200 or status == 101:
                break
        fields = {name.lower(): value.lower() for name, value in headers}
        closing = fields.get(b"connection") == b"close" or (
            version == b"HTTP/1.0" and fields.get(b"connection") != b"keep-alive")
        if method == "HEAD" or status in NO_BODY_STATUSES or 100 <= status < 200:
            return status, headers, b"", not closing
        if b"chunked" in fields.get(b"transfer-encoding", b""):
            return status, headers, await self._chunked(), not closing
        if b"content-length" in fields:
            return status, headers, await self.exactly(int(fields[b"content-length"])), \
                not closing
        body = await _within(self.timeout, self.reader.read())  # until the server closes
        return status, headers, body, False

    async def _status(self) -> tuple[bytes, int]:
        version, code = (await self.line()).split(b" ", 2)[:2]
        if not version.startswith(b"HTTP/"):
            raise ValueError(f"not an HTTP status line: {version!r}")
        return version, int(code)

    async def _headers(self) -> list[tuple[bytes, bytes]]:
        headers = []
        while (line := await self.line()) != b"\r\n":
            name, value = line.split(b":", 1)
            headers.append((name.strip(), value.strip()))
        return headers

    async def _chunked(self) -> bytes:
        parts = []
        while size := int((await self.line()).split(b";", 1)[0].strip(), 16):
            parts.append(await self.exactly(size))
            await self.exactly(2)  # the chunk's CRLF
        while await self.line() != b"\r\n":  # trailers
            pass
        return b"".join(parts)
