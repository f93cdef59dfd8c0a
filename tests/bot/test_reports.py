"""Error reports for the operator (``PORTES_ADMIN_CHAT``), rate-limited per kind, and JSON log
lines (``PORTES_LOG_FORMAT=json``)."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest

from bot.ops.reports import Reporter
from standin import StandIn
from standin.errors import CHAT_NOT_FOUND
from tests.bot.helpers.processes import ROOT, env_for


async def test_an_error_in_a_handler_is_reported_once_a_minute_with_its_chat(
        standin: StandIn, make_bot: Callable[..., Any]) -> None:
    operator = standin.user("Olga")
    hello = operator.start_bot()
    alice = standin.user("Alice")
    hers = alice.start_bot()
    running = await make_bot(admin_chat=operator.id)
    welcome = await operator.private.wait_for_bot_message(after=hello)
    await alice.private.wait_for_bot_message(after=hers)
    reporter = running.app.bot_data["reporter"]
    assert isinstance(reporter, Reporter)
    now = [1000.0]
    reporter.clock = lambda: now[0]
    seen = len(operator.private.bot_messages())

    # /help cannot be answered in Alice's chat: the handler raises
    standin.inject_error("sendMessage", 400, description=CHAT_NOT_FOUND, chat_id=alice.id,
                         times=3)
    first = alice.send(alice.private, "/help")
    report = await operator.private.wait_for_bot_message(after=welcome, timeout=10)
    assert "BadRequest" in report.text and "Chat not found" in report.text
    assert f"chat={alice.id}" in report.text and "command=/help" in report.text
    assert standin.token not in report.text

    # the same error again within the minute: held back
    alice.send(alice.private, "/help", reply_to=first)
    await standin.idle(quiet=0.5)
    assert len(operator.private.bot_messages()) == seen + 1

    # a minute later: reported again, saying one was held back
    now[0] += 61
    alice.send(alice.private, "/help")
    again = await operator.private.wait_for_bot_message(after=report, timeout=10)
    assert "+1 more of this kind held back" in again.text
    page = running.app.bot_data["metrics"].render().decode()
    assert 'portes_handler_errors_total{kind="BadRequest"} 3.0' in page


def test_json_log_lines_parse(standin: StandIn, tmp_path: Path) -> None:
    env = env_for(standin, tmp_path, PORTES_LOG_FORMAT="json", PORTES_LOG_LEVEL="DEBUG")
    result = subprocess.run([sys.executable, "-m", "bot", "--check"], env=env, cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines, "no log lines"
    records = [json.loads(line) for line in lines]
    assert all({"time", "level", "logger", "message"} <= set(r) for r in records)
    assert any(r["level"] == "DEBUG" for r in records)
    assert standin.token not in result.stderr


class Collector(BaseHTTPRequestHandler):
    """A stand-in for Sentry's ingest endpoint: keeps every envelope posted to it."""

    bodies: ClassVar[list[bytes]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        Collector.bodies.append(body)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args: Any) -> None:
        pass


async def test_errors_go_to_sentry_when_a_dsn_is_set(
        standin: StandIn, make_bot: Callable[..., Any]) -> None:
    sentry_sdk = pytest.importorskip("sentry_sdk")
    server = ThreadingHTTPServer(("127.0.0.1", 0), Collector)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    Collector.bodies.clear()
    try:
        alice = standin.user("Alice")
        hers = alice.start_bot()
        await make_bot(sentry_dsn=f"http://abc123@127.0.0.1:{server.server_port}/7")
        await alice.private.wait_for_bot_message(after=hers)
        standin.inject_error("sendMessage", 400, description=CHAT_NOT_FOUND, chat_id=alice.id)
        alice.send(alice.private, "/help")

        def sent() -> bool:
            sentry_sdk.flush(timeout=1)
            return any(b"BadRequest" in body for body in Collector.bodies)

        await standin.wait_for(sent, timeout=15, what="an event at the Sentry stand-in")
        (event,) = [b for b in Collector.bodies if b"BadRequest" in b]
        assert b"Chat not found" in event and str(alice.id).encode() in event
        assert standin.token.encode() not in event
        frames = _frames(event)
        assert frames, "the event carries no stack trace"
        # locals hold players' messages and the Bot API's URLs: never sent
        assert not [frame for frame in frames if frame.get("vars")]
    finally:
        sentry_sdk.get_client().close()
        sentry_sdk.init()  # no DSN: Sentry off again for the tests that follow
        server.shutdown()


def _frames(envelope: bytes) -> list[dict[str, Any]]:
    """The stack frames of every exception in a Sentry envelope (a JSON document a line)."""
    frames: list[dict[str, Any]] = []
    for line in envelope.splitlines():
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if isinstance(item, dict):
            for exception in item.get("exception", {}).get("values", []):
                frames += (exception.get("stacktrace") or {}).get("frames", [])
    return frames
