"""Every text the bot uses has a Greek and an English translation, with the same placeholders."""

from __future__ import annotations

import io
import re
import shutil
import string
from datetime import timedelta
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from babel.support import Translations

from bot.views.i18n import Tr, lang_of, langs, po_path, tr
from bot.views.texts import duration
from tests.bot.helpers.locales import message_ids


def test_the_games_names_are_extracted_from_the_registry() -> None:
    assert {"Portes", "Plakoto", "Fevga", "Long Nardy", "Tavli"} <= message_ids()


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_the_code_uses_some_texts() -> None:
    assert len(message_ids()) > 50


@pytest.mark.parametrize("lang", langs())
def test_every_message_id_is_translated(lang: str) -> None:
    with po_path(lang).open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    missing = []
    for msgid in message_ids():
        key = msgid if isinstance(msgid, str) else msgid[0]
        message = catalog.get(key)
        if message is None or message.fuzzy:
            missing.append(key)
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings):
            missing.append(key)
            continue
        ids = msgid if isinstance(msgid, tuple) else (msgid,)
        expected = set().union(*(fields(i) for i in ids)) - {"n"}
        for s in strings:
            assert fields(s) - {"n"} == expected, f"{lang}: placeholders differ in {key!r}"
    assert not missing, f"{lang}: untranslated message ids: {missing}"


def test_html_in_translations_is_balanced() -> None:
    for lang in langs():
        with po_path(lang).open("rb") as fh:
            catalog = read_po(fh, locale=lang)
        for message in catalog:
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            for s in strings:
                for tag in ("b", "code", "i"):
                    assert s.count(f"<{tag}>") == s.count(f"</{tag}>"), (lang, message.id)


def test_catalogues_compile_in_memory_without_mo_files(tmp_path: Path) -> None:
    # The .po files are compiled at load time when no (newer) .mo exists.
    from babel.messages.mofile import write_mo

    for lang in langs():
        with po_path(lang).open("rb") as fh:
            catalog = read_po(fh, locale=lang)
        buf = io.BytesIO()
        write_mo(buf, catalog)
        assert buf.getvalue()


def test_a_catalogue_compiled_at_load_is_kept_for_the_next_start(tmp_path: Path) -> None:
    folder = tmp_path / "el" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    shutil.copy(po_path("el"), folder / "portes.po")
    assert Tr("el", tmp_path)._("Your turn: {dice}", dice="6-5") == "Σειρά σου: 6-5"
    kept = folder / "portes.mo"
    with kept.open("rb") as fh:
        assert Translations(fh).gettext("Your turn: {dice}") == "Σειρά σου: {dice}"
    assert sorted(p.name for p in folder.iterdir()) == ["portes.mo", "portes.po"]


def test_greek_and_english_texts() -> None:
    assert tr("el")._("Your turn: {dice}", dice="6-5") == "Σειρά σου: 6-5"
    assert tr("en")._("Your turn: {dice}", dice="6-5") == "Your turn: 6-5"
    assert tr("el").ngettext("{n} point", "{n} points", 1) == "1 πόντος"
    assert re.search("πόντοι", tr("el").ngettext("{n} point", "{n} points", 3))


@pytest.mark.parametrize(("code", "lang"), [("el", "el"), ("el-GR", "el"), ("en-US", "en"),
                                            ("de", "en"), (None, "en")])
def test_language_from_telegram(code: str | None, lang: str) -> None:
    assert lang_of(code) == lang


def test_a_reminder_says_how_long_in_true_units() -> None:
    # "(0 h waiting)" was printed for a reminder after 20 minutes; "1 minute" after 36 s and
    # after 72 s: the largest unit and the next, rounded down (a time left is never longer)
    en, el = tr("en"), tr("el")
    assert duration(en, timedelta(minutes=20)) == "20 minutes"
    assert duration(en, timedelta(seconds=36)) == "36 seconds"
    assert duration(en, timedelta(seconds=72)) == "1 minute 12 seconds"
    assert duration(en, timedelta(minutes=90)) == "1 hour 30 minutes"
    assert duration(en, timedelta(hours=1)) == "1 hour"
    assert duration(en, timedelta(days=6, hours=7, minutes=12)) == "6 days 7 hours"
    assert duration(en, timedelta(seconds=-3)) == "0 seconds"
    assert duration(el, timedelta(hours=12)) == "12 ώρες"
    assert duration(el, timedelta(minutes=1)) == "1 λεπτό"
    assert duration(el, timedelta(days=1, seconds=1)) == "1 μέρα"
    assert duration(el, timedelta(seconds=2)) == "2 δευτερόλεπτα"
