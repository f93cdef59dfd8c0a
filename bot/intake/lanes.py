"""Chat lanes: the updates of one chat are handled one after another, each chat beside the
others, so a backlog in one chat (a flood of commands waiting in the rate limiter's per-group
bucket) never holds the slots every other chat needs.

python-telegram-bot hands every update to :meth:`ChatLanes.do_process_update` under its global
limit of concurrent updates; that call only queues the update in its chat's lane and returns,
so the global slot is free again at once. A lane's worker runs the chat's updates in order and
ends when the lane is empty.

A chat has two lanes side by side, each in order: one for the game (taps on a match, Accept,
a typed play, and whatever is not chatter) and one for *chatter* (commands, and taps that only
show something: the ``chatter`` function given decides). A crowd's commands therefore never
stand before a player's tap, and their replies go out at low priority in the chat's Telegram
budget (:func:`bot.delivery.limiter.low_priority`): a board's edit is never queued behind 60 cards.
A lane holds at most ``backlog`` updates. A full chatter lane sheds its *oldest* update to make
room for the new one; a full game lane (a flood of taps) drops the new one. Chatter whose chat
has no room in its budget for a reply at low priority within ``patience`` seconds
(``budget_wait``, the limiter's :meth:`~bot.delivery.limiter.ChatLimiter.low_wait`) is shed too when
its turn comes, instead of holding its lane for a minute. A tap waiting in a chatter lane is
shed once it has waited ``tap_patience`` seconds: Telegram takes a tap's answer only for
a few seconds more (about 15 in all), and a tap left spinning, then silent, tells its player
less than "busy, try again" does. Either way the update is handed to ``on_shed`` (which
answers its sender) and counted; it is never run.

The webhook waits for its update with :meth:`ChatLanes.handle`: it answers Telegram only once
the update was handled (in its lane, in order), so an instance killed with updates in hand has
not acknowledged them and Telegram delivers them again, to another instance. Not behind a
flood: an update with ``wait_behind`` of its lane's before it is answered once queued, so one
chat cannot hold the connections Telegram opens to the bot."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

from bot.delivery.limiter import low_priority, normal_priority
from bot.ops.metrics import Metrics

log = logging.getLogger("bot.intake.lanes")

LANE_BACKLOG = 64
PATIENCE = 10.0
"""Chatter that would wait longer than this for its chat's budget is shed."""
TAP_PATIENCE = 8.0
"""A tap in a chatter lane still waiting after this many seconds is shed (and answered)."""
WAIT_BEHIND = 8
"""The webhook waits for an update to be handled unless this many of its lane's wait before it."""
Queued = tuple[object, Awaitable[Any], float]
"""An update waiting in its lane: the update, its handling, when it arrived."""
LaneKey = tuple[int, bool]
"""A lane: its chat, and whether it is the chat's chatter lane."""


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


def never_chatter(_update: object) -> bool:
    return False


