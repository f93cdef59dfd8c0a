"""Once a group's language is set with /lang, everything the bot posts there is in it, whoever
asked; and /review of a match that does not exist says so."""

from __future__ import annotations

from standin import Chat, StandIn, User
from standin.players import live_board, start_group_match
from tests.bot.conftest import Running


async def set_greek(standin: StandIn, group: Chat, user: User) -> None:
    cmd = user.send(group, "/lang")
    choice = await group.wait_for_bot_message(after=cmd)
    await user.tap(choice, "Ελληνικά")
    await standin.wait_for(lambda: choice.refresh().text == "Γλώσσα: Ελληνικά")


async def test_cards_in_a_greek_group_are_greek_for_english_players(
        standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice", language_code="en")
    bob = standin.user("Bob", username="bob", language_code="en")
    group = standin.group("Kafeneio", alice, bob)
    await set_greek(standin, group, alice)
    # /new: the card and its buttons, also after the "no triple" switch
    cmd = alice.send(group, "/new")
    card = await group.wait_for_answer(cmd)
    assert card.text == ("Νέος αγώνας: διάλεξε τον χρόνο ανά κίνηση και μετά τους πόντους "
                         "(αυτό στέλνει την πρόσκληση).\n⏱ 7 μέρες ανά κίνηση"), card.text
    assert "1 πόντος" in card.button_texts and "✔ ⏱ 7 μέρες" in card.button_texts
    switch = next(b for b in card.button_texts if b.startswith("☐"))
    await alice.tap(card, switch)
    await standin.wait_for(lambda: any(b.startswith("☑") for b in card.refresh().button_texts))
    assert card.refresh().text.startswith("Νέος αγώνας"), card.refresh().text
    await alice.tap(card.refresh(), "☑ " + switch[2:])
    await standin.wait_for(lambda: any(b.startswith("☐") for b in card.refresh().button_texts))
    await alice.tap(card.refresh(), "1 πόντος")
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""))
    assert "καλεί" in card.refresh().text
    accept = next(b for b in card.refresh().button_texts if "🎲" in b)
    await bob.tap(card.refresh(), accept)
    board = await standin.wait_for(lambda: live_board(group), what="the first board")
    assert "αγώνας στον 1" in board.caption
    # one Greek word for pips, not confused with the score's πόντοι
    assert "Βήματα:" in board.caption and "Pips" not in board.caption
    mover = alice if board.mentions(alice) else bob
    # /resign, /help and /rules
    cmd = mover.send(group, "/resign")
    resign = await group.wait_for_bot_message(after=cmd)
    assert resign.text.startswith("Αγώνας #1"), resign.text
    assert "Παρτίδα: 1 πόντος" in resign.button_texts
    for command, greek in (("/help", "Πόρτες"), ("/rules", "Πόρτες")):
        cmd = bob.send(group, command)
        answer = await group.wait_for_bot_message(after=cmd)
        assert greek in answer.text and "Greek backgammon" not in answer.text, command


async def test_review_of_a_match_that_does_not_exist_says_so(
        standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice")
    bob = standin.user("Bob")
    group = standin.group("Kafeneio", alice, bob)
    await start_group_match(standin, alice, bob, group)
    hello = alice.start_bot()
    await alice.private.wait_for_bot_message(after=hello)
    for text, expected in (("/review 99", "There is no match #99."),
                           ("/review 1", "The review is ready when the match is over.")):
        cmd = alice.send(alice.private, text)
        answer = await alice.private.wait_for_bot_message(after=cmd)
        assert answer.text == expected, text
