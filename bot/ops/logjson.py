"""``PORTES_LOG_FORMAT=json``: one JSON object per log line, for log collectors.

Keys: ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``, and ``exc`` (the traceback)
when there is one. The secret filter (:mod:`bot.ops.logsafe`) runs before this formatter, so the
token is hidden here as in text lines.
"""

from __future__ import annotations

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


def configure(level: int, fmt: str) -> None:
    """The root logger's one handler, in the chosen format (``text`` or ``json``)."""
    if fmt == "json":
        handler = logging.StreamHandler()
        handler.setFormatter(JsonFormatter())
        logging.basicConfig(level=level, handlers=[handler])
    else:
        logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s", level=level)
