"""Delivery's back-offs without waiting for them: the bot runs on a wall clock the test holds
(``make_bot(wall=Wall())``, see tests/clocks.py), and :func:`retries_come_due` moves it to the
next retry whenever delivery has nothing to do but wait for one (no place claimed, none due
now, one due later), and polls it at once (as its job does every second).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
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


@asynccontextmanager
async def retries_come_due(uc: UseCases, wall: Wall, poll: Callable[[], Awaitable[None]]
                           ) -> AsyncIterator[list[float]]:
    """While inside, the wall clock jumps to each retry delivery waits for, and ``poll``
    (the delivery worker's) runs; gives the jumps."""
    jumps: list[float] = []

    async def drive() -> None:
        while True:
            await asyncio.sleep(0.05)
            wait = await uc.db.run(next_retry, uc, wall)
            if wait:
                wall.advance(wait)
                jumps.append(wait)
                await poll()

    task = asyncio.ensure_future(drive())
    try:
        yield jumps
    finally:
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task
