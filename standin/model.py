"""The stand-in's records: users, chats, messages, files. Guarded by the world's lock."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]


@dataclass
class UserRec:
    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = None
    is_bot: bool = False
    started: bool = False
    blocked: bool = False

    def to_json(self) -> JSON:
        out: JSON = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.last_name:
            out["last_name"] = self.last_name
        if self.username:
            out["username"] = self.username
        if self.language_code and not self.is_bot:
            out["language_code"] = self.language_code
        return out


@dataclass
class FileRec:
    file_id: str
    file_unique_id: str
    data: bytes
    width: int
    height: int
    file_path: str

    def photo_size(self) -> JSON:
        return {"file_id": self.file_id, "file_unique_id": self.file_unique_id,
                "file_size": len(self.data), "width": self.width, "height": self.height}


@dataclass
class Photo:
    """One photo as Telegram stores it: several sizes, the last one the largest."""

    sizes: list[FileRec]
    original: bytes
    url: str | None = None

    @property
    def unique_id(self) -> str:
        return self.sizes[-1].file_unique_id


@dataclass
class ChatRec:
    id: int
    type: str  # private, group, supergroup
    title: str | None = None
    user: UserRec | None = None  # the other side of a private chat
    username: str | None = None
    is_forum: bool = False
    members: dict[int, str] = field(default_factory=dict)  # user id -> status
    bot_status: str = "member"  # member, administrator, left, kicked
    visible_to_bot: bool = True
    migrated_to: int | None = None
    next_message_id: int = 1
    topics: dict[int, str] = field(default_factory=dict)
    messages: dict[int, MsgRec] = field(default_factory=dict)

    def to_json(self) -> JSON:
        out: JSON = {"id": self.id, "type": self.type}
        if self.type == "private" and self.user is not None:
            out["first_name"] = self.user.first_name
            if self.user.last_name:
                out["last_name"] = self.user.last_name
            if self.user.username:
                out["username"] = self.user.username
        else:
            out["title"] = self.title or ""
            if self.username:
                out["username"] = self.username
            if self.is_forum:
                out["is_forum"] = True
        return out

    @property
    def is_group(self) -> bool:
        return self.type in ("group", "supergroup")


@dataclass
class MsgRec:
    chat: ChatRec
    message_id: int
    date: int
    sender: UserRec
    text: str | None = None
    entities: list[JSON] = field(default_factory=list)
    caption: str | None = None
    caption_entities: list[JSON] = field(default_factory=list)
    photo: Photo | None = None
    document: Upload | None = None
    """A document sent with sendDocument (the upload as it came: file name and bytes)."""
    reply_markup: JSON | None = None
    reply_to: MsgRec | None = None
    thread_id: int | None = None
    via_bot: UserRec | None = None
    inline_message_id: str | None = None
    service: JSON = field(default_factory=dict)
    edit_date: int | None = None
    edits: int = 0
    deleted: bool = False

    def to_json(self, nested: bool = True) -> JSON:
        out: JSON = {"message_id": self.message_id, "from": self.sender.to_json(),
                     "chat": self.chat.to_json(), "date": self.date}
        if self.thread_id is not None:
            out["message_thread_id"] = self.thread_id
            out["is_topic_message"] = True
        if nested and self.reply_to is not None and not self.reply_to.deleted:
            out["reply_to_message"] = self.reply_to.to_json(nested=False)
        if self.via_bot is not None:
            out["via_bot"] = self.via_bot.to_json()
        if self.edit_date is not None:
            out["edit_date"] = self.edit_date
        if self.text is not None:
            out["text"] = self.text
            if self.entities:
                out["entities"] = copy.deepcopy(self.entities)
        if self.document is not None:
            out["document"] = {"file_id": f"BQAC{self.message_id}",
                               "file_unique_id": f"AgAD{self.message_id}",
                               "file_name": self.document.filename,
                               "file_size": len(self.document.data)}
            if self.caption is not None:
                out["caption"] = self.caption
        if self.photo is not None:
            out["photo"] = [s.photo_size() for s in self.photo.sizes]
            if self.caption is not None:
                out["caption"] = self.caption
                if self.caption_entities:
                    out["caption_entities"] = copy.deepcopy(self.caption_entities)
        if self.reply_markup is not None:
            out["reply_markup"] = copy.deepcopy(self.reply_markup)
        out.update(copy.deepcopy(self.service))
        return out


@dataclass
class CallbackRec:
    id: str
    user: UserRec
    time: float
    data: str
    message: MsgRec
    answered: bool = False
    answer: JSON | None = None


@dataclass
class InlineQueryRec:
    id: str
    user: UserRec
    query: str
    time: float
    answered: bool = False
    results: list[JSON] | None = None
    answer: JSON | None = None


@dataclass
class Upload:
    """A file part of a multipart request."""

    name: str
    filename: str
    data: bytes
    content_type: str = "application/octet-stream"

    def __repr__(self) -> str:
        return f"Upload({self.name!r}, {self.filename!r}, {len(self.data)} bytes)"


@dataclass(frozen=True)
class Call:
    """One Bot API request the bot made."""

    method: str
    params: dict[str, Any]
    time: float  # the stand-in clock (seconds since the epoch, shifted by advance_clock)
    ok: bool
    error_code: int | None = None
    description: str | None = None
    result: Any = None

    @property
    def chat_id(self) -> Any:
        value = self.params.get("chat_id")
        try:
            return int(value) if value is not None else None
        except (TypeError, ValueError):
            return value


@dataclass
class Injection:
    method: str | None
    code: int
    times: int
    retry_after: int | None
    description: str | None
    chat_id: int | None
    applied: bool = False
    """The call takes effect and only its answer is the error (an answer lost on the way)."""


@dataclass
class Delay:
    method: str | None
    seconds: float
    times: int
    chat_id: int | None
