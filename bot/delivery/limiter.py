"""Telegram's flood limits, kept on the bot's side: a call waits until it fits, so Telegram
never has to answer 429.

Telegram lets a bot make about 20 calls a minute in one group, about one a second in any chat
(a short burst is allowed) and 30 a second overall; sends, edits and deletions all count.
python-telegram-bot's ``AIORateLimiter`` counts a group's calls with a leaky bucket, which
after a quiet minute lets 20 calls go at once and then one every 3 s: up to 40 in the first
minute, twice what Telegram accepts. This limiter counts what Telegram counts, the calls made
in the last 60 s (and the last few seconds in a chat, and the last second overall), each at the
time its answer came (so a request that waited on the way is not counted too early). A call
over a limit waits for room in *its* chat only; a 429 that comes anyway (another bot instance
shares the budget) holds that chat for its ``retry_after``, never the others. A call that found no
free connection in the HTTP pool never left, and is sent again within the same retries.

The delivery worker asks :meth:`ChatLimiter.ready` before it builds a board's call, so what it
sends after a wait is the latest state of the match, not the one from before the wait.

Several instances: a group's 20 calls a minute belong to the token, so with
:meth:`ChatLimiter.share_groups` (the bot does it on PostgreSQL) the group windows are kept in
the database (:class:`storage.delivery.budgets.SendBudgetCases`): each counted call in a group
takes a slot there in one short transaction, which checks the chat's second (3 calls in any
3 s) too, and so does every counted call in a private chat: the updates of one chat go to every
instance in turn, and a chat's boards are delivered by whichever instance claims the place
next, so each instance's own count of that second would see only its share. The overall 30 a
second stays per instance: the overall ceiling is divided between the instances by setting
``PORTES_RATE_OVERALL`` (see docs/operating.md, "Several instances").

Priority: a call made under :func:`low_priority` (the replies to commands: the chat lanes run
chatter so, see :mod:`bot.intake.lanes`) takes a slot in a group while the group's window holds
fewer than ``low_share`` of its calls (``played_share`` while a match is played on the group's
board, :meth:`ChatLimiter.played_on`: each tap there is a call), or while fewer than
``answers_kept`` answers went out there in the window: that many of the group's calls are kept
for answers (the game's calls leave them free, or only ``IDLE_KEPT`` while no answer went out
there in the window), so a command in a busy group is answered at once, before the board's
queued edits. Beyond its kept answers a low call never goes while a
call of normal priority waits for that chat; overall, they stop at ``low_share`` of the 30 a
second (a crowd's private notes must not hold a board's edit). The game's calls (boards,
their edits, a tap's keyboard) keep the rest of the group's minute. With several instances the
answers a group kept are counted by each instance for itself (the shared window counts every
call alike): at worst each instance keeps its own few.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Protocol

from telegram.error import RetryAfter, TimedOut
from telegram.ext import BaseRateLimiter

from bot.delivery.pacing import half_spent, spacing
from bot.delivery.telegram import chat_of, is_group, never_sent, retry_seconds

log = logging.getLogger("bot.delivery.limiter")
JSONDict = dict[str, Any]

COUNTED = ("send", "edit", "delete", "copy", "forward", "pin", "unpin", "stop")
"""Methods that put something in a chat (or change it) and count against its budget;
answering a callback query, reading a chat or polling do not."""
MARGIN = 0.25
"""Seconds added to each window, for the clocks' differences."""
LOW_SHARE = 0.75
"""In a group, calls at low priority stop once the last minute holds this share of its calls
(15 of 20): the last quarter is the game's."""
PLAYED_SHARE = 0.25
"""... and this share (5 of 20) while a match is played on the group's board: a player tapping
there every few seconds needs about 15 calls a minute."""
ANSWERS_KEPT = 4
"""In a group, the answers to commands (calls at low priority) keep this many of its 20 calls a
minute for themselves: the game's calls leave them free, and an answer takes one whenever fewer
than this many answers went out in the window, whatever the board waits for. A command in a
busy group is answered before the board's queued edits, and a crowd's commands still take no
more than their share."""
IDLE_KEPT = 1
"""... but the game leaves free only this many more than the answers that went out there in
the window (the first answer takes it at once): a group where nobody asks anything gives its
board 19 calls a minute, not 16, and an answer takes one call more from the game, not four."""
YIELD = 0.2
"""Seconds a call at low priority waits, then looks again, while a game's call waits."""
POSTED_KEPT = 64
"""Per chat, this many of the latest message ids the bot got back are remembered."""

