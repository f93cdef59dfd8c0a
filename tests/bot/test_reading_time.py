"""Time, told (issue 27, item 11): boards show the time left to move, reminders say how long
the player was waited for and how long they have left, and a last warning comes before the
loss. The use cases' clock is moved (tests/bot/conftest.py Clock), never waited for."""

from __future__ import annotations

from standin import Chat, Message, StandIn, User
from standin.players import live_board, start_the_bot
from tests.bot.conftest import Running


async def one_hour_match(standin: StandIn, alice: User, bob: User, group: Chat,
                         hour: str = "⏱ 1 hour") -> Message:
    """Alice's /new in the group with an hour per move, to 3 points; Bob accepts. The first
    board."""
    cmd = alice.send(group, "/new")
    card = await group.wait_for_answer(cmd)
    before = card.edit_count
    await alice.tap(card, hour)
    await standin.wait_for(lambda: card.refresh().edit_count > before, what="the choice")
    await alice.tap(card.refresh(), next(b for b in card.refresh().button_texts
                                         if b.startswith("3 ")))
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""), what="the card")
    await bob.tap(card.refresh(), card.refresh().button_texts[0])  # Accept, in any language
    return await standin.wait_for(lambda: live_board(group), what="the first board")


async def test_reminders_tell_the_time_left_and_a_last_warning_comes(
        standin: StandIn, bot: Running) -> None:
    # Given a group match with an hour per move, its players playing on the group's board
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)
    board = await one_hour_match(standin, alice, bob, group)
    mover = alice if board.mentions(alice) else bob
    # Then the board shows the time left to move
    assert board.caption.endswith("⏱ Time left to move: 1 hour")
    # When half the time (and a poll) has passed: the reminder says how long is left
    bot.clock.advance(minutes=30, seconds=30)
    reminder = await standin.wait_for(
        lambda: (b := live_board(group)) is not None and "⏰" in b.caption and b,
        what="the reminder")
    assert reminder.caption.split("\n")[0] == (
        f"⏰ {mover.first_name}, your move in match #1 (waiting for 30 minutes; "
        "29 minutes 30 seconds left).")
    assert reminder.caption.endswith("⏱ Time left to move: 29 minutes 30 seconds")
    # When 90 % of the time has passed: the last warning, before the loss
    bot.clock.advance(minutes=23, seconds=30)
    warning = await standin.wait_for(
        lambda: (b := live_board(group)) is not None and "last call" in b.caption and b,
        what="the last warning")
    assert warning.caption.split("\n")[0] == (
        f"⏰ {mover.first_name}, last call in match #1: 6 minutes left to move, then the "
        "match is lost.")
    assert warning.mentions(mover) and warning.caption.endswith("⏱ Time left to move: 6 minutes")
    loaded = await bot.uc.load_match(1)
    assert loaded.match is not None and loaded.match.status.value == "active"


async def test_the_last_warning_comes_in_private_in_greek(standin: StandIn, bot: Running) -> None:
    # Given Greek players who started the bot, in a group match with an hour per move
    alice = standin.user("Αλίκη", username="alice", language_code="el")
    bob = standin.user("Βασίλης", username="bob", language_code="el")
    await start_the_bot(alice, bob)
    group = standin.group("Καφενείο", alice, bob)
    board = await one_hour_match(standin, alice, bob, group, "⏱ 1 ώρα")
    mover = alice if board.mentions(alice) else bob
    first = await standin.wait_for(lambda: live_board(mover.private), what="the private board")
    assert first.caption.endswith("⏱ Χρόνος που απομένει για την κίνηση: 1 ώρα")
    # When 54 minutes pass at once (the reminder at half and the last warning both due)
    bot.clock.advance(minutes=54)
    warning = await standin.wait_for(
        lambda: (b := live_board(mover.private)) is not None and "Τελευταία" in b.caption
        and b, what="the last warning")
    # Then the player reads it in Greek, on their board, with the time left
    assert warning.caption.split("\n")[0] == (
        "⏰ Τελευταία ειδοποίηση στον αγώνα #1: απομένουν 6 λεπτά για την κίνηση, μετά χάνεις "
        "τον αγώνα.")
    assert warning.has_keyboard
