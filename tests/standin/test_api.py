"""Direct HTTP tests of the stand-in's Bot API methods and their Telegram-like errors."""

from __future__ import annotations

import asyncio
import io
import json
import warnings
from typing import Any

import httpx
from PIL import Image
from telegram import Bot, ChatFullInfo, ChatMember, Update

from standin import errors as E
from standin.clock import ManualClock
from standin.server import StandIn

KB = {"inline_keyboard": [[{"text": "Roll", "callback_data": "roll:1:1"}]]}
KB2 = {"inline_keyboard": [[{"text": "Undo", "callback_data": "undo:1:2"}]]}


def png(color: str = "red", size: tuple[int, int] = (64, 32)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, color).save(buf, "PNG")
    return buf.getvalue()


async def call(api: httpx.AsyncClient, method: str, **params: Any) -> dict[str, Any]:
    response = await api.post(method, json=params)
    body: dict[str, Any] = response.json()
    assert response.status_code == (200 if body["ok"] else body["error_code"])
    return body


async def ok(api: httpx.AsyncClient, method: str, **params: Any) -> Any:
    body = await call(api, method, **params)
    assert body["ok"], body
    return body["result"]


async def fails(api: httpx.AsyncClient, method: str, code: int, description: str,
                **params: Any) -> dict[str, Any]:
    body = await call(api, method, **params)
    assert not body["ok"], body
    assert (body["error_code"], body["description"]) == (code, description)
    return body


# ---- protocol -------------------------------------------------------------------------------

async def test_get_me(api: httpx.AsyncClient, standin: StandIn) -> None:
    me = await ok(api, "getMe")
    assert me["id"] == 123 and me["is_bot"] and me["username"] == "portes_test_bot"
    assert me["can_read_all_group_messages"] is False


async def test_token_checks_and_unknown_method(standin: StandIn) -> None:
    async with httpx.AsyncClient() as client:
        r = await client.post(f"{standin.base_url}123:WRONG/getMe")
        assert (r.status_code, r.json()["description"]) == (401, "Unauthorized")
        r = await client.post(f"{standin.base_url}garbage/getMe")
        assert (r.status_code, r.json()["description"]) == (404, "Not Found")
        r = await client.post(f"{standin.api_url}sendTelepathy")
        assert r.status_code == 404 and r.json() == {"ok": False, "error_code": 404,
                                                      "description": "Not Found"}
        r = await client.get(f"{standin.api_url}getme")  # GET, any case, as Telegram accepts
        assert r.json()["ok"]


async def test_form_and_multipart_bodies(api: httpx.AsyncClient, standin: StandIn) -> None:
    alice = standin.user("Alice")
    alice.start_bot()
    r = await api.post("sendMessage", data={"chat_id": str(alice.id), "text": "form",
                                            "reply_markup": json.dumps(KB)})
    assert r.json()["result"]["reply_markup"] == KB
    r = await api.post("sendPhoto", data={"chat_id": str(alice.id), "caption": "multi",
                                          "reply_markup": json.dumps(KB)},
                       files={"photo": ("board.png", png(), "image/png")})
    result = r.json()["result"]
    assert result["caption"] == "multi" and result["reply_markup"] == KB
    sizes = result["photo"]
    assert sizes[0]["width"] <= 90 and (sizes[-1]["width"], sizes[-1]["height"]) == (64, 32)
    shown = alice.private.last()
    assert shown.uploaded_bytes == png() and shown.image().size == (64, 32)


async def test_photo_file_id_reuse_get_file_and_download(api: httpx.AsyncClient,
                                                         standin: StandIn) -> None:
    alice = standin.user("Alice")
    alice.start_bot()
    r = await api.post("sendPhoto", data={"chat_id": str(alice.id)},
                       files={"photo": ("a.png", png("green"), "image/png")})
    first = r.json()["result"]["photo"][-1]
    again = await ok(api, "sendPhoto", chat_id=alice.id, photo=first["file_id"])
    assert again["photo"][-1]["file_unique_id"] == first["file_unique_id"]
    msgs = alice.private.bot_messages()
    assert msgs[0].photo_bytes == msgs[1].photo_bytes is not None
    await fails(api, "sendPhoto", 400, E.WRONG_FILE_ID, chat_id=alice.id, photo="nope")
    info = await ok(api, "getFile", file_id=first["file_id"])
    async with httpx.AsyncClient() as client:
        r = await client.get(f"{standin.base_file_url}{standin.token}/{info['file_path']}")
    assert r.status_code == 200 and r.content == msgs[0].photo_bytes
    green = Image.open(io.BytesIO(r.content)).convert("RGB").getpixel((5, 5))
    assert isinstance(green, tuple) and green[1] > 100


