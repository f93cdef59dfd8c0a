"""The end of a match reveals the dice seed in words players read: what it proves, a link to how
to check it, and every roll, the same rolls the boards said were played."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.settings import ENV_HELP, SettingsError, from_env
from bot.views.i18n import tr
from bot.views.reveal import MESSAGE_LIMIT, PYTHON_CHECK, reveal_text, tg_len
from rules.common.fairdice import TEST_VECTOR, TEST_VECTOR_MIX, TEST_VECTOR_SEED, FairDice
from standin import Message, StandIn, User
from standin.players import live_board, play_turn, start_group_match, start_the_bot
from storage.results import Fairness
from tests.bot.conftest import Running

PLAIN = ("Every roll of this match came from this seed, fixed and announced (as its SHA-256) "
         "before the match began: anyone can check that no roll was changed.")
TURN_ROLL = re.compile(r"(?:played|rolled) (\d-\d)(?::| and could not move)")


def captions_sent(standin: StandIn, chat_id: int) -> list[str]:
    """Every caption the bot gave a board in the chat, oldest first (sent or edited)."""
    out = []
    for call in standin.calls(chat_id=chat_id, ok=True):
        if call.method in ("sendPhoto", "editMessageMedia", "editMessageCaption"):
            caption = (call.result or {}).get("caption") if isinstance(call.result, dict) else None
            if caption:
                out.append(caption)
    return out


def turns_told(captions: list[str]) -> list[str]:
    """The turns the captions told, in order, each once: a caption tells the latest turns (the
    last play, and what else happened since the board before), so each caption's lines are
    merged where they overlap the turns already read."""
    told: list[str] = []
    for caption in captions:
        lines = [ln for ln in caption.splitlines() if TURN_ROLL.search(ln)]
        overlap = max((k for k in range(min(len(lines), len(told)) + 1)
                       if told[len(told) - k:] == lines[:k]), default=0)
        told += lines[overlap:]
    return told


def the_reveal(chat_messages: list[Message]) -> Message | None:
    return next((m for m in chat_messages if "dice seed" in m.content), None)


async def full_reveal(standin: StandIn, short: Message, reader: User) -> Message:
    """The whole reveal, brought to ``reader``'s private chat by the short one's button."""
    [[button]] = short.buttons
    assert button.url is not None and not button.callback_data
    opened = reader.follow(button.url)
    return await standin.wait_for(lambda: next(
        (m for m in reader.private.bot_messages() if m.message_id > opened.message_id
         and "SHA-256" in m.content), None), what="the whole reveal in private")


def link_of(message: Message, label: str) -> str | None:
    for e in message.entities:
        if e.get("type") == "text_link":
            start, length = e["offset"], e["length"]
            if message.content.encode("utf-16-le")[2 * start:2 * (start + length)].decode(
                    "utf-16-le") == label:
                return str(e["url"])
    return None


async def test_the_reveal_says_it_in_words_links_how_to_check_and_lists_the_rolls_played(
        standin: StandIn, make_bot: Any) -> None:
    bot: Running = await make_bot(plays_direct=40)
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)
    board = await start_group_match(standin, alice, bob, group, "1 point")
    turns = 0
    while "wins the match" not in board.caption:
        mover = alice if board.mentions(alice) else bob
        await play_turn(standin, mover, group)
        board = await standin.wait_for(lambda: live_board(group), what="a board")
        turns += 1
        assert turns < 300
    short = await standin.wait_for(lambda: the_reveal(group.bot_messages()), what="the seed")
    # in the group, a few words: the rest is one tap away, in the tapper's private chat
    assert PLAIN not in short.content and len(short.content) < 300
    reveal = await full_reveal(standin, short, alice)
    text = reveal.content
    assert PLAIN in text
    url = link_of(reveal, "How to check the dice")
    assert url == f"https://t.me/{standin.bot_username}?start=dice"
    # the rolls: one game, each roll as the boards told it was played, in the same order
    (game,) = [ln for ln in text.splitlines() if ln.startswith("Game ")]
    listed = game.removeprefix("Game 1: ").split()
    rolls = [r for r in listed if not r.startswith("(")]  # a tied opening roll, in brackets
    played = [TURN_ROLL.search(ln).group(1)  # type: ignore[union-attr]
              for ln in turns_told(captions_sent(standin, group.id))]
    assert len(played) >= 20 and rolls == played
    # each written as players say it, the higher die first ("6-2"), on the boards and here
    assert all(roll[0] >= roll[2] for roll in rolls), rolls
    # and they are the seed's dice: the ties and the opening as drawn, then every turn's
    fair = await bot.uc.fairness(1)
    assert fair is not None and fair.seed_hex is not None and fair.mix is not None
    assert fair.seed_hex in text and fair.mix in text
    drawn = FairDice(fair.seed_hex, fair.mix).dice(fair.dice_drawn)
    pairs = [f"{max(drawn[i:i + 2])}-{min(drawn[i:i + 2])}" for i in range(0, len(drawn), 2)]
    opening = listed.index(rolls[0])
    assert [r.strip("()") for r in listed[:opening]] + rolls[1:] == (
        pairs[:opening] + pairs[opening + 1:])
    assert sorted(pairs[opening]) == sorted(rolls[0])
    # the link opens the bot's page on checking the dice, with the lines of Python
    opened = alice.follow(url)
    page = await alice.private.wait_for_bot_message(after=opened)
    assert page.content.startswith("How to check the dice")
    assert "hmac.new(seed" in page.content and "b < 252" in page.content


async def test_the_link_goes_where_the_owner_set_it_and_greek_players_read_greek(
        standin: StandIn, make_bot: Any) -> None:
    await make_bot(dice_help_url="https://example.org/portes/dice.md")
    alice = standin.user("Alice", username="alice", language_code="el")
    bob = standin.user("Bob", username="bob", language_code="el")
    await start_the_bot(alice, bob)
    group = standin.group("Καφενείο", alice, bob)
    cmd = alice.send(group, "/new")
    card = await group.wait_for_answer(cmd)
    await alice.tap(card, "1 πόντος")
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""), what="the card")
    await bob.tap(card.refresh(), "🎲 Αποδοχή")
    first = await standin.wait_for(lambda: live_board(group), what="the first board")
    cmd = alice.send(group, "/resign")
    menu = await group.wait_for_bot_message(after=cmd)
    await alice.tap(menu, next(b for b in menu.button_texts if b.startswith("🏳")))
    short = await standin.wait_for(
        lambda: next((m for m in group.bot_messages()
                      if "σπόρος των ζαριών ήταν" in m.content), None), what="the seed")
    reveal = await full_reveal(standin, short, alice)
    assert "σπόρος των ζαριών ήταν" in reveal.content
    assert "Κάθε ζαριά αυτού του αγώνα βγήκε από αυτόν τον σπόρο" in reveal.content
    assert link_of(reveal, "Πώς ελέγχεις τα ζάρια") == "https://example.org/portes/dice.md"
    # resigned on the opening roll: the one roll of the match, as the first board told it
    (game,) = [ln for ln in reveal.content.splitlines() if ln.startswith("Παρτίδα 1: ")]
    last = game.split()[-1]
    a, b = int(last[0]), int(last[2])
    assert a > b and f"έφερε {a}" in first.caption and f"έφερε {b}" in first.caption


def test_the_dice_help_url_is_a_setting_listed_in_help() -> None:
    assert "PORTES_DICE_HELP_URL" in {name for name, _ in ENV_HELP}
    base = {"TELEGRAM_BOT_TOKEN": "1:A"}
    assert from_env(base).dice_help_url is None
    url = "https://example.org/docs/dice.md"
    assert from_env({**base, "PORTES_DICE_HELP_URL": url}).dice_help_url == url
    with pytest.raises(SettingsError, match="PORTES_DICE_HELP_URL"):
        from_env({**base, "PORTES_DICE_HELP_URL": "javascript:alert(1)"})


def test_the_python_lines_compute_the_dice() -> None:
    # the same lines in the bot's page and in docs/dice.md
    assert PYTHON_CHECK in (Path(__file__).parents[2] / "docs" / "dice.md").read_text()
    code = (PYTHON_CHECK.replace("SEED", TEST_VECTOR_SEED).replace("MIX", TEST_VECTOR_MIX)
            .replace("COUNT", "20"))
    printed: list[object] = []
    exec(code, {"print": printed.append})  # the documented lines, as given
    assert printed[1] == list(TEST_VECTOR)


def long_fairness(dice: int) -> Fairness:
    source = FairDice(TEST_VECTOR_SEED, "1234567890123456789")
    return Fairness(match_id=7, commitment=source.commitment, mix="1234567890123456789",
                    dice_drawn=dice, seed_hex=TEST_VECTOR_SEED, dice=tuple(source.dice(dice)))


@pytest.mark.parametrize("lang", ["en", "el", "ru", "tr"])
def test_a_long_list_of_rolls_is_cut_to_fit_a_message(lang: str) -> None:
    t = tr(lang)
    fair = long_fairness(4000)
    # seven games of about 280 rolls
    text = reveal_text(t, fair, "https://example.org/d", [280] * 6)
    assert tg_len(text) <= MESSAGE_LIMIT
    last = text.splitlines()[-1]
    more = re.search(r"(\d[\d,.\s]*\d|\d)", last)  # as the language writes it: 1,191; 1 191
    assert last.startswith("…") and more is not None
    shown = sum(len(ln.split(": ", 1)[1].split()) for ln in text.splitlines()
                if re.match(r"(Game|Παρτίδα|Партия|Oyun) \d+: ", ln))
    assert shown + int(re.sub(r"\D", "", more.group(1))) == 2000  # every roll, shown or counted
    # a short match is not cut
    short = reveal_text(t, long_fairness(60), "https://example.org/d", [])
    assert "…" not in short.splitlines()[-1]
    assert len(short.splitlines()[-1].split(": ", 1)[1].split()) == 30
