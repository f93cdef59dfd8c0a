"""The stand-in's clock: wall time by default, or a manual clock that moves only when told to.

The clock dates messages and calls, ages messages (the 48-hour delete window) and queries (the
callback-answer deadline), and times long polls and injected delays. With a :class:`ManualClock`
none of these depend on how fast the machine is: a test moves time with
``standin.advance_clock(seconds)``, which also wakes whatever waits on the clock.
"""

from __future__ import annotations

import threading
import time
from typing import Protocol


class Clock(Protocol):
    def time(self) -> float:
        """Seconds since the epoch, as Telegram dates things."""

    def monotonic(self) -> float:
        """For deadlines: long-poll timeouts and injected delays."""

    def advance(self, seconds: float) -> None:
        """Move forward by ``seconds`` (call it holding the world's lock, then notify it)."""

    def wait(self, cond: threading.Condition, seconds: float) -> None:
        """Wait on ``cond`` (held) for at most ``seconds`` of this clock, or until notified."""

    def settled(self) -> bool:
        """Whether everything waiting on this clock has seen its latest time (lock held)."""


class RealClock:
    """Wall time, shifted by what the test advanced; deadlines run in real seconds."""

    def __init__(self) -> None:
        self.offset = 0.0

    def time(self) -> float:
        return time.time() + self.offset

    def monotonic(self) -> float:
        # advance() leaves deadlines alone: a long poll of the bot keeps its real length.
        return time.monotonic()

    def advance(self, seconds: float) -> None:
        self.offset += seconds

    def wait(self, cond: threading.Condition, seconds: float) -> None:
        cond.wait(seconds)

    def settled(self) -> bool:
        return True


class ManualClock:
    """Time that stands still until advanced: long polls and injected delays end only then."""

    def __init__(self, start: float = 1_767_225_600.0) -> None:  # 2026-01-01 00:00 UTC
        self.now = start
        self.ticks = 0  # how many times the clock moved
        self.sleepers: list[int] = []  # per waiter, the tick it went to sleep on

    def time(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        self.now += seconds
        self.ticks += 1

    def wait(self, cond: threading.Condition, seconds: float) -> None:
        # No real timeout: only advance_clock (or stopping the stand-in) notifies the waiter.
        tick = self.ticks
        self.sleepers.append(tick)
        try:
            cond.wait()
        finally:
            self.sleepers.remove(tick)

    def settled(self) -> bool:
        return all(tick == self.ticks for tick in self.sleepers)