async def test_photo_garbage_and_url(api: httpx.AsyncClient, standin: StandIn) -> None:
    alice = standin.user("Alice")
    alice.start_bot()
    r = await api.post("sendPhoto", data={"chat_id": str(alice.id)},
                       files={"photo": ("x.png", b"not an image", "image/png")})
    assert r.json()["description"] == "Bad Request: IMAGE_PROCESS_FAILED"
    await fails(api, "sendPhoto", 400, "Bad Request: failed to get HTTP URL content",
                chat_id=alice.id, photo="https://example.org/board.png")
    standin.serve_url("https://example.org/board.png", png("blue"))
    await ok(api, "sendPhoto", chat_id=alice.id, photo="https://example.org/board.png")


# ---- polling --------------------------------------------------------------------------------

async def long_poll(api: httpx.AsyncClient, standin: StandIn,
                    **params: Any) -> asyncio.Task[Any]:
    """A getUpdates request, returned once the stand-in holds it waiting for an update."""
    poll = asyncio.create_task(call(api, "getUpdates", **params))
    await standin.wait_for(lambda: standin.polls_waiting == 1 or poll.done(), what="the poll")
    assert not poll.done(), poll.result()
    return poll


async def test_long_poll_ends_at_its_timeout_when_nothing_comes(api: httpx.AsyncClient,
                                                                standin: StandIn) -> None:
    poll = await long_poll(api, standin, timeout=1)
    standin.advance_clock(0.9)
    await standin.settled()
    assert standin.polls_waiting == 1 and not poll.done()
    standin.advance_clock(0.1)
    assert await poll == {"ok": True, "result": []}
    assert await ok(api, "getUpdates", timeout=0) == []  # no timeout: answered at once


async def test_long_poll_returns_as_soon_as_an_update_comes(api: httpx.AsyncClient,
                                                            standin: StandIn) -> None:
    alice = standin.user("Alice")
    poll = await long_poll(api, standin, timeout=5)
    alice.start_bot("abc")
    updates = (await poll)["result"]  # the clock never moved: the update ended the poll
    assert updates[0]["message"]["text"] == "/start abc"
    assert updates[0]["message"]["entities"] == [{"type": "bot_command", "offset": 0,
                                                  "length": 6}]
    # not confirmed yet: delivered again; confirmed by offset: gone
    again = await ok(api, "getUpdates", timeout=0)
    assert again == updates
    assert await ok(api, "getUpdates", offset=updates[-1]["update_id"] + 1, timeout=0) == []


async def test_update_ids_increase_and_allowed_updates(api: httpx.AsyncClient,
                                                       standin: StandIn) -> None:
    alice = standin.user("Alice")
    alice.start_bot()
    msg = alice.send(alice.private, "hello")
    alice.tap_data(msg, "x")
    updates = await ok(api, "getUpdates", allowed_updates=["callback_query"])
    assert [list(u)[1] for u in updates] == ["callback_query"]
    alice.send(alice.private, "again")
    assert await ok(api, "getUpdates", offset=updates[-1]["update_id"] + 1) == []
    updates = await ok(api, "getUpdates", allowed_updates=[])  # back to the default set
    alice.send(alice.private, "third")
    alice.send(alice.private, "fourth")
    updates = await ok(api, "getUpdates")
    ids = [u["update_id"] for u in updates]
    assert ids == sorted(ids) and len(set(ids)) == 2


