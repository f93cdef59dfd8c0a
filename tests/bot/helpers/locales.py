"""What the locale tests share: the texts shown in callback answers, and how a Russian or
Turkish text is searched for English or Greek words (what is the same in every language taken
out first: placeholders, commands, HTML tags, the names programs and files keep)."""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path

from bot.views import texts
from bot.views.i18n import Tr, lang_name, langs, tr
from bot.views.i18n_check import MessageId, used_message_ids
from tests import source_trees

BOT = Path(texts.__file__).parent.parent


@functools.cache
def message_ids() -> frozenset[MessageId]:
    """Every text the code translates (:func:`bot.views.i18n_check.used_message_ids`), read
    from the sources once per test process: Babel's extraction walks every module of bot/,
    about a second each time."""
    return frozenset(used_message_ids())


def alert_texts() -> list[str]:
    """The message ids shown in callback answers: each ``t._("...")`` inside an ``answer`` or
    ``answer_soon`` call in bot/, and every refusal the use cases can return."""
    found = [str(text) for text in texts.ERRORS.values()]
    for path in BOT.rglob("*.py"):
        for node in source_trees.file_nodes(path):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
            if name not in ("answer", "answer_soon"):
                continue
            for sub in ast.walk(node):
                if (isinstance(sub, ast.Call) and getattr(sub.func, "attr", None) == "_"
                        and sub.args and isinstance(sub.args[0], ast.Constant)):
                    found.append(str(sub.args[0].value))
    return found


KEPT = (
    # names that are the same in every language: the bot's own name, programs, file formats,
    # the Bot API's words shown as GNU Backgammon prints them, hashes
    "Portes", "GNU Backgammon", "eXtreme Gammon", "Jellyfish", "gnubg-nn", "HMAC-SHA256",
    "SHA-256", "Python", "Telegram", "PositionID:MatchID", "Position ID", "Match ID", ".mat",
    "rules/common/fairdice.py",
)
COMMAND_WORDS = re.compile(r"/[a-z]+(?: (?:show|hide|on|off|portes|plakoto|fevga|tavli|nardy"
                           r"|@\w+))?"
                           r"(?: \((?:[a-z]+(?:, )?)+\))?|@\w+|\{\w+\}")
"""Commands as typed (``/top show``, ``/quiet on``, ``/rules nardy (portes, plakoto, fevga,
tavli)``, ``/stats @name``) and placeholders: the same in every language."""
GREEK = re.compile(r"[\u0370-\u03ff\u1f00-\u1fff]")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
TURKISH_TOO = {"bar", "mars", "backgammon", "plakoto", "fevga", "tavli", "bot"}
"""Words an English text has that are Turkish too: the bar and a mars are tavla's own words,
backgammon the international name of the triple, the Greek games' names, a (Telegram) bot."""


def readable(t: Tr, msgid: str | tuple[str, str]) -> Iterator[str]:
    """The translation as the player reads it, without what is the same in every language
    (placeholders, commands, HTML tags, the kept names, language names in /lang's list)."""
    ids = msgid if isinstance(msgid, tuple) else (msgid,)
    raw = t._t.ngettext(ids[0], ids[1], 7) if isinstance(msgid, tuple) else t._t.gettext(msgid)
    forms = ([t._t.ngettext(ids[0], ids[1], n) for n in (1, 2, 5)]
             if isinstance(msgid, tuple) else [raw])
    for form in dict.fromkeys(forms):
        text = re.sub(r"<[^>]+>", " ", form)
        for word in (*KEPT, *(lang_name(lang) for lang in langs())):
            text = text.replace(word, " ")
        yield COMMAND_WORDS.sub(" ", text)


@functools.cache
def english_words() -> frozenset[str]:
    """The words of the English texts (once per test process: every message read in a Russian
    or Turkish test is checked against them)."""
    words: set[str] = set()
    for msgid in message_ids():
        for text in readable(tr("en"), msgid):
            words |= {w.lower() for w in LATIN_WORD.findall(text) if len(w) >= 3}
    return frozenset(words - TURKISH_TOO)


