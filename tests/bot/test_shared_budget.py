"""Two instances of the bot share one token, so one group's budget: with the group windows in
the database (PostgreSQL, as several instances run) their calls together stay within it and
Telegram never answers 429; counted per instance, the same calls draw 429s."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Iterator

import pytest
from telegram.ext import ExtBot

from bot.delivery.limiter import ChatLimiter
from standin import FloodLimits, StandIn
from standin.databases import create_database, drop_database
from storage.db import Database
from storage.usecases import UseCases

PG = os.environ.get("PORTES_TEST_POSTGRES_URL")
pytestmark = pytest.mark.skipif(not PG, reason="needs PORTES_TEST_POSTGRES_URL")
LIMITS = FloodLimits(group_per_minute=5, group_period=2.0, chat_per_second=0,
                     overall_per_second=0)
"""Telegram's 20 calls a minute in a group, scaled down to 5 in 2 s."""


@pytest.fixture
def standin() -> Iterator[StandIn]:
    with StandIn() as server:  # the real clock: the limiters sleep real seconds
        yield server


@pytest.fixture
async def shared_db() -> AsyncIterator[UseCases]:
    assert PG is not None
    url = create_database(PG, prefix="portes_budget", migrated=True)
    db = Database.from_url(url)
    yield UseCases(db)
    await db.dispose()
    drop_database(PG, url)


async def instance(standin: StandIn, shared: UseCases | None) -> ExtBot[None]:
    limiter = ChatLimiter(group_per_minute=LIMITS.group_per_minute,
                          group_period=LIMITS.group_period, chat_per_second=0,
                          overall_per_second=0, max_retries=0)
    limiter.share_groups(shared.delivery if shared is not None else None)
    bot: ExtBot[None] = ExtBot(standin.token, base_url=standin.base_url,
                               base_file_url=standin.base_file_url, rate_limiter=limiter)
    await bot.initialize()
    return bot


async def send_from_two(standin: StandIn, shared: UseCases | None) -> tuple[int, int]:
    """Two instances send 8 messages each to one group at once: (sent, answered 429)."""
    alice = standin.user("Alice")
    group = standin.group("Kafeneio", alice)
    standin.set_flood_limits(LIMITS)
    bots = [await instance(standin, shared) for _ in range(2)]
    try:
        results = await asyncio.gather(
            *(b.send_message(group.id, f"{n} {i}") for n, b in enumerate(bots)
              for i in range(8)), return_exceptions=True)
    finally:
        for b in bots:
            await b.shutdown()
    throttled = [c for c in standin.calls(ok=False) if c.error_code == 429]
    return sum(not isinstance(r, BaseException) for r in results), len(throttled)


async def test_two_instances_sharing_the_database_never_draw_429(
        standin: StandIn, shared_db: UseCases) -> None:
    sent, throttled = await send_from_two(standin, shared_db)
    assert (sent, throttled) == (16, 0)
    # and the group never got more than its budget in any window
    assert standin.max_calls_per_window(("sendMessage",), LIMITS.group_period) <= 5


async def test_two_instances_counting_alone_draw_429(standin: StandIn) -> None:
    _sent, throttled = await send_from_two(standin, None)
    assert throttled > 0


async def test_a_private_chats_second_is_shared_too(standin: StandIn,
                                                    shared_db: UseCases) -> None:
    """One private chat, both instances sending (round-robin hands one chat's updates to
    both): Telegram's one call a second (a burst of 3) is kept by the two together."""
    alice = standin.user("Alice")
    alice.start_bot()
    standin.set_flood_limits(FloodLimits(group_per_minute=0, chat_per_second=2.0, chat_burst=2,
                                         overall_per_second=0))
    bots = []
    for _ in range(2):
        limiter = ChatLimiter(group_per_minute=0, chat_per_second=2.0, chat_burst=2,
                              overall_per_second=0, max_retries=0)
        limiter.share_groups(shared_db.delivery)
        bot: ExtBot[None] = ExtBot(standin.token, base_url=standin.base_url,
                                   base_file_url=standin.base_file_url, rate_limiter=limiter)
        await bot.initialize()
        bots.append(bot)
    try:
        results = await asyncio.gather(*(b.send_message(alice.id, f"{n} {i}")
                                         for n, b in enumerate(bots) for i in range(4)),
                                       return_exceptions=True)
    finally:
        for b in bots:
            await b.shutdown()
    assert [r for r in results if isinstance(r, BaseException)] == []
    assert [c for c in standin.calls(ok=False) if c.error_code == 429] == []
