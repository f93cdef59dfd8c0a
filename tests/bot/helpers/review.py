"""A match resigned from its resignation card."""

from __future__ import annotations

from standin import StandIn, User


async def resign_the_match(standin: StandIn, user: User, other: User) -> None:
    """``user`` resigns their only match with /resign in private (in any language: the button
    is told by its data), and waits until ``other``'s board says the match is won."""
    cmd = user.send(user.private, "/resign")
    card = await user.private.wait_for_bot_message(
        after=cmd, predicate=lambda m: m.photo_bytes is None and bool(m.button_texts))
    label = next(b.text for row in card.buttons for b in row
                 if (b.callback_data or "").split("@")[0].endswith(":m"))  # r:<id>:<v>:m@<owner>
    answer = await user.tap(card, label)
    assert answer is None or not answer.show_alert, answer
    await standin.wait_for(lambda: any("🏆" in m.content for m in other.private.bot_messages()),
                           what="the match over")
