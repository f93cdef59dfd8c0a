"""Inline challenges, deep links back to the bot, reminders and the timeout."""

from __future__ import annotations

import pytest

from bot.views.callbacks import Action, encode
from standin import Chat, Message, StandIn, StandInError
from standin.players import (
    live_board,
    next_private_turn,
    play_turn,
    start_group_match,
    start_the_bot,
)
from tests.bot.conftest import Running


async def test_inline_challenge_from_any_chat(standin: StandIn, bot: Running) -> None:
    standin.set_inline_feedback(True)
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    chat = standin.direct_chat(alice, bob)
    query = alice.inline_query("3")
    results = await query
    # Portes's two cards keep their ids; each other game adds its letter (Tavli has both)
    assert results is not None and {r["id"] for r in results} == {
        "3t", "3n", "3tk", "3tf", "3tv", "3nv", "3tn"}
    card = alice.choose_inline_result(query, "3t", chat)
    assert card.inline_message_id is not None
    # inline feedback: the card gets its commitment and a real challenge
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""))
    card = card.refresh()
    answer = await alice.tap(card, "🎲 Accept")
    assert answer.show_alert and "own challenge" in (answer.text or "")
    # a fast tap on the card as first posted (no commitment yet) does not count
    answer = await bob.tap_data(card, encode(Action.ACCEPT, 0, 0, f"3t{alice.id}"))
    assert answer.show_alert and "tap Accept again" in (answer.text or "")
    assert (await bot.uc.get_challenge(1)).status == "open"  # type: ignore[union-attr]
    # Bob never started the bot: the answer sends him to the bot's private chat
    answer = await bob.tap(card, "🎲 Accept")
    assert answer.url and "start=c" in answer.url
    opened = bob.follow(answer.url)
    invite = await bob.private.wait_for_bot_message(after=opened)
    await bob.tap(invite, "🎲 Accept")
    # the inline card follows the match: score, whose turn, and a way back to one's board
    await standin.wait_for(lambda: "to move" in (card.refresh().text or ""))
    card = card.refresh()
    assert "0 – 0" in card.text
    open_url = card.button("▶ Open my board").url
    assert open_url and "start=m" in open_url
    # Alice never started the bot either: she comes back with one tap
    opened = alice.follow(open_url)
    board = await alice.private.wait_for_bot_message(after=opened)
    assert board.photo_bytes is not None
    mover, _ = await next_private_turn(standin, [alice, bob], 0)
    assert mover in (alice, bob)


async def test_an_inline_challenger_who_never_started_the_bot_is_told_on_the_card(
        standin: StandIn, bot: Running) -> None:
    standin.set_inline_feedback(True)
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    await start_the_bot(bob)  # Bob has; Alice only ever used inline mode
    chat = standin.direct_chat(alice, bob)
    query = alice.inline_query("1")
    await query
    card = alice.choose_inline_result(query, "1t", chat)
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""))
    await bob.tap(card.refresh(), "🎲 Accept")
    asking = "Alice: start the bot to get your board."
    await standin.wait_for(lambda: asking in (card.refresh().text or ""), what="the card")
    await standin.idle()
    card = card.refresh()
    assert "Bob:" not in card.text  # Bob gets his board: nothing to ask of him
    start_url = card.button("▶ Start the bot").url
    assert start_url == card.button("▶ Open my board").url
    assert start_url == f"https://t.me/{standin.bot_username}?start=m1"
    # the bot could not send Alice her board
    assert live_board(alice.private) is None
    if "Bob to move" in card.text:  # Bob opened: he plays, and now Alice must move
        await standin.wait_for(lambda: (b := live_board(bob.private)) is not None
                               and b.has_keyboard, what="Bob's board")
        await play_turn(standin, bob, bob.private, wait=False)
        await standin.wait_for(lambda: "Alice to move" in (card.refresh().text or ""))
        assert asking in card.refresh().text
    # Alice starts the bot with the card's button: her board comes, live, for her move
    alice.follow(start_url)
    board = await standin.wait_for(lambda: live_board(alice.private), what="Alice's board")
    assert board.has_keyboard and "Your turn" in board.caption
    # and the card stops asking her
    await standin.wait_for(lambda: asking not in (card.refresh().text or ""), what="the card")
    card = card.refresh()
    assert "Alice to move" in card.text and "▶ Start the bot" not in card.button_texts
    assert "▶ Open my board" in card.button_texts
    # her board plays: her turn goes to Bob
    await play_turn(standin, alice, alice.private, wait=False)
    await standin.wait_for(lambda: "Bob to move" in (card.refresh().text or "")
                           or "wins the match" in (card.refresh().text or ""))
    assert "start the bot" not in card.refresh().text


