"""The simulated users' API: what tests use to act and to look."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from standin.server import StandIn
from standin.sim import StandInError

KB = {"inline_keyboard": [[{"text": "Roll", "callback_data": "roll"},
                           {"text": "Rules", "url": "https://example.org/rules"}]]}


async def post(api: httpx.AsyncClient, method: str, **params: object) -> dict[str, object]:
    body: dict[str, object] = (await api.post(method, json=params)).json()
    assert body["ok"], body
    return body


async def test_tap_uses_the_current_keyboard(api: httpx.AsyncClient, standin: StandIn) -> None:
    alice = standin.user("Alice")
    alice.start_bot()
    sent = await post(api, "sendMessage", chat_id=alice.id, text="board", reply_markup=KB)
    old = alice.private.last_bot_message()
    assert [[b.text for b in row] for row in old.buttons] == [["Roll", "Rules"]]
    assert old.button("Rules").url == "https://example.org/rules"
    message_id = sent["result"]["message_id"]  # type: ignore[index]
    await post(api, "editMessageReplyMarkup", chat_id=alice.id, message_id=message_id,
               reply_markup={"inline_keyboard": [[{"text": "Confirm", "callback_data": "ok"}]]})
    with pytest.raises(StandInError, match=r"no button 'Roll'.*\['Confirm'\]"):
        alice.tap(old, "Roll")  # the snapshot is stale; the live keyboard counts
    tap = alice.tap(old, "Confirm")
    assert tap.data == "ok"
    assert standin.pending_updates()[-1]["callback_query"]["data"] == "ok"


async def test_tap_url_button_and_deleted_message(api: httpx.AsyncClient,
                                                  standin: StandIn) -> None:
    alice = standin.user("Alice")
    alice.start_bot()
    sent = await post(api, "sendMessage", chat_id=alice.id, text="board", reply_markup=KB)
    board = alice.private.last_bot_message()
    with pytest.raises(StandInError, match="has no callback_data"):
        alice.tap(board, "Rules")
    await post(api, "deleteMessage", chat_id=alice.id,
               message_id=sent["result"]["message_id"])  # type: ignore[index]
    with pytest.raises(StandInError, match="deleted"):
        alice.tap(board, "Roll")
    assert [m.text for m in alice.sees(alice.private)] == ["/start"]


async def test_waiting_for_an_answer_times_out_clearly(standin: StandIn) -> None:
    alice = standin.user("Alice")
    msg = alice.start_bot()
    tap = alice.tap_data(msg, "forged")
    with pytest.raises(StandInError, match="answer to callback query"):
        await tap.wait(timeout=0.1)
    with pytest.raises(StandInError, match="the bot to go idle"):
        await standin.idle(timeout=0.2)  # the update was never fetched


async def test_idle_and_wait_for(api: httpx.AsyncClient, standin: StandIn) -> None:
    alice = standin.user("Alice")
    alice.start_bot()
    standin.inject_delay("sendMessage", 30, times=2)  # both replies are slow ...

    async def bot() -> None:  # a tiny hand-written bot: fetch, then reply twice
        updates = (await post(api, "getUpdates", timeout=1))["result"]
        assert isinstance(updates, list)
        await post(api, "getUpdates", offset=updates[-1]["update_id"] + 1, timeout=0)
        for text in ("one", "two"):
            await post(api, "sendMessage", chat_id=alice.id, text=text)

    task = asyncio.create_task(bot())
    await standin.wait_for(lambda: standin.requests_in_flight == 1, what="the first reply")
    standin.advance_clock(30)  # ... until the clock lets the first one through
    first = await standin.wait_for(lambda: [m for m in alice.private.bot_messages()], 5)
    assert first[0].text == "one"
    await standin.wait_for(lambda: len(standin.calls("sendMessage")) == 1
                           and standin.requests_in_flight == 1, what="the second reply")
    assert not standin.is_idle()  # a request in flight
    standin.advance_clock(30)
    await standin.idle()
    assert [m.text for m in alice.private.bot_messages()] == ["one", "two"]
    await task


async def test_a_delayed_call_waits_for_the_clock(api: httpx.AsyncClient,
                                                  standin: StandIn) -> None:
    alice = standin.user("Alice")
    alice.start_bot()
    standin.inject_delay("sendMessage", 3, chat_id=alice.id)
    started = standin.now()
    send = asyncio.create_task(post(api, "sendMessage", chat_id=alice.id, text="slow"))
    await standin.wait_for(lambda: standin.requests_in_flight == 1, what="the request")
    standin.advance_clock(2)
    await standin.settled()
    assert not send.done() and standin.calls("sendMessage") == []
    standin.advance_clock(1)
    await send
    assert [c.time - started for c in standin.calls("sendMessage")] == [3]
    await post(api, "sendMessage", chat_id=alice.id, text="prompt")  # only once
    assert [m.text for m in alice.private.bot_messages()] == ["slow", "prompt"]


def test_sync_use_with_a_bot_in_another_thread() -> None:
    with StandIn() as standin:
        alice = standin.user("Alice")
        alice.start_bot()

        def bot() -> None:
            with httpx.Client(base_url=standin.api_url) as client:
                client.post("getUpdates", json={"timeout": 1})
                client.post("sendMessage", json={"chat_id": alice.id, "text": "hi"})

        import threading

        thread = threading.Thread(target=bot)
        thread.start()
        msg = alice.private.wait_for_bot_message(timeout=5).wait_sync()
        thread.join()
        assert msg.text == "hi"
        standin.idle_sync(quiet=0.05)


def test_users_chats_and_membership() -> None:
    with StandIn() as standin:
        alice = standin.user("Alice", username="alice", language_code="el")
        bob = standin.user("Bob", id=42)
        carol = standin.user("Carol")
        assert bob.id == 42 and alice.language_code == "el"
        assert alice.to_json() == {"id": alice.id, "is_bot": False, "first_name": "Alice",
                                   "username": "alice", "language_code": "el"}
        with pytest.raises(StandInError, match="already exists"):
            standin.user("Bob again", id=42)
        group = standin.group("G", alice, bob)
        with pytest.raises(StandInError, match="not a member"):
            carol.send(group, "/new")
        standin.join(group, carol)
        carol.send(group, "/new")
        with pytest.raises(StandInError, match="deep-link payload"):
            alice.start_bot("no spaces allowed")
        with pytest.raises(StandInError, match="not a link to this bot"):
            alice.follow("https://t.me/other_bot?start=x")
        assert not alice.has_started_bot
        alice.start_bot("A-z_09")
        assert alice.has_started_bot and alice.private.last().text == "/start A-z_09"
        with pytest.raises(StandInError, match="not a forum"):
            group.create_topic("x")


async def test_rate_inspection(api: httpx.AsyncClient, standin: StandIn) -> None:
    alice = standin.user("Alice")
    group = standin.group("G", alice)
    for i in range(3):
        await post(api, "sendMessage", chat_id=group.id, text=str(i))
        standin.advance_clock(25)
    await post(api, "sendMessage", chat_id=group.id, text="3")
    calls = standin.calls("sendMessage", chat_id=group.id)
    assert all(c.ok for c in calls)
    assert [c.time - calls[0].time for c in calls] == [0, 25, 50, 75]
    assert standin.max_calls_per_window(("sendMessage", "sendPhoto"), 60, chat_id=group.id) == 3
