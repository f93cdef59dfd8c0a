"""The webhook's wait (:meth:`bot.intake.lanes.ChatLanes.handle`): an update is answered once
handled, in its chat's order; an update behind a flood of its chat is answered once queued."""

from __future__ import annotations

import asyncio

from telegram import Update

from bot.intake.lanes import ChatLanes


def message(update_id: int, chat_id: int) -> Update:
    update = Update.de_json({"update_id": update_id, "message": {
        "message_id": update_id, "date": 0, "chat": {"id": chat_id, "type": "private"},
        "from": {"id": chat_id, "is_bot": False, "first_name": "A"}, "text": "hi"}}, None)
    assert update is not None
    return update


async def test_the_webhook_waits_for_its_update_but_not_behind_a_flood() -> None:
    lanes = ChatLanes(8, wait_behind=2)
    gate = asyncio.Event()
    done: list[int] = []

    async def work(n: int) -> None:
        await gate.wait()
        done.append(n)

    first = asyncio.ensure_future(lanes.handle(message(1, 7), work(1)))
    await asyncio.sleep(0.05)
    assert not first.done()  # held until its update is handled
    waiting = [asyncio.ensure_future(lanes.handle(message(n, 7), work(n))) for n in (2, 3)]
    await asyncio.sleep(0.05)
    behind = asyncio.ensure_future(lanes.handle(message(4, 7), work(4)))
    other = asyncio.ensure_future(lanes.handle(message(5, 8), work(5)))
    await asyncio.sleep(0.05)
    assert behind.done() and await behind  # two of its chat's before it: answered at once
    assert not any(t.done() for t in (first, *waiting, other))
    gate.set()
    assert await asyncio.gather(first, *waiting, other) == [True, True, True, True]
    await lanes.drain(1.0)
    assert [n for n in done if n != 5] == [1, 2, 3, 4]  # in the chat's order
    assert 5 in done


async def test_an_update_never_started_is_answered_as_not_handled() -> None:
    lanes = ChatLanes(8)
    gate = asyncio.Event()

    async def work() -> None:
        await gate.wait()

    first = asyncio.ensure_future(lanes.handle(message(1, 7), work()))
    second = asyncio.ensure_future(lanes.handle(message(2, 7), work()))
    await asyncio.sleep(0.05)
    await lanes.shutdown()  # the bot stops with both in its lane
    assert await first is False and await second is False
