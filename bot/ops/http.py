"""The bot's own HTTP server: the webhook, and the operator's ``/healthz``, ``/readyz`` and
``/metrics``.

In webhook mode all four share the webhook's listener (``PORTES_WEBHOOK_LISTEN`` and
``_PORT``); the reverse proxy forwards only the webhook path, so ``/metrics`` stays private.
In polling mode the three operator endpoints are served on ``PORTES_METRICS_PORT`` when it is
set. ``/readyz`` asks the database (reachable, schema at the newest migration), never
Telegram: a Telegram outage would otherwise take every instance out of rotation at once.

The server runs on python-telegram-bot's own dependency, tornado, in the bot's event loop.
The webhook handler (:mod:`bot.ops.webhook`) does what python-telegram-bot's does (JSON only, the
secret token checked), but before reading the body, within a small limit, and answers only once
the update was handled. No endpoint here buffers more than :data:`bot.ops.webhook.BODY_LIMIT`.
:func:`serve_webhook` runs the application's life cycle the way
``Application.run_webhook`` does, with the operator's endpoints beside the webhook.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from http import HTTPStatus
from typing import Any

import tornado.web
from telegram import Update
from telegram.ext import Application
from tornado.httpserver import HTTPServer

from bot.ops.metrics import CONTENT_TYPE, Metrics
from bot.ops.webhook import BODY_LIMIT, Refusals, Webhook
from bot.settings import Settings

log = logging.getLogger("bot.ops.http")
READY_TIMEOUT = 5.0
"""Seconds ``/readyz`` waits for the database before it answers 503."""


def _portes(app: Application) -> Any:  # type: ignore[type-arg]
    return app.bot_data.get("portes")


class _Base(tornado.web.RequestHandler):
    def initialize(self, app: Application) -> None:  # type: ignore[type-arg]
        self.app = app

    def log_exception(self, typ: Any, value: Any, tb: Any) -> None:
        if not isinstance(value, tornado.web.HTTPError):
            log.error("%s %s failed", self.request.method, self.request.path,
                      exc_info=(typ, value, tb))


class Healthz(_Base):
    def get(self) -> None:
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.write("ok\n")


class Readyz(_Base):
    async def get(self) -> None:
        from storage.health import Readiness, readiness

        portes = _portes(self.app)
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        if portes is None:
            self.set_status(HTTPStatus.SERVICE_UNAVAILABLE)
            self.write("starting\n")
            return
        try:
            found = await asyncio.wait_for(readiness(portes.uc.db), READY_TIMEOUT)
        except TimeoutError:
            found = Readiness(False, f"the database did not answer in {READY_TIMEOUT:g} s")
        if not found.ready:
            self.set_status(HTTPStatus.SERVICE_UNAVAILABLE)
        self.write(found.reason + "\n")


class MetricsPage(_Base):
    async def get(self) -> None:
        from storage.health import gauges

        metrics: Metrics = self.app.bot_data["metrics"]
        portes = _portes(self.app)
        if portes is not None:
            try:
                found = await gauges(portes.uc.db)
            except Exception as exc:
                log.warning("metrics: the database did not answer: %s", exc)
            else:
                metrics.delivery_backlog.set(found.delivery_backlog)
                metrics.active_matches.set(found.active_matches)
        self.set_header("Content-Type", CONTENT_TYPE)
        self.write(metrics.render())


def routes(app: Application, settings: Settings | None = None  # type: ignore[type-arg]
           ) -> list[Any]:
    found: list[Any] = [
        (r"/healthz", Healthz, {"app": app}),
        (r"/readyz", Readyz, {"app": app}),
        (r"/metrics", MetricsPage, {"app": app}),
    ]
    if settings is not None:
        found.append((rf"/{settings.webhook_path}/?", Webhook,
                      {"app": app, "secret": settings.webhook_secret,
                       "refusals": Refusals(app.bot_data["metrics"])}))
    return found


class _Server(tornado.web.Application):
    def log_request(self, handler: tornado.web.RequestHandler) -> None:
        """The access log, without the webhook's refusals: whoever POSTs could fill it
        (they are counted in ``/metrics``, and summed up by :class:`bot.ops.webhook.Refusals`)."""
        if isinstance(handler, Webhook) and 400 <= handler.get_status() < 500:
            return
        super().log_request(handler)


def start_server(app: Application, listen: str, port: int,  # type: ignore[type-arg]
                 settings: Settings | None = None) -> HTTPServer:
    """Listen on ``listen:port`` (in the running event loop); ``settings`` adds the webhook."""
    server = HTTPServer(_Server(routes(app, settings)), xheaders=True, max_body_size=BODY_LIMIT)
    server.listen(port, listen)
    log.info("serving %s on %s:%s", "the webhook, /healthz, /readyz and /metrics"
             if settings is not None else "/healthz, /readyz and /metrics", listen, port)
    return server


async def serve_webhook(app: Application, settings: Settings,  # type: ignore[type-arg]
                        public_url: str | None) -> None:
    """``Application.run_webhook``, with the operator's endpoints beside the webhook: start,
    register the webhook, serve until SIGTERM or SIGINT, then stop in order (updates in flight
    and the background work finish while the bot can still send; see ``bot.app._post_stop``)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await app.initialize()
    server: HTTPServer | None = None
    try:
        if app.post_init is not None:
            await app.post_init(app)
        await app.start()  # before the first update: the webhook hands updates to it
        server = start_server(app, settings.webhook_listen, settings.webhook_port, settings)
        if public_url is not None:
            await app.bot.set_webhook(public_url, secret_token=settings.webhook_secret,
                                      allowed_updates=Update.ALL_TYPES, max_connections=40)
        await stop.wait()
        log.info("stop signal received: finishing the work in flight")
    finally:
        if server is not None:
            server.stop()  # no new updates: Telegram retries them on another instance
        if app.running:
            await app.stop()
            if app.post_stop is not None:
                await app.post_stop(app)
        await app.shutdown()
        if app.post_shutdown is not None:
            await app.post_shutdown(app)
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)
