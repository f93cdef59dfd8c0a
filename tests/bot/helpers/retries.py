"""Delivery's back-offs without waiting for them: the bot runs on a wall clock the test holds
(``make_bot(wall=Wall())``, see tests/clocks.py), and :func:`retries_come_due` moves it to the
next retry whenever delivery has nothing to do but wait for one (no place claimed, none due
now, one due later), and polls it at once (as its job does every second).

The back-offs the worker chose are read from what it reports (its log line for each retry),
not from the clock's moves: the rate limiter's waits in a chat move the same clock (a test
sets ``limiter.sleep = wall.sleep``), and under load one of them can pass a retry's time
before this helper looks, so the retry comes due with no move at all (seen: ``[] ==
[0.5]``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import select

from storage.models import DeliveryRow
from storage.usecases import UseCases
from tests.clocks import Wall


def next_retry(uc: UseCases, wall: Wall) -> float | None:
    """Seconds until the next pending place is due, when delivery only waits for it."""
    now = datetime.fromtimestamp(wall(), UTC)
    with uc.kernel.sessions() as session:
        rows = session.execute(select(DeliveryRow.due_at, DeliveryRow.claimed_until)
                               .where(DeliveryRow.pending.is_(True))).all()
    if any(until is not None and until >= now for _, until in rows):
        return None  # a worker is at it
    if any(due <= now for due, _ in rows):
        return None  # the poll will take it
    later = [due for due, _ in rows]
    return (min(later) - now).total_seconds() if later else None


@dataclass
class Retries:
    """What :func:`retries_come_due` saw: the clock's moves, and the back-offs (seconds) the
    delivery worker put on each place it tries again, in order."""

    jumps: list[float] = field(default_factory=list)
    delays: list[float] = field(default_factory=list)


class _Reported(logging.Handler):
    """The delivery worker's line for a retry ("...; again in %.1f s"): its last argument."""

    def __init__(self, delays: list[float]) -> None:
        super().__init__(logging.INFO)
        self.delays = delays

    def emit(self, record: logging.LogRecord) -> None:
        if record.msg.endswith("again in %.1f s") and isinstance(record.args, tuple):
            self.delays.append(float(record.args[-1]))


@asynccontextmanager
async def retries_come_due(uc: UseCases, wall: Wall, poll: Callable[[], Awaitable[None]]
                           ) -> AsyncIterator[Retries]:
    """While inside, the wall clock jumps to each retry delivery waits for, and ``poll``
    (the delivery worker's) runs; gives the jumps and the back-offs chosen."""
    seen = Retries()
    worker = logging.getLogger("bot.delivery.worker")
    reported = _Reported(seen.delays)
    level = worker.level
    worker.addHandler(reported)
    if not worker.isEnabledFor(logging.INFO):
        worker.setLevel(logging.INFO)

    async def drive() -> None:
        while True:
            await asyncio.sleep(0.05)
            wait = await uc.db.run(next_retry, uc, wall)
            if wait:
                wall.advance(wait)
                seen.jumps.append(wait)
                await poll()

    task = asyncio.ensure_future(drive())
    try:
        yield seen
    finally:
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task
        worker.removeHandler(reported)
        worker.setLevel(level)
