"""Greek and English texts from standard gettext catalogues (Babel tooling).

The catalogues are ``bot/locales/<lang>/LC_MESSAGES/portes.po``. A compiled ``portes.mo`` beside
one is used when it is at least as new as the ``.po``; otherwise the ``.po`` is compiled in
memory at load time with ``babel.messages``, so a fresh ``pip install -e .`` works without a build
step. Message ids are the English texts; placeholders are named, ``{player}``.

To change texts (the games' names are in the registry, ``rules/game.py``):
``pybabel extract -F bot/babel.cfg -o bot/locales/portes.pot bot rules/game.py``, then
``pybabel update -i bot/locales/portes.pot -d bot/locales -D portes``, translate, and
``pybabel compile -d bot/locales -D portes`` (optional). ``tests/bot/test_i18n.py`` fails when a
message id lacks a translation in either language.
"""

from __future__ import annotations

import functools
import io
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

LOCALES = Path(__file__).parent.parent / "locales"
DOMAIN = "portes"
LANGS = ("el", "en")
DEFAULT_LANG = "en"
LANG_NAMES = {"el": "Ελληνικά", "en": "English"}


def N_(message: str) -> str:
    """Mark a text for extraction without translating it yet."""
    return message


def lang_of(code: str | None) -> str:
    """The bot's language for a Telegram ``language_code`` (Greek for ``el``, else English)."""
    if code and code.lower().split("-")[0] in LANGS:
        return code.lower().split("-")[0]
    return DEFAULT_LANG


def po_path(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def _translations(lang: str) -> Translations:
    po = po_path(lang)
    mo = po.with_suffix(".mo")
    if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        with mo.open("rb") as fh:
            return Translations(fh, domain=DOMAIN)
    with po.open("rb") as fh:
        catalog = read_po(fh, locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return Translations(buf, domain=DOMAIN)


class Tr:
    """The texts of one language: ``t._("Hello {name}", name=...)``."""

    __slots__ = ("_t", "lang")

    def __init__(self, lang: str) -> None:
        self.lang = lang if lang in LANGS else DEFAULT_LANG
        self._t = _translations(self.lang)

    def _(self, message: str, **values: object) -> str:
        text = self._t.gettext(message)
        return text.format(**values) if values else text

    def ngettext(self, singular: str, plural: str, n: int, **values: object) -> str:
        text = self._t.ngettext(singular, plural, n)
        return text.format(n=n, **values)


@functools.cache
def tr(lang: str | None) -> Tr:
    return Tr(lang if lang in LANGS else DEFAULT_LANG)
