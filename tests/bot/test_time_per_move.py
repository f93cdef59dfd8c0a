"""Time per move chosen at /new (issue 13): the operator's default preselected, the choice shown
on the challenge card, the timeout after that time and a reminder at half of it."""

from __future__ import annotations

import asyncio

from bot.views.callbacks import Action, encode
from standin import Chat, Message, StandIn, User
from standin.players import live_board
from tests.bot.conftest import Running


async def challenge(standin: StandIn, alice: User, group: Chat, time: str | None,
                    length: str = "3 points") -> Message:
    """Alice's /new card in the group, with ``time`` chosen (``None``: as offered), then a
    length: the challenge card."""
    cmd = alice.send(group, "/new")
    card = await group.wait_for_answer(cmd)
    if time is not None:
        before = card.edit_count
        await alice.tap(card, time)
        await standin.wait_for(lambda: card.refresh().edit_count > before, what="the choice")
    await alice.tap(card.refresh(), length)
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""), what="the card")
    return card.refresh()


async def test_the_default_is_preselected_and_a_choice_is_ticked(
        standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    group = standin.group("Kafeneio", alice)
    cmd = alice.send(group, "/new")
    card = await group.wait_for_answer(cmd)
    assert "⏱ 7 days per move" in card.content
    times = [b for b in card.button_texts if "⏱" in b]
    assert times == ["⏱ 1 hour", "⏱ 12 hours", "⏱ 1 day", "⏱ 3 days", "✔ ⏱ 7 days"]
    await alice.tap(card, "⏱ 12 hours")
    await standin.wait_for(lambda: "⏱ 12 hours per move" in card.refresh().content)
    assert "✔ ⏱ 12 hours" in card.refresh().button_texts
    # the "no triple" switch keeps the time chosen
    await alice.tap(card.refresh(), "☐ No triple (backgammon counts 2)")
    await standin.wait_for(lambda: "No triple" in card.refresh().content)
    assert "✔ ⏱ 12 hours" in card.refresh().button_texts
    # a forged time (not on offer) creates nothing
    answer = await alice.tap_data(card.refresh(),
                                  encode(Action.NEW, 0, 0, "3th5", owner=alice.id))
    assert answer is not None and answer.show_alert
    await alice.tap(card.refresh(), "5 points")
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""))
    assert "⏱ 12 hours per move" in card.refresh().content
    assert await bot.uc.get_challenge(2) is None  # only one challenge was made


async def test_a_chosen_time_reminds_at_half_and_times_out(standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)
    card = await challenge(standin, alice, group, "⏱ 1 hour")
    assert "⏱ 1 hour per move" in card.content
    await bob.tap(card, "🎲 Accept")
    board = await standin.wait_for(lambda: live_board(group), what="the first board")
    mover = alice if board.mentions(alice) else bob
    other = bob if mover is alice else alice
    # nothing before half the time
    bot.clock.advance(minutes=29)
    await asyncio.sleep(0.6)  # three timer polls
    await standin.idle()
    assert not any("⏰" in m.content for m in group.bot_messages())
    # the reminder at half the time
    bot.clock.advance(minutes=1, seconds=30)
    reminder = await standin.wait_for(
        lambda: (b := live_board(group)) is not None and "⏰" in b.content and b,
        what="the reminder")
    assert reminder.content.split("\n")[0] == (
        f"⏰ {mover.first_name}, your move in match #1 (waiting for 30 minutes; "
        "29 minutes 30 seconds left).")
    # and the match lost on time once the hour has passed
    bot.clock.advance(minutes=31)
    final = await standin.wait_for(
        lambda: (b := live_board(group)) is not None and "wins the match" in b.content and b,
        what="the timeout")
    assert other.first_name in final.content.split("wins the match")[0].split("\n")[-1]
    loaded = await bot.uc.load_match(1)
    assert loaded.match is not None and loaded.match.state.end_reason == "timeout"
    # a rematch keeps the time per move
    await other.tap(final, "🔁 Rematch")
    rematch = await standin.wait_for(
        lambda: next((m for m in group.bot_messages() if "SHA-256" in m.content
                      and "dice seed was" not in m.content  # the old match's seed revealed
                      and m.message_id > final.message_id), None), what="the rematch's card")
    assert "⏱ 1 hour per move" in rematch.content


async def test_the_default_time_keeps_the_operators_reminders(
        standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)
    card = await challenge(standin, alice, group, None)
    assert "⏱ 7 days per move" in card.content
    await bob.tap(card, "🎲 Accept")
    await standin.wait_for(lambda: live_board(group), what="the first board")
    loaded = await bot.uc.load_match(1)
    mv = loaded.match
    assert mv is not None and mv.move_seconds is None
    assert mv.turn_deadline is not None
    assert (mv.turn_deadline - bot.clock.now).total_seconds() == 7 * 24 * 3600
    bot.clock.advance(hours=11, minutes=58)  # the operator's first reminder: at 12 hours
    await asyncio.sleep(0.6)
    await standin.idle()
    assert not any("⏰" in m.content for m in group.bot_messages())
    bot.clock.advance(minutes=3)
    reminder = await standin.wait_for(
        lambda: (b := live_board(group)) is not None and "⏰" in b.content and b,
        what="the reminder")
    assert "(waiting for 12 hours; 6 days 11 hours left)" in reminder.content.split("\n")[0]
