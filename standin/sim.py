"""Simulated users, chats and what they see: the API tests use.

Handles (:class:`User`, :class:`Chat`) are cheap views onto the world; :class:`Message` is a
snapshot taken under the lock (call :meth:`Message.refresh` for the current state).
"""

from __future__ import annotations

import asyncio
import io
import re
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from .model import JSON, CallbackRec, ChatRec, InlineQueryRec, MsgRec, UserRec
from .text import detect_entities, entity_text

if TYPE_CHECKING:
    from .server import StandIn

T = TypeVar("T")


class StandInError(AssertionError):
    """A test did something a Telegram user could not do (or a wait timed out)."""


@dataclass(frozen=True)
class Button:
    text: str
    callback_data: str | None = None
    url: str | None = None
    raw: JSON = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class Answer:
    """How the bot answered a callback query."""

    text: str | None
    show_alert: bool
    url: str | None
    cache_time: int | None


@dataclass(frozen=True)
class Message:
    """A snapshot of one message as the users in its chat see it."""

    standin: StandIn = field(repr=False, compare=False)
    chat_id: int
    message_id: int
    date: int
    sender_id: int
    from_bot: bool
    text: str | None
    entities: tuple[JSON, ...]
    caption: str | None
    caption_entities: tuple[JSON, ...]
    photo_bytes: bytes | None = field(repr=False)
    document: tuple[str, bytes] | None = field(repr=False)
    """A document's file name and bytes."""
    uploaded_bytes: bytes | None = field(repr=False)
    photo_file_id: str | None
    reply_markup: JSON | None
    reply_to_message_id: int | None
    thread_id: int | None
    inline_message_id: str | None
    via_bot: bool
    edit_count: int
    deleted: bool
    service: JSON

    @property
    def content(self) -> str:
        """The text, or the caption of a photo ('' when neither)."""
        return self.text if self.text is not None else (self.caption or "")

    @property
    def buttons(self) -> list[list[Button]]:
        rows = (self.reply_markup or {}).get("inline_keyboard", [])
        return [[Button(b["text"], b.get("callback_data"), b.get("url"), b) for b in row]
                for row in rows]

    @property
    def button_texts(self) -> list[str]:
        return [b.text for row in self.buttons for b in row]

    def button(self, text: str) -> Button:
        for row in self.buttons:
            for b in row:
                if b.text == text:
                    return b
        raise StandInError(f"no button {text!r} on message {self.message_id}; buttons: "
                           f"{self.button_texts}")

    @property
    def has_keyboard(self) -> bool:
        return bool(self.buttons)

    def image(self) -> Any:
        """The photo as a Pillow image (the largest size, as a client would show it)."""
        from PIL import Image

        if self.photo_bytes is None:
            raise StandInError(f"message {self.message_id} has no photo")
        return Image.open(io.BytesIO(self.photo_bytes))

    def mentions(self, user: User) -> bool:
        """Whether the message mentions ``user`` (text_mention, tg://user link or @username)."""
        text = self.content
        entities = self.entities if self.text is not None else self.caption_entities
        for e in entities:
            if e["type"] == "text_mention" and e.get("user", {}).get("id") == user.id:
                return True
            if e["type"] == "text_link" and e.get("url") in (f"tg://user?id={user.id}",):
                return True
            if e["type"] == "mention" and user.username and \
                    entity_text(text, e).lower() == "@" + user.username.lower():
                return True
        return False

    def refresh(self) -> Message:
        """The same message now (raises if it was deleted)."""
        return self.standin.message(self.chat_id, self.message_id, self.inline_message_id)


def snapshot(standin: StandIn, msg: MsgRec) -> Message:
    photo = msg.photo
    return Message(
        standin=standin, chat_id=msg.chat.id, message_id=msg.message_id, date=msg.date,
        sender_id=msg.sender.id, from_bot=msg.sender.is_bot, text=msg.text,
        entities=tuple(msg.entities), caption=msg.caption,
        caption_entities=tuple(msg.caption_entities),
        photo_bytes=photo.sizes[-1].data if photo else None,
        document=(msg.document.filename, msg.document.data) if msg.document else None,
        uploaded_bytes=photo.original if photo else None,
        photo_file_id=photo.sizes[-1].file_id if photo else None,
        reply_markup=msg.reply_markup,
        reply_to_message_id=msg.reply_to.message_id if msg.reply_to else None,
        thread_id=msg.thread_id, inline_message_id=msg.inline_message_id,
        via_bot=msg.via_bot is not None, edit_count=msg.edits, deleted=msg.deleted,
        service=dict(msg.service))


