"""The bot's rate limiter against the stand-in enforcing Telegram's flood limits: it counts
what Telegram counts, so a burst waits on the bot's side instead of drawing 429s, and a 429
that comes anyway holds only its own chat."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest
from telegram import Bot
from telegram.ext import ExtBot

from bot.limiter import ChatLimiter
from tests.standin import FloodLimits, StandIn


@pytest.fixture
def standin() -> AsyncIterator[StandIn]:  # type: ignore[misc]
    with StandIn() as server:  # the real clock: the limiter sleeps real seconds
        yield server


async def a_bot(standin: StandIn, limiter: ChatLimiter) -> ExtBot[None]:
    bot: ExtBot[None] = ExtBot(standin.token, base_url=standin.base_url,
                               base_file_url=standin.base_file_url, rate_limiter=limiter)
    await bot.initialize()
    return bot


def refused(standin: StandIn) -> list[int | None]:
    return [c.error_code for c in standin.calls(ok=False)]


async def test_a_burst_in_a_group_waits_for_room_instead_of_429(standin: StandIn) -> None:
    # Given a group allowed 5 calls in any 2 s (Telegram's 20 a minute, scaled down), and a
    # limiter counting the same
    alice = standin.user("Alice")
    group = standin.group("G", alice)
    standin.set_flood_limits(FloodLimits(group_per_minute=5, group_period=2.0,
                                         chat_per_second=0))
    bot = await a_bot(standin, ChatLimiter(group_per_minute=5, group_period=2.0,
                                           chat_per_second=0, max_retries=0))
    try:
        # When the bot makes 12 calls there at once (sends, edits and deletions)
        started = time.perf_counter()
        first = await bot.send_message(group.id, "card")
        calls = [bot.edit_message_text(f"edit {i}", chat_id=group.id,
                                       message_id=first.message_id) for i in range(6)]
        calls += [bot.send_message(group.id, f"note {i}") for i in range(5)]
        await asyncio.gather(*calls)
        took = time.perf_counter() - started
    finally:
        await bot.shutdown()
    # Then every call went through, none was refused, and they took two windows or more
    assert refused(standin) == []
    assert len(group.bot_messages()) == 6
    assert took >= 4.0



async def test_a_group_burst_counts_against_both_the_chat_and_the_group_window(
        standin: StandIn) -> None:
    # Given a group allowed 4 calls in any 3 s and, like every chat, 2 in any second (both of
    # Telegram's limits on one chat, scaled down), and a limiter counting the same
    alice = standin.user("Alice")
    group = standin.group("G", alice)
    limits = dict(group_per_minute=4, group_period=3.0, chat_per_second=2.0, chat_burst=2)
    standin.set_flood_limits(FloodLimits(**limits))  # type: ignore[arg-type]
    bot = await a_bot(standin, ChatLimiter(max_retries=0, **limits))  # type: ignore[arg-type]
    try:
        # When the bot makes 10 calls there at once
        started = time.perf_counter()
        await asyncio.gather(*(bot.send_message(group.id, f"note {i}") for i in range(10)))
        took = time.perf_counter() - started
    finally:
        await bot.shutdown()
    # Then none was refused: the chat's short window did not make the limiter forget the
    # calls the group's longer window still counts
    assert refused(standin) == []
    assert len(group.bot_messages()) == 10
    assert took >= 6.0


async def test_a_private_chat_gets_about_one_call_a_second(standin: StandIn) -> None:
    alice = standin.user("Alice")
    alice.start_bot()
    standin.set_flood_limits(FloodLimits(chat_per_second=2.0, chat_burst=3))
    bot = await a_bot(standin, ChatLimiter(chat_per_second=2.0, chat_burst=3, max_retries=0))
    try:
        await asyncio.gather(*(bot.send_message(alice.id, f"x{i}") for i in range(9)))
    finally:
        await bot.shutdown()
    assert refused(standin) == []
    assert len(alice.private.bot_messages()) == 9


async def test_a_429_holds_only_its_own_chat(standin: StandIn) -> None:
    # Given Telegram answering 429 (retry after 2 s) to the next send in one group
    alice, bob = standin.user("Alice"), standin.user("Bob")
    bob.start_bot()
    busy = standin.group("Busy", alice)
    standin.inject_error("sendMessage", 429, retry_after=2, chat_id=busy.id)
    bot: Bot = await a_bot(standin, ChatLimiter(max_retries=2))
    try:
        # When the bot sends there and, meanwhile, to someone else
        slow = asyncio.ensure_future(bot.send_message(busy.id, "after the wait"))
        await asyncio.sleep(0.2)
        started = time.perf_counter()
        await bot.send_message(bob.id, "not held")
        other_took = time.perf_counter() - started
        await slow
    finally:
        await bot.shutdown()
    # Then the other chat was answered at once, and the group's message went after the wait
    assert other_took < 1.0
    assert [m.text for m in busy.bot_messages()] == ["after the wait"]
    assert refused(standin) == [429]


async def test_reading_and_answering_are_not_counted(standin: StandIn) -> None:
    alice = standin.user("Alice")
    group = standin.group("G", alice)
    limiter = ChatLimiter(group_per_minute=2, chat_per_second=0)
    bot = await a_bot(standin, limiter)
    try:
        await bot.send_message(group.id, "one")
        await bot.send_message(group.id, "two")
        started = time.perf_counter()
        for _ in range(5):
            await bot.get_chat(group.id)
        assert time.perf_counter() - started < 2.0
        assert limiter.room(group.id) > 50  # a third message would wait for the minute
    finally:
        await bot.shutdown()