async def test_webhook_blocks_polling(api: httpx.AsyncClient, standin: StandIn) -> None:
    assert await ok(api, "setWebhook", url="https://bot.example/hook", secret_token="s")
    assert (await ok(api, "getWebhookInfo"))["url"] == "https://bot.example/hook"
    await fails(api, "getUpdates", 409, E.WEBHOOK_ACTIVE)
    assert await ok(api, "deleteWebhook", drop_pending_updates=True)
    assert await ok(api, "getUpdates") == []


async def test_take_updates_gives_what_a_webhook_would_receive(api: httpx.AsyncClient,
                                                                standin: StandIn) -> None:
    assert await ok(api, "setWebhook", url="https://bot.example/hook", secret_token="s")
    alice = standin.user("Alice")
    alice.start_bot()
    alice.send(alice.private, "hello")
    taken = standin.take_updates()
    assert [u["message"]["text"] for u in taken] == ["/start", "hello"]
    assert taken[0]["update_id"] < taken[1]["update_id"]
    assert taken[0]["message"]["entities"][0]["type"] == "bot_command"
    assert Update.de_json(taken[1], Bot(standin.token)).message.text == "hello"  # type: ignore[union-attr]
    assert standin.take_updates() == [] and standin.pending_updates() == []
    assert (await ok(api, "getWebhookInfo"))["pending_update_count"] == 0


async def test_second_poller_terminates_the_first(api: httpx.AsyncClient,
                                                  standin: StandIn) -> None:
    first = await long_poll(api, standin, timeout=5)
    assert await ok(api, "getUpdates", timeout=0) == []
    body = await first
    assert (body["error_code"], body["description"]) == (409, E.POLL_CONFLICT)


async def test_stop_ends_a_waiting_long_poll() -> None:
    standin = StandIn(clock=ManualClock()).start()
    async with httpx.AsyncClient(base_url=standin.api_url, timeout=10) as api:
        poll = await long_poll(api, standin, timeout=30)  # the clock stands: only stop ends it
        await asyncio.to_thread(standin.stop)
        assert await poll == {"ok": True, "result": []}


# ---- commands -------------------------------------------------------------------------------

async def test_commands_by_scope_and_language(api: httpx.AsyncClient, standin: StandIn) -> None:
    cmds = [{"command": "new", "description": "New match"}]
    el = [{"command": "new", "description": "Νέο παιχνίδι"}]
    group_scope = {"type": "all_group_chats"}
    assert await ok(api, "setMyCommands", commands=cmds)
    assert await ok(api, "setMyCommands", commands=el, language_code="el", scope=group_scope)
    assert await ok(api, "getMyCommands") == cmds
    assert await ok(api, "getMyCommands", scope=group_scope, language_code="el") == el
    assert await ok(api, "getMyCommands", language_code="el") == []
    assert standin.commands(scope=group_scope, language_code="el") == el
    await fails(api, "setMyCommands", 400, "Bad Request: BOT_COMMAND_INVALID",
                commands=[{"command": "New!", "description": "x"}])
    assert await ok(api, "deleteMyCommands")
    assert await ok(api, "getMyCommands") == []


# ---- sending limits -------------------------------------------------------------------------

async def test_sending_limits(api: httpx.AsyncClient, standin: StandIn) -> None:
    alice = standin.user("Alice")
    alice.start_bot()
    await ok(api, "sendMessage", chat_id=alice.id, text="x" * 4096)
    await fails(api, "sendMessage", 400, E.TEXT_TOO_LONG, chat_id=alice.id, text="x" * 4097)
    await fails(api, "sendMessage", 400, E.TEXT_EMPTY, chat_id=alice.id, text="")
    await fails(api, "sendMessage", 400, E.CHAT_NOT_FOUND, chat_id=999, text="x")
    bad = {"inline_keyboard": [[{"text": "x", "callback_data": "é" * 33}]]}  # 66 bytes
    await fails(api, "sendMessage", 400, E.BUTTON_DATA_INVALID, chat_id=alice.id, text="x",
                reply_markup=bad)
    await ok(api, "sendMessage", chat_id=alice.id, text="x",
             reply_markup={"inline_keyboard": [[{"text": "x", "callback_data": "é" * 32}]]})
    await fails(api, "sendMessage", 400, E.TEXT_BUTTONS, chat_id=alice.id, text="x",
                reply_markup={"inline_keyboard": [[{"text": "x"}]]})
    # an inline keyboard with no rows, as python-telegram-bot sends it (it drops empty lists)
    await fails(api, "sendMessage", 400, E.MARKUP_UNPARSABLE, chat_id=alice.id, text="x",
                reply_markup={})
    r = await api.post("sendPhoto", data={"chat_id": str(alice.id), "caption": "c" * 1025},
                       files={"photo": ("a.png", png(), "image/png")})
    assert r.json()["description"] == E.CAPTION_TOO_LONG
    assert len(alice.private.messages()) == 3  # /start, the 4096 text, the 64-byte button