POLL_FIRST, POLL_MOST = 0.005, 0.05
"""Seconds between two looks at a condition: the first few soon (most are met at once, or
within a call or two of the bot), then less and less often, up to the longest (a condition
can take a scan of every message of a chat, and a wait of seconds looked 200 times a second
kept a core busy while the bot it waits for needs it)."""


HANG_GUARD = 60.0
"""Seconds a wait gives up after unless told otherwise: a hang guard only, never a deadline
the bot is held to. Generous, because a machine running the suite beside other work is slow,
not wrong (issue 23: 10 s fired on CI while nothing was lost)."""


def _next_poll(delay: float) -> float:
    return min(delay * 1.5, POLL_MOST)


class _Waitable:
    """Polls a condition; await it (async tests) or call ``wait_sync`` (sync tests)."""

    timeout = HANG_GUARD

    def _ready(self) -> Any:
        raise NotImplementedError

    def _describe(self) -> str:
        raise NotImplementedError

    async def wait(self, timeout: float | None = None) -> Any:
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        delay = POLL_FIRST
        while True:
            value = self._ready()
            if value is not None:
                return value
            if time.monotonic() > deadline:
                raise StandInError(f"timed out waiting for {self._describe()}")
            await asyncio.sleep(delay)
            delay = _next_poll(delay)

    def wait_sync(self, timeout: float | None = None) -> Any:
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        delay = POLL_FIRST
        while True:
            value = self._ready()
            if value is not None:
                return value
            if time.monotonic() > deadline:
                raise StandInError(f"timed out waiting for {self._describe()}")
            time.sleep(delay)
            delay = _next_poll(delay)

    def __await__(self) -> Generator[Any, None, Any]:
        return self.wait().__await__()


class Tap(_Waitable):
    """A delivered callback query. ``await tap`` gives the bot's :class:`Answer`."""

    def __init__(self, standin: StandIn, rec: CallbackRec) -> None:
        self.standin = standin
        self.id = rec.id
        self.data = rec.data

    @property
    def answer(self) -> Answer | None:
        with self.standin.world.cond:
            rec = self.standin.world.callbacks[self.id]
            if not rec.answered or rec.answer is None:
                return None
            a = rec.answer
            return Answer(a["text"], a["show_alert"], a["url"], a["cache_time"])

    def _ready(self) -> Any:
        return self.answer

    def _describe(self) -> str:
        return f"the answer to callback query {self.id} (data {self.data!r})"


class InlineQuery(_Waitable):
    """A delivered inline query. ``await query`` gives the list of results (JSON dicts)."""

    def __init__(self, standin: StandIn, rec: InlineQueryRec) -> None:
        self.standin = standin
        self.id = rec.id
        self.query = rec.query
        self.user_id = rec.user.id

    @property
    def results(self) -> list[JSON] | None:
        with self.standin.world.cond:
            return self.standin.world.inline_queries[self.id].results

    @property
    def button(self) -> JSON | None:
        """The button the answer shows above its results (``InlineQueryResultsButton``)."""
        with self.standin.world.cond:
            answer = self.standin.world.inline_queries[self.id].answer
            return answer.get("button") if answer else None

    def _ready(self) -> Any:
        return self.results

    def _describe(self) -> str:
        return f"the answer to inline query {self.query!r}"


class Until(_Waitable):
    """Awaitable (or ``.wait_sync()``): polls a predicate until truthy; gives its value."""

    def __init__(self, predicate: Callable[[], Any], what: str, timeout: float) -> None:
        self.predicate = predicate
        self.what = what
        self.timeout = timeout

    def _ready(self) -> Any:
        value = self.predicate()
        return value if value else None

    def _describe(self) -> str:
        return self.what


