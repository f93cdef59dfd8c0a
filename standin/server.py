"""A local stand-in for the Telegram Bot API server, on 127.0.0.1, in its own thread.

    with StandIn() as standin:
        app = ApplicationBuilder().token(standin.token).base_url(standin.base_url)
              .base_file_url(standin.base_file_url).build()
        alice = standin.user("Alice", username="alice")
        alice.start_bot()

See docs/standin.md.
"""

from __future__ import annotations

import copy
import json
import re
import socket
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypeVar
from urllib.parse import parse_qsl, unquote, urlsplit

from .clock import Clock, RealClock
from .flood import TELEGRAM_LIMITS, Flood, FloodLimits
from .model import Call, ChatRec, Delay, Injection, Upload, UserRec
from .sim import HANG_GUARD, Chat, Message, StandInError, Until, User, snapshot
from .world import World

T = TypeVar("T")


def parse_multipart(body: bytes, content_type: str) -> dict[str, Any]:
    """Parse multipart/form-data: text fields become str, file parts :class:`Upload`."""
    m = re.search(r'boundary="?([^";]+)"?', content_type)
    if not m:
        raise ValueError("multipart without boundary")
    delimiter = b"\r\n--" + m.group(1).encode()
    out: dict[str, Any] = {}
    parts = (b"\r\n" + body).split(delimiter)
    for part in parts[1:]:
        if part.startswith(b"--"):
            break
        head, _, content = part.partition(b"\r\n\r\n")
        headers = head.decode("utf-8", "replace")
        name_m = re.search(r'\bname="([^"]*)"', headers)
        if not name_m:
            continue
        file_m = re.search(r'\bfilename="([^"]*)"', headers)
        type_m = re.search(r"(?im)^content-type:\s*(\S+)", headers)
        if file_m is not None:
            out[name_m.group(1)] = Upload(name_m.group(1), file_m.group(1), content,
                                          type_m.group(1) if type_m else
                                          "application/octet-stream")
        else:
            out[name_m.group(1)] = content.decode("utf-8")
    return out


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    wbufsize = 1 << 16  # one write per response (handle_one_request flushes)
    server: _Server

    def setup(self) -> None:
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        self._handle()

    def do_POST(self) -> None:
        self._handle()

    def _send(self, status: int, body: bytes, content_type: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except OSError:  # the client went away (e.g. a cancelled long poll)
            self.close_connection = True

    def _handle(self) -> None:
        world = self.server.world
        url = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        m_file = re.fullmatch(r"/file/bot([^/]+)/(.+)", url.path)
        if m_file:
            with world.cond:
                rec = world.files_by_path.get(unquote(m_file.group(2)))
                ok = m_file.group(1) == world.token and rec is not None
                data = rec.data if rec is not None else b""
            if not ok:
                self._send(404, b'{"ok":false,"error_code":404,"description":"Not Found"}')
            else:
                self._send(200, data, "image/jpeg")
            return
        m_api = re.fullmatch(r"/bot([^/]*)/([A-Za-z]+)", url.path)
        if not m_api:
            self._send(404, b'{"ok":false,"error_code":404,"description":"Not Found"}')
            return
        try:
            params = self._params(url.query, body)
        except (ValueError, UnicodeDecodeError) as err:
            self._send(400, json.dumps({"ok": False, "error_code": 400,
                                        "description": f"Bad Request: {err}"}).encode())
            return
        status, payload = world.call(m_api.group(1), m_api.group(2), params)
        self._send(status, json.dumps(payload, ensure_ascii=False).encode("utf-8"))

    def _params(self, query: str, body: bytes) -> dict[str, Any]:
        params: dict[str, Any] = dict(parse_qsl(query, keep_blank_values=True))
        ctype = self.headers.get("Content-Type") or ""
        if not body:
            return params
        if ctype.startswith("application/json"):
            decoded = json.loads(body)
            if not isinstance(decoded, dict):
                raise ValueError("JSON body must be an object")
            params.update(decoded)
        elif ctype.startswith("multipart/form-data"):
            params.update(parse_multipart(body, ctype))
        else:
            params.update(parse_qsl(body.decode("utf-8"), keep_blank_values=True))
        return params


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    world: World

    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys

        if not isinstance(sys.exc_info()[1], OSError):  # disconnects are normal
            super().handle_error(request, client_address)


IDLE = ("the bot to go idle (every update fetched and handled, no request in flight, no "
        "delivery or background work of the bot running)")


class StandIn:
    """The Bot API stand-in plus the simulated users' side of Telegram.

    Thread-safe: the HTTP server runs in its own threads; tests call the user API from theirs.
    """

    def __init__(self, *, token: str = "123:ABC", bot_username: str = "portes_test_bot",
                 bot_name: str = "Portes", privacy_mode: bool = True,
                 inline_feedback: bool = False, recompress_photos: bool = True,
                 callback_answer_timeout: float = 15.0, port: int = 0,
                 clock: Clock | None = None) -> None:
        self.token = token
        self.world = World(token=token, bot_username=bot_username, bot_name=bot_name,
                           privacy_mode=privacy_mode, inline_feedback=inline_feedback,
                           recompress_photos=recompress_photos,
                           callback_answer_timeout=callback_answer_timeout,
                           clock=clock if clock is not None else RealClock())
        self._port = port
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self.busy: list[Callable[[], bool]] = []
        """What the bot under test says of itself: each true while it still works on what it
        was sent (an update fetched but not handled, work it started in the background), so
        that :meth:`idle` does not take a bot busy without a request in flight for a quiet one.
        Tests that run the bot in their own process register it (a subprocess cannot)."""

    # ---- lifecycle ---------------------------------------------------------------------------
    def start(self) -> StandIn:
        if self._server is not None:
            return self
        server = _Server(("127.0.0.1", self._port), _Handler)
        server.world = self.world
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, kwargs={
            "poll_interval": 0.05}, name="telegram-standin", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is None:
            return
        with self.world.cond:
            self.world.closing = True
            self.world.cond.notify_all()
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = None
        self._thread = None

    def __enter__(self) -> StandIn:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("the stand-in is not running")
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        """For ``ApplicationBuilder().base_url(...)``: ``http://127.0.0.1:PORT/bot``."""
        return f"http://127.0.0.1:{self.port}/bot"

    @property
    def base_file_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/file/bot"

    @property
    def api_url(self) -> str:
        """``base_url`` plus the token: append a method name for raw HTTP calls."""
        return f"{self.base_url}{self.token}/"

    # ---- configuration -------------------------------------------------------------------------
    @property
    def bot_id(self) -> int:
        return self.world.bot.id

    @property
    def bot_username(self) -> str | None:
        return self.world.bot.username

    def set_privacy_mode(self, enabled: bool) -> None:
        with self.world.cond:
            self.world.privacy_mode = enabled

    def set_inline_feedback(self, enabled: bool) -> None:
        with self.world.cond:
            self.world.inline_feedback = enabled

    def set_inline_mode(self, enabled: bool) -> None:
        with self.world.cond:
            self.world.inline_mode = enabled

    def serve_url(self, url: str, data: bytes) -> None:
        """Content Telegram would fetch for a photo given by HTTP URL (there is no internet)."""
        with self.world.cond:
            self.world.url_content[url] = data

    def advance_clock(self, seconds: float) -> None:
        """Move the stand-in's clock forward (message ages, callback-answer deadlines; with a
        :class:`ManualClock` also long-poll timeouts and injected delays, which it wakes)."""
        with self.world.cond:
            self.world.clock.advance(seconds)
            self.world.cond.notify_all()

    def taps_unanswered(self) -> list[str]:
        """The callback queries not answered yet and still young enough to be (fetched by the
        bot or not), by id: moving the clock past their deadline would make them too old."""
        with self.world.cond:
            w = self.world
            return [q.id for q in w.callbacks.values()
                    if not q.answered and w.now() - q.time <= w.callback_answer_timeout]

    def now(self) -> float:
        with self.world.cond:
            return self.world.now()

    def settled(self) -> Until:
        """Awaitable (or ``.wait_sync()``): with a :class:`ManualClock`, until every long poll
        and injected delay has looked at the clock since it last moved: what fell due has been
        let go, the rest still waits. At once with the real clock."""
        def settled() -> bool:
            with self.world.cond:
                return self.world.clock.settled()

        return Until(settled, "the clock's waiters to see the new time", 10.0)

    def inject_error(self, method: str | None = None, code: int = 429, *,
                     retry_after: int | None = None, times: int = 1,
                     description: str | None = None, chat_id: int | None = None,
                     applied: bool = False) -> None:
        """Make the next ``times`` calls of ``method`` (any method if None; optionally only for
        ``chat_id``) fail with ``code`` (429 carries ``retry_after``, default 1). ``applied``:
        each call takes effect (a message is sent) and only its answer is ``code``, the way
        an answer lost between Telegram and the bot leaves the sender not knowing."""
        with self.world.cond:
            self.world.injections.append(Injection(method, code, times, retry_after,
                                                   description, chat_id, applied))

    def set_flood_limits(self, limits: FloodLimits | None = TELEGRAM_LIMITS) -> None:
        """Enforce Telegram's flood limits from now on (``None``: stop; the default: Telegram's
        published ones, see :class:`FloodLimits`): sends, edits and deletions over a limit are
        answered 429 with ``retry_after``. Counted on the stand-in clock; off by default."""
        with self.world.cond:
            self.world.flood = None if limits is None else Flood(limits)

    def inject_delay(self, method: str | None = None, seconds: float = 1.0, *, times: int = 1,
                     chat_id: int | None = None) -> None:
        """Make the next ``times`` calls of ``method`` (any method if None; optionally only for
        ``chat_id``) wait ``seconds`` on the stand-in clock before they are handled: a slow
        Telegram. The call counts as in flight while it waits."""
        with self.world.cond:
            self.world.delays.append(Delay(method, seconds, times, chat_id))

    # ---- users and chats -----------------------------------------------------------------------
    def user(self, first_name: str, *, username: str | None = None,
             language_code: str | None = "en", last_name: str | None = None,
             id: int | None = None) -> User:
        with self.world.cond:
            uid = id if id is not None else next(self.world.user_ids)
            if uid in self.world.users:
                raise StandInError(f"user id {uid} already exists")
            rec = UserRec(id=uid, first_name=first_name, last_name=last_name, username=username,
                          language_code=language_code)
            self.world.users[uid] = rec
            return User(self, rec)

    def group(self, title: str, *members: User, bot: bool = True,
              bot_admin: bool = False) -> Chat:
        """A basic group; the first member is its creator. The bot is in it unless ``bot=False``
        (no updates are sent for the set-up; use ``user.add_bot`` for that)."""
        with self.world.cond:
            gid = -next(self.world.group_ids)
            rec = ChatRec(id=gid, type="group", title=title)
            self._populate(rec, members, bot, bot_admin)
            return Chat(self, rec)

    def supergroup(self, title: str, *members: User, forum: bool = False,
                   username: str | None = None, bot: bool = True,
                   bot_admin: bool = False) -> Chat:
        with self.world.cond:
            gid = -(1_000_000_000_000 + next(self.world.super_ids) - 1_000_000_000)
            rec = ChatRec(id=gid, type="supergroup", title=title, is_forum=forum,
                          username=username)
            if forum:
                rec.next_message_id = 2  # thread id 1 is the General topic
            self._populate(rec, members, bot, bot_admin)
            return Chat(self, rec)

    def _populate(self, rec: ChatRec, members: tuple[User, ...], bot: bool,
                  bot_admin: bool) -> None:
        for i, member in enumerate(members):
            rec.members[member.id] = "creator" if i == 0 else "member"
        rec.bot_status = ("administrator" if bot_admin else "member") if bot else "left"
        self.world.chats[rec.id] = rec

    def join(self, chat: Chat, user: User) -> None:
        with self.world.cond:
            chat.record.members[user.id] = "member"

    def direct_chat(self, a: User, b: User) -> Chat:
        """A private chat between two users (the bot is not in it; for inline mode)."""
        with self.world.cond:
            rec = ChatRec(id=b.id, type="private", user=b.record, visible_to_bot=False,
                          members={a.id: "member", b.id: "member"})
            self.world.foreign_chats.append(rec)
            return Chat(self, rec)

    def chat(self, chat_id: int) -> Chat:
        with self.world.cond:
            rec = self.world.chats.get(chat_id)
            if rec is None:
                raise StandInError(f"no chat {chat_id}")
            return Chat(self, rec)

    def message(self, chat_id: int, message_id: int,
                inline_message_id: str | None = None) -> Message:
        """The current state of a message (raises if it is gone)."""
        with self.world.cond:
            if inline_message_id is not None:
                rec = self.world.inline_messages.get(inline_message_id)
            else:
                chat = self.world.chats.get(chat_id) or next(
                    (c for c in self.world.foreign_chats if c.id == chat_id), None)
                rec = chat.messages.get(message_id) if chat else None
            if rec is None or rec.deleted:
                raise StandInError(f"message {message_id} in chat {chat_id} is gone")
            return snapshot(self, rec)

    # ---- inspection ----------------------------------------------------------------------------
    def calls(self, method: str | None = None, *, chat_id: int | None = None,
              ok: bool | None = None) -> list[Call]:
        """Raw Bot API calls the bot made, oldest first (getUpdates included)."""
        with self.world.cond:
            out = list(self.world.calls)
        if method is not None:
            out = [c for c in out if c.method.lower() == method.lower()]
        if chat_id is not None:
            out = [c for c in out if c.chat_id == chat_id]
        if ok is not None:
            out = [c for c in out if c.ok == ok]
        return out

    def max_calls_per_window(self, methods: tuple[str, ...], window: float, *,
                             chat_id: int | None = None) -> int:
        """The most calls of ``methods`` (to ``chat_id``) in any ``window`` seconds."""
        times = sorted(c.time for c in self.calls(chat_id=chat_id, ok=True)
                       if c.method in methods)
        best, lo = 0, 0
        for hi, t in enumerate(times):
            while t - times[lo] >= window:
                lo += 1
            best = max(best, hi - lo + 1)
        return best

    def pending_updates(self) -> list[dict[str, Any]]:
        with self.world.cond:
            return [dict(u) for u in self.world.updates]

    def take_updates(self) -> list[dict[str, Any]]:
        """Remove the queued updates and return them, oldest first, as the JSON objects
        Telegram would POST to a webhook (the stand-in itself never POSTs): a test delivers
        them to a bot running in webhook mode. Updates the bot already fetched by polling are
        not among them."""
        with self.world.cond:
            w = self.world
            taken = [copy.deepcopy(u) for u in w.updates
                     if u["update_id"] > w.last_fetched_update_id]
            w.updates = [u for u in w.updates if u["update_id"] <= w.last_fetched_update_id]
            w.cond.notify_all()
            return taken

    def commands(self, *, scope: dict[str, Any] | None = None,
                 language_code: str = "") -> list[dict[str, str]]:
        with self.world.cond:
            key = json.dumps(scope or {"type": "default"}, sort_keys=True)
            return [dict(c) for c in self.world.commands.get((key, language_code), [])]

    @property
    def webhook(self) -> dict[str, Any]:
        with self.world.cond:
            return dict(self.world.webhook)

    @property
    def polls_waiting(self) -> int:
        """getUpdates requests now waiting for an update (a long poll that has arrived)."""
        with self.world.cond:
            return self.world.polls_waiting

    @property
    def requests_in_flight(self) -> int:
        """Requests other than getUpdates that arrived and have not been answered yet."""
        with self.world.cond:
            return self.world.in_flight

    # ---- waiting -------------------------------------------------------------------------------
    def wait_for(self, predicate: Callable[[], T], timeout: float = HANG_GUARD,
                 what: str = "the condition") -> Until:
        """Awaitable (or ``.wait_sync()``): polls ``predicate`` until truthy; gives its value."""
        return Until(predicate, what, timeout)

    def is_idle(self, quiet: float = 0.0) -> bool:
        """Every update fetched, no request in flight, none finished in the last ``quiet``
        seconds (real ones: the bot runs in real time), and the bot not :attr:`busy`."""
        with self.world.cond:
            w = self.world
            unfetched = [u for u in w.updates if u["update_id"] > w.last_fetched_update_id]
            quiet_here = (not unfetched and w.in_flight == 0
                          and time.monotonic() - w.last_activity >= quiet)
        return quiet_here and not any(busy() for busy in self.busy)

    async def idle(self, quiet: float = 0.15, timeout: float = 2 * HANG_GUARD) -> None:
        """Wait until every update was fetched by the bot, no request is in
        flight, no request finished in the last ``quiet`` seconds, and the bot is not
        :attr:`busy` (``timeout``: a hang guard; a review judged in the background on a
        loaded machine takes its time)."""
        await Until(lambda: self.is_idle(quiet), IDLE, timeout)

    def idle_sync(self, quiet: float = 0.15, timeout: float = 2 * HANG_GUARD) -> None:
        Until(lambda: self.is_idle(quiet), IDLE, timeout).wait_sync()