async def test_inline_challenge_without_feedback(standin: StandIn, bot: Running) -> None:
    standin.set_inline_feedback(False)
    alice = standin.user("Alice")
    bob = standin.user("Bob")
    bob.start_bot()
    chat = standin.direct_chat(alice, bob)
    query = alice.inline_query("")
    await query
    card = alice.choose_inline_result(query, "1n", chat)
    assert "SHA-256" not in card.text
    # the card never showed a commitment: this tap makes the challenge and shows it, but
    # does not count as accepting
    answer = await bob.tap(card, "🎲 Accept")
    assert answer.show_alert and answer.text == ("The card now shows its dice commitment; "
                                                 "tap Accept again to play.")
    card = card.refresh()
    challenge = await bot.uc.get_challenge(1)
    assert challenge is not None and challenge.status == "open"
    assert challenge.commitment in card.text
    assert live_board(bob.private) is None and (await bot.uc.load_match(1)).match.mix is None  # type: ignore[union-attr]
    # a tap from the old card (the id-0 button) still does not count
    answer = await bob.tap_data(card, encode(Action.ACCEPT, 0, 0, f"1n{alice.id}"))
    assert answer.show_alert and "tap Accept again" in (answer.text or "")
    assert (await bot.uc.get_challenge(1)).status == "open"  # type: ignore[union-attr]
    # the tap on the card with its commitment starts the match
    accepting = bob.tap(card, "🎲 Accept")
    await standin.wait_for(lambda: "to move" in (card.refresh().text or ""))
    board = await standin.wait_for(lambda: live_board(bob.private), what="Bob's board")
    # the value mixed into the dice (the accepting tap's id) is on the first board
    match = (await bot.uc.load_match(1)).match
    assert match is not None and match.mix == accepting.id
    assert f"mixed with {accepting.id}" in board.caption
    assert match.commitment[:16] in board.caption


def photo_boards(chat: Chat) -> list[Message]:
    return [m for m in chat.bot_messages() if m.photo_bytes is not None]


def is_gone(message: Message) -> bool:
    try:
        message.refresh()
    except StandInError:
        return True
    return False


@pytest.mark.parametrize("started", [True, False])
async def test_reminders_then_timeout(standin: StandIn, bot: Running, started: bool) -> None:
    """The player to move in a group is reminded where they play, and the reminder is the
    board itself, posted again (a new message notifies) with the reminder on top: their
    private board when they started the bot; else the group's board, mentioning them. The
    board it replaces is retired: one live board, and no other message."""
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    if started:
        await start_the_bot(alice, bob)
    group = standin.group("Kafeneio", alice, bob)
    board = await start_group_match(standin, alice, bob, group, "3 points")
    mover, other = (alice, bob) if board.mentions(alice) else (bob, alice)
    where = mover.private if started else group
    first = await standin.wait_for(lambda: live_board(where), what="a board")
    await standin.idle()
    texts_before = [m.message_id for m in where.bot_messages() if m.photo_bytes is None]
    sent_before = len(standin.calls("sendPhoto", chat_id=where.id))
    bot.clock.advance(hours=12, minutes=1)
    reminder = await standin.wait_for(
        lambda: (b := live_board(where)) is not None and "⏰" in b.content and b,
        what="the reminder")
    await standin.idle()
    head = reminder.caption.split("\n")[0]
    if started:
        assert head == "⏰ Your move in match #1 (waiting for 12 hours; 6 days 11 hours left)."
        assert not any("⏰" in m.content for m in group.bot_messages())
    else:
        assert head == (f"⏰ {mover.first_name}, your move in match #1 (waiting for 12 hours; "
                        "6 days 11 hours left).")
        assert reminder.mentions(mover)
    # the board, to play on, and the only one: the board it replaces is gone
    assert reminder.has_keyboard and reminder.message_id != first.message_id
    await standin.wait_for(lambda: is_gone(first), what="the old board retired")
    assert [m.message_id for m in photo_boards(where)] == [reminder.message_id]
    # and nothing else was sent: no text beside it
    assert [m.message_id for m in where.bot_messages()
            if m.photo_bytes is None] == texts_before
    sent = standin.calls("sendPhoto", chat_id=where.id)[sent_before:]
    assert len(sent) == 1
    assert str(sent[0].params.get("disable_notification", "")).lower() != "true"
    bot.clock.advance(days=7)
    if started:
        ended = await standin.wait_for(
            lambda: next((m for m in other.private.bot_messages()
                          if "did not move in time" in m.content), None), what="the timeout")
        assert mover.first_name in ended.content
    await standin.wait_for(lambda: "wins the match" in (live_board(group) or board).caption)
    final = live_board(group)
    assert final is not None and other.first_name in final.caption


async def test_an_unaccepted_challenge_expires(standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice")
    bob = standin.user("Bob")
    group = standin.group("Kafeneio", alice, bob)
    cmd = alice.send(group, "/new")
    card = await group.wait_for_answer(cmd)
    await alice.tap(card, "5 points")
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""))
    bot.clock.advance(hours=24, minutes=1)
    await standin.wait_for(lambda: card.refresh().text == "This challenge has expired.")
    assert not card.refresh().has_keyboard
