"""The bot's rate limiter on Telegram's clock (the stand-in's): a call that waits for room
moves that clock on instead of sleeping, so Telegram's windows pass at once and the stand-in
still counts every call at its time.

A jump of the clock is instant, and the bot's other work goes on beside it. In real time a tap
that comes while the delivery worker waits 40 s for room in a group is answered in
milliseconds, well inside its 15 s. Moved at once, the clock would age a tap the bot is
answering at that moment by the whole wait, and the stand-in would refuse its answer as too
old: a tap "never answered" that no player could see. So the clock moves only once the taps
then in hand are answered. A tap whose answer really waited for the delivery worker (on a lock
it holds, or behind its wait for room) is still caught: it stays unanswered, the clock moves
on after ``HAND_OVER`` real seconds, and its answer comes too late."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from standin import StandIn, StandInError

HAND_OVER = 5.0
"""Real seconds the bot gets to answer the taps it holds before Telegram's clock moves."""


async def hand_over(standin: StandIn) -> None:
    """Wait (at most ``HAND_OVER`` real seconds) until the taps in hand are answered."""
    # a tap left unanswered past HAND_OVER gets old, and its test says so
    with contextlib.suppress(StandInError):
        await standin.wait_for(lambda: not standin.taps_unanswered(), timeout=HAND_OVER,
                               what="the taps in hand answered")


def on_telegrams_clock(standin: StandIn, running: Any) -> None:
    """Make ``running``'s limiter count on the stand-in's clock and wait by moving it."""

    async def wait_on_telegrams_clock(seconds: float) -> None:
        await hand_over(standin)
        standin.advance_clock(max(0.0, seconds))
        await asyncio.sleep(0)

    limiter = running.app.bot.rate_limiter
    limiter.clock, limiter.sleep = standin.now, wait_on_telegrams_clock
