"""The welcome, /help and the command menu present the five games (issue 15), not Portes alone,
in Greek and English; /help says how to choose a game and where its rules are."""

from __future__ import annotations

import pytest

from standin import StandIn
from tests.bot.conftest import Running

GAMES = {
    "en": ("• Portes:", "• Plakoto:", "• Fevga:", "• Tavli:", "• Long Nardy:"),
    "el": ("• Πόρτες:", "• Πλακωτό:", "• Φεύγα:", "• Τάβλι:", "• Μακρύ νάρδι:"),
}


@pytest.mark.parametrize("lang", ["en", "el"])
async def test_welcome_and_help_present_the_five_games(
        standin: StandIn, bot: Running, lang: str) -> None:
    user = standin.user("Eleni", language_code=lang)
    # When a new player starts the bot
    hello = user.start_bot()
    welcome = await user.private.wait_for_bot_message(after=hello)
    # Then the welcome names the five games, a short line each
    for line in GAMES[lang]:
        assert line in welcome.text, line
    assert max(len(line) for line in welcome.text.splitlines()[1:6]) <= 60
    # And /help says how to choose a game and where each game's rules are
    cmd = user.send(user.private, "/help")
    shown = await user.private.wait_for_bot_message(after=cmd)
    heading = "The games: on the /new card tap" if lang == "en" else (
        "Τα παιχνίδια: στην κάρτα του /new πάτα")
    assert heading in shown.text and "/rules plakoto" in shown.text
    assert all(line.removeprefix("• ").removesuffix(":") in shown.text for line in GAMES[lang])
    assert len(shown.text) <= 4096
    # the commands the help points to answer: /rules nardy gives Long Nardy's sheet
    cmd = user.send(user.private, "/rules nardy")
    rules = await user.private.wait_for_bot_message(after=cmd)
    assert ("Long Nardy: the rules" if lang == "en" else "Οι κανόνες για το Μακρύ νάρδι") in (
        rules.text.splitlines()[0])


async def test_the_command_menu_names_the_games(standin: StandIn, bot: Running) -> None:
    for lang, new, rules in (
            ("", "New match: Portes, Plakoto, Fevga, Tavli or Long Nardy",
             "The rules of each game"),
            ("el", "Νέος αγώνας: Πόρτες, Πλακωτό, Φεύγα, Τάβλι ή Μακρύ νάρδι",
             "Οι κανόνες κάθε παιχνιδιού")):
        menu = {c["command"]: c["description"] for c in standin.commands(language_code=lang)}
        assert menu["new"] == new and menu["rules"] == rules


def test_a_long_help_is_cut_between_paragraphs() -> None:
    from bot.handlers.common import message_parts

    text = "\n\n".join(["<b>x</b>" + "y" * 1999] * 5)
    parts = message_parts(text)
    assert len(parts) == 3 and "\n\n".join(parts) == text
    assert all(len(p.replace("<b>", "").replace("</b>", "")) <= 4096 for p in parts)
    assert message_parts("short\n\ntext") == ["short\n\ntext"]
