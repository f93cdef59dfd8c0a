"""The lean HTTP/1.1 transport (``PORTES_HTTP_CLIENT=lean``) against a real local server: bodies
framed by length, chunked or by closing; keep-alive reuse, and no reuse of a connection the
server closed, answered ``Connection: close`` or that failed; timeouts and refusals mapped to
httpx's exceptions, which python-telegram-bot turns into ``TimedOut`` and ``NetworkError``."""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from telegram import Bot
from telegram.error import NetworkError, TimedOut

from bot.ops.lean_http import LeanTransport
from bot.ops.metrics import MeteredRequest, Metrics

Reply = Callable[[bytes, bytes], bytes | None]


@dataclass
class Server:
    """Answers each request with ``reply(request line, body)`` (``None``: no answer, hang)."""

    reply: Reply
    connections: int = 0
    requests: list[bytes] = field(default_factory=list)
    close_after_each: bool = False
    port: int = 0

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                line, *headers = head.split(b"\r\n")
                length = next((int(h.split(b":")[1]) for h in headers
                               if h.lower().startswith(b"content-length")), 0)
                body = await reader.readexactly(length)
                self.requests.append(line)
                answer = self.reply(line, body)
                if answer is None:
                    await asyncio.sleep(3600)
                    return
                writer.write(answer)
                await writer.drain()
                if self.close_after_each or b"Connection: close" in answer:
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()


def ok(body: bytes = b'{"ok":true,"result":true}', *extra: bytes) -> bytes:
    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
    head += b"Content-Length: %d\r\n" % len(body)
    return head + b"".join(e + b"\r\n" for e in extra) + b"\r\n" + body


@pytest.fixture
async def serve() -> AsyncIterator[Callable[[Reply], Server]]:
    servers: list[asyncio.Server] = []

    async def _start(reply: Reply) -> Server:
        server = Server(reply)
        listening = await asyncio.start_server(server.handle, "127.0.0.1", 0)
        server.port = listening.sockets[0].getsockname()[1]
        servers.append(listening)
        return server

    yield _start  # type: ignore[misc]
    for listening in servers:
        listening.close()


async def get(client: httpx.AsyncClient, server: Server, path: str = "/x") -> httpx.Response:
    return await client.post(f"http://127.0.0.1:{server.port}{path}", data={"a": "1"})


async def test_keep_alive_connections_are_reused(serve) -> None:  # type: ignore[no-untyped-def]
    server = await serve(lambda line, body: ok())
    async with httpx.AsyncClient(transport=LeanTransport()) as client:
        for _ in range(3):
            res = await get(client, server)
            assert res.status_code == 200 and res.json() == {"ok": True, "result": True}
    assert server.connections == 1 and len(server.requests) == 3


async def test_chunked_and_close_delimited_bodies(serve) -> None:  # type: ignore[no-untyped-def]
    chunked = (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
               b"5\r\nhello\r\n6;x=y\r\n world\r\n0\r\nTrailer: t\r\n\r\n")
    server = await serve(lambda line, body: chunked)
    async with httpx.AsyncClient(transport=LeanTransport()) as client:
        assert (await get(client, server)).content == b"hello world"
        assert (await get(client, server)).content == b"hello world"
    assert server.connections == 1
    server = await serve(lambda line, body: b"HTTP/1.1 200 OK\r\n\r\nuntil the end")
    server.close_after_each = True
    async with httpx.AsyncClient(transport=LeanTransport()) as client:
        assert (await get(client, server)).content == b"until the end"
        assert (await get(client, server)).content == b"until the end"
    assert server.connections == 2


async def test_a_closed_connection_is_not_reused(serve) -> None:  # type: ignore[no-untyped-def]
    # Given a server that answers "Connection: close", and one that closes after each answer
    server = await serve(lambda line, body: ok(b"{}", b"Connection: close"))
    async with httpx.AsyncClient(transport=LeanTransport()) as client:
        for _ in range(2):
            assert (await get(client, server)).status_code == 200
    assert server.connections == 2
    server = await serve(lambda line, body: ok(b"{}"))
    server.close_after_each = True
    async with httpx.AsyncClient(transport=LeanTransport()) as client:
        for _ in range(2):
            assert (await get(client, server)).status_code == 200
            await asyncio.sleep(0.05)  # the server's close reaches the idle connection
    assert server.connections == 2


