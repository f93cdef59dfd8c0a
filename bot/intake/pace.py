"""How often one player may do something (``/new``): a sliding window per player, in memory.

Per bot instance: with several instances behind a webhook a player may get the cap once per
instance, which still bounds a flood; the caps that matter for the database (open challenges)
are enforced there."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from enum import Enum


class Admission(Enum):
    ALLOWED = "allowed"
    REFUSED = "refused"
    """Over the cap, and told so once already in this window: say nothing (a refusal per
    command would flood the group just the same)."""
    REFUSED_TELL = "refused_tell"
    """Over the cap for the first time in this window: say so, once."""


class Pace:
    """At most ``per_minute`` actions per player in any ``window`` seconds (0: no cap)."""

    MAX_PLAYERS = 100_000

    def __init__(self, per_minute: int, *, window: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self.window = window
        self.clock = clock
        self.recent: dict[int, deque[float]] = {}
        self.told: dict[int, float] = {}

    def admit(self, user_id: int) -> Admission:
        """Count one action of this player, or refuse it."""
        if self.per_minute <= 0:
            return Admission.ALLOWED
        now = self.clock()
        times = self.recent.setdefault(user_id, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        if len(times) < self.per_minute:
            times.append(now)
            self._bound()
            return Admission.ALLOWED
        if self.told.get(user_id, -self.window) > now - self.window:
            return Admission.REFUSED
        self.told[user_id] = now
        return Admission.REFUSED_TELL

    def _bound(self) -> None:
        # the oldest players first: a player not seen for a window has nothing left to count
        while len(self.recent) > self.MAX_PLAYERS:
            oldest = next(iter(self.recent))
            self.recent.pop(oldest)
            self.told.pop(oldest, None)
