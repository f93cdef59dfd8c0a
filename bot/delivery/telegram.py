"""Telegram calls made safe: transient failures retried, refusals told apart, failures that must
not stop the rest logged instead of raised."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import warnings
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import httpx
from telegram import Chat
from telegram.constants import ChatType
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError, TimedOut
from telegram.warnings import PTBDeprecationWarning

log = logging.getLogger("bot")
T = TypeVar("T")


def is_group(chat: Chat | int | str | None) -> bool:
    """A group or a supergroup (where a match is played on one shared board, and Telegram
    counts the calls per minute): a ``Chat`` says so by its type; a bare chat id of an API
    call by Telegram's convention, a negative id (or an ``@username``: a channel or a
    supergroup). The bot's one answer: storage is told, it never guesses."""
    if isinstance(chat, Chat):
        return chat.type in (ChatType.GROUP, ChatType.SUPERGROUP)
    return isinstance(chat, str) or (isinstance(chat, int) and chat < 0)


class Unreachable(Exception):
    """The chat cannot be written to (the bot removed or blocked, the chat gone)."""


class Stale(Exception):
    """A delivery worker's claim on a place was taken over (its lease ran out): it stops
    there."""


def not_modified(exc: BadRequest) -> bool:
    return "not modified" in exc.message.lower()


def gone(exc: BadRequest) -> bool:
    text = exc.message.lower()
    return "not found" in text or "can't be edited" in text or "message_id_invalid" in text


async def retrying(call: Callable[[], Awaitable[T]], *, attempts: int = 4,
                   delay: float = 0.5) -> T:
    """Call Telegram, retrying transient failures (5xx, network drops, timeouts). 429s are
    retried by the rate limiter; refusals (400, 403) are not transient and are raised."""
    for attempt in range(attempts):
        try:
            return await call()
        except (BadRequest, Forbidden, RetryAfter):
            raise
        except (NetworkError, TimedOut) as exc:
            if attempt == attempts - 1:
                raise
            log.info("Telegram call failed (%s); retrying", exc)
            await asyncio.sleep(delay * (attempt + 1))
    raise AssertionError("unreachable")


async def quietly(coro: Awaitable[T]) -> T | None:
    """Await a Telegram call whose failure must not stop the rest (logged, not raised)."""
    try:
        return await coro
    except BadRequest as exc:
        if not not_modified(exc):
            log.info("Telegram refused a call: %s", exc.message)
    except Forbidden as exc:
        log.info("Telegram forbade a call: %s", exc.message)
    except TelegramError as exc:
        log.warning("Telegram call failed: %s", exc)
    return None


def never_sent(exc: BaseException) -> bool:
    """Whether a failed call never left the bot: no connection of the pool was free in time
    (python-telegram-bot's ``TimedOut`` from httpx's ``PoolTimeout``). Sending it again cannot
    make it twice; any other timeout may have reached Telegram."""
    return isinstance(exc, TimedOut) and isinstance(exc.__cause__, httpx.PoolTimeout)


def retry_seconds(exc: RetryAfter) -> float:
    """How long Telegram asked to wait (read without python-telegram-bot's warning that the
    attribute's type will change)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        delay = exc.retry_after
    return float(delay if isinstance(delay, (int, float)) else delay.total_seconds())


def chat_of(data: dict[str, Any]) -> int | str | None:
    chat_id = data.get("chat_id")
    if isinstance(chat_id, str):
        with contextlib.suppress(ValueError):
            return int(chat_id)
    return chat_id if isinstance(chat_id, (int, str)) else None