async def test_an_expired_idle_connection_is_not_reused(serve) -> None:  # type: ignore[no-untyped-def]
    server = await serve(lambda line, body: ok())
    async with httpx.AsyncClient(transport=LeanTransport(keepalive_expiry=0.0)) as client:
        await get(client, server)
        await get(client, server)
    assert server.connections == 2


async def test_a_silent_server_times_out_and_its_connection_is_dropped(serve) -> None:  # type: ignore[no-untyped-def]
    calls: list[bytes] = []

    def reply(line: bytes, body: bytes) -> bytes | None:
        calls.append(line)
        return None if len(calls) == 1 else ok()

    server = await serve(reply)
    async with httpx.AsyncClient(transport=LeanTransport(), timeout=0.2) as client:
        with pytest.raises(httpx.ReadTimeout):
            await get(client, server)
        assert (await get(client, server)).status_code == 200
    assert server.connections == 2


async def test_refused_and_cut_connections_are_network_errors(serve) -> None:  # type: ignore[no-untyped-def]
    listening = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = listening.sockets[0].getsockname()[1]
    listening.close()
    await listening.wait_closed()
    async with httpx.AsyncClient(transport=LeanTransport()) as client:
        with pytest.raises(httpx.ConnectError):
            await client.post(f"http://127.0.0.1:{port}/x")
    server = await serve(lambda line, body: b"HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nshort")
    server.close_after_each = True
    async with httpx.AsyncClient(transport=LeanTransport()) as client:
        with pytest.raises(httpx.RemoteProtocolError):
            await get(client, server)


async def test_python_telegram_bot_over_it(serve) -> None:  # type: ignore[no-untyped-def]
    # Given the bot's request class with the lean transport, against a Bot API of our own
    answers: list[bytes | None] = [ok(), None]
    server = await serve(lambda line, body: answers.pop(0))
    request = MeteredRequest(Metrics(), lean=True, connection_pool_size=2, read_timeout=0.2)
    bot = Bot("123:ABC", base_url=f"http://127.0.0.1:{server.port}/bot", request=request)
    await request.initialize()
    # Then a call is answered, a silent one times out (its outcome unknown)
    assert await bot.answer_callback_query("1") is True
    assert server.requests[0].startswith(b"POST /bot123:ABC/answerCallbackQuery HTTP/1.1")
    with pytest.raises(TimedOut):
        await bot.answer_callback_query("2")
    await request.shutdown()
    with pytest.raises(NetworkError):
        refused = MeteredRequest(Metrics(), lean=True, connection_pool_size=1)
        await refused.initialize()
        await Bot("123:ABC", base_url="http://127.0.0.1:1/bot", request=refused).get_me()


TLS = Path(__file__).parent / "data"
"""A self-signed certificate for localhost and its key, for these tests only (100 years)."""


async def test_tls_with_the_given_context_and_a_refused_certificate() -> None:
    served = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    served.load_cert_chain(TLS / "localhost-cert.pem", TLS / "localhost-key.pem")
    server = Server(lambda line, body: ok())
    listening = await asyncio.start_server(server.handle, "127.0.0.1", 0, ssl=served)
    port = listening.sockets[0].getsockname()[1]
    trusting = ssl.create_default_context(cafile=str(TLS / "localhost-cert.pem"))
    try:
        # Then a transport trusting the certificate talks TLS, kept alive
        async with httpx.AsyncClient(transport=LeanTransport(ssl_context=trusting)) as client:
            for _ in range(2):
                res = await client.post(f"https://localhost:{port}/x", data={"a": "1"})
                assert res.json() == {"ok": True, "result": True}
        assert server.connections == 1
        # And one that does not trust it refuses the server
        async with httpx.AsyncClient(transport=LeanTransport()) as client:
            with pytest.raises(httpx.ConnectError):
                await client.post(f"https://localhost:{port}/x")
    finally:
        listening.close()