async def test_blocked_and_never_started(api: httpx.AsyncClient, standin: StandIn) -> None:
    alice = standin.user("Alice")
    await fails(api, "sendMessage", 403, E.NOT_STARTED, chat_id=alice.id, text="hi")
    alice.start_bot()
    sent = await ok(api, "sendMessage", chat_id=alice.id, text="hi")
    alice.block_bot()
    await fails(api, "sendMessage", 403, E.BLOCKED, chat_id=alice.id, text="hi")
    await fails(api, "editMessageText", 403, E.BLOCKED, chat_id=alice.id,
                message_id=sent["message_id"], text="hey")
    await fails(api, "sendChatAction", 403, E.BLOCKED, chat_id=alice.id, action="typing")
    alice.start_bot()  # "Restart bot" unblocks
    await ok(api, "sendMessage", chat_id=alice.id, text="welcome back")


# ---- editing --------------------------------------------------------------------------------

async def test_edit_text_rules(api: httpx.AsyncClient, standin: StandIn) -> None:
    alice = standin.user("Alice")
    alice.start_bot()
    sent = await ok(api, "sendMessage", chat_id=alice.id, text="board", reply_markup=KB)
    where = {"chat_id": alice.id, "message_id": sent["message_id"]}
    await fails(api, "editMessageText", 400, E.NOT_MODIFIED, text="board", reply_markup=KB,
                **where)
    # same text without reply_markup is a change: the keyboard goes
    edited = await ok(api, "editMessageText", text="board", **where)
    assert "reply_markup" not in edited and "edit_date" in edited
    assert not alice.private.last().has_keyboard
    await ok(api, "editMessageReplyMarkup", reply_markup=KB2, **where)
    await fails(api, "editMessageReplyMarkup", 400, E.NOT_MODIFIED, reply_markup=KB2, **where)
    assert alice.private.last().button_texts == ["Undo"]
    assert alice.private.last().edit_count == 2
    await fails(api, "editMessageText", 400, E.EDIT_NOT_FOUND, chat_id=alice.id,
                message_id=999, text="x")
    own = alice.private.messages()[0]
    await fails(api, "editMessageText", 400, E.CANT_EDIT, chat_id=alice.id,
                message_id=own.message_id, text="x")
    await fails(api, "editMessageCaption", 400,
                "Bad Request: there is no caption in the message to edit", caption="c", **where)


async def test_edit_media_and_caption_rules(api: httpx.AsyncClient, standin: StandIn) -> None:
    alice = standin.user("Alice")
    alice.start_bot()
    r = await api.post("sendPhoto", data={"chat_id": str(alice.id), "caption": "turn 1",
                                          "reply_markup": json.dumps(KB)},
                       files={"photo": ("a.png", png("red"), "image/png")})
    sent = r.json()["result"]
    where = {"chat_id": str(alice.id), "message_id": str(sent["message_id"])}
    r = await api.post("editMessageMedia", data={
        **where, "media": json.dumps({"type": "photo", "media": "attach://board"}),
        "reply_markup": json.dumps(KB)}, files={"board": ("b.png", png("blue"), "image/png")})
    edited = r.json()["result"]
    assert "caption" not in edited  # no caption in the InputMedia: the caption is gone
    shown = alice.private.last()
    assert shown.caption is None and shown.image().getpixel((5, 5))[2] > 200
    assert shown.button_texts == ["Roll"]
    await fails(api, "editMessageMedia", 400, E.NOT_MODIFIED, media={
        "type": "photo", "media": edited["photo"][-1]["file_id"]}, reply_markup=KB, **where)
    await fails(api, "editMessageMedia", 400,
                "Bad Request: can't parse InputMedia: media not found",
                media={"type": "photo", "media": "attach://missing"}, **where)
    await fails(api, "editMessageCaption", 400, E.CAPTION_TOO_LONG, caption="c" * 1025, **where)
    await ok(api, "editMessageCaption", caption="turn 2", **where)
    assert alice.private.last().caption == "turn 2" and not alice.private.last().has_keyboard
    await fails(api, "editMessageText", 400,
                "Bad Request: there is no text in the message to edit", text="x", **where)


