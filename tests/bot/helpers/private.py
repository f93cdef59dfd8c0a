"""A private match opened with a deep link to a friend."""

from __future__ import annotations

from standin import Message, StandIn, User


async def deep_link_match(standin: StandIn, length: str = "3 points") -> tuple[User, User, Message]:
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Βασίλης", username="vasilis", language_code="el")
    hello = alice.start_bot()
    await alice.private.wait_for_bot_message(after=hello)
    cmd = alice.send(alice.private, "/new")
    card = await alice.private.wait_for_answer(cmd)
    await alice.tap(card, length)
    await standin.idle()
    card = card.refresh()
    assert "Send this link to a friend" in card.text
    link = next(e for e in card.text.split() if e.startswith("https://t.me/"))
    assert "📨 Send to a friend" in card.button_texts
    # Bob has never started the bot: the link opens his private chat with the challenge
    opened = bob.follow(link)
    invite = await bob.private.wait_for_bot_message(after=opened)
    assert "Alice" in invite.text and "SHA-256" in invite.text
    assert "καλεί" in invite.text  # Bob reads Greek
    await bob.tap(invite, "🎲 Αποδοχή")
    # Alice's link card no longer offers anything once the match has started
    await standin.wait_for(lambda: "the match has started" in (card.refresh().text or ""))
    return alice, bob, invite
