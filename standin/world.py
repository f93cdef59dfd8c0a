"""The stand-in's world: its state and the Bot API methods, all under one lock.

Everything here runs in the HTTP server's threads (Bot API calls) or in the test's thread
(simulated users); ``World.cond`` guards every field.
"""

from __future__ import annotations

import base64
import contextlib
import copy
import io
import itertools
import json
import re
import threading
import time
from collections.abc import Callable
from typing import Any

from . import errors as E
from .clock import Clock
from .errors import ApiError
from .flood import Flood, retry_after
from .model import (
    JSON,
    Call,
    CallbackRec,
    ChatRec,
    Delay,
    FileRec,
    Injection,
    InlineQueryRec,
    MsgRec,
    Photo,
    Upload,
    UserRec,
)
from .text import detect_entities, merge_entities, parse_formatted, u16len

DEFAULT_UPDATES = {"message", "edited_message", "channel_post", "edited_channel_post",
                   "business_connection", "business_message", "edited_business_message",
                   "deleted_business_messages", "inline_query", "chosen_inline_result",
                   "callback_query", "shipping_query", "pre_checkout_query", "purchased_paid_media",
                   "poll", "poll_answer", "my_chat_member", "chat_join_request", "chat_boost",
                   "removed_chat_boost"}
ALL_UPDATES = DEFAULT_UPDATES | {"chat_member", "message_reaction", "message_reaction_count"}

DELETE_WINDOW = 48 * 3600
TEXT_LIMIT = 4096
CAPTION_LIMIT = 1024
BUTTON_ACTIONS = ("callback_data", "url", "switch_inline_query", "switch_inline_query_current_chat",
                  "switch_inline_query_chosen_chat", "login_url", "web_app", "pay",
                  "callback_game", "copy_text")
MARKUP_KINDS = {"inline_keyboard", "keyboard", "remove_keyboard", "force_reply"}
"""The four kinds of reply markup; an object naming none of them cannot be read."""


class Params:
    """Request parameters: JSON bodies give typed values, forms give strings."""

    def __init__(self, raw: dict[str, Any]) -> None:
        self.raw = raw

    def has(self, name: str) -> bool:
        return self.raw.get(name) not in (None, "")

    def get(self, name: str) -> Any:
        return self.raw.get(name)

    def text(self, name: str, default: str | None = None) -> str | None:
        value = self.raw.get(name)
        if value is None:
            return default
        if isinstance(value, Upload):
            raise ApiError(400, f"Bad Request: {name} must be a string")
        return str(value)

    def integer(self, name: str, default: int | None = None) -> int | None:
        value = self.raw.get(name)
        if value in (None, ""):
            return default
        try:
            return int(value)
        except (TypeError, ValueError):
            raise ApiError(400, f"Bad Request: invalid {name} specified") from None

    def flag(self, name: str, default: bool = False) -> bool:
        value = self.raw.get(name)
        if value in (None, ""):
            return default
        if isinstance(value, bool):
            return value
        return str(value).lower() in ("true", "1")

    def obj(self, name: str, what: str | None = None) -> Any:
        value = self.raw.get(name)
        if value in (None, ""):
            return None
        if isinstance(value, str):
            try:
                return json.loads(value)
            except ValueError:
                raise ApiError(
                    400, f"Bad Request: can't parse {what or name} JSON object") from None
        return value