class Chat:
    """A chat as the test sees it."""

    def __init__(self, standin: StandIn, rec: ChatRec) -> None:
        self.standin = standin
        self.record = rec

    def __repr__(self) -> str:
        return f"Chat({self.id}, {self.type}, {self.record.title or self.record.user})"

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def type(self) -> str:
        return self.record.type

    @property
    def title(self) -> str | None:
        return self.record.title

    @property
    def bot_status(self) -> str:
        return self.record.bot_status

    def messages(self, thread: int | None = None, *, all_threads: bool = True) -> list[Message]:
        """Live messages (deleted ones are gone), oldest first. With ``thread``, only that topic;
        ``all_threads=False`` with no thread gives the General topic only."""
        with self.standin.world.cond:
            out = []
            for msg in self.record.messages.values():
                if msg.deleted:
                    continue
                if thread is not None and msg.thread_id != thread:
                    continue
                if thread is None and not all_threads and msg.thread_id is not None:
                    continue
                out.append(snapshot(self.standin, msg))
            return out

    def bot_messages(self, thread: int | None = None) -> list[Message]:
        return [m for m in self.messages(thread) if m.from_bot or m.via_bot]

    def last(self) -> Message:
        msgs = self.messages()
        if not msgs:
            raise StandInError(f"{self!r} has no messages")
        return msgs[-1]

    def last_bot_message(self) -> Message:
        msgs = self.bot_messages()
        if not msgs:
            raise StandInError(f"the bot has no messages in {self!r}")
        return msgs[-1]

    def wait_for_bot_message(self, after: Message | None = None,
                             predicate: Callable[[Message], bool] | None = None,
                             timeout: float = HANG_GUARD) -> Until:
        """Awaitable: the first live bot message after ``after`` (by message_id) that matches."""
        floor = after.message_id if after is not None else 0

        def find() -> Message | None:
            for m in self.bot_messages():
                if m.message_id > floor and (predicate is None or predicate(m)):
                    return m
            return None

        return Until(find, f"a bot message in {self!r} after {floor}", timeout)

    def wait_for_answer(self, command: Message, timeout: float = HANG_GUARD) -> Until:
        """Awaitable: the bot's answer to ``command``, the message that replies to it (boards
        and notices the bot posts meanwhile are not it)."""
        return self.wait_for_bot_message(
            after=command, predicate=lambda m: m.reply_to_message_id == command.message_id,
            timeout=timeout)

    def create_topic(self, name: str, by: User | None = None) -> int:
        """Create a forum topic; returns its message_thread_id."""
        world = self.standin.world
        with world.cond:
            if not self.record.is_forum:
                raise StandInError(f"{self!r} is not a forum")
            actor = by.record if by else next(iter(world.users[u] for u in self.record.members))
            msg = world.new_message(self.record, actor, service={
                "forum_topic_created": {"name": name, "icon_color": 7322096}})
            msg.thread_id = msg.message_id
            self.record.topics[msg.message_id] = name
            world.deliver_message(msg)
            return msg.message_id

    def make_bot_admin(self, admin: bool = True) -> None:
        with self.standin.world.cond:
            if self.record.bot_status in ("member", "administrator"):
                self.record.bot_status = "administrator" if admin else "member"

    def promote(self, user: User, admin: bool = True) -> None:
        """Make a member an admin of the group (or, with ``admin=False``, a plain member
        again): ``getChatMember`` and ``getChatAdministrators`` say so. The creator stays."""
        with self.standin.world.cond:
            status = self.record.members.get(user.id)
            if status not in ("member", "administrator"):
                raise StandInError(f"{user!r} is not a member of {self!r} that can be promoted")
            self.record.members[user.id] = "administrator" if admin else "member"


