"""Error reports for the operator: unhandled errors go to ``PORTES_ADMIN_CHAT`` (at most one
a minute of each kind, the next one saying how many were held back) and to Sentry when
``SENTRY_DSN`` is set (``pip install 'portes[sentry]'``; without the package the bot says so
once in the log and carries on).

A kind is the exception's type and the line of our code it came from, so one broken handler
hammered by every player makes one message a minute, while a second, different bug still gets
through at once. A report names the update's chat, user and match, never its text.
"""

from __future__ import annotations

import html
import json
import logging
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from telegram import Bot, Update
from telegram.constants import ParseMode

from bot.ops.logsafe import Redact
from bot.views.callbacks import decode

log = logging.getLogger("bot.ops.reports")
WINDOW = 60.0
MAX_TRACE = 2500


def error_kind(error: BaseException) -> str:
    """The exception's type and where in our code (else anywhere) it was raised."""
    frames = traceback.extract_tb(error.__traceback__)
    ours = [f for f in frames if "/site-packages/" not in f.filename] or frames
    where = ""
    if ours:
        last = ours[-1]
        where = f" at {'/'.join(last.filename.split('/')[-2:])}:{last.lineno}"
    return f"{type(error).__name__}{where}"


def update_context(update: object) -> dict[str, Any]:
    """The chat, the user and the match (from a button's data) an update is about."""
    found: dict[str, Any] = {}
    if not isinstance(update, Update):
        return found
    if update.effective_chat is not None:
        found["chat"] = update.effective_chat.id
    if update.effective_user is not None:
        found["user"] = update.effective_user.id
    query = update.callback_query
    if query is not None:
        callback = decode(query.data)
        if callback is not None:
            found["match"] = callback.match_id
            found["action"] = callback.action.value
    elif update.message is not None and update.message.text:
        found["command"] = update.message.text.split()[0][:32] if update.message.text.startswith(
            "/") else "text"
    return found


@dataclass
class Reporter:
    """Rate-limited reports of unhandled errors to the operator."""

    bot: Bot
    admin_chat: int | None
    secrets: Redact
    sentry: bool = False
    window: float = WINDOW
    clock: Callable[[], float] = time.monotonic
    last_sent: dict[str, float] = field(default_factory=dict)
    held: dict[str, int] = field(default_factory=dict)

    async def report(self, error: BaseException, update: object) -> bool:
        """Report ``error``; ``True`` when a message went to the admin chat."""
        where = update_context(update)
        if self.sentry:
            _to_sentry(error, where)
        if self.admin_chat is None:
            return False
        kind = error_kind(error)
        now = self.clock()
        last = self.last_sent.get(kind)
        if last is not None and now - last < self.window:
            self.held[kind] = self.held.get(kind, 0) + 1
            return False
        self.last_sent[kind] = now
        held = self.held.pop(kind, 0)
        try:
            await self.bot.send_message(self.admin_chat, self.text(error, kind, where, held),
                                        parse_mode=ParseMode.HTML)
        except Exception as exc:  # a report must never raise in the error handler
            log.warning("could not report the error to the admin chat: %s", exc)
            return False
        return True

    def text(self, error: BaseException, kind: str, where: dict[str, Any], held: int) -> str:
        trace = "".join(traceback.format_exception(error))[-MAX_TRACE:]
        lines = [f"⚠️ <b>{html.escape(kind)}</b>",
                 html.escape(self.secrets.hide(str(error))[:500])]
        if where:
            lines.append(html.escape(" ".join(f"{k}={v}" for k, v in where.items())))
        if held:
            lines.append(f"(+{held} more of this kind held back in the last "
                         f"{int(self.window)} s)")
        lines.append(f"<pre>{html.escape(self.secrets.hide(trace))}</pre>")
        return "\n".join(lines)


def start_sentry(dsn: str | None, secrets: Redact) -> bool:
    """Initialise Sentry when a DSN is set and the optional package is there. Every event and
    breadcrumb goes through ``secrets`` (the Bot API's URLs carry the token), and no local
    variables are sent (they hold players' messages)."""
    if not dsn:
        return False
    try:
        import sentry_sdk
    except ImportError:
        log.warning("SENTRY_DSN is set but sentry-sdk is not installed: "
                    "pip install 'portes[sentry]'; errors go to the log only")
        return False
    from sentry_sdk.integrations.logging import LoggingIntegration

    def scrub(item: Any, _hint: Any) -> Any:
        return json.loads(secrets.hide(json.dumps(item, default=str)))

    # error log lines stay breadcrumbs: the error handler sends each error once, with its tags
    sentry_sdk.init(dsn=dsn, before_send=scrub, before_breadcrumb=scrub,
                    integrations=[LoggingIntegration(event_level=None)],
                    **_no_local_variables(sentry_sdk.VERSION))
    return True


def _no_local_variables(version: str) -> dict[str, Any]:
    """The option that keeps stack frames' local variables out of events: sentry-sdk 3 moved
    it into ``data_collection`` and refuses the old name, 2.x knows only the old one."""
    if int(version.split(".")[0]) >= 3:
        return {"data_collection": {"stack_frame_variables": False}}
    return {"include_local_variables": False}


def _to_sentry(error: BaseException, where: dict[str, Any]) -> None:
    try:
        import sentry_sdk

        with sentry_sdk.new_scope() as scope:
            for key, value in where.items():
                scope.set_tag(key, str(value))
            sentry_sdk.capture_exception(error)
    except Exception:
        log.debug("could not send the error to Sentry", exc_info=True)
