"""The stand-in's flood limits (off by default): 20 calls a minute per group counting sends,
edits and deletions; about 1 a second per chat; 30 a second overall; 429 with retry_after."""

from __future__ import annotations

import httpx

from standin.flood import FloodLimits
from standin.server import StandIn

from .test_api import call, ok


async def test_off_by_default(api: httpx.AsyncClient, standin: StandIn) -> None:
    alice = standin.user("Alice")
    group = standin.group("G", alice)
    for _ in range(40):
        await ok(api, "sendMessage", chat_id=group.id, text="x")


async def test_a_group_gets_20_calls_a_minute_counting_edits_and_deletions(
    api: httpx.AsyncClient, standin: StandIn
) -> None:
    alice = standin.user("Alice")
    group = standin.group("G", alice)
    standin.set_flood_limits(FloodLimits(chat_per_second=0))  # the group's minute alone
    first = await ok(api, "sendMessage", chat_id=group.id, text="card",
                     reply_markup={"inline_keyboard": [[{"text": "Go", "callback_data": "g"}]]})
    tap = alice.tap(standin.message(group.id, first["message_id"]), "Go")
    for i in range(17):
        await ok(api, "editMessageText", chat_id=group.id, message_id=first["message_id"],
                 text=f"edit {i}")
    await ok(api, "answerCallbackQuery", callback_query_id=tap.id)  # not a message: free
    second = await ok(api, "sendMessage", chat_id=group.id, text="two")
    await ok(api, "deleteMessage", chat_id=group.id, message_id=second["message_id"])  # 20th
    over = await call(api, "sendMessage", chat_id=group.id, text="21st")
    assert over["error_code"] == 429 and over["parameters"]["retry_after"] == 60
    assert over["description"] == "Too Many Requests: retry after 60"
    await ok(api, "getChat", chat_id=group.id)  # reading is not counted
    standin.advance_clock(30)
    assert (await call(api, "deleteMessage", chat_id=group.id,
                       message_id=first["message_id"]))["parameters"]["retry_after"] == 30
    standin.advance_clock(30)
    await ok(api, "sendMessage", chat_id=group.id, text="room again")
    assert [c.error_code for c in standin.calls(chat_id=group.id) if not c.ok] == [429, 429]


async def test_one_chat_gets_about_one_call_a_second(
    api: httpx.AsyncClient, standin: StandIn
) -> None:
    alice, bob = standin.user("Alice"), standin.user("Bob")
    alice.start_bot()
    bob.start_bot()
    standin.set_flood_limits()
    for _ in range(3):  # a short burst is allowed
        await ok(api, "sendMessage", chat_id=alice.id, text="x")
    over = await call(api, "sendMessage", chat_id=alice.id, text="x")
    assert over["error_code"] == 429 and over["parameters"]["retry_after"] == 3
    await ok(api, "sendMessage", chat_id=bob.id, text="another chat")
    standin.advance_clock(3.0)
    await ok(api, "sendMessage", chat_id=alice.id, text="x")


async def test_30_calls_a_second_overall_and_limits_can_be_lifted(
    api: httpx.AsyncClient, standin: StandIn
) -> None:
    users = [standin.user(f"U{i}") for i in range(31)]
    for u in users:
        u.start_bot()
    standin.set_flood_limits()
    for u in users[:30]:
        await ok(api, "sendMessage", chat_id=u.id, text="x")
    over = await call(api, "sendMessage", chat_id=users[30].id, text="x")
    assert over["error_code"] == 429 and over["parameters"]["retry_after"] == 1
    standin.set_flood_limits(None)
    await ok(api, "sendMessage", chat_id=users[30].id, text="x")