class World:
    def __init__(self, *, token: str, bot_username: str, bot_name: str, privacy_mode: bool,
                 inline_feedback: bool, recompress_photos: bool,
                 callback_answer_timeout: float, clock: Clock) -> None:
        self.cond = threading.Condition(threading.RLock())
        self.clock = clock
        self.token = token
        bot_id = int(token.split(":", 1)[0])
        self.bot = UserRec(id=bot_id, first_name=bot_name, username=bot_username, is_bot=True)
        self.privacy_mode = privacy_mode
        self.inline_feedback = inline_feedback
        self.inline_mode = True
        self.recompress_photos = recompress_photos
        self.callback_answer_timeout = callback_answer_timeout
        self.users: dict[int, UserRec] = {}
        self.chats: dict[int, ChatRec] = {}
        self.foreign_chats: list[ChatRec] = []
        self.files: dict[str, tuple[FileRec, Photo]] = {}
        self.files_by_path: dict[str, FileRec] = {}
        self.url_content: dict[str, bytes] = {}
        self.inline_messages: dict[str, MsgRec] = {}
        self.callbacks: dict[str, CallbackRec] = {}
        self.inline_queries: dict[str, InlineQueryRec] = {}
        self.updates: list[JSON] = []
        self.next_update_id = 100_000_001
        self.allowed_updates = set(DEFAULT_UPDATES)
        self.poll_generation = 0
        self.last_fetched_update_id = 0
        self.webhook: JSON = {}
        self.commands: dict[tuple[str, str], list[JSON]] = {}
        self.calls: list[Call] = []
        self.injections: list[Injection] = []
        self.delays: list[Delay] = []
        self.flood: Flood | None = None
        self.in_flight = 0
        self.polls_waiting = 0
        # Real time, not the stand-in clock: idle() watches a bot that runs in real time.
        self.last_activity = time.monotonic()
        self.closing = False
        self.bot_settings: dict[str, Any] = {}
        self.ids = itertools.count(1)
        self.user_ids = itertools.count(1_000_001)
        self.group_ids = itertools.count(4_000_001)
        self.super_ids = itertools.count(1_000_000_001)
        self.handlers: dict[str, Callable[[Params], Any]] = {
            name.lower(): getattr(self, "api_" + name) for name in (
                "getMe", "logOut", "close", "getUpdates", "setWebhook", "deleteWebhook",
                "getWebhookInfo", "setMyCommands", "getMyCommands", "deleteMyCommands",
                "setMyName", "setMyDescription", "setMyShortDescription", "setChatMenuButton",
                "sendMessage", "sendPhoto", "sendDocument", "editMessageText", "editMessageCaption",
                "editMessageMedia", "editMessageReplyMarkup", "deleteMessage", "deleteMessages",
                "answerCallbackQuery", "answerInlineQuery", "getChat", "getChatMember",
                "getChatAdministrators", "getChatMemberCount", "getFile", "leaveChat",
                "sendChatAction")}

    # ---- small helpers -------------------------------------------------------------------
    def now(self) -> float:
        return self.clock.time()

    def pause(self, seconds: float) -> None:
        """Wait ``seconds`` on the stand-in clock (holding the lock), or until stopping."""
        deadline = self.clock.monotonic() + seconds
        while not self.closing:
            remaining = deadline - self.clock.monotonic()
            if remaining <= 0:
                return
            self.clock.wait(self.cond, remaining)

    def uid(self, prefix: str) -> str:
        raw = f"{prefix}{next(self.ids)}".encode()
        return prefix + base64.urlsafe_b64encode(raw).decode().rstrip("=")

    def known_users(self) -> dict[int, JSON]:
        return {u.id: u.to_json() for u in self.users.values()}

    def push_update(self, kind: str, payload: JSON) -> int:
        update_id = self.next_update_id
        self.next_update_id += 1
        self.updates.append({"update_id": update_id, kind: payload})
        self.cond.notify_all()
        return update_id

    # ---- request entry point -------------------------------------------------------------
    def call(self, token: str, method: str, raw: dict[str, Any]) -> tuple[int, JSON]:
        """Run one Bot API request; returns (HTTP status, JSON body)."""
        if token != self.token:
            if re.fullmatch(r"\d+:[\w-]+", token):
                return 401, {"ok": False, "error_code": 401, "description": "Unauthorized"}
            return 404, {"ok": False, "error_code": 404, "description": "Not Found"}
        handler = self.handlers.get(method.lower())
        if handler is None:
            return 404, {"ok": False, "error_code": 404, "description": "Not Found"}
        params = Params(raw)
        name = handler.__name__[len("api_"):]
        is_poll = name == "getUpdates"
        with self.cond:
            if not is_poll:
                self.in_flight += 1
                self.cond.notify_all()
            delay = self._take_delay(name, params)
            if delay:
                self.pause(delay)
        # the call is recorded under the same hold of the lock as its effect: a test that sees
        # the effect (a photo edited) finds the call in calls() too
        with self.cond:
            try:
                try:
                    injected = (self._take_injection(name, params)
                                or self._flooded(name, params))
                    if injected is not None:
                        raise injected
                    lost = self._take_injection(name, params, applied=True)
                    result = handler(params)
                    if lost is not None:
                        raise lost
                    status, body = 200, {"ok": True, "result": result}
                except ApiError as err:
                    status, body = err.code, err.envelope()
                if not is_poll or body.get("result"):
                    self.last_activity = time.monotonic()
                self.calls.append(Call(
                    method=name, params=_loggable(raw), time=self.now(), ok=body["ok"],
                    error_code=body.get("error_code"), description=body.get("description"),
                    result=copy.deepcopy(body.get("result"))))
            finally:
                if not is_poll:
                    self.in_flight -= 1  # (even when the handler broke: idle() must not hang)
                self.cond.notify_all()
        return status, body

    def _take_delay(self, method: str, params: Params) -> float:
        for delay in self.delays:
            if delay.method is not None and delay.method.lower() != method.lower():
                continue
            if delay.chat_id is not None and params.text("chat_id") != str(delay.chat_id):
                continue
            delay.times -= 1
            if delay.times <= 0:
                self.delays.remove(delay)
            return delay.seconds
        return 0.0

    def _flooded(self, method: str, params: Params) -> ApiError | None:
        """A 429 when flood limits are on and this call is over one of them."""
        if self.flood is None:
            return None
        raw = params.text("chat_id")
        chat_id = int(raw) if raw and re.fullmatch(r"-?\d+", raw) else None
        # on Telegram's time (dates, ages): advance_clock moves the windows too
        wait = self.flood.admit(method, chat_id, self.now())
        return None if wait is None else E.too_many_requests(retry_after(wait))

    def _take_injection(self, method: str, params: Params, *,
                        applied: bool = False) -> ApiError | None:
        """The next injected error for this call (``applied``: of those whose call takes
        effect first, its answer lost)."""
        for inj in self.injections:
            if inj.applied != applied:
                continue
            if inj.method is not None and inj.method.lower() != method.lower():
                continue
            if inj.chat_id is not None and params.text("chat_id") != str(inj.chat_id):
                continue
            inj.times -= 1
            if inj.times <= 0:
                self.injections.remove(inj)
            if inj.code == 429:
                retry = inj.retry_after if inj.retry_after is not None else 1
                err = E.too_many_requests(retry)
                if inj.description:
                    err.description = inj.description
                return err
            default = {500: "Internal Server Error", 502: "Bad Gateway",
                       503: "Service Unavailable", 400: "Bad Request", 403: "Forbidden"}
            return ApiError(inj.code, inj.description or default.get(inj.code, "Error"))
        return None

    # ---- bot & polling -------------------------------------------------------------------
    def api_getMe(self, p: Params) -> JSON:
        me = self.bot.to_json()
        me.update(can_join_groups=True, can_read_all_group_messages=not self.privacy_mode,
                  supports_inline_queries=self.inline_mode, can_connect_to_business=False,
                  has_main_web_app=False)
        return me

    def api_logOut(self, p: Params) -> bool:
        return True

    def api_close(self, p: Params) -> bool:
        return True

    def api_getUpdates(self, p: Params) -> list[JSON]:
        if self.webhook.get("url"):
            raise ApiError(409, E.WEBHOOK_ACTIVE)
        offset = p.integer("offset", 0) or 0
        limit = max(1, min(100, p.integer("limit", 100) or 100))
        timeout = max(0, p.integer("timeout", 0) or 0)
        allowed = p.obj("allowed_updates")
        if allowed is not None:
            self.allowed_updates = set(allowed) if allowed else set(DEFAULT_UPDATES)
        self.poll_generation += 1
        generation = self.poll_generation
        self.cond.notify_all()
        if offset > 0:
            self.updates = [u for u in self.updates if u["update_id"] >= offset]
        elif offset < 0:
            self.updates = self.updates[offset:]
        deadline = self.clock.monotonic() + timeout
        while True:
            self.updates = [u for u in self.updates if _kind(u) in self.allowed_updates]
            if self.updates or self.closing:
                batch = copy.deepcopy(self.updates[:limit])
                if batch:
                    self.last_fetched_update_id = max(self.last_fetched_update_id,
                                                      batch[-1]["update_id"])
                return batch
            if generation != self.poll_generation:
                raise ApiError(409, E.POLL_CONFLICT)
            remaining = deadline - self.clock.monotonic()
            if remaining <= 0:
                return []
            self.polls_waiting += 1
            self.cond.notify_all()
            try:
                self.clock.wait(self.cond, remaining)
            finally:
                self.polls_waiting -= 1

    def api_setWebhook(self, p: Params) -> bool:
        url = p.text("url") or ""
        if url and not url.startswith("https://"):
            raise ApiError(400, "Bad Request: bad webhook: An HTTPS URL must be provided for "
                                "webhook")
        self.webhook = {"url": url, "secret_token": p.text("secret_token"),
                        "allowed_updates": p.obj("allowed_updates"),
                        "max_connections": p.integer("max_connections", 40)}
        if p.flag("drop_pending_updates"):
            self.updates.clear()
        return True

    def api_deleteWebhook(self, p: Params) -> bool:
        self.webhook = {}
        if p.flag("drop_pending_updates"):
            self.updates.clear()
        return True

    def api_getWebhookInfo(self, p: Params) -> JSON:
        info: JSON = {"url": self.webhook.get("url", ""), "has_custom_certificate": False,
                      "pending_update_count": len(self.updates)}
        if self.webhook.get("url"):
            info["max_connections"] = self.webhook.get("max_connections") or 40
            if self.webhook.get("allowed_updates"):
                info["allowed_updates"] = self.webhook["allowed_updates"]
        return info

    # ---- commands ------------------------------------------------------------------------
    @staticmethod
    def _scope_key(p: Params) -> tuple[str, str]:
        scope = p.obj("scope") or {"type": "default"}
        key = json.dumps(scope, sort_keys=True)
        return key, p.text("language_code") or ""

    def api_setMyCommands(self, p: Params) -> bool:
        commands = p.obj("commands")
        if not isinstance(commands, list):
            raise ApiError(400, "Bad Request: can't parse commands JSON object")
        if len(commands) > 100:
            raise ApiError(400, "Bad Request: BOT_COMMANDS_TOO_MUCH")
        for c in commands:
            if not re.fullmatch(r"[a-z0-9_]{1,32}", str(c.get("command", ""))):
                raise ApiError(400, "Bad Request: BOT_COMMAND_INVALID")
            if not 1 <= len(str(c.get("description", ""))) <= 256:
                raise ApiError(400, "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID")
        self.commands[self._scope_key(p)] = [
            {"command": c["command"], "description": c["description"]} for c in commands]
        return True

    def api_getMyCommands(self, p: Params) -> list[JSON]:
        return copy.deepcopy(self.commands.get(self._scope_key(p), []))

    def api_deleteMyCommands(self, p: Params) -> bool:
        self.commands.pop(self._scope_key(p), None)
        return True

    def _record_setting(self, name: str, p: Params) -> bool:
        self.bot_settings[name] = dict(p.raw)
        return True

    def api_setMyName(self, p: Params) -> bool:
        return self._record_setting("name", p)

    def api_setMyDescription(self, p: Params) -> bool:
        return self._record_setting("description", p)

    def api_setMyShortDescription(self, p: Params) -> bool:
        return self._record_setting("short_description", p)

    def api_setChatMenuButton(self, p: Params) -> bool:
        return self._record_setting("menu_button", p)

    # ---- chats ---------------------------------------------------------------------------
    def _chat(self, p: Params, *, for_sending: bool = False) -> ChatRec:
        raw = p.get("chat_id")
        if raw in (None, ""):
            raise ApiError(400, "Bad Request: chat_id is empty")
        chat: ChatRec | None = None
        if isinstance(raw, str) and raw.startswith("@"):
            chat = next((c for c in self.chats.values()
                         if c.username and c.username.lower() == raw[1:].lower()), None)
        else:
            try:
                chat = self.chats.get(int(raw))
                if chat is None and int(raw) in self.users:
                    chat = self.private_chat(self.users[int(raw)])
            except (TypeError, ValueError):
                chat = None
        if chat is None:
            raise ApiError(400, E.CHAT_NOT_FOUND)
        if chat.migrated_to is not None:
            raise ApiError(400, E.UPGRADED, {"migrate_to_chat_id": chat.migrated_to})
        if for_sending:
            self._check_can_write(chat)
        return chat

    def _check_can_write(self, chat: ChatRec) -> None:
        if chat.type == "private":
            assert chat.user is not None
            if chat.user.blocked:
                raise ApiError(403, E.BLOCKED)
            if not chat.user.started:
                raise ApiError(403, E.NOT_STARTED)
        elif chat.bot_status == "kicked":
            raise ApiError(403, f"Forbidden: bot was kicked from the {chat.type} chat")
        elif chat.bot_status == "left":
            raise ApiError(403, f"Forbidden: bot is not a member of the {chat.type} chat")

    def private_chat(self, user: UserRec) -> ChatRec:
        rec = self.chats.get(user.id)
        if rec is None:
            rec = ChatRec(id=user.id, type="private", user=user)
            self.chats[user.id] = rec
        return rec

    def api_getChat(self, p: Params) -> JSON:
        chat = self._chat(p)
        out = chat.to_json()
        out.update(accent_color_id=0, max_reaction_count=11,
                   accepted_gift_types={"unlimited_gifts": False, "limited_gifts": False,
                                        "unique_gifts": False, "premium_subscription": False,
                                        "gifts_from_channels": False})
        if chat.is_group:
            out["permissions"] = {"can_send_messages": True}
        return out

    def _member_json(self, chat: ChatRec, user: UserRec, status: str) -> JSON:
        if status == "creator":
            return {"status": "creator", "user": user.to_json(), "is_anonymous": False}
        if status == "administrator":
            rights = dict.fromkeys(
                ("can_be_edited", "is_anonymous", "can_manage_chat", "can_delete_messages",
                 "can_manage_video_chats", "can_restrict_members", "can_promote_members",
                 "can_change_info", "can_invite_users", "can_post_stories", "can_edit_stories",
                 "can_delete_stories", "can_pin_messages"), False)
            rights.update(can_manage_chat=True, can_delete_messages=True)
            return {"status": "administrator", "user": user.to_json(), **rights}
        if status == "kicked":
            return {"status": "kicked", "user": user.to_json(), "until_date": 0}
        return {"status": status, "user": user.to_json()}

    def api_getChatMember(self, p: Params) -> JSON:
        chat = self._chat(p)
        user_id = p.integer("user_id")
        if user_id == self.bot.id:
            status = "member" if chat.type == "private" else chat.bot_status
            return self._member_json(chat, self.bot, status)
        user = self.users.get(user_id or 0)
        if user is None:
            raise ApiError(400, "Bad Request: user not found")
        if chat.type == "private":
            status = "member" if chat.user is user else "left"
        else:
            status = chat.members.get(user.id, "left")
        return self._member_json(chat, user, status)

    def api_getChatAdministrators(self, p: Params) -> list[JSON]:
        chat = self._chat(p)
        out = [self._member_json(chat, self.users[uid], st) for uid, st in chat.members.items()
               if st in ("creator", "administrator")]
        if chat.bot_status == "administrator":
            out.append(self._member_json(chat, self.bot, "administrator"))
        return out

    def api_getChatMemberCount(self, p: Params) -> int:
        chat = self._chat(p)
        if chat.type == "private":
            return 2
        count = sum(1 for s in chat.members.values() if s in ("creator", "administrator",
                                                              "member"))
        return count + (1 if chat.bot_status in ("member", "administrator") else 0)

    def api_leaveChat(self, p: Params) -> bool:
        chat = self._chat(p)
        if chat.type == "private":
            raise ApiError(400, "Bad Request: chat member status can't be changed in private "
                                "chats")
        self._check_can_write(chat)
        old = chat.bot_status
        chat.bot_status = "left"
        self._bot_status_changed(chat, self.bot, old, "left")
        return True

    def api_sendChatAction(self, p: Params) -> bool:
        self._chat(p, for_sending=True)
        if not p.text("action"):
            raise ApiError(400, "Bad Request: wrong parameter action in request")
        return True

    # ---- message content -----------------------------------------------------------------
    def _markup(self, p: Params, name: str = "reply_markup") -> JSON | None:
        markup = p.obj(name, "reply keyboard markup")
        return self.check_markup(markup)

    def check_markup(self, markup: Any) -> JSON | None:
        if markup is None:
            return None
        if not isinstance(markup, dict) or not MARKUP_KINDS & markup.keys():
            # an object that is none of the four kinds, as python-telegram-bot sends an inline
            # keyboard with no rows (``{}``: it drops empty lists), is refused so too
            raise ApiError(400, E.MARKUP_UNPARSABLE)
        if "inline_keyboard" not in markup:
            return None  # reply keyboards / force reply: not shown on the message
        rows = markup["inline_keyboard"]
        if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
            raise ApiError(400, "Bad Request: can't parse inline keyboard button: "
                                "InlineKeyboardButton must be an Object")
        for row in rows:
            for button in row:
                if not isinstance(button, dict) or not str(button.get("text", "")):
                    raise ApiError(400, "Bad Request: can't parse inline keyboard button: Text "
                                        "buttons are unallowed in the inline keyboard")
                actions = [a for a in BUTTON_ACTIONS if a in button]
                if not actions:
                    raise ApiError(400, E.TEXT_BUTTONS)
                if "callback_data" in button:
                    size = len(str(button["callback_data"]).encode("utf-8"))
                    if not 1 <= size <= 64:
                        raise ApiError(400, E.BUTTON_DATA_INVALID)
                if "url" in button and not re.match(r"(https?|tg)://\S+$|t\.me/\S+$",
                                                    str(button["url"])):
                    raise ApiError(400, f"Bad Request: inline keyboard button URL "
                                        f"'{button['url']}' is invalid: Wrong HTTP URL")
        return {"inline_keyboard": copy.deepcopy(rows)}

    def formatted(self, p: Params, text_name: str, entities_name: str,
                   parse_mode: str | None = None) -> tuple[str | None, list[JSON]]:
        text = p.text(text_name)
        if text is None:
            return None, []
        explicit = p.obj(entities_name)
        if explicit:
            entities = list(explicit)
        else:
            text, entities = parse_formatted(text, parse_mode or p.text("parse_mode"),
                                             self.known_users())
        stripped = text.strip()
        if stripped != text:  # Telegram trims surrounding whitespace
            lead = u16len(text) - u16len(text.lstrip())
            text = stripped
            entities = [dict(e, offset=e["offset"] - lead) for e in entities
                        if e["offset"] - lead >= 0]
        return text, merge_entities(entities, detect_entities(text))

    def photo_from(self, value: Any, uploads: dict[str, Upload]) -> tuple[Photo, bool]:
        """Resolve a photo parameter; returns (photo, was_uploaded)."""
        if isinstance(value, Upload):
            return self._new_photo(value.data), True
        if not isinstance(value, str) or not value:
            raise ApiError(400, "Bad Request: there is no photo in the request")
        if value.startswith("attach://"):
            upload = uploads.get(value[len("attach://"):])
            if upload is None:
                raise ApiError(400, "Bad Request: can't parse InputMedia: media not found")
            return self._new_photo(upload.data), True
        if value.startswith(("http://", "https://")):
            data = self.url_content.get(value)
            if data is None:
                raise ApiError(400, "Bad Request: failed to get HTTP URL content")
            photo = self._new_photo(data)
            photo.url = value
            return photo, False
        found = self.files.get(value)
        if found is None:
            raise ApiError(400, E.WRONG_FILE_ID)
        return found[1], False

    def _new_photo(self, data: bytes) -> Photo:
        """The sizes Telegram keeps of a photo sent: a 90 px thumbnail and the largest (at
        most 1280 px a side; recompressed as JPEG when ``recompress_photos``, else the bytes
        sent, which a test compares more cheaply). The thumbnail is decoded at a reduced
        scale where the format allows (a JPEG's draft mode), which also checks the data."""
        try:
            from PIL import Image
        except ImportError:  # pragma: no cover - Pillow is a project dependency
            size = FileRec(self.uid("AgAC"), self.uid("AQAD"), data, 0, 0, "")
            return self._register(Photo([size], data))
        try:
            image = Image.open(io.BytesIO(data))
            width, height = image.size
            if width + height > 10000 or width * 20 < height or height * 20 < width:
                raise ApiError(400, "Bad Request: PHOTO_INVALID_DIMENSIONS")
            thumb = image.copy() if max(width, height) <= 90 else image
            thumb.thumbnail((90, 90))
            sizes = [self._jpeg(thumb.convert("RGB"))]
            if max(width, height) > 1280 or self.recompress_photos:
                largest = Image.open(io.BytesIO(data)).convert("RGB")
                largest.thumbnail((1280, 1280))
                sizes.append(self._jpeg(largest))
            else:
                sizes.append(FileRec(self.uid("AgAC"), self.uid("AQAD"), data, width, height, ""))
        except ApiError:
            raise
        except Exception:
            raise ApiError(400, "Bad Request: IMAGE_PROCESS_FAILED") from None
        return self._register(Photo(sizes, data))

    def _jpeg(self, image: Any) -> FileRec:
        buf = io.BytesIO()
        image.save(buf, "JPEG", quality=87)
        return FileRec(self.uid("AgAC"), self.uid("AQAD"), buf.getvalue(), image.width,
                       image.height, "")

    def _register(self, photo: Photo) -> Photo:
        for size in photo.sizes:
            size.file_path = f"photos/file_{len(self.files_by_path)}.jpg"
            self.files[size.file_id] = (size, photo)
            self.files_by_path[size.file_path] = size
        return photo

    def _reply_target(self, chat: ChatRec, p: Params) -> MsgRec | None:
        params = p.obj("reply_parameters")
        reply_id = p.integer("reply_to_message_id")
        allow = p.flag("allow_sending_without_reply")
        if isinstance(params, dict):
            reply_id = int(params.get("message_id", 0))
            allow = bool(params.get("allow_sending_without_reply", allow))
        if not reply_id:
            return None
        target = chat.messages.get(reply_id)
        if target is None or target.deleted:
            if allow:
                return None
            raise ApiError(400, "Bad Request: message to be replied not found")
        return target

    def _thread(self, chat: ChatRec, p: Params) -> int | None:
        thread = p.integer("message_thread_id")
        if thread is None:
            return None
        if not chat.is_forum:
            return None
        if thread not in chat.topics and thread != 1:
            raise ApiError(400, "Bad Request: message thread not found")
        return thread if thread != 1 else None

    def _store(self, msg: MsgRec) -> MsgRec:
        msg.chat.messages[msg.message_id] = msg
        self.cond.notify_all()
        return msg

    def new_message(self, chat: ChatRec, sender: UserRec, **fields: Any) -> MsgRec:
        msg = MsgRec(chat=chat, message_id=chat.next_message_id, date=int(self.now()),
                     sender=sender, **fields)
        chat.next_message_id += 1
        return self._store(msg)

    # ---- sending -------------------------------------------------------------------------
    def api_sendMessage(self, p: Params) -> JSON:
        chat = self._chat(p, for_sending=True)
        text, entities = self.formatted(p, "text", "entities")
        if not text:
            raise ApiError(400, E.TEXT_EMPTY)
        if len(text) > TEXT_LIMIT:
            raise ApiError(400, E.TEXT_TOO_LONG)
        markup = self._markup(p)
        msg = self.new_message(chat, self.bot, text=text, entities=entities, reply_markup=markup,
                               reply_to=self._reply_target(chat, p),
                               thread_id=self._thread(chat, p))
        return msg.to_json()

    def api_sendPhoto(self, p: Params) -> JSON:
        chat = self._chat(p, for_sending=True)
        caption, entities = self.formatted(p, "caption", "caption_entities")
        if caption is not None and len(caption) > CAPTION_LIMIT:
            raise ApiError(400, E.CAPTION_TOO_LONG)
        markup = self._markup(p)
        reply_to = self._reply_target(chat, p)
        thread = self._thread(chat, p)
        photo, _ = self.photo_from(p.get("photo"), _uploads(p))
        msg = self.new_message(chat, self.bot, photo=photo, caption=caption or None,
                               caption_entities=entities, reply_markup=markup,
                               reply_to=reply_to, thread_id=thread)
        return msg.to_json()

    def api_sendDocument(self, p: Params) -> JSON:
        """A document uploaded with the request (what the bot sends: a match file)."""
        chat = self._chat(p, for_sending=True)
        caption, entities = self.formatted(p, "caption", "caption_entities")
        if caption is not None and len(caption) > CAPTION_LIMIT:
            raise ApiError(400, E.CAPTION_TOO_LONG)
        value = p.get("document")
        uploads = _uploads(p)
        if isinstance(value, str) and value.startswith("attach://"):
            value = uploads.get(value[len("attach://"):])
        if not isinstance(value, Upload):
            raise ApiError(400, "Bad Request: there is no document in the request")
        msg = self.new_message(chat, self.bot, document=value, caption=caption or None,
                               caption_entities=entities, reply_markup=self._markup(p),
                               reply_to=self._reply_target(chat, p),
                               thread_id=self._thread(chat, p))
        return msg.to_json()

    # ---- editing -------------------------------------------------------------------------
    def _target(self, p: Params) -> MsgRec:
        inline_id = p.text("inline_message_id")
        if inline_id:
            msg = self.inline_messages.get(inline_id)
            if msg is None or msg.deleted:
                raise ApiError(400, E.MESSAGE_ID_INVALID)
            return msg
        chat = self._chat(p, for_sending=True)
        message_id = p.integer("message_id")
        if message_id is None:
            raise ApiError(400, "Bad Request: message identifier is not specified")
        msg = chat.messages.get(message_id)
        if msg is None or msg.deleted:
            raise ApiError(400, E.EDIT_NOT_FOUND)
        if msg.sender is not self.bot:
            raise ApiError(400, E.CANT_EDIT)
        return msg

    def _finish_edit(self, msg: MsgRec, changes: dict[str, Any]) -> JSON | bool:
        before = {k: copy.deepcopy(getattr(msg, k)) for k in changes}
        same = all(_same(before[k], v) for k, v in changes.items())
        if same:
            raise ApiError(400, E.NOT_MODIFIED)
        for key, value in changes.items():
            setattr(msg, key, value)
        msg.edits += 1
        msg.edit_date = int(self.now())
        self.cond.notify_all()
        if msg.inline_message_id is not None:
            return True
        return msg.to_json()

    def api_editMessageText(self, p: Params) -> JSON | bool:
        msg = self._target(p)
        text, entities = self.formatted(p, "text", "entities")
        if not text:
            raise ApiError(400, E.TEXT_EMPTY)
        if len(text) > TEXT_LIMIT:
            raise ApiError(400, E.TEXT_TOO_LONG)
        markup = self._markup(p)
        if msg.text is None:
            raise ApiError(400, "Bad Request: there is no text in the message to edit")
        return self._finish_edit(msg, {"text": text, "entities": entities,
                                       "reply_markup": markup})

    def api_editMessageCaption(self, p: Params) -> JSON | bool:
        msg = self._target(p)
        caption, entities = self.formatted(p, "caption", "caption_entities")
        if caption is not None and len(caption) > CAPTION_LIMIT:
            raise ApiError(400, E.CAPTION_TOO_LONG)
        markup = self._markup(p)
        if msg.photo is None:
            raise ApiError(400, "Bad Request: there is no caption in the message to edit")
        return self._finish_edit(msg, {"caption": caption or None, "caption_entities": entities,
                                       "reply_markup": markup})

    def api_editMessageMedia(self, p: Params) -> JSON | bool:
        msg = self._target(p)
        media = p.obj("media", "InputMedia")
        if not isinstance(media, dict) or "media" not in media:
            raise ApiError(400, "Bad Request: can't parse InputMedia: Media is not specified")
        if media.get("type") != "photo":
            raise ApiError(400, "Bad Request: the stand-in supports only InputMediaPhoto")
        uploads = _uploads(p)
        value = media["media"]
        if msg.inline_message_id is not None and (
                isinstance(value, Upload) or str(value).startswith("attach://")):
            raise ApiError(400, E.INLINE_UPLOAD)
        sub = Params({"caption": media.get("caption"),
                      "caption_entities": media.get("caption_entities"),
                      "parse_mode": media.get("parse_mode")})
        caption, entities = self.formatted(sub, "caption", "caption_entities")
        if caption is not None and len(caption) > CAPTION_LIMIT:
            raise ApiError(400, E.CAPTION_TOO_LONG)
        markup = self._markup(p)
        photo, _ = self.photo_from(value, uploads)
        if msg.photo is not None and msg.photo.unique_id == photo.unique_id:
            photo = msg.photo
        return self._finish_edit(msg, {"photo": photo, "caption": caption or None,
                                       "caption_entities": entities, "text": None,
                                       "entities": [], "reply_markup": markup})

    def api_editMessageReplyMarkup(self, p: Params) -> JSON | bool:
        msg = self._target(p)
        return self._finish_edit(msg, {"reply_markup": self._markup(p)})

    def api_deleteMessage(self, p: Params) -> bool:
        chat = self._chat(p)
        message_id = p.integer("message_id")
        msg = chat.messages.get(message_id or 0)
        if msg is None or msg.deleted:
            raise ApiError(400, E.DELETE_NOT_FOUND)
        own = msg.sender is self.bot
        allowed = own or chat.type == "private" or chat.bot_status == "administrator"
        if not allowed or self.now() - msg.date >= DELETE_WINDOW or \
                msg.service.get("migrate_from_chat_id") or msg.service.get("forum_topic_created"):
            raise ApiError(400, E.CANT_DELETE)
        msg.deleted = True
        self.cond.notify_all()
        return True

    def api_deleteMessages(self, p: Params) -> bool:
        ids = p.obj("message_ids") or []
        for message_id in ids:
            with contextlib.suppress(ApiError):
                self.api_deleteMessage(Params({"chat_id": p.get("chat_id"),
                                               "message_id": message_id}))
        return True

    # ---- queries -------------------------------------------------------------------------
    def api_answerCallbackQuery(self, p: Params) -> bool:
        query = self.callbacks.get(p.text("callback_query_id") or "")
        if query is None or query.answered or \
                self.now() - query.time > self.callback_answer_timeout:
            raise ApiError(400, E.QUERY_TOO_OLD)
        text = p.text("text")
        if text is not None and len(text) > 200:
            raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        url = p.text("url")
        if url and not re.fullmatch(
                rf"(https?://)?t\.me/{re.escape(self.bot.username or '')}\?start=[\w-]{{1,64}}",
                url, flags=re.IGNORECASE):
            raise ApiError(400, "Bad Request: URL_INVALID")
        query.answered = True
        query.answer = {"text": text, "show_alert": p.flag("show_alert"), "url": url,
                        "cache_time": p.integer("cache_time", 0)}
        self.cond.notify_all()
        return True

    def api_answerInlineQuery(self, p: Params) -> bool:
        query = self.inline_queries.get(p.text("inline_query_id") or "")
        if query is None or query.answered or self.now() - query.time > 15:
            raise ApiError(400, E.QUERY_TOO_OLD)
        results = p.obj("results", "results")
        if not isinstance(results, list):
            raise ApiError(400, "Bad Request: can't parse results JSON object")
        if len(results) > 50:
            raise ApiError(400, "Bad Request: RESULTS_TOO_MUCH")
        seen: set[str] = set()
        for result in results:
            rid = str(result.get("id", ""))
            if not 1 <= len(rid.encode()) <= 64:
                raise ApiError(400, "Bad Request: RESULT_ID_INVALID")
            if rid in seen:
                raise ApiError(400, "Bad Request: RESULT_ID_DUPLICATE")
            seen.add(rid)
            self.check_markup(result.get("reply_markup"))
            content = result.get("input_message_content") or {}
            if len(str(content.get("message_text", ""))) > TEXT_LIMIT:
                raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        button = p.obj("button")
        if button is not None and (not isinstance(button, dict) or not button.get("text") or not (
                "web_app" in button or re.fullmatch(r"[A-Za-z0-9_-]{1,64}",
                                                    str(button.get("start_parameter", ""))))):
            raise ApiError(400, "Bad Request: BUTTON_INVALID")
        query.answered = True
        query.results = copy.deepcopy(results)
        query.answer = {"cache_time": p.integer("cache_time", 300), "is_personal":
                        p.flag("is_personal"), "next_offset": p.text("next_offset"),
                        "button": button}
        self.cond.notify_all()
        return True

    def api_getFile(self, p: Params) -> JSON:
        found = self.files.get(p.text("file_id") or "")
        if found is None:
            raise ApiError(400, "Bad Request: invalid file_id")
        size = found[0]
        return {"file_id": size.file_id, "file_unique_id": size.file_unique_id,
                "file_size": len(size.data), "file_path": size.file_path}

    # ---- simulation: deliveries ----------------------------------------------------------
    def deliver_message(self, msg: MsgRec, kind: str = "message") -> None:
        """Hand a user's message to the bot (``kind``: ``message`` or ``edited_message``) if
        the bot can see it."""
        chat = msg.chat
        if not chat.visible_to_bot:
            return
        if chat.type == "private":
            self.push_update(kind, msg.to_json())
            return
        if chat.bot_status not in ("member", "administrator"):
            return
        if self.privacy_mode and not self._privacy_allows(msg):
            return
        self.push_update(kind, msg.to_json())

    def _privacy_allows(self, msg: MsgRec) -> bool:
        if msg.service or msg.via_bot is self.bot:
            return True
        if msg.reply_to is not None and msg.reply_to.sender is self.bot:
            return True
        text = msg.text or msg.caption or ""
        entities = msg.entities if msg.text is not None else msg.caption_entities
        name = (self.bot.username or "").lower()
        m = re.match(r"/[A-Za-z0-9_]+(?:@([A-Za-z0-9_]+))?", text)
        if m and (m.group(1) is None or m.group(1).lower() == name):
            return True
        for e in entities:
            piece = text.encode("utf-16-le")[e["offset"] * 2:(e["offset"] + e["length"]) * 2]
            if e["type"] == "mention" and piece.decode("utf-16-le").lower() == "@" + name:
                return True
            if e["type"] == "text_mention" and e.get("user", {}).get("id") == self.bot.id:
                return True
        return False

    def _bot_status_changed(self, chat: ChatRec, actor: UserRec, old: str, new: str) -> None:
        self.push_update("my_chat_member", {
            "chat": chat.to_json(), "from": actor.to_json(), "date": int(self.now()),
            "old_chat_member": self._member_json(chat, self.bot, old),
            "new_chat_member": self._member_json(chat, self.bot, new)})


def _kind(update: JSON) -> str:
    return next(k for k in update if k != "update_id")


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, Photo) or isinstance(b, Photo):
        return isinstance(a, Photo) and isinstance(b, Photo) and a.unique_id == b.unique_id
    return bool(a == b)


def _uploads(p: Params) -> dict[str, Upload]:
    return {k: v for k, v in p.raw.items() if isinstance(v, Upload)}


def _loggable(raw: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if isinstance(value, str) and value[:1] in "[{":
            try:
                out[key] = json.loads(value)
                continue
            except ValueError:
                pass
        out[key] = value
    return out