class ChatLanes(BaseUpdateProcessor):
    """Two lanes per chat (the game's, and chatter): in order within a lane, side by side
    across lanes and chats."""

    def __init__(self, max_concurrent_updates: int = 64, *,
                 backlog: int = LANE_BACKLOG, wait_behind: int = WAIT_BEHIND,
                 chatter: Callable[[object], bool] = never_chatter,
                 budget_wait: Callable[[int], Awaitable[float]] | None = None,
                 patience: float = PATIENCE, tap_patience: float = TAP_PATIENCE) -> None:
        super().__init__(max_concurrent_updates)
        self.backlog = backlog
        self.wait_behind = wait_behind
        self.chatter = chatter
        """Whether an update is chatter (see the module's docstring)."""
        self.budget_wait = budget_wait
        self.patience = patience
        self.tap_patience = tap_patience
        self.lanes: dict[LaneKey, deque[Queued]] = {}
        self.workers: set[asyncio.Task[None]] = set()
        self.dropped = 0
        """Updates shed or dropped, never run."""
        self.on_shed: Callable[[object], None] | None = None
        """Told of every update shed or dropped, to answer its sender (set by the application;
        it must return at once)."""
        self.metrics: Metrics | None = None
        """Counts every update handled, and times taps (set by the application)."""
        self.waiting: dict[int, asyncio.Future[bool]] = {}
        """The webhook's requests waiting for their update, by the update's ``id()``."""

    def _key(self, update: object) -> LaneKey | None:
        chat = lane_of(update)
        return None if chat is None else (chat, self.chatter(update))

    async def handle(self, update: object, coroutine: Awaitable[Any]) -> bool:
        """Process ``update`` and return once it was handled (its handler ran, or failed and
        the error handler ran), or shed as a flood: true. False when it never ran (the
        bot stopped first): the webhook then answers so that Telegram sends it again."""
        key = self._key(update)
        lane = self.lanes.get(key) if key is not None else None
        if lane is not None and len(lane) >= self.wait_behind:
            # a chat flooding must not hold Telegram's connections (40), which every other
            # chat's updates need: queued, and answered at once (as a polled update is)
            await self.process_update(update, coroutine)
            return True
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.waiting[id(update)] = done
        try:
            await self.process_update(update, coroutine)
            return await done
        finally:
            self.waiting.pop(id(update), None)

    def _settle(self, update: object, handled: bool) -> None:
        done = self.waiting.pop(id(update), None)
        if done is not None and not done.done():
            done.set_result(handled)

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        """Queue the update in its lane (starting the lane's worker if it is idle)."""
        key = self._key(update)
        if key is None:
            await self._timed(update, coroutine, time.monotonic())
            return
        lane = self.lanes.get(key)
        if lane is None:
            lane = self.lanes[key] = deque()
            worker = asyncio.create_task(self._drain(key, lane), name=f"lane {key[0]}"
                                         + (" chatter" if key[1] else ""))
            self.workers.add(worker)
            worker.add_done_callback(self.workers.discard)
        if len(lane) >= self.backlog:
            if not key[1]:  # the game's lane: the newest goes
                self._shed(key[0], update, coroutine, f"{len(lane)} updates waiting",
                           logging.WARNING)
                return
            oldest, its_coroutine, _arrived = lane.popleft()  # chatter: the oldest goes
            self._shed(key[0], oldest, its_coroutine, f"{len(lane) + 1} updates waiting",
                       logging.WARNING)
        queued: Queued = (update, coroutine, time.monotonic())
        lane.append(queued)
        if key[1] and isinstance(update, Update) and update.callback_query is not None:
            asyncio.get_running_loop().call_later(self.tap_patience, self._tap_waited, key,
                                                  lane, queued)

    def _tap_waited(self, key: LaneKey, lane: deque[Queued], queued: Queued) -> None:
        """A chatter tap's patience ran out: shed it if it is still waiting in its lane."""
        if self.lanes.get(key) is not lane:
            return  # the lane ended (the tap ran or was shed) and may have started again
        for i, waiting in enumerate(lane):
            if waiting is queued:
                del lane[i]
                self._shed(key[0], queued[0], queued[1],
                           f"a tap waited {self.tap_patience:.0f} s in its lane")
                return

    def _shed(self, chat: int, update: object, coroutine: Awaitable[Any], why: str,
              level: int = logging.INFO) -> None:
        """Drop ``update`` unrun, for good (a flood is not sent again), and have it answered;
        ``why`` goes to the log (a full lane at WARNING: a flood)."""
        self.dropped += 1
        log.log(level, "chat %s: update shed (%s)", chat, why)
        if isinstance(coroutine, Coroutine):
            coroutine.close()
        self._settle(update, True)
        if self.metrics is not None:
            self.metrics.update_shed(update)
        if self.on_shed is not None:
            try:
                self.on_shed(update)
            except Exception:
                log.exception("answering a shed update failed")

    async def _timed(self, update: object, coroutine: Awaitable[Any], started: float) -> None:
        try:
            await coroutine
        except asyncio.CancelledError:
            self._settle(update, False)  # stopped mid-way: not handled, to be sent again
            raise
        finally:
            self._settle(update, True)
            if self.metrics is not None:
                self.metrics.update_done(update, started)

    async def _drain(self, key: LaneKey, lane: deque[Queued]) -> None:
        try:
            # chatter's replies wait behind the game's calls in the chat's budget
            with low_priority() if key[1] else normal_priority():
                await self._run(key, lane)
        finally:
            if self.lanes.get(key) is lane:
                del self.lanes[key]
            for left_update, left, _started in lane:
                if isinstance(left, Coroutine):
                    left.close()
                self._settle(left_update, False)

    async def _run(self, key: LaneKey, lane: deque[Queued]) -> None:
        while lane:
            update, coroutine, arrived = lane.popleft()
            if key[1] and not await self._room_for_chatter(key[0], update, coroutine):
                self._shed(key[0], update, coroutine, "no room in its budget for chatter")
                continue
            try:
                await self._timed(update, coroutine, arrived)
            except Exception:  # the Application's own error handling ran already
                log.exception("update in chat %s failed", key[0])

    async def _room_for_chatter(self, chat: int, update: object,
                                coroutine: Awaitable[Any]) -> bool:
        """Whether the chat's budget has room for ``update``'s reply within ``patience``."""
        if self.budget_wait is None:
            return True
        try:
            return await self.budget_wait(chat) <= self.patience
        except asyncio.CancelledError:  # stopped while asking: not handled, to be sent again
            if isinstance(coroutine, Coroutine):
                coroutine.close()
            self._settle(update, False)
            raise
        except Exception:
            log.exception("the budget of chat %s could not be read", chat)
            return True

    async def drain(self, timeout: float) -> None:
        """Let the lanes finish what they hold, for at most ``timeout`` seconds (on stopping,
        while the bot can still call Telegram)."""
        workers = list(self.workers)
        if workers:
            await asyncio.wait(workers, timeout=timeout)

    async def initialize(self) -> None:
        """Nothing to set up: lanes start with their first update."""

    async def shutdown(self) -> None:
        """Stop every lane: what is still queued is dropped (fetched by polling, Telegram will
        not send them again and the board's self-repair covers the rest; a webhook's update
        is answered as not handled, and Telegram sends it again to another instance)."""
        workers = list(self.workers)
        for worker in workers:
            worker.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
