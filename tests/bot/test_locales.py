"""Every language the bot ships is complete and fits Telegram: each text the code uses is
translated (not fuzzy, same placeholders and HTML tags, every plural form), nothing is left
over, and every text rendered with the longest real values fits where it is shown (a message
4,096, a caption 1,024, a callback answer 200, a button, a command's description 256). A Russian
or Turkish player reads no English or Greek word: every message id is rendered in ru and tr and
searched, not a sample. ``bot.views.i18n_check`` is what reports a locale's gaps; it is shown to
catch each kind on a broken copy."""

from __future__ import annotations

import ast
import html
import re
import shutil
import string
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.app import COMMANDS
from bot.views import i18n
from bot.views.echo import ANSWER_LIMIT, CAPTION_LIMIT, ECHO_LIMIT, TEXT_LIMIT, u16len
from bot.views.games import GAME_NAMES, game_name
from bot.views.i18n import Tr, lang_name, lang_names, langs, tr
from bot.views.i18n_check import check, main
from bot.views.texts import (
    Names,
    caption,
    duration,
    game_result_text,
    match_won_text,
    shown_name,
)
from tests import source_trees
from tests.bot.helpers.locales import (
    GREEK,
    LATIN_WORD,
    alert_texts,
    english_words,
    message_ids,
    readable,
)

BOT = Path(i18n.__file__).parent.parent
SHIPPED = ("el", "en", "ru", "tr")
BUTTON_LIMIT = 64
"""Telegram sets no length for a button's text, but a phone shows about this much of a
full-width one; a longer label is cut off on the screen."""
COMMAND_LIMIT = 256
"""A command's description in the menu (``BotCommand``: 1 to 256 characters)."""
NAME = "Щ" * 64 + " " + "W" * 64
"""A Telegram user's longest name: a first name and a last name of 64 characters each."""


def test_the_bot_ships_greek_english_russian_and_turkish() -> None:
    assert set(SHIPPED) <= set(langs())
    assert [lang_name(lang) for lang in SHIPPED] == ["Ελληνικά", "English", "Русский", "Türkçe"]


@pytest.mark.parametrize("lang", SHIPPED)
def test_every_locale_is_complete_and_nothing_is_stale(lang: str) -> None:
    report = check(lang, set(message_ids()))
    assert not report.problems(), report.text()


def test_russian_has_three_plural_forms_and_turkish_two() -> None:
    ru, tr_ = tr("ru"), tr("tr")
    assert [ru.ngettext("{n} point", "{n} points", n) for n in (1, 2, 5, 21, 11, 104)] == [
        "1 очко", "2 очка", "5 очков", "21 очко", "11 очков", "104 очка"]
    assert [tr_.ngettext("{n} point", "{n} points", n) for n in (1, 5)] == ["1 puan", "5 puan"]
    assert duration(ru, timedelta(hours=3, minutes=21)) == "3 часа 21 минута"
    assert duration(tr_, timedelta(days=2, hours=1)) == "2 gün 1 saat"


def test_numbers_are_written_as_each_language_writes_them() -> None:
    assert tr("en").number(1507.25, i18n.ONE_DECIMAL) == "1507.2"
    assert tr("ru").number(1507.25, i18n.ONE_DECIMAL) == "1507,2"
    assert tr("tr").number(-9.8, i18n.SIGNED) == "-9,8"
    assert tr("ru").number(12345) == "12\xa0345"
    assert tr("tr").list_separator() == "; " and tr("en").list_separator() == ", "


# -- the checker -------------------------------------------------------------------------


def broken_copy(tmp_path: Path) -> Path:
    """A copy of the locales with a "de" catalogue (the English one) broken in each way."""
    root = tmp_path / "locales"
    shutil.copytree(BOT / "locales", root)
    po = root / "de" / "LC_MESSAGES" / "portes.po"
    po.parent.mkdir(parents=True)
    text = (BOT / "locales" / "en" / "LC_MESSAGES" / "portes.po").read_text()
    text = text.replace('"Language: en\\n"', '"Language: de\\n"')
    text = text.replace('msgid "Hint"\nmsgstr "Hint"', 'msgid "Hint"\nmsgstr ""')
    text = text.replace('msgid "Undo"\nmsgstr "Undo"', '#, fuzzy\nmsgid "Undo"\nmsgstr "Zurück"')
    text = text.replace('msgstr "Your turn: {dice}"', 'msgstr "Du bist dran: {würfel}"')
    text = text.replace('msgstr "🔔 <b>Notices', 'msgstr "🔔 <b>Notices</b')
    text = text.replace('msgstr "💡 Best play: {play}"', 'msgstr "💡 <b>Bester Zug: {play}"')
    text += '\nmsgid "A text the bot no longer says"\nmsgstr "Ein alter Text"\n'
    po.write_text(text)
    return root


