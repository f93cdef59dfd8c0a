"""A wall clock that stands still until a test moves it (seconds since the epoch), for what
runs on real time in production: delivery's leases and back-offs, and what several instances
share (``UseCases(wall=...)``); and, with :meth:`Wall.sleep`, the rate limiter's waits
(``ChatLimiter(clock=wall, sleep=wall.sleep)``). It starts at the real time, so the rows it
stamps sit among the others."""

from __future__ import annotations

import asyncio
import time


class Wall:
    def __init__(self, start: float | None = None) -> None:
        self.now = time.time() if start is None else start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        self.now += seconds

    async def sleep(self, seconds: float) -> None:
        """A wait on this clock passes at once: it moves the clock on by ``seconds``."""
        self.advance(max(0.0, seconds))
        await asyncio.sleep(0)
