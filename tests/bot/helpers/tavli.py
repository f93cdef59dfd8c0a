"""Tavli matches opened and resigned the way players do."""

from __future__ import annotations

from bot.views.callbacks import Action, decode
from standin import Chat, Message, StandIn, User
from standin.players import live_board


async def challenge(standin: StandIn, author: User, chat: Chat, game: str,
                    length: str = "1 point") -> Message:
    """``/new`` in ``chat``, the game chosen (ticked on the card), then the length: the
    challenge card."""
    cmd = author.send(chat, "/new")
    card = await chat.wait_for_answer(cmd)
    assert "✔ Portes" in card.button_texts  # Portes until another game is chosen
    await author.tap(card, game)
    await standin.wait_for(lambda: f"✔ {game}" in card.refresh().button_texts,
                           what=f"{game} ticked")
    await author.tap(card.refresh(), length)
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""), what="the challenge")
    return card.refresh()


GREEK = {"Plakoto": "Πλακωτό", "Fevga": "Φεύγα", "Tavli": "Τάβλι", "Long Nardy": "Μακρύ νάρδι"}


async def private_game(standin: StandIn, game: str, length: str = "1 point"
                       ) -> tuple[User, User]:
    """Alice challenges by a link in her private chat; Bob (Greek) accepts in his."""
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Βασίλης", username="vasilis", language_code="el")
    hello = alice.start_bot()
    await alice.private.wait_for_bot_message(after=hello)
    card = await challenge(standin, alice, alice.private, game, length)
    link = next(e for e in card.text.split() if e.startswith("https://t.me/"))
    opened = bob.follow(link)
    invite = await bob.private.wait_for_bot_message(after=opened)
    assert GREEK[game] in invite.text  # the game, in Greek
    await bob.tap(invite, "🎲 Αποδοχή")
    return alice, bob


def actions(board: Message | None) -> set[Action]:
    if board is None:
        return set()
    return {data.action for row in board.buttons for b in row
            if (data := decode(b.callback_data)) is not None}


async def resign_game(standin: StandIn, mover: User, other: User) -> None:
    """``mover`` (on turn) resigns the game for 1 point; ``other`` accepts on their board."""
    cmd = mover.send(mover.private, "/resign")
    menu = await mover.private.wait_for_bot_message(  # the menu, not a board posted later
        after=cmd, predicate=lambda m: m.photo_bytes is None and bool(m.button_texts))
    await mover.tap(menu, menu.button_texts[0])  # the game for 1 point, in either language
    offer = await standin.wait_for(
        lambda: (b := live_board(other.private)) is not None
        and Action.RESIGN_ACCEPT in actions(b) and b,
        what="the offer")
    await other.tap(offer, offer.button_texts[0])  # Accept / Αποδοχή
