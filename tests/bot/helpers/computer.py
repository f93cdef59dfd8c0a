"""A match against the computer, opened the way a player does."""

from __future__ import annotations

from standin import Message, StandIn, User


async def start_computer_match(standin: StandIn, user: User, *, level: str = "Easy",
                               length: str = "1 point") -> Message:
    """/new in the private chat, "against the computer", a level, a length, then Start."""
    hello = user.start_bot()
    await user.private.wait_for_bot_message(after=hello)
    cmd = user.send(user.private, "/new")
    card = await user.private.wait_for_answer(cmd)
    await user.tap(card, "🤖 Against the computer")
    await standin.wait_for(lambda: "Easy" in " ".join(card.refresh().button_texts),
                           what="the computer card")
    await user.tap(card.refresh(), level)
    await standin.wait_for(lambda: f"✔ {level}" in card.refresh().button_texts,
                           what="the level ticked")
    await user.tap(card.refresh(), length)
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""),
                           what="the commitment")
    card = card.refresh()
    assert "against the computer" in card.text and "▶ Start" in card.button_texts
    answer = await user.tap(card, "▶ Start")
    assert not (answer and answer.show_alert), answer
    await standin.wait_for(lambda: "the match has started" in (card.refresh().text or ""),
                           what="the card to say the match started")
    return card
