"""The bot's rate limiter against the stand-in enforcing Telegram's flood limits: it counts
what Telegram counts, so a burst waits on the bot's side instead of drawing 429s, and a 429
that comes anyway holds only its own chat.

Time is the stand-in's manual clock, which the limiter reads and sleeps on too (its ``clock``
and ``sleep``): it moves only when every call still pending waits for room, to the end of the
shortest wait, so what the stand-in counted in each window is exact, whatever the machine's
speed."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Iterator
from typing import Any

import pytest
from telegram import Bot
from telegram.error import TimedOut
from telegram.ext import ExtBot
from telegram.request import HTTPXRequest

from bot.delivery.limiter import ChatLimiter
from standin import Chat, FloodLimits, ManualClock, StandIn


@pytest.fixture
def standin() -> Iterator[StandIn]:
    with StandIn(clock=ManualClock()) as server:
        yield server


class Waits:
    """The stand-in's clock as the limiter's clock and sleep: a call that waits for room
    sleeps until the clock has passed its wake-up time; :meth:`run` moves the clock to the
    next wake-up once every pending call is asleep (none is on its way to the stand-in)."""

    def __init__(self, standin: StandIn) -> None:
        self.standin = standin
        self.sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def monotonic(self) -> float:
        return self.standin.now()

    async def sleep(self, seconds: float) -> None:
        wake = asyncio.get_running_loop().create_future()
        self.sleepers.append((self.monotonic() + max(seconds, 0.0), wake))
        await wake

    def limiter(self, **rates: Any) -> ChatLimiter:
        return ChatLimiter(clock=self.monotonic, sleep=self.sleep, **rates)

    def _next(self) -> None:
        due = min(at for at, _ in self.sleepers)
        self.standin.advance_clock(max(0.0, due - self.monotonic()))
        for entry in [s for s in self.sleepers if s[0] <= due]:
            self.sleepers.remove(entry)
            entry[1].set_result(None)

    async def run(self, *calls: Awaitable[Any]) -> list[Any]:
        """Run the calls to their end, moving the clock whenever all of them wait."""
        tasks = [asyncio.ensure_future(c) for c in calls]

        async def drive() -> None:
            while not all(t.done() for t in tasks):
                await asyncio.sleep(0.005)
                if self.sleepers and len(self.sleepers) == sum(not t.done() for t in tasks):
                    self._next()

        try:
            await asyncio.wait_for(drive(), timeout=60)  # a hang guard
        except TimeoutError:
            raise AssertionError(f"calls never finished: {len(self.sleepers)} waiting for "
                                 f"room, {sum(not t.done() for t in tasks)} pending") from None
        return [t.result() for t in tasks]


async def a_bot(standin: StandIn, limiter: ChatLimiter,
                request: HTTPXRequest | None = None) -> ExtBot[None]:
    bot: ExtBot[None] = ExtBot(standin.token, base_url=standin.base_url,
                               base_file_url=standin.base_file_url, rate_limiter=limiter,
                               request=request)
    await bot.initialize()
    return bot


def refused(standin: StandIn) -> list[int | None]:
    return [c.error_code for c in standin.calls(ok=False)]


def busiest(standin: StandIn, chat: Chat, seconds: float) -> int:
    """The most calls Telegram counted in ``chat`` in any ``seconds`` (on its clock)."""
    times = sorted(c.time for c in standin.calls(chat_id=chat.id)
                   if c.ok and c.method.startswith(("send", "edit")))
    return max(sum(1 for t in times if s <= t < s + seconds) for s in times)


async def test_a_burst_in_a_group_waits_for_room_instead_of_429(standin: StandIn) -> None:
    # Given a group allowed 5 calls in any 2 s (Telegram's 20 a minute, scaled down), and a
    # limiter counting the same
    alice = standin.user("Alice")
    group = standin.group("G", alice)
    standin.set_flood_limits(FloodLimits(group_per_minute=5, group_period=2.0,
                                         chat_per_second=0))
    waits = Waits(standin)
    bot = await a_bot(standin, waits.limiter(group_per_minute=5, group_period=2.0,
                                             chat_per_second=0, max_retries=0,
                                             answers_kept=0))  # the game's calls only
    try:
        # When the bot makes 12 calls there at once (sends, edits and deletions)
        first = await bot.send_message(group.id, "card")
        calls = [bot.edit_message_text(f"edit {i}", chat_id=group.id,
                                       message_id=first.message_id) for i in range(6)]
        calls += [bot.send_message(group.id, f"note {i}") for i in range(5)]
        await waits.run(*calls)
    finally:
        await bot.shutdown()
    # Then every call went through, none was refused, and no 2 s held more than 5 of them
    assert refused(standin) == []
    assert len(group.bot_messages()) == 6
    assert busiest(standin, group, 2.0) == 5


async def test_a_group_burst_counts_against_both_the_chat_and_the_group_window(
        standin: StandIn) -> None:
    # Given a group allowed 4 calls in any 3 s and, like every chat, 2 in any second (both of
    # Telegram's limits on one chat, scaled down), and a limiter counting the same
    alice = standin.user("Alice")
    group = standin.group("G", alice)
    limits = dict(group_per_minute=4, group_period=3.0, chat_per_second=2.0, chat_burst=2)
    standin.set_flood_limits(FloodLimits(**limits))  # type: ignore[arg-type]
    waits = Waits(standin)
    bot = await a_bot(standin, waits.limiter(max_retries=0, answers_kept=0, **limits))
    try:
        # When the bot makes 10 calls there at once
        await waits.run(*(bot.send_message(group.id, f"note {i}") for i in range(10)))
    finally:
        await bot.shutdown()
    # Then none was refused: the chat's short window did not make the limiter forget the
    # calls the group's longer window still counts
    assert refused(standin) == []
    assert len(group.bot_messages()) == 10
    assert busiest(standin, group, 3.0) == 4
    assert busiest(standin, group, 1.0) == 2


async def test_a_private_chat_gets_about_one_call_a_second(standin: StandIn) -> None:
    alice = standin.user("Alice")
    alice.start_bot()
    standin.set_flood_limits(FloodLimits(chat_per_second=2.0, chat_burst=3))
    waits = Waits(standin)
    bot = await a_bot(standin, waits.limiter(chat_per_second=2.0, chat_burst=3, max_retries=0))
    try:
        await waits.run(*(bot.send_message(alice.id, f"x{i}") for i in range(9)))
    finally:
        await bot.shutdown()
    assert refused(standin) == []
    assert len(alice.private.bot_messages()) == 9
    assert busiest(standin, alice.private, 1.5) == 3  # a burst of 3, then 2 a second


async def test_a_429_holds_only_its_own_chat(standin: StandIn) -> None:
    # Given Telegram answering 429 (retry after 2 s) to the next send in one group
    alice, bob = standin.user("Alice"), standin.user("Bob")
    bob.start_bot()
    busy = standin.group("Busy", alice)
    standin.inject_error("sendMessage", 429, retry_after=2, chat_id=busy.id)
    waits = Waits(standin)
    bot: Bot = await a_bot(standin, waits.limiter(max_retries=2))
    try:
        # When the bot sends there and, meanwhile, to someone else
        held = asyncio.ensure_future(bot.send_message(busy.id, "after the wait"))
        await standin.wait_for(lambda: refused(standin) == [429], what="the 429")
        await standin.wait_for(lambda: waits.sleepers, what="the group's call to wait")
        # Then the other chat is answered while the clock stands still, the group waits
        await asyncio.wait_for(bot.send_message(bob.id, "not held"), timeout=30)
        assert [m.text for m in bob.private.bot_messages()] == ["not held"]
        assert busy.bot_messages() == []
        # and the group's message goes once the 2 s have passed
        refused_at = standin.calls(ok=False)[0].time
        await waits.run(held)
    finally:
        await bot.shutdown()
    assert [m.text for m in busy.bot_messages()] == ["after the wait"]
    assert refused(standin) == [429]
    [sent] = standin.calls("sendMessage", chat_id=busy.id, ok=True)
    assert sent.time >= refused_at + 2


async def test_reading_and_answering_are_not_counted(standin: StandIn) -> None:
    alice = standin.user("Alice")
    group = standin.group("G", alice)
    waits = Waits(standin)
    limiter = waits.limiter(group_per_minute=2, chat_per_second=0)
    bot = await a_bot(standin, limiter)
    try:
        await bot.send_message(group.id, "one")
        await bot.send_message(group.id, "two")
        # the clock stands still: five reads go through without waiting for room
        chats = await asyncio.wait_for(asyncio.gather(
            *(bot.get_chat(group.id) for _ in range(5))), timeout=30)
        assert [c.id for c in chats] == [group.id] * 5 and waits.sleepers == []
        assert limiter.room(group.id) > 50  # a third message would wait for the minute
    finally:
        await bot.shutdown()


async def test_a_call_that_found_no_free_connection_is_sent_again(
        standin: StandIn, caplog: pytest.LogCaptureFixture) -> None:
    # Given a bot whose one HTTP connection is held by a send Telegram has not answered yet
    caplog.set_level(logging.INFO, "bot.delivery.limiter")
    alice = standin.user("Alice")
    alice.start_bot()
    standin.inject_delay("sendMessage", 5.0, chat_id=alice.id)
    limiter = ChatLimiter(chat_per_second=0, group_per_minute=0, overall_per_second=0,
                          max_retries=10_000)  # as many pool waits as the slow call takes
    bot = await a_bot(standin, limiter, HTTPXRequest(connection_pool_size=1, pool_timeout=0.05))
    try:
        held = asyncio.ensure_future(bot.send_message(alice.id, "held"))
        await standin.wait_for(lambda: standin.requests_in_flight == 1, what="the held send")
        # When another send waits for that connection longer than the pool lets it
        queued = asyncio.ensure_future(bot.send_message(alice.id, "queued"))
        await standin.wait_for(lambda: "sent again" in caplog.text, what="a pool timeout")
        # Then it is sent again (it never left), and goes once the connection is free
        standin.advance_clock(5.0)
        await asyncio.wait_for(asyncio.gather(held, queued), timeout=30)  # a hang guard
    finally:
        await bot.shutdown()
    assert [m.text for m in alice.private.bot_messages()] == ["held", "queued"]
    assert refused(standin) == []


async def test_a_call_that_timed_out_on_its_way_is_not_sent_again(standin: StandIn) -> None:
    # Given Telegram slower to answer a send than the bot waits for it
    alice = standin.user("Alice")
    alice.start_bot()
    standin.inject_delay("sendMessage", 5.0, chat_id=alice.id)
    limiter = ChatLimiter(chat_per_second=0, group_per_minute=0, overall_per_second=0)
    bot = await a_bot(standin, limiter, HTTPXRequest(read_timeout=0.2))
    try:
        # When the send times out while Telegram holds it
        with pytest.raises(TimedOut):
            await bot.send_message(alice.id, "maybe")
        standin.advance_clock(5.0)
        await standin.wait_for(lambda: alice.private.bot_messages(), what="the held send")
    finally:
        await bot.shutdown()
    # Then it is not sent a second time: it had reached Telegram
    assert [m.text for m in alice.private.bot_messages()] == ["maybe"]
    assert len(standin.calls("sendMessage", chat_id=alice.id)) == 1
