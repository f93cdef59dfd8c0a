"""Telegram's side of a webhook, for the stand-in (which itself never POSTs): take the updates
the simulated users made and POST each to the bot's webhook URL with the secret token, over
several connections at once, as Telegram does (``max_connections``).

An update not answered 200 (the bot down, a proxy's 502, a timeout) is delivered again after a
short wait, until it is; ``duplicate_every`` delivers every n-th callback query twice (Telegram
redelivers an update whose answer it did not get, so a bot must expect a repeat), counting only
the callback queries whose data starts with one of ``duplicate_actions`` (all when empty).
:meth:`redeliver` POSTs an update taken earlier once more, later, as Telegram does with the
update of an instance killed after it handled it, before it answered."""

from __future__ import annotations

import json
import queue
import threading
import time
from typing import Any

import httpx

from .server import StandIn


class WebhookPusher:
    def __init__(self, standin: StandIn, url: str, secret: str, *, connections: int = 8,
                 duplicate_every: int = 0, duplicate_actions: tuple[str, ...] = (),
                 retry_after: float = 0.3) -> None:
        self.standin = standin
        self.url = url
        self.secret = secret
        self.connections = connections
        self.duplicate_every = duplicate_every
        self.duplicate_actions = duplicate_actions
        self.retry_after = retry_after
        self.queue: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.stopping = threading.Event()
        self.threads: list[threading.Thread] = []
        self.lock = threading.Lock()
        self.delivered = 0
        self.redelivered = 0
        self.duplicated = 0
        self._callbacks = 0
        self.in_flight = 0
        self.taken: list[dict[str, Any]] = []
        """Every update taken from the stand-in, in order."""

    def start(self) -> WebhookPusher:
        self.threads = [threading.Thread(target=self._take, name="webhook-take", daemon=True)]
        self.threads += [threading.Thread(target=self._post, name=f"webhook-{i}", daemon=True)
                         for i in range(self.connections)]
        for thread in self.threads:
            thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        for _ in range(self.connections):
            self.queue.put(None)
        for thread in self.threads:
            thread.join(timeout=5)

    @property
    def idle(self) -> bool:
        with self.lock:
            return self.queue.empty() and self.in_flight == 0

    def redeliver(self, update: dict[str, Any]) -> None:
        """POST this update (the same JSON, the same update id) once more."""
        with self.lock:
            self.in_flight += 1
        self.queue.put(update)

    def _take(self) -> None:
        while not self.stopping.is_set():
            updates = self.standin.take_updates()
            for update in updates:
                with self.lock:
                    self.in_flight += 1
                    self.taken.append(update)
                self.queue.put(update)
                data = str(update.get("callback_query", {}).get("data", ""))
                if ("callback_query" in update and self.duplicate_every
                        and data.startswith(self.duplicate_actions or ("",))):
                    self._callbacks += 1
                    if self._callbacks % self.duplicate_every == 0:
                        with self.lock:
                            self.in_flight += 1
                            self.duplicated += 1
                        self.queue.put(update)
            if not updates:
                time.sleep(0.005)

    def _post(self) -> None:
        headers = {"Content-Type": "application/json",
                   "X-Telegram-Bot-Api-Secret-Token": self.secret}
        with httpx.Client(timeout=30.0) as client:
            while True:
                update = self.queue.get()
                if update is None:
                    return
                body = json.dumps(update)
                tries = 0
                while not self.stopping.is_set():
                    try:
                        status = client.post(self.url, content=body, headers=headers).status_code
                    except httpx.HTTPError:
                        status = 0
                    if status == 200:
                        break
                    tries += 1
                    time.sleep(self.retry_after)
                with self.lock:
                    self.in_flight -= 1
                    self.delivered += 1
                    self.redelivered += tries > 0
