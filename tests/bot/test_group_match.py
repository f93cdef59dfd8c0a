"""A full match in a group, played by simulated users tapping the buttons the bot sent."""

from __future__ import annotations

from typing import Any

import pytest

from standin import StandIn
from standin.players import live_board, play_turn
from tests.bot.conftest import Running
from tests.sampling import sample_or_full


async def test_group_challenge_and_first_turns(standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)
    cmd = alice.send(group, "/new")
    card = await group.wait_for_answer(cmd)
    assert "1 point" in card.button_texts
    await alice.tap(card, "3 points")
    await standin.idle()
    card = card.refresh()
    assert "challenges anyone" in card.text and "SHA-256" in card.text
    # the author cannot accept their own challenge
    answer = await alice.tap(card, "🎲 Accept")
    assert answer.show_alert and "own challenge" in answer.text
    await bob.tap(card, "🎲 Accept")
    board = await standin.wait_for(lambda: live_board(group), what="the first board")
    assert board.image().size[0] >= 800
    assert "Portes" in board.caption
    assert "match to 3" in board.caption
    for _ in range(40):
        board = await standin.wait_for(lambda: live_board(group), what="a board")
        mover = alice if board.mentions(alice) else bob
        other = bob if mover is alice else alice
        # the other player cannot move
        if board.button_texts:
            answer = await other.tap(board, board.button_texts[0])
            assert answer.show_alert and "not your turn" in answer.text
        await play_turn(standin, mover, group)
    await standin.idle()
    assert len([m for m in group.bot_messages() if m.photo_bytes is not None]) == 1


@pytest.mark.long
@pytest.mark.parametrize("points", sample_or_full(1, 3))
async def test_a_match_played_out_in_a_group(standin: StandIn, make_bot: Any,
                                             points: int) -> None:
    """Played to its end on the group's board: one point in the default run, three (several
    games, the score carried) in CI's ``-m full``."""
    # whole plays are offered up to 40 at a time, so most turns are one tap (the tap-by-tap
    # keyboard is exercised above)
    bot: Running = await make_bot(plays_direct=40)
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob", language_code="el")
    group = standin.group("Kafeneio", alice, bob)
    cmd = alice.send(group, "/new")
    card = await group.wait_for_answer(cmd)
    await alice.tap(card, "1 point" if points == 1 else f"{points} points")
    await standin.idle()
    await bob.tap(card.refresh(), "🎲 Accept")
    board = await standin.wait_for(lambda: live_board(group), what="the first board")
    turns = 0
    while "wins the match" not in board.caption:
        mover = alice if board.mentions(alice) else bob
        await play_turn(standin, mover, group)
        board = await standin.wait_for(lambda: live_board(group), what="a board")
        turns += 1
        assert turns < 600
    await standin.idle()
    assert "🔁 Rematch" in board.button_texts
    assert board.caption.count("wins the match") == 1
    # the seed revealed: a notice the delivery worker sends after the final board, short
    # in the group (the command to check it and every roll are a tap away, in private)
    await standin.wait_for(lambda: any(
        "dice seed" in m.content and "start=seed1" in " ".join(
            b.url or "" for row in m.buttons for b in row)
        for m in group.bot_messages()), what="the seed revealed")
    # one live board per match in the chat
    assert len([m for m in group.bot_messages() if m.photo_bytes is not None]) == 1
    record = await bot.uc.match_record(1)
    assert record is not None and max(record.match.state.score) >= points


async def test_a_match_in_a_forum_topic_stays_in_its_topic(standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    forum = standin.supergroup("Tavli club", alice, bob, forum=True)
    topic = forum.create_topic("Portes", by=alice)
    cmd = alice.send(forum, "/new", thread=topic)
    card = await forum.wait_for_answer(cmd)
    assert card.thread_id == topic
    await alice.tap(card, "1 point")
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""))
    await bob.tap(card.refresh(), "🎲 Accept")
    board = await standin.wait_for(lambda: live_board(forum), what="the first board")
    assert board.thread_id == topic
    mover = alice if board.mentions(alice) else bob
    await play_turn(standin, mover, forum)
    board = await standin.wait_for(lambda: live_board(forum), what="the next board")
    assert board.thread_id == topic
