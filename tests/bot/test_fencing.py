"""Two instances on one database (issue 14): a delivery worker whose lease runs out in the middle
of a slow send is fenced off by the instance that takes its place over, and a late copy of a
tap that only changes the keyboard does not put an old keyboard back over a newer board.

The second instance runs in this process without polling: its delivery worker and timers run,
and a test hands it the updates it should handle."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

import pytest
from telegram import Update
from telegram.ext import Application

from bot.app import build_application
from bot.settings import Timeouts
from bot.views.callbacks import Action, decode
from bot.views.turn_choices import destinations
from standin import Chat, Message, StandIn, User
from standin.players import (
    board_version,
    live_board,
    play_turn,
    start_group_match,
    turn_actions,
)
from storage.db import Database
from storage.results import TimerPolicy
from storage.usecases import UseCases
from tests.bot.conftest import Clock, Running, settings_for

LEASE = 1.0
SLOW = 4.0
"""A send this slow outlives the lease (another instance, polling every second, takes the
place over meanwhile) but not the client's 5 s read timeout."""


@asynccontextmanager
async def other_instance(standin: StandIn, db_url: str, clock: Clock,
                         **changes: Any) -> AsyncIterator[Application]:  # type: ignore[type-arg]
    """A second bot instance on the same database, not polling for updates."""
    settings = settings_for(standin, db_url, **changes)
    db = Database.from_url(db_url)
    app = build_application(settings, usecases=UseCases(db, timers=TimerPolicy(), clock=clock),
                            migrate=False)
    await app.initialize()
    assert app.post_init is not None
    await app.post_init(app)
    await app.start()
    try:
        yield app
    finally:
        await app.stop()
        if app.post_stop is not None:
            await app.post_stop(app)
        await app.shutdown()
        if app.post_shutdown is not None:
            await app.post_shutdown(app)
        await db.dispose()


def boards_with_buttons(chat: Chat) -> list[Message]:
    return [m for m in chat.bot_messages() if m.photo_bytes is not None and m.has_keyboard]


async def group_match(standin: StandIn) -> tuple[User, User, Chat, Message]:
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)
    board = await start_group_match(standin, alice, bob, group)
    mover, other = (alice, bob) if board.mentions(alice) else (bob, alice)
    return mover, other, group, board


async def test_a_send_that_outlives_its_lease_leaves_one_live_board(
        standin: StandIn, make_bot: Any, db_url: str, clock: Clock,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bot.delivery.worker")
    short = replace(Timeouts(timer_poll=0.2), delivery_lease=LEASE)
    await make_bot(timeouts=short)  # handles the updates; delivers its own actions
    async with other_instance(standin, db_url, clock, timeouts=short):
        mover, other, group, _ = await group_match(standin)
        # Given Telegram answers the group's next new board slowly, longer than the lease
        standin.inject_delay("sendPhoto", SLOW, chat_id=group.id)
        # When the mover ends their turn (the board for the other is posted anew)
        await play_turn(standin, mover, group, wait=False)
        # Then the other instance takes the place over and posts the board itself, the slow
        # worker is refused once its send returns and deletes what it posted
        await standin.wait_for(lambda: "the place was taken over" in caplog.text,
                               timeout=SLOW + 10, what="the slow worker to be fenced off")
        await standin.idle(quiet=1.0, timeout=20)
        [board] = boards_with_buttons(group)
        assert board.mentions(other)
        # and its buttons work: the other player plays on it, and one board is left
        await play_turn(standin, other, group)
        await standin.idle(quiet=1.0, timeout=20)
        [after] = boards_with_buttons(group)
        assert after.mentions(mover)


def several_ways(board: Message, state: Any) -> str:
    """A checker button whose checker has several destinations (its tap changes only the
    keyboard)."""
    for row in board.buttons:
        for b in row:
            data = decode(b.callback_data)
            if (data is not None and data.action is Action.FROM
                    and len(destinations(state, data.int_arg())) > 1):
                return b.text
    raise AssertionError(f"no checker with several destinations: {board.button_texts}")


async def test_a_late_copy_of_a_checker_tap_does_not_bring_back_an_old_keyboard(
        standin: StandIn, make_bot: Any, db_url: str, clock: Clock) -> None:
    first: Running = await make_bot(plays_direct=0, group_moves=0)
    async with other_instance(standin, db_url, clock, plays_direct=0, group_moves=0) as second:
        mover, _other, group, board = await group_match(standin)
        mv = (await first.uc.load_match(1)).match
        assert mv is not None
        # Given the mover's tap on a checker is handled by the second instance (it shows the
        # checker's destinations), and Telegram keeps a copy of that update
        assert first.app.updater is not None
        await first.app.updater.stop()
        await standin.idle(quiet=0.3)
        tapped = mover.tap(board, several_ways(board, mv.state))
        [tap] = standin.take_updates()
        await second.process_update(Update.de_json(tap, second.bot))
        await tapped
        await standin.wait_for(lambda: Action.MOVE in turn_actions(board.refresh()),
                               what="the destinations")
        # When the mover goes on on the first instance (a destination: a step is played)
        await first.app.updater.start_polling(poll_interval=0, timeout=1)
        await mover.tap(board.refresh(), turn_actions(board.refresh())[Action.MOVE][0])
        stepped = mv.version + 1
        await standin.wait_for(lambda: board_version(live_board(group) or board) >= stepped,
                               what="the board after the step")
        await standin.idle(quiet=0.5)
        shown = live_board(group)
        assert shown is not None
        before = (shown.message_id, shown.reply_markup)
        # and the copy of the checker tap reaches the second instance late
        await second.process_update(Update.de_json({**tap, "update_id": tap["update_id"] + 10**6},
                                                   second.bot))
        await standin.idle(quiet=0.5)
        # Then the board keeps the keyboard of the step (not the older one with the checker's
        # destinations), and its buttons carry the match's version
        shown = live_board(group)
        assert shown is not None
        assert (shown.message_id, shown.reply_markup) == before
        now = (await first.uc.load_match(1)).match
        assert now is not None and board_version(shown) == now.version
