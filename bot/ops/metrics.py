"""The bot's Prometheus metrics: one registry per Application, served at ``/metrics``.

Counted where things happen: updates and taps in :class:`bot.intake.lanes.ChatLanes`
(a tap's latency runs from its arrival to the end of its handling, the wait in its chat's
lane included), every
Bot API call's answer in :class:`MeteredRequest` (Telegram's errors by kind, and whether
Telegram answers at all), the computer's thinking in :mod:`bot.computer_player`. The delivery
backlog and the active matches are read from the database when ``/metrics`` is asked for.
"""

from __future__ import annotations

import functools
import ssl
import time
from typing import Any

import httpx
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from telegram import Update
from telegram.error import NetworkError, TimedOut
from telegram.request import HTTPXRequest

from bot.ops.lean_http import LeanTransport

CONTENT_TYPE = CONTENT_TYPE_LATEST
TAP_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
THINK_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
REFUSAL_REASONS = ("bad_secret", "too_large", "malformed")
"""Why the webhook refused a POST (:mod:`bot.ops.webhook`)."""


def update_kind(update: object) -> str:
    if not isinstance(update, Update):
        return "other"
    for kind in ("callback_query", "message", "inline_query", "chosen_inline_result",
                 "my_chat_member", "edited_message"):
        if getattr(update, kind, None) is not None:
            return kind
    return "other"


def error_kind(status: int) -> str | None:
    """Telegram's answer by kind: ``429`` (too many requests), ``403`` (blocked, kicked),
    ``5xx`` (Telegram's own trouble), ``4xx`` (other refusals); ``None`` for a success."""
    if status < 400:
        return None
    if status in (429, 403):
        return str(status)
    return "5xx" if status >= 500 else "4xx"


class Metrics:
    """The counters, histograms and gauges of one bot."""

    def __init__(self) -> None:
        r = self.registry = CollectorRegistry(auto_describe=True)
        self.updates = Counter("portes_updates", "Updates handled, by kind", ["kind"],
                               registry=r)
        self.shed = Counter("portes_updates_shed", "Updates shed unrun (a chat flooding), by kind",
                            ["kind"], registry=r)
        self.taps = Counter("portes_taps", "Button taps (callback queries) handled", registry=r)
        self.tap_seconds = Histogram(
            "portes_tap_seconds", "Seconds from a tap's arrival to the end of its handling",
            buckets=TAP_BUCKETS, registry=r)
        self.telegram_requests = Counter("portes_telegram_requests", "Bot API calls answered",
                                         registry=r)
        self.telegram_errors = Counter(
            "portes_telegram_errors", "Bot API errors, by kind (429, 403, 5xx, 4xx, network)",
            ["kind"], registry=r)
        for kind in ("429", "403", "5xx", "4xx", "network"):
            self.telegram_errors.labels(kind=kind)
        self.webhook_refused = Counter(
            "portes_webhook_refused",
            "POSTs the webhook refused, by reason (bad_secret, too_large, malformed)",
            ["reason"], registry=r)
        for reason in REFUSAL_REASONS:
            self.webhook_refused.labels(reason=reason)
        self.telegram_reachable = Gauge(
            "portes_telegram_reachable", "1 when the last Bot API call got an answer, else 0",
            registry=r)
        self.delivery_backlog = Gauge(
            "portes_delivery_backlog", "Places whose board is behind the database", registry=r)
        self.active_matches = Gauge("portes_active_matches", "Matches being played", registry=r)
        self.computer_seconds = Histogram(
            "portes_computer_think_seconds", "Seconds the computer thought about a move",
            buckets=THINK_BUCKETS, registry=r)
        self.handler_errors = Counter(
            "portes_handler_errors", "Unhandled errors in handlers, by exception type",
            ["kind"], registry=r)

    def update_done(self, update: object, started: float) -> None:
        kind = update_kind(update)
        self.updates.labels(kind=kind).inc()
        if kind == "callback_query":
            self.taps.inc()
            self.tap_seconds.observe(time.monotonic() - started)

    def update_shed(self, update: object) -> None:
        self.shed.labels(kind=update_kind(update)).inc()

    def answered(self, status: int) -> None:
        self.telegram_requests.inc()
        self.telegram_reachable.set(1)
        kind = error_kind(status)
        if kind is not None:
            self.telegram_errors.labels(kind=kind).inc()

    def unreachable(self) -> None:
        self.telegram_errors.labels(kind="network").inc()
        self.telegram_reachable.set(0)

    def render(self) -> bytes:
        return generate_latest(self.registry)


@functools.cache
def tls_context() -> ssl.SSLContext:
    """httpx's default TLS context (its CA bundle), made once per process and shared by the
    bot's HTTP clients: loading the bundle takes about 60 ms each time."""
    return httpx.create_ssl_context()


class MeteredRequest(HTTPXRequest):
    """python-telegram-bot's HTTP client, counting every answer (and every failure to get
    one) before the library turns it into a result or an exception."""

    def __init__(self, metrics: Metrics, *, lean: bool = False, **kwargs: Any) -> None:
        """``lean``: under httpx, :class:`bot.ops.lean_http.LeanTransport` instead of
        httpcore's (``PORTES_HTTP_CLIENT=lean``)."""
        httpx_kwargs: dict[str, Any] = {"verify": tls_context()}
        if lean:
            httpx_kwargs["transport"] = LeanTransport(
                max_connections=kwargs.get("connection_pool_size", 1),
                ssl_context=tls_context())
        kwargs.setdefault("httpx_kwargs", httpx_kwargs)
        super().__init__(**kwargs)
        self.metrics = metrics

    async def do_request(self, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        try:
            status, payload = await super().do_request(*args, **kwargs)
        except (NetworkError, TimedOut):
            self.metrics.unreachable()
            raise
        self.metrics.answered(status)
        return status, payload
