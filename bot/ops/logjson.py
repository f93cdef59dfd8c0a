"""``PORTES_LOG_FORMAT=json``: one JSON object per log line, for log collectors.

Keys: ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``, and ``exc`` (the traceback)
when there is one. The secret filter (:mod:`bot.ops.logsafe`) runs before this formatter, so the
token is hidden here as in text lines.
"""

from __future__ import annotations

import asyncio
import json
import logging
from datetime import UTC, datetime


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line["exc"] = record.exc_text
        return json.dumps(line, ensure_ascii=False)


class CancelledJobs(logging.Filter):
    """Drops APScheduler's report of a job cancelled while the bot stops: python-telegram-bot
    waits for the jobs running when it stops, but one the scheduler starts in that moment is
    cancelled, and APScheduler logs that as an error with a traceback. A cancelled job is the
    stop doing its work, not a fault; every other error of a job is kept."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, asyncio.CancelledError)


def configure(level: int, fmt: str) -> None:
    """The root logger's one handler, in the chosen format (``text`` or ``json``); a job
    cancelled by the bot's stop is not reported as an error (:class:`CancelledJobs`)."""
    logging.getLogger("apscheduler.executors.default").addFilter(CancelledJobs())
    if fmt == "json":
        handler = logging.StreamHandler()
        handler.setFormatter(JsonFormatter())
        logging.basicConfig(level=level, handlers=[handler])
    else:
        logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s", level=level)
