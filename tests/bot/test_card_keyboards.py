"""Keyboard-only edits the bot makes outside the outbox (issue 22), shown harmless to lose:
the /resign card's buttons are taken off once one was used, as a courtesy (the card is a
command's answer, not a board; what the match shows goes through the outbox). When that edit
is lost, a second tap on the card is refused with the truth and changes nothing."""

from __future__ import annotations

from typing import Any

from standin import StandIn
from standin.players import live_board, start_group_match


async def test_a_resign_card_whose_buttons_stayed_changes_nothing_when_tapped_again(
    standin: StandIn, make_bot: Any
) -> None:
    await make_bot()
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)
    await start_group_match(standin, alice, bob, group, "3 points")
    cmd = alice.send(group, "/resign")
    card = await group.wait_for_answer(cmd)
    # Given Telegram fails the edit that takes the card's buttons off
    standin.inject_error("editMessageReplyMarkup", 502, chat_id=group.id,
                         description="Bad Gateway")
    answer = await alice.tap(card, "🏳 Resign the match")
    assert answer.text is None or not answer.show_alert
    await standin.wait_for(lambda: any("The dice seed was" in m.content
                                       for m in group.bot_messages()), what="the match's end")
    await standin.idle(quiet=0.3)
    assert card.refresh().has_keyboard  # the edit was lost: the buttons stayed
    shown = [(m.message_id, m.content, m.edit_count) for m in group.bot_messages()
             if m.message_id != card.message_id]
    final = live_board(group)
    assert final is not None and "Bob wins the match" in (final.caption or "")
    # When Alice taps it again
    again = await alice.tap(card.refresh(), "🏳 Resign the match")
    await standin.idle(quiet=0.3)
    # Then she is told the match is over, and nothing changed in the group
    assert again.show_alert and again.text == "This match is over."
    assert [(m.message_id, m.content, m.edit_count) for m in group.bot_messages()
            if m.message_id != card.message_id] == shown
