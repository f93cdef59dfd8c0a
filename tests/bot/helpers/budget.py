"""A group at Telegram's limits, for the end-to-end tests: the stand-in enforces them, the bot
runs with its rates as shipped, and its limiter counts on the stand-in's clock. A wait for room
moves that clock on instead of sleeping, unless the test holds the gate: then the waiting call
stays queued until the test opens it (what else the bot does meanwhile shows the order its
calls go out in)."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.settings import RateLimits
from standin import Chat, StandIn
from tests.bot.helpers.telegrams_clock import hand_over

COUNTED = ("send", "edit", "delete")


class Gate:
    """The limiter's ``sleep``: moves the stand-in's clock on by the wait, at once while open;
    while closed, a call that must wait for room waits here."""

    def __init__(self, standin: StandIn) -> None:
        self.standin = standin
        self.opened = asyncio.Event()
        self.opened.set()
        self.waiting = 0

    def close(self) -> None:
        self.opened.clear()

    def open(self) -> None:
        self.opened.set()

    async def sleep(self, seconds: float) -> None:
        self.waiting += 1
        try:
            await self.opened.wait()
        finally:
            self.waiting -= 1
        await hand_over(self.standin)  # the taps in hand answered first (see that module)
        self.standin.advance_clock(max(0.0, seconds))
        await asyncio.sleep(0)


async def telegram_limits(standin: StandIn, make_bot: Any, **settings: Any) -> tuple[Any, Gate]:
    """The bot as shipped (with ``settings``) against a stand-in enforcing Telegram's limits:
    20 calls a minute per group, about 1 a second per chat, 30 a second overall."""
    standin.set_flood_limits()
    running = await make_bot(rate=RateLimits(), **settings)
    gate = Gate(standin)
    limiter = running.app.bot.rate_limiter
    limiter.clock, limiter.sleep = standin.now, gate.sleep
    return running, gate


def group_calls(standin: StandIn, group: Chat) -> list[str]:
    """The calls the bot made in the group that count against its budget."""
    return [c.method for c in standin.calls(chat_id=group.id)
            if c.ok and c.method.lower().startswith(COUNTED)]


def throttled(standin: StandIn) -> list[str]:
    return [f"{c.method} {c.params.get('chat_id')}" for c in standin.calls(ok=False)
            if c.error_code == 429]


def taps_answered(standin: StandIn) -> int:
    return len(standin.calls("answerCallbackQuery", ok=True))
