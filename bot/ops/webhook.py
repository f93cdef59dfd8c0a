"""Telegram's POSTs to the webhook: the secret token checked before the body is read, the body
kept within :data:`BODY_LIMIT`, and the update answered once it was handled.

The handler streams the body (tornado's ``stream_request_body``): its headers come first, so a
POST without the secret token (403), not JSON (403) or announcing a body over the limit (413) is
refused on its headers, the body never read into memory: the answer goes at once and the
connection closes the way servers close on a body they will not read (:func:`linger`). A body
that grows past the limit as it comes (chunked, no length announced) is dropped from then on,
having held at most the limit, and refused (413) once it ended; it has
:data:`BODY_SECONDS` to end. An update is small (a message, a tap): Telegram's fit many times
over in :data:`BODY_LIMIT`, which the shipped proxy (``deploy/Caddyfile``) enforces too.

Refusals are counted in ``/metrics`` (``portes_webhook_refused_total{reason}``: ``bad_secret``,
``too_large``, ``malformed``), not written to the log one line each: whoever POSTs could fill
it. The log gets one summary line at most every :data:`SUMMARY_EVERY` seconds
(:class:`Refusals`).

The answer comes only once the update was handled rather than when it is queued: an instance
killed with updates in hand has not acknowledged them, and Telegram delivers them again to
another instance (the handlers are idempotent: a repeated tap, play or command changes nothing
twice).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import socket
import time
from collections import Counter
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import tornado.web
from telegram import Update
from telegram.ext import Application
from tornado.http1connection import HTTP1Connection
from tornado.iostream import IOStream, StreamClosedError

from bot.intake.lanes import ChatLanes
from bot.ops.metrics import REFUSAL_REASONS, Metrics

log = logging.getLogger("bot.ops.webhook")

BODY_LIMIT = 1_000_000
"""The largest body the webhook reads (bytes): Caddy's ``max_size 1MB`` in deploy/Caddyfile."""
SUMMARY_EVERY = 60.0
"""Seconds between two summaries of refused POSTs in the log."""
UNREAD = 2**62
"""The connection's own body limit once the handler keeps :data:`BODY_LIMIT` itself (tornado's
check would answer a bare 400 where the handler answers 413, counted)."""
BODY_SECONDS = 30.0
"""How long a body the webhook reads may take to come in full."""
LINGER = 5.0
"""After refusing on the headers, how long the connection drops what the client still sends
before it closes (so the client reads the answer rather than a reset)."""
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