async def test_edit_media_adds_media_to_a_text_message(api: httpx.AsyncClient,
                                                       standin: StandIn) -> None:
    alice = standin.user("Alice")
    alice.start_bot()
    photo = await _upload(api, alice.id)
    sent = await ok(api, "sendMessage", chat_id=alice.id, text="loading")
    await ok(api, "editMessageMedia", chat_id=alice.id, message_id=sent["message_id"],
             media={"type": "photo", "media": photo, "caption": "board"})
    shown = alice.private.last()
    assert shown.text is None and shown.caption == "board" and shown.photo_bytes


async def _upload(api: httpx.AsyncClient, chat_id: int) -> str:
    r = await api.post("sendPhoto", data={"chat_id": str(chat_id)},
                       files={"photo": ("a.png", png("green"), "image/png")})
    file_id: str = r.json()["result"]["photo"][-1]["file_id"]
    return file_id


async def test_inline_messages(api: httpx.AsyncClient, standin: StandIn) -> None:
    alice, bob = standin.user("Alice"), standin.user("Bob")
    alice.start_bot()
    photo_id = await _upload(api, alice.id)
    query = alice.inline_query("play")
    updates = await ok(api, "getUpdates")
    inline_query = updates[-1]["inline_query"]
    assert inline_query["query"] == "play" and inline_query["from"]["id"] == alice.id
    assert await ok(api, "answerInlineQuery", inline_query_id=inline_query["id"], results=[
        {"type": "article", "id": "m1", "title": "Invite",
         "input_message_content": {"message_text": "Alice invites you"}, "reply_markup": KB},
        {"type": "article", "id": "m2", "title": "Plain",
         "input_message_content": {"message_text": "no keyboard"}}])
    await fails(api, "answerInlineQuery", 400, E.QUERY_TOO_OLD,
                inline_query_id=inline_query["id"], results=[])
    results = await query
    assert [r["id"] for r in results] == ["m1", "m2"]

    dm = standin.direct_chat(alice, bob)
    posted = alice.choose_inline_result(query, "m1", dm)
    assert posted.inline_message_id and posted.via_bot and posted.text == "Alice invites you"
    assert alice.choose_inline_result(query, "m2", dm).inline_message_id is None
    where = {"inline_message_id": posted.inline_message_id}
    assert await ok(api, "editMessageText", text="Bob joined", reply_markup=KB, **where) is True
    assert bob.sees(dm)[0].text == "Bob joined"
    # uploads cannot go into inline messages; a file_id can
    r = await api.post("editMessageMedia", data={
        **where, "media": json.dumps({"type": "photo", "media": "attach://b"})},
        files={"b": ("b.png", png(), "image/png")})
    assert (r.status_code, r.json()["description"]) == (400, E.INLINE_UPLOAD)
    assert await ok(api, "editMessageMedia", media={"type": "photo", "media": photo_id,
                                                    "caption": "board"}, **where) is True
    assert bob.sees(dm)[0].caption == "board" and not bob.sees(dm)[0].has_keyboard
    await fails(api, "editMessageText", 400, E.MESSAGE_ID_INVALID, inline_message_id="zz",
                text="x")
    # a tap on the inline message carries inline_message_id, not message
    bob_tap = bob.tap_data(bob.sees(dm)[0], "join")
    updates = await ok(api, "getUpdates", offset=updates[-1]["update_id"] + 1)
    cq = updates[-1]["callback_query"]
    assert cq["inline_message_id"] == posted.inline_message_id and "message" not in cq
    assert cq["id"] == bob_tap.id
    # no chosen_inline_result unless inline feedback is enabled
    assert not any("chosen_inline_result" in u for u in updates)


