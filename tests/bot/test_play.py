"""Find me an opponent (/play), end to end through the stand-in with the fake clock: two
players in range paired at once and the match started from the notice; a third and a fourth
far apart wait, then the window widens and they are paired by the periodic job; cancelling;
a blocked pair never paired; bad input (forged data, /play twice, out-of-range choices)."""

from __future__ import annotations

from datetime import datetime

from bot.views.callbacks import Action, encode
from standin import Message, StandIn, User
from standin.players import live_board
from storage.models import RatingRow
from tests.bot.conftest import Running

SEARCH, START, BLOCK = "🔎 Search", "▶ Start", "🚫 Never pair me with them"


async def started(standin: StandIn, name: str) -> User:
    user = standin.user(name, username=name.lower())
    hello = user.start_bot()
    await user.private.wait_for_bot_message(after=hello)
    return user


async def play_card(user: User) -> Message:
    cmd = user.send(user.private, "/play")
    return await user.private.wait_for_answer(cmd)


async def search(user: User) -> Message:
    card = await play_card(user)
    answer = await user.tap(card, SEARCH)
    assert answer is not None and answer.text
    return card


def notice(user: User, after: Message | None = None) -> object:
    return user.private.wait_for_bot_message(
        after=after, predicate=lambda m: "Opponent found" in m.content)


async def rate(bot: Running, user: User, rating: float) -> None:
    with bot.uc.kernel.sessions.begin() as s:
        s.merge(RatingRow(player_id=user.id, game="portes", scope=0, rating=rating,
                          experience=20, matches=4, updated_at=datetime.now().astimezone()))


async def test_paired_at_once_then_widened_and_the_match_is_played(
        standin: StandIn, bot: Running) -> None:
    alice, bob = await started(standin, "Alice"), await started(standin, "Bob")
    card = await search(alice)
    await standin.wait_for(lambda: "0 other players waiting" in card.refresh().text,
                           what="alice waiting")
    await search(bob)
    told_alice = await notice(alice)  # type: ignore[misc]
    told_bob = await notice(bob)  # type: ignore[misc]
    assert "Bob" in told_alice.text and "They start the match" in told_alice.text
    assert "Alice" in told_bob.text and "Tap Start" in told_bob.text
    assert START not in told_alice.button_texts and START in told_bob.button_texts
    await bob.tap(told_bob, START)
    for user in (alice, bob):  # an ordinary private match: a board in each chat
        await standin.wait_for(lambda u=user: live_board(u.private) is not None,  # type: ignore[misc]
                               what="the boards")
    # a third and a fourth, 300 points apart: they wait until the window has widened
    carol, dave = await started(standin, "Carol"), await started(standin, "Dave")
    await rate(bot, carol, 1800.0)
    await search(carol)
    dave_card = await search(dave)
    await standin.wait_for(lambda: "1 other player waiting" in dave_card.refresh().text,
                           what="dave sees carol waiting")
    bot.clock.advance(minutes=10)  # 200 points: not yet
    assert await bot.uc.pair_waiting() == []
    await standin.idle()
    assert not any("Opponent found" in m.content for m in dave.private.bot_messages())
    bot.clock.advance(minutes=10)  # 300 points: the periodic job pairs them
    told_dave = await dave.private.wait_for_bot_message(
        predicate=lambda m: "Opponent found" in m.content, timeout=60)
    assert "Carol" in told_dave.text and "1800" in told_dave.text
    await notice(carol)  # type: ignore[misc]


async def test_cancel_block_and_bad_input(standin: StandIn, bot: Running) -> None:
    alice, bob = await started(standin, "Alice"), await started(standin, "Bob")
    card = await search(alice)
    again = await play_card(alice)  # /play twice: the same search is refused
    answer = await alice.tap(again, SEARCH)
    assert answer is not None and answer.show_alert and "already waiting" in answer.text
    # forged and out-of-range data change nothing
    for data in (encode(Action.FIND, 0, 0, "zz", owner=alice.id),
                 encode(Action.FIND, 0, 0, "p4h24s", owner=alice.id),
                 encode(Action.FIND, 0, 0, "p3h5s", owner=alice.id),
                 encode(Action.FIND, 0, 0, "x99", owner=bob.id)):
        answer = await alice.tap_data(card, data)
        assert answer is not None and answer.show_alert, data
    assert len(await bot.uc.waiting_for(alice.id)) == 1
    stop = next(b for b in card.refresh().button_texts if b.startswith("✖"))
    answer = await alice.tap(card, stop)
    assert answer is not None and answer.text == "You stopped waiting."
    await standin.wait_for(lambda: "You are waiting for" not in card.refresh().text,
                           what="the card redrawn")
    assert await bot.uc.waiting_for(alice.id) == []
    # paired once, Alice blocks Bob from the notice: never paired again
    await search(alice)
    await search(bob)
    told = await notice(alice)  # type: ignore[misc]
    answer = await alice.tap(told, BLOCK)
    assert answer is not None and "not be paired with them again" in answer.text
    await search(alice)
    await search(bob)
    bot.clock.advance(hours=3)  # anyone by now, but not them
    await standin.idle()
    await standin.idle()
    assert len([m for m in alice.private.bot_messages() if "Opponent found" in m.content]) == 1
    assert len(await bot.uc.waiting_for(alice.id)) == 1
    # the /play card offers to pair them again
    card = await play_card(alice)
    assert "✅ Pair me with them again: Bob" in card.button_texts


async def test_play_in_a_group_points_to_the_private_chat(standin: StandIn, bot: Running) -> None:
    alice = await started(standin, "Alice")
    group = standin.group("Kafeneio", alice)
    cmd = alice.send(group, "/play")
    answer = await group.wait_for_answer(cmd)
    assert "private chat" in answer.text
    card_cmd = alice.send(alice.private, "/new")
    new_card = await alice.private.wait_for_answer(card_cmd)
    await alice.tap(new_card, "🔎 Find me an opponent")
    await standin.wait_for(lambda: "Find me an opponent" in new_card.refresh().text,
                           what="the /play card")