class Refusals:
    """Refused POSTs: each counted in ``/metrics``; in the log, a summary at most every
    ``every`` seconds (the first refusal at once, then what was refused since)."""

    def __init__(self, metrics: Metrics, *, every: float = SUMMARY_EVERY,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.metrics = metrics
        self.every = every
        self.clock = clock
        self.since: Counter[str] = Counter()
        self.last: float | None = None

    def refused(self, reason: str) -> None:
        self.metrics.webhook_refused.labels(reason=reason).inc()
        self.since[reason] += 1
        now = self.clock()
        if self.last is not None and now - self.last < self.every:
            return
        parts = ", ".join(f"{why} {self.since[why]}" for why in REFUSAL_REASONS if self.since[why])
        during = "" if self.last is None else f" in the last {now - self.last:.0f} s"
        log.warning("the webhook refused %d POST(s)%s (%s); counted in "
                    "portes_webhook_refused_total, summed up here at most every %.0f s",
                    sum(self.since.values()), during, parts, self.every)
        self.since.clear()
        self.last = now


@tornado.web.stream_request_body
class Webhook(tornado.web.RequestHandler):
    """Telegram's POSTs: the secret token, JSON, at most ``limit`` bytes; else refused."""

    def initialize(self, app: Application, secret: str | None,  # type: ignore[type-arg]
                   refusals: Refusals, limit: int = BODY_LIMIT) -> None:
        self.app = app
        self.secret = secret
        self.refusals = refusals
        self.limit = limit
        self.body = bytearray()
        self.too_large = False

    def prepare(self) -> None:
        """Before the body: who sends it, and how much it will be."""
        if self.request.method != "POST":
            return  # GET and the like: 405, no body worth reading
        headers = self.request.headers
        if self.secret is not None and not hmac.compare_digest(
                headers.get(SECRET_HEADER, "").encode(), self.secret.encode()):
            self.refuse_unread(HTTPStatus.FORBIDDEN, "bad_secret")
        elif headers.get("Content-Type") != "application/json":
            self.refuse_unread(HTTPStatus.FORBIDDEN, "malformed")
        elif headers.get("Content-Length", "").isdigit() and \
                int(headers["Content-Length"]) > self.limit:
            self.refuse_unread(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "too_large")
        elif isinstance(connection := self.request.connection, HTTP1Connection):
            connection.set_max_body_size(UNREAD)  # the limit is kept here, see data_received
            connection.set_body_timeout(BODY_SECONDS)

    def data_received(self, chunk: bytes) -> None:
        """The body as it comes (only once :meth:`prepare` let it): past the limit, what came
        is dropped, and so is the rest (refused when it ended, see :meth:`post`)."""
        if self.too_large or len(self.body) + len(chunk) > self.limit:
            self.too_large = True
            self.body = bytearray()
            return
        self.body += chunk

    async def post(self) -> None:
        if self.too_large:
            self.refuse(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "too_large")
            return
        try:
            data = json.loads(bytes(self.body))
            update = Update.de_json(data, self.app.bot) if isinstance(data, dict) else None
        except Exception:
            update = None
        self.body = bytearray()
        if update is None:
            self.refuse(HTTPStatus.BAD_REQUEST, "malformed")
            return
        if not await handled(self.app, update):
            # the bot stopped before handling it: Telegram sends it again (to another instance)
            raise tornado.web.HTTPError(HTTPStatus.SERVICE_UNAVAILABLE, reason="stopping")

    def refuse(self, status: HTTPStatus, reason: str) -> None:
        """Answer ``status`` (the body was read to its end), counted under ``reason``."""
        self.refusals.refused(reason)
        self.set_status(status)
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(f"{status.value} {status.phrase}\n")

    def refuse_unread(self, status: HTTPStatus, reason: str) -> None:
        """Answer ``status`` on the headers alone, counted under ``reason``, and close without
        reading the body: the connection leaves tornado (which would read it)."""
        self.refusals.refused(reason)
        text = f"{status.value} {status.phrase}\n".encode()
        answer = (f"HTTP/1.1 {status.value} {status.phrase}\r\n"
                  "Content-Type: text/plain; charset=utf-8\r\n"
                  f"Content-Length: {len(text)}\r\nConnection: close\r\n\r\n").encode() + text
        closing = asyncio.ensure_future(linger(self.detach(), answer))
        LINGERING.add(closing)
        closing.add_done_callback(LINGERING.discard)

    def log_exception(self, typ: Any, value: Any, tb: Any) -> None:
        if not isinstance(value, tornado.web.HTTPError):
            log.error("%s %s failed", self.request.method, self.request.path,
                      exc_info=(typ, value, tb))


LINGERING: set[asyncio.Future[None]] = set()
"""The connections closing after a refusal (kept until they are closed)."""


async def linger(stream: IOStream, answer: bytes, seconds: float = LINGER) -> None:
    """Send ``answer`` and close the way a server closes on a body it will not read (nginx's
    "lingering close"): stop sending, drop what the client still sends for at most
    ``seconds`` (or until it closes), then close. Closing at once, with its body unread,
    would reset the connection, and the client might never read the answer."""
    loop = asyncio.get_running_loop()
    try:
        await stream.write(answer)
        stream.socket.shutdown(socket.SHUT_WR)
        deadline = loop.time() + seconds
        while (left := deadline - loop.time()) > 0:
            await asyncio.wait_for(stream.read_bytes(65536, partial=True), left)
    except (StreamClosedError, OSError, TimeoutError):
        pass
    finally:
        stream.close()


async def handled(app: Application, update: Update) -> bool:  # type: ignore[type-arg]
    """Handle ``update`` in its chat's lane and return once it was handled: the webhook answers
    Telegram only then, so an update held by an instance that dies unanswered is delivered
    again. A handler's error counts as handled (the error handler saw it): an update that
    fails every time must not come back forever. False: the bot stopped before handling it."""
    if not app.running:
        return False
    processor = app.update_processor
    if isinstance(processor, ChatLanes):
        return await processor.handle(update, app.process_update(update))
    await processor.process_update(update, app.process_update(update))
    return True