class User:
    """A simulated Telegram user."""

    def __init__(self, standin: StandIn, rec: UserRec) -> None:
        self.standin = standin
        self.record = rec

    def __repr__(self) -> str:
        return f"User({self.id}, {self.first_name!r})"

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def first_name(self) -> str:
        return self.record.first_name

    @property
    def username(self) -> str | None:
        return self.record.username

    @property
    def language_code(self) -> str | None:
        return self.record.language_code

    @property
    def has_started_bot(self) -> bool:
        return self.record.started

    @property
    def has_blocked_bot(self) -> bool:
        return self.record.blocked

    def to_json(self) -> JSON:
        return self.record.to_json()

    @property
    def private(self) -> Chat:
        """This user's private chat with the bot."""
        with self.standin.world.cond:
            return Chat(self.standin, self.standin.world.private_chat(self.record))

    # ---- messages --------------------------------------------------------------------------
    def send(self, chat: Chat, text: str, *, reply_to: Message | None = None,
             thread: int | None = None) -> Message:
        """Send a text message (commands and @mentions get their entities)."""
        world = self.standin.world
        with world.cond:
            rec = chat.record
            self._check_member(rec)
            if rec.type == "private" and rec.visible_to_bot:
                if self.record.blocked:  # "Restart bot" unblocks it
                    world._bot_status_changed(rec, self.record, "kicked", "member")
                self.record.started = True
                self.record.blocked = False
            target = None
            if reply_to is not None:
                target = rec.messages.get(reply_to.message_id)
                if target is None or target.deleted:
                    raise StandInError(f"cannot reply to missing message {reply_to.message_id}")
                if thread is None:
                    thread = target.thread_id
            if thread is not None and thread not in rec.topics:
                raise StandInError(f"no topic {thread} in {chat!r}")
            msg = world.new_message(rec, self.record, text=text, entities=detect_entities(text),
                                    reply_to=target, thread_id=thread)
            world.deliver_message(msg)
            return snapshot(self.standin, msg)

    def edit(self, message: Message, text: str) -> Message:
        """Edit one of this user's own text messages (the bot gets an ``edited_message``)."""
        world = self.standin.world
        with world.cond:
            rec = world.chats[message.chat_id].messages.get(message.message_id)
            if rec is None or rec.deleted or rec.sender is not self.record:
                raise StandInError(f"{self!r} cannot edit message {message.message_id}")
            rec.text, rec.entities = text, detect_entities(text)
            rec.edit_date = int(world.now())
            rec.edits += 1
            world.deliver_message(rec, kind="edited_message")
            return snapshot(self.standin, rec)

    def reply(self, chat: Chat, message: Message, text: str) -> Message:
        return self.send(chat, text, reply_to=message)

    def start_bot(self, payload: str | None = None) -> Message:
        """Press START (sends ``/start [payload]`` in the private chat)."""
        if payload is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", payload):
            raise StandInError(f"deep-link payload {payload!r} is not 1-64 of A-Z a-z 0-9 _ -")
        return self.send(self.private, "/start" + (f" {payload}" if payload else ""))

    def follow(self, url: str) -> Message:
        """Open a ``t.me/<bot>?start=<payload>`` link (e.g. from a callback answer)."""
        m = re.fullmatch(r"(?:https?://)?t\.me/(\w+)(?:\?start=([\w-]*))?", url)
        if not m or (m.group(1).lower() != (self.standin.bot_username or "").lower()):
            raise StandInError(f"{url!r} is not a link to this bot")
        return self.start_bot(m.group(2) or None)

    def block_bot(self) -> None:
        """Block the bot; as Telegram does, the bot gets ``my_chat_member`` for the private
        chat (``member`` -> ``kicked``) when the user had started it."""
        self._set_blocked(True)

    def unblock_bot(self) -> None:
        """Unblock the bot (``my_chat_member`` ``kicked`` -> ``member``, if it was started)."""
        self._set_blocked(False)

    def _set_blocked(self, blocked: bool) -> None:
        world = self.standin.world
        with world.cond:
            was = self.record.blocked
            self.record.blocked = blocked
            if was != blocked and self.record.started:
                old, new = ("member", "kicked") if blocked else ("kicked", "member")
                world._bot_status_changed(world.private_chat(self.record), self.record, old,
                                          new)

    def sees(self, chat: Chat, thread: int | None = None) -> list[Message]:
        """What this user sees in ``chat``: the live messages."""
        with self.standin.world.cond:
            self._check_member(chat.record)
        return chat.messages(thread)

    # ---- buttons -----------------------------------------------------------------------------
    def tap(self, message: Message, button_text: str) -> Tap:
        """Tap the button labelled ``button_text`` on the message's *current* keyboard. In a
        public supergroup (one with a username) anyone may read the messages and tap their
        buttons, members or not, as in Telegram."""
        world = self.standin.world
        with world.cond:
            rec = self._live(message, viewing=True)
            current = snapshot(self.standin, rec)
            button = current.button(button_text)
            if button.callback_data is None:
                raise StandInError(f"button {button_text!r} has no callback_data ({button.raw})")
            return self._callback(rec, button.callback_data)

    def tap_data(self, message: Message, data: str, *, inaccessible: bool = False) -> Tap:
        """Send a callback query with arbitrary (possibly forged or stale) data. With
        ``inaccessible``, the query carries the message as Telegram sends one too old to show
        (an ``InaccessibleMessage``: its chat and id, date 0, no content, no keyboard)."""
        with self.standin.world.cond:
            return self._callback(self._live(message), data, inaccessible=inaccessible)

    def _live(self, message: Message, *, viewing: bool = False) -> MsgRec:
        world = self.standin.world
        if message.inline_message_id is not None:
            rec = world.inline_messages.get(message.inline_message_id)
        else:
            chat = world.chats.get(message.chat_id)
            rec = chat.messages.get(message.message_id) if chat else None
        if rec is None or rec.deleted:
            raise StandInError(f"message {message.message_id} is gone (deleted)")
        if not (viewing and rec.chat.type == "supergroup" and rec.chat.username):
            self._check_member(rec.chat)
        return rec

    def _callback(self, rec: MsgRec, data: str, *, inaccessible: bool = False) -> Tap:
        world = self.standin.world
        query_id = str(4_000_000_000_000_000 + next(world.ids))
        cq = CallbackRec(id=query_id, user=self.record, time=world.now(), data=data, message=rec)
        world.callbacks[query_id] = cq
        payload: JSON = {"id": query_id, "from": self.record.to_json(),
                         "chat_instance": str(abs(rec.chat.id) * 7919 + 104729)}
        if rec.inline_message_id is not None:
            payload["inline_message_id"] = rec.inline_message_id
        elif inaccessible:
            payload["message"] = {"message_id": rec.message_id, "chat": rec.chat.to_json(),
                                  "date": 0}
        else:
            payload["message"] = rec.to_json()
        payload["data"] = data
        world.push_update("callback_query", payload)
        return Tap(self.standin, cq)

    # ---- inline mode ---------------------------------------------------------------------------
    def inline_query(self, query: str, *, chat_type: str = "sender",
                     offset: str = "") -> InlineQuery:
        """Type ``@bot query``; ``await`` the result for the bot's results."""
        world = self.standin.world
        with world.cond:
            if not world.inline_mode:
                raise StandInError("inline mode is off for this bot")
            query_id = world.uid("iq")
            rec = InlineQueryRec(id=query_id, user=self.record, query=query, time=world.now())
            world.inline_queries[query_id] = rec
            world.push_update("inline_query", {
                "id": query_id, "from": self.record.to_json(), "query": query, "offset": offset,
                "chat_type": chat_type})
            return InlineQuery(self.standin, rec)

    def choose_inline_result(self, query: InlineQuery, result_id: str, chat: Chat) -> Message:
        """Pick one of the bot's answers: it is posted to ``chat`` via the bot."""
        world = self.standin.world
        with world.cond:
            qrec = world.inline_queries[query.id]
            if qrec.results is None:
                raise StandInError("the bot has not answered this inline query yet")
            result = next((r for r in qrec.results if str(r.get("id")) == result_id), None)
            if result is None:
                raise StandInError(f"no inline result {result_id!r}; have "
                                   f"{[r.get('id') for r in qrec.results]}")
            rec = chat.record
            self._check_member(rec)
            fields: JSON = {"via_bot": world.bot}
            content = result.get("input_message_content")
            from .world import Params

            if content and "message_text" in content:
                text, entities = world.formatted(Params(dict(content)), "message_text",
                                                  "entities")
                fields.update(text=text, entities=entities)
            elif result.get("type") == "photo":
                value = result.get("photo_file_id") or result.get("photo_url")
                photo, _ = world.photo_from(value, {})
                caption, entities = world.formatted(Params(dict(result)), "caption",
                                                     "caption_entities")
                fields.update(photo=photo, caption=caption or None, caption_entities=entities)
            else:
                raise StandInError(f"the stand-in cannot post inline result {result}")
            markup = world.check_markup(result.get("reply_markup"))
            fields["reply_markup"] = markup
            if markup is not None:
                fields["inline_message_id"] = world.uid("BAAA")
            msg = world.new_message(rec, self.record, **fields)
            if msg.inline_message_id is not None:
                world.inline_messages[msg.inline_message_id] = msg
            if world.inline_feedback:
                chosen: JSON = {"result_id": result_id, "from": self.record.to_json(),
                                "query": qrec.query}
                if msg.inline_message_id is not None:
                    chosen["inline_message_id"] = msg.inline_message_id
                world.push_update("chosen_inline_result", chosen)
            if rec.is_group:
                world.deliver_message(msg)
            return snapshot(self.standin, msg)

    # ---- groups ---------------------------------------------------------------------------------
    def remove_bot(self, group: Chat, *, ban: bool = False) -> None:
        """Remove (or ban) the bot from a group: the bot gets ``my_chat_member``."""
        world = self.standin.world
        with world.cond:
            rec = group.record
            old = rec.bot_status
            rec.bot_status = "kicked" if ban else "left"
            world._bot_status_changed(rec, self.record, old, rec.bot_status)

    def leave(self, group: Chat) -> None:
        """Leave a group: a ``left_chat_member`` service message there (bots see those, as
        Telegram sends them whatever the privacy mode)."""
        world = self.standin.world
        with world.cond:
            rec = group.record
            rec.members[self.id] = "left"
            me = self.record.to_json()
            msg = world.new_message(rec, self.record, service={
                "left_chat_member": me, "left_chat_participant": me})
            world.deliver_message(msg)

    def add_bot(self, group: Chat) -> None:
        """Add the bot to a group: ``my_chat_member`` and a ``new_chat_members`` message."""
        world = self.standin.world
        with world.cond:
            rec = group.record
            old = rec.bot_status
            rec.bot_status = "member"
            world._bot_status_changed(rec, self.record, old, "member")
            msg = world.new_message(rec, self.record, service={
                "new_chat_members": [world.bot.to_json()],
                "new_chat_member": world.bot.to_json(),
                "new_chat_participant": world.bot.to_json()})
            world.deliver_message(msg)

    def upgrade_group(self, group: Chat) -> Chat:
        """Convert a basic group into a supergroup; returns the new chat (new id)."""
        world = self.standin.world
        with world.cond:
            old = group.record
            if old.type != "group":
                raise StandInError(f"{group!r} is not a basic group")
            new_id = -(1_000_000_000_000 + next(world.super_ids) - 1_000_000_000)
            new = ChatRec(id=new_id, type="supergroup", title=old.title,
                          members=dict(old.members), bot_status=old.bot_status)
            world.chats[new_id] = new
            to_msg = world.new_message(old, self.record, service={"migrate_to_chat_id": new_id})
            world.deliver_message(to_msg)
            old.migrated_to = new_id
            from_msg = world.new_message(new, self.record,
                                         service={"migrate_from_chat_id": old.id})
            world.deliver_message(from_msg)
            return Chat(self.standin, new)

    def _check_member(self, rec: ChatRec) -> None:
        if rec.type == "private":
            if rec.user is not self.record and self.id not in rec.members:
                raise StandInError(f"{self!r} is not in private chat {rec.id}")
            return
        if rec.migrated_to is not None:
            raise StandInError(f"group {rec.id} was upgraded to {rec.migrated_to}")
        if rec.members.get(self.id) not in ("creator", "administrator", "member"):
            raise StandInError(f"{self!r} is not a member of {rec.title!r}")


__all__ = ["Answer", "Button", "Chat", "InlineQuery", "Message", "StandInError", "Tap", "User"]