_low: ContextVar[bool] = ContextVar("portes_low_priority", default=False)


@contextlib.contextmanager
def low_priority() -> Iterator[None]:
    """The calls made inside (and in the tasks started inside) are at low priority."""
    token = _low.set(True)
    try:
        yield
    finally:
        _low.reset(token)


@contextlib.contextmanager
def normal_priority() -> Iterator[None]:
    """The calls made inside are at normal priority, wherever the task was started (the
    delivery worker's chat tasks are started by whichever handler kicks them)."""
    token = _low.set(False)
    try:
        yield
    finally:
        _low.reset(token)


def is_low() -> bool:
    return _low.get()


@dataclass(frozen=True)
class Window:
    """At most ``most`` calls in any ``seconds`` (0 lifts it)."""

    most: int
    seconds: float

    @property
    def on(self) -> bool:
        return self.most > 0 and self.seconds > 0


class Calls:
    """The calls of one chat (or of the whole bot): each one's time is when it was sent, and
    once answered, when its answer came (Telegram counted it in between, so the later time
    keeps the count on the safe side however long a request waited on the way)."""

    __slots__ = ("times",)

    def __init__(self) -> None:
        self.times: list[list[float]] = []

    def wait(self, window: Window, now: float) -> float:
        """Seconds until one more call fits in ``window``. Reads only: one chat's calls are
        checked against two windows (its few seconds and a group's minute), so the shorter
        one must not drop what the longer still counts."""
        span = window.seconds + MARGIN
        recent = sorted(cell[0] for cell in self.times if cell[0] > now - span)
        if len(recent) < window.most:
            return 0.0
        return recent[len(recent) - window.most] + span - now

    def forget_before(self, moment: float) -> None:
        self.times = [cell for cell in self.times if cell[0] > moment]

    def add(self, now: float) -> list[float]:
        cell = [now]
        self.times.append(cell)
        return cell


class SharedBudget(Protocol):
    """Where the group windows live when several instances share them (the use cases)."""

    async def take_send_slot(self, chat_id: int, most: int, seconds: float, burst: int = 0,
                             burst_seconds: float = 0.0) -> tuple[float, float]: ...

    async def send_slot_wait(self, chat_id: int, most: int, seconds: float, burst: int = 0,
                             burst_seconds: float = 0.0) -> float: ...

    async def restamp_send_slot(self, chat_id: int, taken: float, answered: float) -> None: ...


