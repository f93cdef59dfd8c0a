"""Chat lanes: the updates of one chat are handled one after another, each chat beside the
others, so a backlog in one chat (a flood of commands waiting in the rate limiter's per-group
bucket) never holds the slots every other chat needs.

python-telegram-bot hands every update to :meth:`ChatLanes.do_process_update` under its global
limit of concurrent updates; that call only queues the update in its chat's lane and returns,
so the global slot is free again at once. A lane's worker runs the chat's updates in order and
ends when the lane is empty. A lane holds at most ``backlog`` updates: beyond that the chat is
flooding and further updates are dropped (and logged), which a player sees as a tap left
unanswered, to try again."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Coroutine
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

from bot.metrics import Metrics

log = logging.getLogger("bot.lanes")

LANE_BACKLOG = 64
Queued = tuple[object, Awaitable[Any], float]
"""An update waiting in its lane: the update, its handling, when it arrived."""


def lane_of(update: object) -> int | None:
    """The lane an update belongs to: its chat, else (inline queries, taps on inline messages)
    its sender, whose private chat has the same id; ``None``: no lane, run at once."""
    if not isinstance(update, Update):
        return None
    if update.effective_chat is not None:
        return update.effective_chat.id
    if update.effective_user is not None:
        return update.effective_user.id
    return None


class ChatLanes(BaseUpdateProcessor):
    """One lane per chat: in order within a chat, side by side across chats."""

    def __init__(self, max_concurrent_updates: int = 64, *,
                 backlog: int = LANE_BACKLOG) -> None:
        super().__init__(max_concurrent_updates)
        self.backlog = backlog
        self.lanes: dict[int, deque[Queued]] = {}
        self.workers: set[asyncio.Task[None]] = set()
        self.dropped = 0
        self.metrics: Metrics | None = None
        """Counts every update handled, and times taps (set by the application)."""

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        """Queue the update in its chat's lane (starting the lane's worker if it is idle)."""
        key = lane_of(update)
        if key is None:
            await self._timed(update, coroutine, time.monotonic())
            return
        lane = self.lanes.get(key)
        if lane is None:
            lane = self.lanes[key] = deque()
            worker = asyncio.create_task(self._drain(key, lane), name=f"lane {key}")
            self.workers.add(worker)
            worker.add_done_callback(self.workers.discard)
        if len(lane) >= self.backlog:
            self.dropped += 1
            log.warning("chat %s has %d updates waiting: update dropped", key, len(lane))
            if isinstance(coroutine, Coroutine):
                coroutine.close()
            return
        lane.append((update, coroutine, time.monotonic()))

    async def _timed(self, update: object, coroutine: Awaitable[Any], started: float) -> None:
        try:
            await coroutine
        finally:
            if self.metrics is not None:
                self.metrics.update_done(update, started)

    async def _drain(self, key: int, lane: deque[Queued]) -> None:
        try:
            while lane:
                try:
                    await self._timed(*lane.popleft())
                except Exception:  # the Application's own error handling ran already
                    log.exception("update in chat %s failed", key)
        finally:
            if self.lanes.get(key) is lane:
                del self.lanes[key]
            for _update, left, _started in lane:
                if isinstance(left, Coroutine):
                    left.close()

    async def drain(self, timeout: float) -> None:
        """Let the lanes finish what they hold, for at most ``timeout`` seconds (on stopping,
        while the bot can still call Telegram)."""
        workers = list(self.workers)
        if workers:
            await asyncio.wait(workers, timeout=timeout)

    async def initialize(self) -> None:
        """Nothing to set up: lanes start with their first update."""

    async def shutdown(self) -> None:
        """Stop every lane: what is still queued is dropped (the updates were fetched, so
        Telegram will not send them again; the board's self-repair covers the rest)."""
        workers = list(self.workers)
        for worker in workers:
            worker.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