def test_the_checker_reports_each_kind_of_gap(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    root = broken_copy(tmp_path)
    report = check("de", set(message_ids()), root=root)  # the texts as read once per process
    assert report.missing == ["Hint"]
    assert report.fuzzy == ["Undo"]
    assert report.placeholders == ["Your turn: {dice}"]
    assert report.tags == ["💡 Best play: {play}"]
    assert report.obsolete == ["A text the bot no longer says"]
    monkeypatch.setenv(i18n.LOCALES_ENV, str(root))
    i18n.forget()
    try:
        assert main(["de"]) == 1
        assert main(["ru"]) == 0
        assert main(["xx"]) == 2
    finally:
        monkeypatch.delenv(i18n.LOCALES_ENV)
        i18n.forget()
    out = capsys.readouterr().out
    assert "de: 1 missing, 1 fuzzy, 1 obsolete, 1 placeholders, 1 tags" in out
    assert "ru: complete" in out


# -- rendering every text ----------------------------------------------------------------


def longest_game(t: Tr) -> str:
    return max((game_name(t, g) for g in GAME_NAMES), key=len)


PLAY = "bar/22* 22/16* 16/10* 10/4*"


def longest_values(t: Tr) -> dict[str, str]:
    """The longest value each placeholder takes (names as Telegram allows them, a game's
    longest name in this language, echoed words as the bot cuts them, ids of 10 digits)."""
    week = duration(t, timedelta(days=6, hours=23, minutes=59))
    values = dict.fromkeys(("player", "name", "author", "acceptor", "opponent", "a", "b", "p0",
                            "p1", "starter", "who", "me_name"), NAME)
    values |= {
        "players": f"{NAME}, {NAME}", "game": longest_game(t), "games": "x" * 120,
        "group": "G" * 128, "username": "@" + "u" * 32, "bot": "b" * 32,
        "word": "w" * ECHO_LIMIT, "words": "w" * ECHO_LIMIT, "command": "/stats",
        "link": "https://t.me/" + "b" * 32 + "?start=" + "c" * 64,
        "dice": "6-6", "moves": PLAY, "play": PLAY, "played": PLAY, "best": PLAY,
        "commitment": "f" * 64, "seed": "f" * 64, "mix": "9" * 32, "id": "9" * 10,
        "position": "4HPwATDgc/ABMA", "match": "cAkAAAAAAAAA", "rolls": "6-5 " * 20,
        "waited": week, "left": week, "time": week, "level": t._("medium"),
        "theme": t._("High contrast"), "languages": lang_names(), "lang": lang_name(t.lang),
        "change": "+99.9", "changes": "; ".join(["+99.9"] * 5), "rating": "2999.9*",
        "lengths": "1, 3, 5, 7", "win": "100.0", "gammon": "100.0", "lose_gammon": "100.0",
        "lost": "99.999", "average": "9.999", "luck": "+99.99",
    }
    return values


def fields_of(text: str) -> list[str]:
    return [f for _, f, _, _ in string.Formatter().parse(text) if f]


def rendered(t: Tr, msgid: str | tuple[str, str], values: dict[str, str]) -> Iterator[str]:
    """``msgid`` in ``t``'s language, every placeholder filled from ``values`` (a number where
    none is given), each plural form once."""
    if isinstance(msgid, tuple):
        forms = [t.ngettext(msgid[0], msgid[1], n, **fill(msgid[1], values))
                 for n in (1, 2, 5, 7777)]
        yield from dict.fromkeys(forms)
    else:
        yield t._(msgid, **fill(msgid, values))


def fill(msgid: str, values: dict[str, str]) -> dict[str, str]:
    return {f: values.get(f, "77") for f in fields_of(msgid) if f != "n"}


def visible(text: str) -> str:
    """What Telegram counts: the text once its HTML is parsed."""
    return html.unescape(re.sub(r"<[^>]+>", "", text))


@pytest.mark.parametrize("lang", SHIPPED)
def test_every_text_fits_a_message_with_the_longest_values(lang: str) -> None:
    t, values = tr(lang), longest_values(tr(lang))
    too_long = [(m, u16len(visible(s))) for m in message_ids()
                for s in rendered(t, m, values) if u16len(visible(s)) > TEXT_LIMIT]
    assert not too_long


@pytest.mark.parametrize("lang", SHIPPED)
def test_every_callback_answer_fits_with_the_longest_values(lang: str) -> None:
    t, values = tr(lang), longest_values(tr(lang))
    alerts = alert_texts()
    assert len(alerts) > 30
    too_long = [(m, len(s)) for m in alerts for s in rendered(t, m, values)
                if u16len(s) > ANSWER_LIMIT]
    assert not too_long


def button_texts() -> set[str | tuple[str, str]]:
    """The message ids shown on buttons: each ``t._("...")`` or ``t.ngettext("...", "...")``
    given (directly or inside a concatenation) to a button of bot/."""
    found: set[str | tuple[str, str]] = set()
    makers = {"Btn", "Button", "InlineKeyboardButton", "button", "url_keyboard"}
    for path in BOT.rglob("*.py"):
        for node in source_trees.file_nodes(path):
            name = isinstance(node, ast.Call) and (
                getattr(node.func, "id", None) or getattr(node.func, "attr", None))
            if name not in makers:
                continue
            assert isinstance(node, ast.Call)
            label = node.args[0] if node.args else None
            for sub in ast.walk(label) if label is not None else ():
                if not (isinstance(sub, ast.Call) and sub.args
                        and isinstance(sub.args[0], ast.Constant)):
                    continue
                attr = getattr(sub.func, "attr", None)
                if attr == "_":
                    found.add(str(sub.args[0].value))
                elif attr == "ngettext" and isinstance(sub.args[1], ast.Constant):
                    found.add((str(sub.args[0].value), str(sub.args[1].value)))
    return found


@pytest.mark.parametrize("lang", SHIPPED)
def test_every_button_fits_a_phone(lang: str) -> None:
    t = tr(lang)
    values = longest_values(t) | {"time": duration(t, timedelta(days=7))}
    labels = button_texts()
    assert len(labels) > 25 and "Accept" in labels and ("{n} point", "{n} points") in labels
    labels |= {GAME_NAMES[g] for g in GAME_NAMES}
    too_long = [(m, s) for m in labels for s in rendered(t, m, values)
                if u16len("✔ " + s) > BUTTON_LIMIT]
    assert not too_long


@pytest.mark.parametrize("lang", SHIPPED)
def test_every_command_description_fits_the_menu(lang: str) -> None:
    t = tr(lang)
    for name, text in COMMANDS:
        described = t._(text, languages=lang_names())
        assert 3 <= len(described) <= COMMAND_LIMIT, (name, described)


@pytest.mark.parametrize("lang", SHIPPED)
def test_the_longest_caption_fits_without_being_cut(lang: str) -> None:
    """A board's caption at its fullest: a tavli match's title with "no triple", the last
    play, a game result, the match won, both players' rating changes, who resigned."""
    from dataclasses import replace

    from rules.match import GameKind, Match, Phase

    t = tr(lang)
    names = Names(shown_name(NAME), shown_name(NAME))
    match = replace(Match.new(7, no_triple=True, game_type="tavli"), phase=Phase.MATCH_OVER,
                    winner=0, end_reason="resigned", score=(7, 6))
    notes = [game_result_text(t, names, 0, GameKind.BACKGAMMON, 2, resigned=False),
             game_result_text(t, names, 0, GameKind.SINGLE, 3, resigned=True)]
    ratings = [t._("📈 {player} {change} → {rating}", player=names[i], change="+99.9",
                   rating="2999.9") for i in (0, 1)]
    text = caption(t, match, names, viewer=None, notes=notes, ratings=ratings)
    assert not text.endswith("…")
    assert u16len(visible(text)) <= CAPTION_LIMIT
    assert match_won_text(t, names, match) in text and ratings[1] in text


# -- no English or Greek for a Russian or Turkish player ---------------------------------


@pytest.mark.parametrize("lang", ["ru", "tr"])
def test_no_english_or_greek_word_reaches_a_russian_or_turkish_player(lang: str) -> None:
    t = tr(lang)
    english = english_words()
    assert {"match", "board", "resign", "turn"} <= english
    foreign = []
    for msgid in message_ids():
        for text in readable(t, msgid):
            if GREEK.search(text):
                foreign.append((msgid, GREEK.findall(text)))
            latin = LATIN_WORD.findall(text)
            bad = latin if lang == "ru" else [w for w in latin if w.lower() in english]
            if bad:
                foreign.append((msgid, bad))
    assert not foreign


@pytest.mark.parametrize("lang", ["ru", "tr"])
def test_every_game_has_its_local_name(lang: str) -> None:
    t = tr(lang)
    names = {g: game_name(t, g) for g in GAME_NAMES}
    expected = {"ru": {"portes": "Короткие нарды", "nardy": "Длинные нарды"},
                "tr": {"portes": "Tavla", "nardy": "Uzun tavla"}}[lang]
    assert expected.items() <= names.items()
    assert len(set(names.values())) == len(names)


@pytest.mark.parametrize("lang", SHIPPED)
def test_each_row_of_game_buttons_fits_a_phone(lang: str) -> None:
    """A row of game buttons (/new, /top, /stats) shows every ticked name whole: three a row
    of short names, two of long ones (a phone's row shows about 36 characters)."""
    from bot.views.game_choice import game_rows

    t = tr(lang)
    rows = game_rows(t)
    assert sorted(g for row in rows for g in row) == sorted(GAME_NAMES)
    for row in rows:
        assert max(len("✔ " + game_name(t, g)) for g in row) <= 36 // len(row), (lang, row)
