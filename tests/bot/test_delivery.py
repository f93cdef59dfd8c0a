"""Boards that heal themselves (issue 10, cases 1-4): whatever Telegram does to a turn's calls,
each chat ends with exactly one live board per match whose buttons work, the player to move is
told once, and no move is lost."""

from __future__ import annotations

from typing import Any

import pytest

from standin import Chat, Message, StandIn, Tap, User
from standin.players import live_board, play_turn
from tests.bot.conftest import Running
from tests.bot.helpers.delivery import (
    boards,
    final_button,
    mover,
    players_in_a_group,
    up_to_the_last_tap,
)
from tests.bot.helpers.retries import retries_come_due
from tests.clocks import Wall

READ_TIMEOUT = 2.5
"""Seconds the bot waits for an answer, where a test makes one come after it gave up (the
shipped 5 s would only make the test wait longer)."""


async def converged(standin: StandIn, chat: Chat, old: Message | None) -> Message:
    """Exactly one live board, newer than ``old``, and nothing more in flight."""
    def one_new() -> Message | None:
        live = boards(chat)
        if len(live) == 1 and (old is None or live[0].message_id != old.message_id):
            return live[0]
        return None
    await standin.wait_for(one_new, timeout=30, what="one new live board")
    await standin.idle()
    # a late orphan (a send answered after the client gave up) is retired too
    board = await standin.wait_for(one_new, timeout=30, what="the orphan retired")
    return board  # type: ignore[no-any-return]


def sent_to(standin: StandIn, chat: Chat, since: float) -> int:
    """Boards that reached ``chat`` since ``since`` (each one notified its reader)."""
    return sum(1 for c in standin.calls("sendPhoto", ok=True)
               if c.time >= since and int(c.params.get("chat_id", 0)) == chat.id)


async def the_turn_passes_with(
    standin: StandIn, bot: Running, fault: Any, *, started: bool = False
) -> tuple[Message, User, User, Chat, Tap]:
    """Play a turn up to its last tap, inject ``fault``, tap; the board must converge where
    the next player plays (the group's board, or their private board when ``started``)."""
    alice, bob, group, board = await players_in_a_group(standin, started=started)
    player, other = mover(board, alice, bob)
    before = (await bot.uc.load_match(1)).match
    assert before is not None
    here, there = (player.private, other.private) if started else (group, group)
    board, final = await up_to_the_last_tap(standin, player, here)
    group_before = live_board(group)
    assert group_before is not None
    look = (group_before.message_id, group_before.edit_count)
    fault()
    since = standin.now()
    tap = player.tap(board, final)
    new = await converged(standin, there, None if started else board)
    after = (await bot.uc.load_match(1)).match
    assert after is not None and after.to_act != before.to_act  # the move is kept
    if started:
        assert final_button(new) is None and new.button_texts  # the turn's first buttons
        # the group's board shows the turn passed, and still mentions who is to move
        shown = await standin.wait_for(
            lambda: (b := live_board(group)) is not None
            and (b.message_id, b.edit_count) != look and b, what="the group's board")
        assert shown.mentions(other)
        assert len(boards(group)) == 1
    else:
        assert new.mentions(other)
    photos = sent_to(standin, there, since)
    assert photos >= 1
    if not fault_posts_twice(fault):
        assert photos == 1  # told exactly once: one new message
    # the new board's buttons work: the next player plays on it
    await play_turn(standin, other, group)
    return new, player, other, group, tap


def fault_posts_twice(fault: Any) -> bool:
    return bool(getattr(fault, "posts_twice", False))


@pytest.mark.long
@pytest.mark.parametrize("started", [False, True], ids=["group", "private"])
@pytest.mark.parametrize("fault", ["502", "slow"])
async def test_a_failed_answer_does_not_stop_the_board(
    standin: StandIn, bot: Running, fault: str, started: bool
) -> None:
    """Case 1: the callback answer fails (502) or comes too late: the board follows anyway,
    and nobody is told "Something went wrong"."""
    def inject() -> None:
        if fault == "502":
            standin.inject_error("answerCallbackQuery", 502, description="Bad Gateway")
        else:
            standin.inject_delay("answerCallbackQuery", seconds=6.0)
    await the_turn_passes_with(standin, bot, inject, started=started)
    answers = standin.calls("answerCallbackQuery")
    assert not any("went wrong" in str(c.params.get("text") or "") for c in answers)


@pytest.mark.parametrize("started", [False, True], ids=["group", "private"])
@pytest.mark.parametrize("code,times", [(502, 5), (429, 7)])
async def test_a_board_that_cannot_be_posted_is_posted_once_telegram_answers(
    standin: StandIn, make_bot: Any, code: int, times: int, started: bool
) -> None:
    """Case 2: sendPhoto fails more times than the client retries (5 x 502, 7 x 429 over the
    rate limiter's 3 retries): the worker tries again later until the board is there. The
    back-offs pass on delivery's clock, moved to each retry as the worker waits for it, and
    the rate limiter waits out each 429 on it too."""
    wall = Wall()
    bot = await make_bot(wall=wall)
    limiter = bot.app.bot.rate_limiter
    limiter.clock, limiter.sleep = wall, wall.sleep
    async with retries_come_due(bot.uc, wall, bot.app.bot_data["portes"].delivery.poll) as retries:
        await the_turn_passes_with(standin, bot, lambda: standin.inject_error(
            "sendPhoto", code, times=times, retry_after=1 if code == 429 else None,
            description="Bad Gateway" if code == 502 else None), started=started)
    assert standin.calls("sendPhoto", ok=True)
    assert len(standin.calls("sendPhoto", ok=False)) == times
    assert retries.delays  # the worker waited to try again


@pytest.mark.long
@pytest.mark.parametrize("started", [False, True], ids=["group", "private"])
async def test_a_board_posted_twice_is_found_and_retired(
    standin: StandIn, make_bot: Any, started: bool
) -> None:
    """Case 3: sendPhoto's answer comes after the client gave up (so its outcome is unknown
    and it is sent again), and the first board lands after the second: the orphan is found by
    its exact caption and keyboard, and retired."""
    bot: Running = await make_bot(read_timeout=READ_TIMEOUT)

    def slow_send() -> None:
        standin.inject_delay("sendPhoto", seconds=READ_TIMEOUT + 2.0)
    slow_send.posts_twice = True  # type: ignore[attr-defined]
    await the_turn_passes_with(standin, bot, slow_send, started=started)
    photos = standin.calls("sendPhoto", ok=True)
    assert len(photos) >= 2


async def test_after_a_supergroup_migration_the_board_is_in_the_new_chat(
    standin: StandIn, bot: Running
) -> None:
    """Case 4: the group becomes a supergroup mid-match: a board appears in the new chat, and
    its buttons work."""
    alice, bob, group, board = await players_in_a_group(standin)
    player, _other = mover(board, alice, bob)
    supergroup = alice.upgrade_group(group)
    new = await standin.wait_for(lambda: live_board(supergroup), what="a board in the new chat")
    assert new.mentions(player)
    await standin.idle()
    assert len(boards(supergroup)) == 1
    await play_turn(standin, player, supergroup)
    assert len(boards(supergroup)) == 1
