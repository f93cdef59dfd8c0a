"""The per-match lock table: mutual exclusion per match, and no entry left once a match's taps
are done (it must not grow with every match ever tapped)."""

from __future__ import annotations

import asyncio

from bot.intake.locks import MatchLocks


async def test_the_table_is_empty_after_many_matches_taps() -> None:
    locks = MatchLocks()
    inside: dict[int, int] = {}
    most: dict[int, int] = {}

    async def tap(match_id: int) -> None:
        async with locks.hold(match_id):
            inside[match_id] = inside.get(match_id, 0) + 1
            most[match_id] = max(most.get(match_id, 0), inside[match_id])
            await asyncio.sleep(0)  # let the other taps on this match try to get in
            await asyncio.sleep(0)
            inside[match_id] -= 1

    await asyncio.gather(*(tap(m) for m in range(1000) for _ in range(3)))

    assert len(locks) == 0
    assert set(most) == set(range(1000))
    assert all(n == 1 for n in most.values()), "two taps on one match were inside at once"


async def test_taps_on_one_match_take_turns_and_other_matches_do_not_wait() -> None:
    locks = MatchLocks()
    order: list[str] = []
    first_in = asyncio.Event()
    release = asyncio.Event()

    async def first() -> None:
        async with locks.hold(7):
            order.append("first in")
            first_in.set()
            await release.wait()
            order.append("first out")

    async def second() -> None:
        async with locks.hold(7):
            order.append("second in")

    async def other_match() -> None:
        async with locks.hold(8):
            order.append("other match")

    a = asyncio.create_task(first())
    await first_in.wait()
    b = asyncio.create_task(second())
    await asyncio.sleep(0)
    await other_match()  # match 8 goes ahead while match 7 is held
    assert len(locks) == 1  # match 7: one holder, one waiter; match 8 already dropped
    release.set()
    await asyncio.gather(a, b)

    assert order == ["first in", "other match", "first out", "second in"]
    assert len(locks) == 0


async def test_a_waiter_that_gives_up_leaves_no_entry() -> None:
    locks = MatchLocks()
    held = asyncio.Event()
    release = asyncio.Event()

    async def holder() -> None:
        async with locks.hold(1):
            held.set()
            await release.wait()

    async def waiter() -> None:
        async with locks.hold(1):
            raise AssertionError("the waiter was cancelled before it got the lock")

    h = asyncio.create_task(holder())
    await held.wait()
    w = asyncio.create_task(waiter())
    await asyncio.sleep(0)
    w.cancel()
    await asyncio.gather(w, return_exceptions=True)
    release.set()
    await h
    assert len(locks) == 0
