"""Answers that fit: what a person typed is quoted back cut to a few words, so a reply to a
message of 4,096 characters is still within Telegram's limits (the stand-in refuses longer
texts as Telegram does), and every alert fits the 200 characters of a callback answer."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.views import texts
from bot.views.echo import ANSWER_LIMIT, ECHO_LIMIT, TEXT_LIMIT, echoed
from bot.views.i18n import LANGS, po_path
from standin import Message, StandIn, User
from tests.bot.conftest import Running
from tests.bot.helpers.several import (
    a_legal_play,
    alice_to_move,
    challenge_by_link,
    is_text,
    version,
)

BOT = Path(texts.__file__).parent.parent


def test_echoed_text_is_cut_with_an_ellipsis_on_one_line() -> None:
    assert echoed("plakoto") == "plakoto"
    assert echoed("24/18\n  13/11") == "24/18 13/11"
    long = echoed("x" * 4090)
    assert len(long) == ECHO_LIMIT and long.endswith("…") and long.startswith("xxx")
    assert echoed("ab " * 100, most=10) == "ab ab ab…"


def no_failures(standin: StandIn, bot: Running) -> None:
    """Every Bot API call succeeded, and no handler failed."""
    failed = [(c.method, c.description) for c in standin.calls(ok=False)]
    assert failed == []
    page = bot.app.bot_data["metrics"].render().decode()
    assert "portes_handler_errors_total{" not in page, page


async def answer_to(user: User, text: str) -> Message:
    sent = user.send(user.private, text)
    assert len(sent.text or "") <= TEXT_LIMIT  # a message Telegram lets a person send
    return await user.private.wait_for_bot_message(after=sent)


async def test_top_and_stats_with_a_4090_character_argument_get_an_answer(
        standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    hello = alice.start_bot()
    await alice.private.wait_for_bot_message(after=hello)

    # /top with a word of 4,090 characters: the game is unknown, and said so, cut
    answer = await answer_to(alice, "/top " + "x" * 4090)
    assert answer.text is not None and answer.text.startswith('I do not know the game "xxx')
    assert "…\"" in answer.text and "plakoto" in answer.text
    assert len(answer.text) < 400
    # /top with as many words
    answer = await answer_to(alice, "/top " + "ab " * 1363)
    assert answer.text is not None and 'game "ab ab ab' in answer.text and "…\"" in answer.text

    # /stats with an unknown word, then an unknown @username, filling the message
    answer = await answer_to(alice, "/stats " + "y" * 4089)
    assert answer.text is not None and answer.text.startswith('I know no game and no player')
    assert '"yyy' in answer.text and "…\"" in answer.text and len(answer.text) < 400
    answer = await answer_to(alice, "/stats @" + "z" * 4088)
    assert answer.text is not None and answer.text.startswith("I do not know @zzz")
    assert "…:" in answer.text and len(answer.text) < 400
    await standin.idle()
    no_failures(standin, bot)


async def test_a_4090_character_play_asked_which_match_is_quoted_cut(
        standin: StandIn, bot: Running) -> None:
    alice, bob, carol = (standin.user("Alice"), standin.user("Bob"), standin.user("Carol"))
    hello = alice.start_bot()
    await alice.private.wait_for_bot_message(after=hello)
    m1 = await challenge_by_link(standin, bot, alice, bob)
    m2 = await challenge_by_link(standin, bot, alice, carol)
    await alice_to_move(standin, bot, alice, m1, bob)
    await alice_to_move(standin, bot, alice, m2, carol)
    v1, v2 = await version(bot, m1), await version(bot, m2)

    # Alice types something that looks like moves, 4,090 characters of it
    play = await a_legal_play(bot, m2)
    typed = alice.send(alice.private, (play + " ") * (4090 // (len(play) + 1)))
    question = await alice.private.wait_for_bot_message(after=typed, predicate=is_text)
    # The bot asks which match, quoting the start of it
    assert question.text is not None and question.text.startswith(f"Which match is {play}")
    assert question.text.endswith("… for?") and len(question.text) < 200
    # and the match she picks refuses it (too long to be a play): nothing is played
    answer = await alice.tap(question, next(b for b in question.button_texts if f"#{m2}" in b))
    assert answer.show_alert and answer.text is not None and "too long" in answer.text
    await standin.idle()
    assert (await version(bot, m1), await version(bot, m2)) == (v1, v2)
    no_failures(standin, bot)


def alert_texts() -> list[str]:
    """The message ids shown in callback answers: each ``t._("...")`` inside an ``answer`` or
    ``answer_soon`` call in bot/, and every refusal the use cases can return."""
    found = [str(text) for text in texts.ERRORS.values()]
    for path in BOT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
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


@pytest.mark.parametrize("lang", LANGS)
def test_every_alert_fits_a_callback_answer(lang: str) -> None:
    with po_path(lang).open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    alerts = alert_texts()
    assert len(alerts) > 30
    for msgid in alerts:
        message = catalog.get(msgid)
        text = str(message.string) if message is not None and message.string else msgid
        # a placeholder holds a number, a name or a play: count 32 characters for each
        fields = [f for _, f, _, _ in string.Formatter().parse(text) if f]
        assert len(text) + 32 * len(fields) <= ANSWER_LIMIT, (lang, msgid)
