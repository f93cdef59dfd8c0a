"""A wall clock that stands still until a test moves it (seconds since the epoch), for what
runs on real time in production: the leases and the Telegram budgets several instances share
(``UseCases(wall=...)``). It starts at the real time, so the rows it stamps sit among the
others."""

from __future__ import annotations

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
