"""The bot's texts in every language it has, from standard gettext catalogues (Babel tooling).

The catalogues are ``<locales>/<lang>/LC_MESSAGES/portes.po``; ``<locales>`` is ``bot/locales``
unless ``PORTES_LOCALES`` names another directory. The languages offered are the folders found
there (:func:`langs`): adding a language is adding its folder (``docs/translating.md``). A
compiled ``portes.mo`` beside a ``.po`` is used when it is at least as new; otherwise the ``.po``
is compiled at load time with ``babel.messages``, so a fresh ``pip install -e .`` works
without a build step, and the result kept as that ``.mo`` where the folder is writable (reading
the four ``.po`` files took a quarter of a CPU second at every start; ignored by git).
Message ids are the English texts; placeholders are named, ``{player}``.

To change texts (the games' names are in the registry, ``rules/game.py``):
``pybabel extract -F bot/babel.cfg -o bot/locales/portes.pot bot rules/game.py``, then
``pybabel update -i bot/locales/portes.pot -d bot/locales -D portes``, translate, and
``pybabel compile -d bot/locales -D portes`` (optional). ``python -m bot.views.i18n_check`` lists
what is missing or stale in each language; ``tests/bot/test_locales.py`` fails on any of it.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, get_decimal_symbol
from babel.support import Translations

BUILT_IN = Path(__file__).parent.parent / "locales"
LOCALES_ENV = "PORTES_LOCALES"
"""An environment variable naming another locales directory (a test's, a translator's)."""
DOMAIN = "portes"
DEFAULT_LANG = "en"

ONE_DECIMAL = "0.0"
"""Babel number patterns: a rating, a percentage (1507.3; 1507,3 in Russian and Turkish)."""
SIGNED = "+0.0;-0.0"
"""A rating's change, signed."""
LUCK = "+0.00;-0.00"
WHOLE = "0"


def N_(message: str) -> str:
    """Mark a text for extraction without translating it yet."""
    return message


def locales_dir() -> Path:
    return Path(os.environ.get(LOCALES_ENV) or BUILT_IN)


@functools.cache
def _found(root: Path) -> tuple[str, ...]:
    found = {d.name for d in root.iterdir() if (d / "LC_MESSAGES" / f"{DOMAIN}.po").is_file()}
    return tuple(sorted(found | {DEFAULT_LANG}))


def langs() -> tuple[str, ...]:
    """The languages offered: every folder of the locales directory with a catalogue (English,
    the message ids' language, always), in the order of their codes."""
    return _found(locales_dir())


@functools.cache
def lang_name(lang: str) -> str:
    """A language's name in itself ("Русский", "Türkçe"), from Babel's locale data (kept: a
    name does not change while the bot runs, and each start's command menus ask for them all)."""
    try:
        name = Locale.parse(lang).get_display_name(lang) or lang
    except (ValueError, UnknownLocaleError):
        return lang
    return name[:1].upper() + name[1:]


def lang_names() -> str:
    """Every language offered, by name: "English / Русский / …"."""
    return " / ".join(lang_name(lang) for lang in langs())


def lang_of(code: str | None) -> str:
    """The bot's language for a Telegram ``language_code`` (``ru-RU`` is ``ru``) or a stored
    choice: one of :func:`langs`, else English."""
    if code and code.lower().split("-")[0] in langs():
        return code.lower().split("-")[0]
    return DEFAULT_LANG


def po_path(lang: str) -> Path:
    return locales_dir() / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def _translations(root: Path, lang: str) -> Translations:
    po = root / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not po.is_file():
        return Translations()  # English without a catalogue: the message ids themselves
    mo = po.with_suffix(".mo")
    if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        with mo.open("rb") as fh:
            return Translations(fh, domain=DOMAIN)
    with po.open("rb") as fh:
        catalog = read_po(fh, locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    _keep(mo, buf.getvalue())
    buf.seek(0)
    return Translations(buf, domain=DOMAIN)


def _keep(mo: Path, compiled: bytes) -> None:
    """Write ``compiled`` to ``mo`` for the next start, whole or not at all (another process
    may read it meanwhile); a read-only install just compiles again next time."""
    part = mo.with_name(f".{mo.name}.{os.getpid()}")
    try:
        part.write_bytes(compiled)
        os.replace(part, mo)
    except OSError:
        with contextlib.suppress(OSError):
            part.unlink()


class Tr:
    """The texts of one language: ``t._("Hello {name}", name=...)``; numbers in its format
    (``t.number(1234.5)`` is "1 234,5" in Russian; the bot prints no dates)."""

    __slots__ = ("_t", "lang")

    def __init__(self, lang: str, root: Path | None = None) -> None:
        self.lang = lang_of(lang)
        self._t = _translations(root or locales_dir(), self.lang)

    def _(self, message: str, **values: object) -> str:
        text = self._t.gettext(message)
        return text.format(**values) if values else text

    def ngettext(self, singular: str, plural: str, n: int, **values: object) -> str:
        text = self._t.ngettext(singular, plural, n)
        return text.format(n=self.number(n), **values)

    def number(self, value: float, pattern: str | None = None) -> str:
        """``value`` as this language writes numbers (``pattern``: Babel's, e.g. "0.0")."""
        return format_decimal(value, format=pattern, locale=self.lang)

    def list_separator(self) -> str:
        """Between numbers in a list: ", ", or "; " where the decimal mark is a comma."""
        return "; " if get_decimal_symbol(self.lang) == "," else ", "


@functools.cache
def _tr(root: Path, lang: str) -> Tr:
    return Tr(lang, root)


def tr(lang: str | None) -> Tr:
    return _tr(locales_dir(), lang_of(lang))


def forget() -> None:
    """Read the locales directory again (a test that changed ``PORTES_LOCALES`` or a file)."""
    _found.cache_clear()
    _translations.cache_clear()
    _tr.cache_clear()
