"""Hints and reviews in the tavli games GNU Backgammon does not play: a Plakoto match against
the computer, its Hint button, and the review at its end, through the stand-in."""

from __future__ import annotations

from bot.views.callbacks import Action
from standin import StandIn
from standin.players import board_version, live_board, next_private_turn, play_turn
from tests.bot.conftest import Running
from tests.bot.helpers.tavli import actions


async def test_a_plakoto_hint_and_review_against_the_computer(
        standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    hello = alice.start_bot()
    await alice.private.wait_for_bot_message(after=hello)
    cmd = alice.send(alice.private, "/new")
    card = await alice.private.wait_for_answer(cmd)
    await alice.tap(card, "Plakoto")
    await standin.wait_for(lambda: "✔ Plakoto" in card.refresh().button_texts,
                           what="Plakoto ticked")
    await alice.tap(card.refresh(), "🤖 Against the computer")
    await standin.wait_for(lambda: "Easy" in " ".join(card.refresh().button_texts),
                           what="the computer card")
    await alice.tap(card.refresh(), "Easy")
    await standin.wait_for(lambda: "✔ Easy" in card.refresh().button_texts, what="Easy ticked")
    await alice.tap(card.refresh(), "1 point")
    await standin.wait_for(lambda: "▶ Start" in card.refresh().button_texts, what="Start")
    await alice.tap(card.refresh(), "▶ Start")

    version = 0
    hinted = 0
    while hinted < 2:
        _, board = await next_private_turn(standin, [alice], version)
        assert "wins the match" not in (board.caption or ""), "the match ended before a hint"
        version = board_version(board)
        if Action.HINT in actions(board):
            answer = await alice.tap(board, "💡 Hint")
            assert answer is not None and answer.show_alert
            assert "💡 Best play:" in (answer.text or "")
            text = answer.text or ""
            assert "Equity" in text and "the strong level's net" in text
            assert "Win" not in (answer.text or "")  # no GNU Backgammon chances here
            hinted += 1
        await play_turn(standin, alice, alice.private, wait=False)

    _, board = await next_private_turn(standin, [alice], version)
    cmd = alice.send(alice.private, "/resign")
    menu = await alice.private.wait_for_bot_message(
        after=cmd, predicate=lambda m: "🏳 Resign the match" in m.button_texts)
    await alice.tap(menu, "🏳 Resign the match")
    review = await standin.wait_for(
        lambda: next((m for m in alice.private.bot_messages()
                      if "Review of match #1" in m.content), None), timeout=30,
        what="the review")
    assert "error rate" in review.content and "decision" in review.content
    assert "Computer" in review.content
    assert "luck" not in review.content.split("Error rate:")[0]  # not measured in Plakoto
    assert "PositionID" not in review.content  # GNU Backgammon reads no Plakoto position
    final = live_board(alice.private)
    assert final is not None and "📊 Review" in final.button_texts
    # /review lists it
    cmd = alice.send(alice.private, "/review")
    listing = await alice.private.wait_for_bot_message(after=cmd)
    assert "Your finished matches" in listing.text and "#1" in listing.text