async def test_chosen_inline_result_with_feedback(api: httpx.AsyncClient,
                                                  standin: StandIn) -> None:
    standin.set_inline_feedback(True)
    alice, bob = standin.user("Alice"), standin.user("Bob")
    query = alice.inline_query("")
    iq = (await ok(api, "getUpdates"))[-1]["inline_query"]
    await ok(api, "answerInlineQuery", inline_query_id=iq["id"], results=[
        {"type": "article", "id": "r", "title": "t",
         "input_message_content": {"message_text": "card"}, "reply_markup": KB}])
    await query
    posted = alice.choose_inline_result(query, "r", standin.direct_chat(alice, bob))
    updates = await ok(api, "getUpdates")
    chosen = updates[-1]["chosen_inline_result"]
    assert chosen == {"result_id": "r", "from": alice.to_json(), "query": "",
                      "inline_message_id": posted.inline_message_id}


# ---- deleting -------------------------------------------------------------------------------

async def test_delete_window_is_48_hours(api: httpx.AsyncClient, standin: StandIn) -> None:
    alice, bob = standin.user("Alice"), standin.user("Bob")
    group = standin.group("G", alice, bob)
    a = await ok(api, "sendMessage", chat_id=group.id, text="board 1")
    b = await ok(api, "sendMessage", chat_id=group.id, text="board 2")
    assert await ok(api, "deleteMessage", chat_id=group.id, message_id=a["message_id"])
    await fails(api, "deleteMessage", 400, E.DELETE_NOT_FOUND, chat_id=group.id,
                message_id=a["message_id"])
    standin.advance_clock(48 * 3600 - 60)
    theirs = alice.send(group, "/help")
    await fails(api, "deleteMessage", 400, E.CANT_DELETE, chat_id=group.id,
                message_id=theirs.message_id)  # not an admin: only its own messages
    standin.advance_clock(120)
    await fails(api, "deleteMessage", 400, E.CANT_DELETE, chat_id=group.id,
                message_id=b["message_id"])
    assert [m.text for m in group.messages()] == ["board 2", "/help"]


# ---- callback queries -----------------------------------------------------------------------

async def test_callback_answered_once_and_in_time(api: httpx.AsyncClient,
                                                  standin: StandIn) -> None:
    alice = standin.user("Alice", username="alice")
    alice.start_bot()
    await ok(api, "sendMessage", chat_id=alice.id, text="board", reply_markup=KB)
    tap = alice.tap(alice.private.last(), "Roll")
    assert tap.data == "roll:1:1" and tap.answer is None
    await fails(api, "answerCallbackQuery", 400, "Bad Request: URL_INVALID",
                callback_query_id=tap.id, url="https://evil.example")
    assert await ok(api, "answerCallbackQuery", callback_query_id=tap.id, text="Not your turn",
                    show_alert=True, url="t.me/portes_test_bot?start=inv_42")
    answer = await tap
    assert (answer.text, answer.show_alert) == ("Not your turn", True)
    await fails(api, "answerCallbackQuery", 400, E.QUERY_TOO_OLD, callback_query_id=tap.id)
    assert answer.url is not None
    start = alice.follow(answer.url)
    assert start.text == "/start inv_42"
    late = alice.tap(alice.private.messages()[1], "Roll")
    standin.advance_clock(16)
    await fails(api, "answerCallbackQuery", 400, E.QUERY_TOO_OLD, callback_query_id=late.id)
    await fails(api, "answerCallbackQuery", 400, E.QUERY_TOO_OLD, callback_query_id="forged")


# ---- groups ---------------------------------------------------------------------------------

