"""Keeping secrets out of the log: the bot token (and the webhook secret) are replaced in every
record, whatever logger wrote it and at any level.

python-telegram-bot logs the Bot API URL, token included, at DEBUG ("Set Bot API URL"), and an
HTTP error can carry the URL in its message or traceback; anyone who reads the log could then
act as the bot.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

HIDDEN = "<hidden>"


class Redact(logging.Filter):
    """Replace each secret in a record's message and traceback with ``<hidden>``."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        # longest first: the whole token before its secret part
        self.secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

    def hide(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, HIDDEN)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        hidden = self.hide(message)
        if hidden != message:
            record.msg, record.args = hidden, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.hide(record.exc_text)
        if record.stack_info:
            record.stack_info = self.hide(record.stack_info)
        return True


def token_secrets(token: str, *others: str | None) -> list[str]:
    """What to hide for this token: the token, and its secret part after the bot id (which
    also appears on its own, e.g. URL-quoted after ``%3A``)."""
    found = [token, *(o for o in others if o)]
    _, _, secret_part = token.partition(":")
    if len(secret_part) >= 8:
        found.append(secret_part)
    return found


def hide_secrets(secrets: Iterable[str]) -> Redact:
    """Install the filter on every handler of the root logger (where every logger's records
    end up), before anything that could log a secret runs."""
    redact = Redact(secrets)
    for handler in logging.getLogger().handlers:
        handler.addFilter(redact)
    return redact
