"""Bot API errors with Telegram's own descriptions."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An error the stand-in answers with ``{"ok": false, ...}`` and HTTP status ``code``."""

    def __init__(self, code: int, description: str,
                 parameters: dict[str, Any] | None = None) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters

    def envelope(self) -> dict[str, Any]:
        body: dict[str, Any] = {"ok": False, "error_code": self.code,
                                "description": self.description}
        if self.parameters:
            body["parameters"] = self.parameters
        return body


NOT_MODIFIED = ("Bad Request: message is not modified: specified new message content and reply "
                "markup are exactly the same as a current content and reply markup of the message")
BLOCKED = "Forbidden: bot was blocked by the user"
NOT_STARTED = "Forbidden: bot can't initiate conversation with a user"
BUTTON_DATA_INVALID = "Bad Request: BUTTON_DATA_INVALID"
CAPTION_TOO_LONG = "Bad Request: message caption is too long"
TEXT_TOO_LONG = "Bad Request: message is too long"
TEXT_EMPTY = "Bad Request: message text is empty"
CANT_DELETE = "Bad Request: message can't be deleted for everyone"
DELETE_NOT_FOUND = "Bad Request: message to delete not found"
EDIT_NOT_FOUND = "Bad Request: message to edit not found"
CANT_EDIT = "Bad Request: message can't be edited"
QUERY_TOO_OLD = ("Bad Request: query is too old and response timeout expired or query ID is "
                 "invalid")
CHAT_NOT_FOUND = "Bad Request: chat not found"
WRONG_FILE_ID = "Bad Request: wrong file identifier/HTTP URL specified"
INLINE_UPLOAD = ("Bad Request: can't upload a new file to an inline message; use a file_id or "
                 "an HTTP URL")  # the stand-in's own wording
TEXT_BUTTONS = "Bad Request: text buttons are unallowed in the inline keyboard"
MARKUP_UNPARSABLE = "Bad Request: can't parse reply keyboard markup JSON object"
MESSAGE_ID_INVALID = "Bad Request: MESSAGE_ID_INVALID"
WEBHOOK_ACTIVE = ("Conflict: can't use getUpdates method while webhook is active; use "
                  "deleteWebhook to delete the webhook first")
POLL_CONFLICT = ("Conflict: terminated by other getUpdates request; make sure that only one bot "
                 "instance is running")
UPGRADED = "Bad Request: group chat was upgraded to a supergroup chat"


def too_many_requests(retry_after: int) -> ApiError:
    return ApiError(429, f"Too Many Requests: retry after {retry_after}",
                    {"retry_after": retry_after})