async def test_group_privacy_mode(api: httpx.AsyncClient, standin: StandIn) -> None:
    alice, bob = standin.user("Alice"), standin.user("Bob", username="bobby")
    group = standin.group("Kafeneio", alice, bob)
    bot_msg = await ok(api, "sendMessage", chat_id=group.id, text="board")
    delivered = [
        alice.send(group, "/new 3"),
        alice.send(group, "/new@portes_test_bot"),
        alice.send(group, "/NEW@Portes_Test_Bot"),
        bob.reply(group, standin.message(group.id, bot_msg["message_id"]), "reply to bot"),
        alice.send(group, "hey @portes_test_bot play"),
    ]
    not_delivered = [
        alice.send(group, "hello all"),
        alice.send(group, "/new@another_bot"),
        bob.reply(group, delivered[0], "reply to Alice"),
        alice.send(group, "hey @bobby"),
    ]
    tap = alice.tap_data(standin.message(group.id, bot_msg["message_id"]), "x")
    updates = await ok(api, "getUpdates")
    texts = [u["message"]["text"] for u in updates if "message" in u]
    assert texts == [m.text for m in delivered]
    assert updates[-1]["callback_query"]["id"] == tap.id
    assert all(m.text not in texts for m in not_delivered)
    assert len(group.messages()) == 1 + len(delivered) + len(not_delivered)

    standin.set_privacy_mode(False)
    alice.send(group, "now everything")
    updates = await ok(api, "getUpdates", offset=updates[-1]["update_id"] + 1)
    assert updates[-1]["message"]["text"] == "now everything"
    assert (await ok(api, "getMe"))["can_read_all_group_messages"] is True


async def test_group_upgrade_to_supergroup(api: httpx.AsyncClient, standin: StandIn) -> None:
    alice = standin.user("Alice")
    group = standin.group("G", alice)
    supergroup = alice.upgrade_group(group)
    assert supergroup.type == "supergroup" and supergroup.id < -1_000_000_000_000
    updates = await ok(api, "getUpdates")
    assert updates[0]["message"]["migrate_to_chat_id"] == supergroup.id
    assert updates[0]["message"]["chat"]["id"] == group.id
    assert updates[1]["message"]["migrate_from_chat_id"] == group.id
    assert updates[1]["message"]["chat"] == {"id": supergroup.id, "type": "supergroup",
                                             "title": "G"}
    body = await fails(api, "sendMessage", 400, E.UPGRADED, chat_id=group.id, text="x")
    assert body["parameters"] == {"migrate_to_chat_id": supergroup.id}
    await ok(api, "sendMessage", chat_id=supergroup.id, text="x")


async def test_bot_removed_and_added(api: httpx.AsyncClient, standin: StandIn) -> None:
    alice = standin.user("Alice")
    group = standin.supergroup("SG", alice)
    alice.remove_bot(group)
    update = (await ok(api, "getUpdates"))[-1]["my_chat_member"]
    assert update["old_chat_member"]["status"] == "member"
    assert update["new_chat_member"] == {"status": "left", "user": {
        "id": 123, "is_bot": True, "first_name": "Portes", "username": "portes_test_bot"}}
    await fails(api, "sendMessage", 403, "Forbidden: bot is not a member of the supergroup chat",
                chat_id=group.id, text="x")
    alice.send(group, "/new")
    alice.add_bot(group)
    updates = await ok(api, "getUpdates", offset=0)
    kinds = [list(u)[1] for u in updates]
    assert kinds == ["my_chat_member", "my_chat_member", "message"]
    assert updates[-1]["message"]["new_chat_members"][0]["id"] == 123
    await ok(api, "sendMessage", chat_id=group.id, text="back")
    alice.remove_bot(group, ban=True)
    await fails(api, "sendMessage", 403, "Forbidden: bot was kicked from the supergroup chat",
                chat_id=group.id, text="x")


async def test_forum_topics(api: httpx.AsyncClient, standin: StandIn) -> None:
    alice = standin.user("Alice")
    forum = standin.supergroup("Forum", alice, forum=True)
    topic = forum.create_topic("Portes", by=alice)
    alice.send(forum, "/new", thread=topic)
    updates = await ok(api, "getUpdates")
    assert updates[-1]["message"]["message_thread_id"] == topic
    assert updates[-1]["message"]["is_topic_message"] is True
    await ok(api, "sendMessage", chat_id=forum.id, message_thread_id=topic, text="board")
    await ok(api, "sendMessage", chat_id=forum.id, text="general")
    await fails(api, "sendMessage", 400, "Bad Request: message thread not found",
                chat_id=forum.id, message_thread_id=999, text="x")
    assert [m.content for m in forum.messages(thread=topic)] == ["", "/new", "board"]
    assert [m.text for m in forum.messages(all_threads=False)] == ["general"]