class ChatLimiter(BaseRateLimiter[int]):
    """See the module's docstring. Rates of 0 lift a limit (the tests and benchmarks do)."""

    def __init__(
        self,
        *,
        overall_per_second: float = 30,
        group_per_minute: float = 20,
        chat_per_second: float = 1.0,
        chat_burst: int = 3,
        max_retries: int = 5,
        group_period: float = 60.0,
        low_share: float = LOW_SHARE,
        played_share: float = PLAYED_SHARE,
        answers_kept: int = ANSWERS_KEPT,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.overall = Window(int(overall_per_second), 1.0)
        self.group = Window(int(group_per_minute), group_period)
        self.low_overall = Window(max(1, int(self.overall.most * low_share))
                                  if self.overall.on else 0, 1.0)
        """The overall window as calls at low priority see it."""
        self.low_group = self.share(low_share)
        """A group's window as calls at low priority see it..."""
        self.played_group = self.share(played_share)
        """... and while a match is played on its board."""
        self.answers = Window(min(answers_kept, self.group.most // 4) if self.group.on else 0,
                              self.group.seconds)
        """The calls at low priority a group keeps for itself in its window."""
        self.low_calls: dict[int | str, Calls] = {}
        """Per group, its calls at low priority (the answers counted against :attr:`answers`)."""
        self.played: dict[int | str, float] = {}
        """Groups whose board a match is played on (:meth:`played_on`), until when."""
        self.urgent: dict[int | str, int] = {}
        """Per chat, how many calls of normal priority wait for room there."""
        self.chat = Window(chat_burst if chat_per_second > 0 else 0,
                           chat_burst / chat_per_second if chat_per_second > 0 else 0)
        self.max_retries = max_retries
        self.clock = clock
        self.sleep = sleep
        """How a call waits for room (with :attr:`clock`: a test passes both, and time moves
        only when it says)."""
        self.all_calls = Calls()
        self.calls: dict[int | str, Calls] = {}
        self.held: dict[int | str, float] = {}
        self.posted: dict[int | str, deque[int]] = {}
        """Per chat, the message ids of this process's latest messages there (what a probe
        for a lost message must leave alone: :mod:`bot.delivery.notices`)."""
        self.unsaved: dict[int, int] = {}
        """Per chat, the highest message id this process got back since the delivery worker
        last stored them (:meth:`take_unsaved`): every instance's probe then starts above
        them (a welcome or a command's answer another instance sent is never probed)."""
        """Chats Telegram asked to wait (429), until when."""
        self.shared: SharedBudget | None = None

    def share(self, share: float) -> Window:
        """The group window for calls at low priority: ``share`` of its calls."""
        return Window(max(1, int(self.group.most * share)) if self.group.on else 0,
                      self.group.seconds)

    def played_on(self, chat: int | str) -> None:
        """A match is played on this group's board (its player taps there, each tap a call):
        for the next window, calls at low priority there keep to ``played_share``. Known to
        this instance only (the one delivering the board); the others keep to ``low_share``."""
        if is_group(chat):
            self.played[chat] = self.clock() + self.group.seconds

    def _low_window(self, chat: int | str, now: float) -> Window:
        return self.played_group if self.played.get(chat, 0.0) > now else self.low_group

    def share_groups(self, budget: SharedBudget | None) -> None:
        """Keep the group windows in ``budget`` (the database), shared by every instance."""
        self.shared = budget

    def _shares(self, chat: int | str | None) -> bool:
        return (self.shared is not None and isinstance(chat, int)
                and ((self.group.on and is_group(chat)) or self.chat.on))

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to close."""

    def room(self, chat: int | str | None, *, low: bool = False) -> float:
        """Seconds until a counted call in ``chat`` fits (0: now); ``low``: at low priority."""
        now = self.clock()
        wait = 0.0
        if self.overall.on:
            wait = self.all_calls.wait(self.low_overall if low else self.overall, now)
        if chat is not None:
            calls = self.calls.get(chat)
            if calls is not None:
                if self.chat.on:
                    wait = max(wait, calls.wait(self.chat, now))
                if self.group.on and is_group(chat) and not self._shares(chat):
                    wait = max(wait, self._group_wait(chat, calls, now, low))
            wait = max(wait, self.held.get(chat, 0.0) - now)
            if low and self.urgent.get(chat) and not self._kept_answer(chat, now):
                wait = max(wait, YIELD)
        return wait

    async def busy(self, chat: int) -> bool:
        """Whether a group's minute is already half spent by this instance's count (where its
        board's calls start to be spaced, :mod:`bot.delivery.pacing`), or a call there must
        wait now (by the shared count too): a turn's new board there then costs the next
        mover a second call's wait, and an edit of the live board is chosen instead."""
        if not (self.group.on and is_group(chat)):
            return False
        calls = self.calls.get(chat)
        if calls is not None and half_spent((cell[0] for cell in calls.times), self.group.most,
                                            self.group.seconds, self.clock(), MARGIN):
            return True
        return self.room(chat) > 0 or (await self._shared(chat, take=False))[0] > 0

    def _kept_answer(self, chat: int | str, now: float) -> bool:
        """Whether a call at low priority in ``chat`` is one of the answers the group keeps
        (fewer than :attr:`answers` went out in its window)."""
        if not (self.answers.on and is_group(chat)):
            return False
        calls = self.low_calls.get(chat)
        return calls is None or calls.wait(self.answers, now) <= 0

    def _answers_left(self, chat: int | str, now: float) -> int:
        """How many of its kept answers the group has not used in its window."""
        if not (self.answers.on and is_group(chat)):
            return 0
        calls = self.low_calls.get(chat)
        span = self.answers.seconds + MARGIN
        used = 0 if calls is None else sum(1 for cell in calls.times if cell[0] > now - span)
        return max(0, self.answers.most - used)

    def _group_window(self, chat: int | str, now: float, low: bool) -> Window:
        """The group's window as a call sees it: a low one, its share (or the whole window
        while it is a kept answer); one of normal priority, the window less the answers
        kept and not used."""
        if low:
            if self._kept_answer(chat, now):
                return self.group
            return self._low_window(chat, now)
        return Window(max(1, self.group.most - self._reserved(chat, now)), self.group.seconds)

    def _reserved(self, chat: int | str, now: float) -> int:
        """The calls the game leaves free for answers: one more than the answers that went out
        in the window, up to the kept ones not used (so an answer squeezes the game's minute
        by one call at most, not by the whole reserve at once)."""
        left = self._answers_left(chat, now)
        return min(left, IDLE_KEPT + self.answers.most - left)

    def _group_wait(self, chat: int | str, calls: Calls, now: float, low: bool) -> float:
        """Seconds until a call fits in the group's minute (this instance's count)."""
        if not low:
            window = self._group_window(chat, now, low)
            return max(calls.wait(window, now), self._pace(chat, calls, window, now))
        share = calls.wait(self._low_window(chat, now), now)
        kept = self.low_calls.get(chat)
        if self.answers.on and is_group(chat):
            share = min(share, 0.0 if kept is None else kept.wait(self.answers, now))
        return max(calls.wait(self.group, now), share)

    def _pace(self, chat: int | str, calls: Calls, window: Window, now: float) -> float:
        """While a match is played on the group's board, the game's calls there are spaced
        once its window fills (:func:`bot.delivery.pacing.spacing`)."""
        if self.played.get(chat, 0.0) <= now:
            return 0.0
        return spacing((cell[0] for cell in calls.times), window.most, window.seconds, now,
                       MARGIN)

    @contextlib.contextmanager
    def _waiting(self, chat: int | str | None, low: bool) -> Iterator[None]:
        """A call of normal priority waiting for room in ``chat``: low ones there stand back."""
        if low or chat is None:
            yield
            return
        self.urgent[chat] = self.urgent.get(chat, 0) + 1
        try:
            yield
        finally:
            left = self.urgent[chat] - 1
            if left:
                self.urgent[chat] = left
            else:
                del self.urgent[chat]

    async def ready(self, chat: int | str | None) -> float:
        """Wait until a counted call in ``chat`` fits, without taking it; returns the seconds
        waited."""
        waited = 0.0
        low = is_low()
        with self._waiting(chat, low):
            while (wait := max(self.room(chat, low=low),
                               (await self._shared(chat, take=False, low=low))[0])) > 0:
                await self.sleep(wait)
                waited += wait
        return waited

    async def low_wait(self, chat: int) -> float:
        """Seconds a counted call at low priority in ``chat`` would wait now (0: none), by this
        instance's count and the shared one: the chat lanes shed chatter that would wait long."""
        return max(self.room(chat, low=True), (await self._shared(chat, take=False, low=True))[0])

    async def _shared(self, chat: int | str | None, *, take: bool,
                      low: bool = False) -> tuple[float, float]:
        """The group's shared window: ``(seconds until a call fits, 0)``, or ``(0, the time
        counted)`` when there is room (with ``take`` the call is then counted there). When the
        database cannot answer, this instance's own count of the group decides."""
        if not self._shares(chat) or self.shared is None:
            return 0.0, 0.0
        assert isinstance(chat, int)
        group = self._group_window(chat, self.clock(), low)
        most, span = ((group.most, group.seconds + MARGIN)
                      if self.group.on and is_group(chat) else (0, 0.0))
        # the chat's second too: with several instances, each one's own count of it sees
        # only the calls it made (the updates of one chat go to every instance in turn)
        burst, burst_span = ((self.chat.most, self.chat.seconds + MARGIN) if self.chat.on
                             else (0, 0.0))
        try:
            if not take:
                return await self.shared.send_slot_wait(chat, most, span, burst,
                                                        burst_span), 0.0
            return await self.shared.take_send_slot(chat, most, span, burst, burst_span)
        except Exception as exc:
            log.warning("the shared budget of %s could not be read (%s): counting locally",
                        chat, exc)
            calls = self.calls.get(chat)
            window = group if most else self.chat  # the chat's second: room() has it
            return (0.0 if calls is None else calls.wait(window, self.clock())), 0.0

    async def _take(self, chat: int | str | None) -> tuple[list[list[float]], float]:
        """Wait for room, then count the call; returns its cells, to stamp when answered, and
        in a shared group the time counted in the database (0 elsewhere)."""
        low = is_low()
        with self._waiting(chat, low):
            while True:
                while (wait := self.room(chat, low=low)) > 0:
                    await self.sleep(wait)
                wait, taken = await self._shared(chat, take=True, low=low)
                if wait <= 0:
                    break
                await self.sleep(wait)
        now = self.clock()
        cells = []
        if self.overall.on:
            self.all_calls.forget_before(now - self.overall.seconds - MARGIN)
            cells.append(self.all_calls.add(now))
        if chat is not None and (self.chat.on or (self.group.on and is_group(chat))):
            calls = self.calls.get(chat)
            if calls is None:
                calls = self.calls[chat] = Calls()
                self._forget_quiet(now)
            calls.forget_before(now - max(self.group.seconds, self.chat.seconds) - MARGIN)
            cells.append(calls.add(now))
            if low and self.answers.on and is_group(chat):
                answers = self.low_calls.setdefault(chat, Calls())
                answers.forget_before(now - self.group.seconds - MARGIN)
                cells.append(answers.add(now))
        return cells, taken

    def _posted(self, chat: int | str, message_id: int) -> None:
        ids = self.posted.get(chat)
        if ids is None:
            if len(self.posted) >= 4096:
                self.posted.pop(next(iter(self.posted)))
            ids = self.posted[chat] = deque(maxlen=POSTED_KEPT)
        ids.append(message_id)
        if isinstance(chat, int) and message_id > self.unsaved.get(chat, 0):
            self.unsaved[chat] = message_id

    def take_unsaved(self) -> dict[int, int]:
        """The highest message id got back per chat since the last call (to be stored)."""
        marks, self.unsaved = self.unsaved, {}
        return marks

    def posted_in(self, chat: int) -> set[int]:
        """The ids of the latest messages this process posted in ``chat`` (and got back)."""
        return set(self.posted.get(chat, ()))

    def _forget_quiet(self, now: float) -> None:
        """Drop the chats with no call in the longest window (keeps memory flat)."""
        if len(self.calls) < 4096:
            return
        span = max(self.group.seconds, self.chat.seconds) + MARGIN
        for chat in [c for c, calls in self.calls.items()
                     if all(cell[0] <= now - span for cell in calls.times)]:
            del self.calls[chat]
        for chat in [c for c, until in self.held.items() if until <= now]:
            del self.held[chat]
        for chat in [c for c, until in self.played.items() if until <= now]:
            del self.played[chat]
        for chat in [c for c in self.low_calls if c not in self.calls]:
            del self.low_calls[chat]

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | JSONDict | list[JSONDict]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | JSONDict | list[JSONDict]:
        counted = endpoint.lower().startswith(COUNTED)
        chat = chat_of(data)
        retries = self.max_retries if rate_limit_args is None else rate_limit_args
        for attempt in range(retries + 1):
            cells: list[list[float]] = []
            taken = 0.0
            if counted:
                cells, taken = await self._take(chat)
            elif chat is not None and (wait := self.held.get(chat, 0.0) - self.clock()) > 0:
                await self.sleep(wait)
            try:
                result = await callback(*args, **kwargs)
                if chat is not None and isinstance(result, dict) and "message_id" in result:
                    self._posted(chat, int(result["message_id"]))
                return result
            except TimedOut as exc:
                # a burst (a crowd's notes) can hold every connection of the pool for longer
                # than python-telegram-bot waits for one: the call never left, so it goes again
                if not never_sent(exc) or attempt == retries:
                    raise
                log.info("no connection free for %s in %s: sent again", endpoint, chat)
            except RetryAfter as exc:
                if attempt == retries:
                    raise
                seconds = retry_seconds(exc)
                log.info("Telegram asked to wait %s s in %s (%s)", seconds, chat, endpoint)
                if chat is None:
                    await self.sleep(float(seconds) + 0.1)
                else:
                    self.held[chat] = self.clock() + float(seconds) + 0.1
            finally:
                answered = self.clock()
                for cell in cells:
                    cell[0] = answered
                if taken and self.shared is not None and isinstance(chat, int):
                    await self._restamp(chat, taken)
        raise AssertionError("unreachable")  # pragma: no cover

    async def _restamp(self, chat: int, taken: float) -> None:
        assert self.shared is not None
        try:
            await self.shared.restamp_send_slot(chat, taken, time.time())
        except Exception as exc:
            log.warning("the shared budget of %s could not be updated: %s", chat, exc)
