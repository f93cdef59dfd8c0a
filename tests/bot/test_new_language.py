"""Adding a language is adding its folder: a throw-away German catalogue in a copy of the
locales directory (``PORTES_LOCALES``) is offered by /lang and /settings, chosen, and used, and
a Telegram user whose language is German gets it without asking; no code knows of it."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.views import i18n
from standin import StandIn
from tests.bot.conftest import Running

GERMAN = {
    "Your language:": "Deine Sprache:",
    "Language: {name}": "Sprache: {name}",
    "Your settings": "Deine Einstellungen",
}


@pytest.fixture
def with_german(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The bot's locales and a German folder beside them (English texts but a few), as a
    volunteer would start one: a copy of the English catalogue."""
    root = tmp_path / "locales"
    shutil.copytree(i18n.BUILT_IN, root)
    po = root / "de" / "LC_MESSAGES" / "portes.po"
    po.parent.mkdir(parents=True)
    text = (i18n.BUILT_IN / "en" / "LC_MESSAGES" / "portes.po").read_text()
    text = text.replace('"Language: en\\n"', '"Language: de\\n"')
    for english, german in GERMAN.items():
        old = f'msgid "{english}"\nmsgstr "{english}"'
        assert old in text, english
        text = text.replace(old, f'msgid "{english}"\nmsgstr "{german}"')
    po.write_text(text)
    monkeypatch.setenv(i18n.LOCALES_ENV, str(root))
    i18n.forget()
    yield root
    monkeypatch.delenv(i18n.LOCALES_ENV)
    i18n.forget()


async def test_a_new_folder_is_a_new_language(standin: StandIn, bot: Running,
                                              with_german: Path) -> None:
    assert i18n.langs() == ("de", "el", "en", "ru", "tr")
    # an English speaker sees German among the languages and chooses it
    alice = standin.user("Alice", username="alice", language_code="en")
    cmd = alice.send(alice.private, "/lang")
    choice = await alice.private.wait_for_bot_message(after=cmd)
    assert choice.text == "Your language:"
    assert choice.button_texts == ["Deutsch", "Ελληνικά", "English", "Русский", "Türkçe"]
    await alice.tap(choice, "Deutsch")
    await standin.wait_for(lambda: choice.refresh().text == "Sprache: Deutsch",
                           what="German chosen")
    cmd = alice.send(alice.private, "/settings")
    card = await alice.private.wait_for_bot_message(after=cmd)
    assert card.text.startswith("⚙️ Deine Einstellungen"), card.text
    assert "🌐 Sprache: Deutsch" in card.text and "✔ Deutsch" in card.button_texts
    # a German Telegram user gets it without asking
    hans = standin.user("Hans", language_code="de-AT")
    cmd = hans.send(hans.private, "/lang")
    choice = await hans.private.wait_for_bot_message(after=cmd)
    assert choice.text == "Deine Sprache:"