# ---- formatting and mentions ----------------------------------------------------------------

async def test_html_mentions_and_markdown_errors(api: httpx.AsyncClient,
                                                 standin: StandIn) -> None:
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob")
    group = standin.group("G", alice, bob)
    await ok(api, "sendMessage", chat_id=group.id, parse_mode="HTML",
             text=f'Your turn, <a href="tg://user?id={bob.id}">Bob</a> &amp; <b>@alice</b>')
    shown = group.last()
    assert shown.text == "Your turn, Bob & @alice"
    assert shown.mentions(bob) and shown.mentions(alice)
    assert {e["type"] for e in shown.entities} == {"text_mention", "bold", "mention"}
    await ok(api, "sendMessage", chat_id=group.id, text="just text")
    assert not group.last().mentions(bob)
    await fails(api, "sendMessage", 400, "Bad Request: can't parse entities: Character '.' is "
                "reserved and must be escaped with the preceding '\\'", chat_id=group.id,
                parse_mode="MarkdownV2", text="*Move* 24/18.")
    await ok(api, "sendMessage", chat_id=group.id, parse_mode="MarkdownV2",
             text="*Move* 24/18\\.")
    assert group.last().text == "Move 24/18."
    body = await call(api, "sendMessage", chat_id=group.id, parse_mode="HTML",
                      text="<blink>x</blink>")
    assert body["description"].startswith("Bad Request: can't parse entities: Unsupported")


# ---- injected errors and the call log -------------------------------------------------------

async def test_injected_errors(api: httpx.AsyncClient, standin: StandIn) -> None:
    alice = standin.user("Alice")
    alice.start_bot()
    standin.inject_error(method="sendMessage", code=429, retry_after=3, times=2)
    standin.inject_error(method="getMe", code=502)
    for _ in range(2):
        body = await fails(api, "sendMessage", 429, "Too Many Requests: retry after 3",
                           chat_id=alice.id, text="x")
        assert body["parameters"] == {"retry_after": 3}
    await ok(api, "sendMessage", chat_id=alice.id, text="x")
    await fails(api, "getMe", 502, "Bad Gateway")
    await ok(api, "getMe")
    calls = standin.calls("sendMessage", chat_id=alice.id)
    assert [c.error_code for c in calls] == [429, 429, None]
    assert calls[-1].params == {"chat_id": alice.id, "text": "x"}
    assert standin.max_calls_per_window(("sendMessage",), 60, chat_id=alice.id) == 1


# ---- the JSON is what python-telegram-bot expects -------------------------------------------

async def test_updates_and_results_parse_in_ptb_without_warnings(api: httpx.AsyncClient,
                                                                 standin: StandIn) -> None:
    bot = Bot(standin.token)
    alice, bob = standin.user("Alice", username="alice"), standin.user("Bob")
    group = standin.group("G", alice, bob)
    alice.start_bot("x")
    sent = await ok(api, "sendMessage", chat_id=group.id, text="b", reply_markup=KB)
    alice.tap(standin.message(group.id, sent["message_id"]), "Roll")
    alice.inline_query("q")
    bob.reply(group, standin.message(group.id, sent["message_id"]), "r")
    alice.remove_bot(group)
    updates = await ok(api, "getUpdates")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parsed = [Update.de_json(u, bot) for u in updates]
        chat = ChatFullInfo.de_json(await ok(api, "getChat", chat_id=group.id), bot)
        member = ChatMember.de_json(await ok(api, "getChatMember", chat_id=group.id,
                                             user_id=alice.id), bot)
    assert [u.effective_user.id for u in parsed if u.effective_user] == [
        alice.id, alice.id, alice.id, bob.id, alice.id]
    assert parsed[1].callback_query is not None and parsed[1].callback_query.data == "roll:1:1"
    assert parsed[3].message is not None and parsed[3].message.reply_to_message is not None
    assert parsed[4].my_chat_member is not None
    assert chat.title == "G" and member.status == "creator"
    assert not any(u.api_kwargs for u in parsed)
