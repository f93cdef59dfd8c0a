"""Telegram's flood limits, enforced when a test asks for them (off by default).

Every call that puts something in a chat counts: sends, edits and deletions (Telegram counts
them all against a group's budget; python-telegram-bot's limiter does too). Answering a callback
query, reading a chat or polling does not. Over a limit the call is refused with 429 and a
``retry_after`` saying when the window has room again, as Telegram does."""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

COUNTED = frozenset({
    "sendmessage", "sendphoto", "editmessagetext", "editmessagecaption", "editmessagemedia",
    "editmessagereplymarkup", "deletemessage", "deletemessages",
})


@dataclass(frozen=True)
class FloodLimits:
    """Telegram's published limits, by default; 0 lifts one."""

    group_per_minute: int = 20
    """Calls in one group or supergroup in any ``group_period`` s."""
    group_period: float = 60.0
    """Telegram's minute (shorter only where a test cannot wait minutes)."""
    chat_per_second: float = 1.0
    """The average rate in any one chat (private or group)..."""
    chat_burst: int = 3
    """... allowing this many at once (counted over ``chat_burst / chat_per_second`` s)."""
    overall_per_second: int = 30
    """Calls over all chats in any second."""


TELEGRAM_LIMITS = FloodLimits()


class Flood:
    """The calls counted so far, per chat and overall, on the stand-in's clock."""

    def __init__(self, limits: FloodLimits) -> None:
        self.limits = limits
        self.overall: deque[float] = deque()
        self.per_chat: dict[int, deque[float]] = {}
        self.per_group: dict[int, deque[float]] = {}

    def admit(self, method: str, chat_id: int | None, now: float) -> float | None:
        """Count the call and return ``None``, or refuse it: the seconds until there is room."""
        if method.lower() not in COUNTED:
            return None
        lim = self.limits
        checks: list[tuple[deque[float], int, float]] = []
        if lim.overall_per_second:
            checks.append((self.overall, lim.overall_per_second, 1.0))
        if chat_id is not None and lim.chat_per_second and lim.chat_burst:
            checks.append((self.per_chat.setdefault(chat_id, deque()), lim.chat_burst,
                           lim.chat_burst / lim.chat_per_second))
        if chat_id is not None and chat_id < 0 and lim.group_per_minute:
            checks.append((self.per_group.setdefault(chat_id, deque()), lim.group_per_minute,
                           lim.group_period))
        wait = 0.0
        for times, most, window in checks:
            while times and times[0] <= now - window:
                times.popleft()
            if len(times) >= most:
                wait = max(wait, times[0] + window - now)
        if wait > 0:
            return wait
        for times, _, _ in checks:
            times.append(now)
        return None


def retry_after(wait: float) -> int:
    """Telegram's ``retry_after`` is whole seconds, rounded up (at least 1)."""
    return max(1, math.ceil(wait))
