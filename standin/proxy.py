"""A small round-robin HTTP proxy on 127.0.0.1, in front of several bot instances in webhook
mode (what nginx or Caddy does in production, reduced to what the tests need).

Each request goes to the next backend in turn. A backend that refuses the connection (it is not
running) is skipped and the request goes to the next one, as nginx's ``proxy_next_upstream
error`` does; one that drops the connection after taking the request (killed mid-request) is
not retried (the request may have had effects): the proxy answers 502 and the sender (Telegram)
delivers the update again later.
"""

from __future__ import annotations

import http.client
import itertools
import os
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

HOP_HEADERS = {"connection", "keep-alive", "transfer-encoding", "content-length", "host"}


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def do_POST(self) -> None:
        self._forward("POST")

    def do_GET(self) -> None:
        self._forward("GET")

    def _forward(self, method: str) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_HEADERS}
        proxy = self.server.proxy
        for port in proxy.order():
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=proxy.timeout)
            try:
                try:
                    conn.request(method, self.path, body=body, headers=headers)
                except ConnectionRefusedError:
                    proxy.count("refused", port)
                    continue  # not running: the next backend
                proxy.count("taken", port)
                try:
                    response = conn.getresponse()
                    data = response.read()
                    status = response.status
                finally:
                    proxy.count("answered", port)
            except (OSError, http.client.HTTPException):
                proxy.count("dropped", port)
                self._reply(502, b"bad gateway")
                return
            finally:
                conn.close()
            proxy.count("forwarded", port)
            self._reply(status, data)
            return
        self._reply(502, b"no backend")

    def _reply(self, status: int, data: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        try:
            self.wfile.write(data)
        except OSError:
            self.close_connection = True


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    proxy: RoundRobinProxy


class RoundRobinProxy:
    """``RoundRobinProxy([8001, 8002]).start()``; ``.url`` is where to send requests."""

    def __init__(self, backends: list[int], *, timeout: float = 30.0) -> None:
        self.backends = list(backends)
        self.timeout = timeout
        self._next = itertools.count()
        self._lock = threading.Lock()
        self.counts: dict[tuple[str, int], int] = {}
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    def order(self) -> list[int]:
        """The backends, starting with the next one in turn."""
        with self._lock:
            first = next(self._next) % len(self.backends)
        return self.backends[first:] + self.backends[:first]

    def count(self, what: str, port: int) -> None:
        with self._lock:
            self.counts[(what, port)] = self.counts.get((what, port), 0) + 1

    def in_flight(self, port: int) -> int:
        """Requests sent to ``port`` and not answered yet (the backend is handling them)."""
        with self._lock:
            return self.counts.get(("taken", port), 0) - self.counts.get(("answered", port), 0)

    def start(self) -> RoundRobinProxy:
        server = _Server(("127.0.0.1", 0), _Handler)
        server.proxy = self
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, kwargs={
            "poll_interval": 0.05}, name="round-robin-proxy", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


EPHEMERAL = "/proc/sys/net/ipv4/ip_local_port_range"
_handed: set[int] = set()
_lock = threading.Lock()


def _span() -> tuple[int, int]:
    """The ports to hand out: below the range the kernel takes ephemeral ports from (Linux's
    is 32768-60999), where no outgoing connection and no ``bind(0)`` can take one first."""
    try:
        low = int(Path(EPHEMERAL).read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    return (10_000, low) if low > 12_000 else (low, 65_536)


def free_port() -> int:
    """A port on 127.0.0.1 for a process started next to listen on (a bot in webhook mode).

    Not ``bind(0)``'s: that port comes from the ephemeral range, and between this call and
    the process's bind any outgoing connection on the machine (a database client, an HTTP
    pool, another test's) could take it as its local port; the bot then died on "address
    already in use" while the test's readiness check reached whoever held the port (seen
    under load: a /start never answered). So the ports come from below that range, each
    process starting at its own place in it (by pid) and never handing out a port twice;
    a port that cannot be bound now (taken, or lingering) is skipped."""
    low, high = _span()
    width = high - low
    with _lock:
        start = (os.getpid() * 7919) % width
        for step in range(width):
            port = low + (start + step) % width
            if port in _handed:
                continue
            with socket.socket() as sock:
                try:
                    sock.bind(("127.0.0.1", port))
                except OSError:
                    continue
            _handed.add(port)
            return port
    raise OSError("no free port below the ephemeral range")
