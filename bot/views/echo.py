"""Telegram's length limits, and what a person typed quoted back within them.

A reply that quotes a command's argument or a typed play (``I do not know the game "…"``,
``Which match is … for?``) must fit Telegram's limits whatever was typed: a message of 4096
characters quoted whole makes a reply over 4096, which Telegram refuses, and the person gets no
answer at all. :func:`echoed` is the one way a handler quotes typed text back.
"""

from __future__ import annotations

TEXT_LIMIT = 4096
"""Characters in a message's text (Telegram counts UTF-16 code units)."""
CAPTION_LIMIT = 1024
"""Characters in a photo's caption."""
ANSWER_LIMIT = 200
"""Characters in a callback query's answer (an alert or a toast)."""
ECHO_LIMIT = 64
"""Characters of typed text a reply quotes back (a game's name, a username, a play fit)."""
ELLIPSIS = "…"


def u16len(text: str) -> int:
    """``text``'s length as Telegram counts it (UTF-16 code units)."""
    return len(text.encode("utf-16-le")) // 2


def echoed(typed: str, most: int = ECHO_LIMIT) -> str:
    """``typed`` as a reply quotes it: on one line, at most ``most`` characters, cut with an
    ellipsis when longer."""
    flat = " ".join(typed.split())
    if len(flat) <= most:
        return flat
    return flat[:most - len(ELLIPSIS)].rstrip() + ELLIPSIS
