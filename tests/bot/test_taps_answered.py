"""A tap that changes only the keyboard (a checker chosen) gets its effect or a clear word,
never a quiet answer while nothing happens (issue 28, item 4): after a restart, on a board
posted twice after a lost response, while the delivery worker holds the place.

The players never started the bot, so they play on the group's board; the turn is played tap
by tap (no whole plays offered), so a checker with several destinations changes only the
keyboard."""

from __future__ import annotations

import os
import socket
from typing import Any

from bot.views.callbacks import Action, decode
from standin import Chat, Message, StandIn
from standin.players import live_board
from tests.bot.conftest import Running
from tests.bot.helpers.delivery import boards, mover, players_in_a_group, up_to_the_last_tap

HOLD = 6.0
"""How long the stand-in holds the worker's call (a slow Telegram): longer than a tap takes."""
READ_TIMEOUT = 2.5
"""Seconds the bot waits for an answer, where a send's answer comes after it gave up."""
UPDATING = "⏳ The board is being updated: your choice shows in a moment."


async def checker_with_choices(bot: Running, board: Message) -> tuple[str, int]:
    """A checker button on ``board`` whose checker has several destinations (choosing it
    changes only the keyboard), and its point."""
    from bot.views.turn_choices import destinations

    match = (await bot.uc.load_match(1)).match
    assert match is not None
    for row in board.buttons:
        for b in row:
            data = decode(b.callback_data)
            if data is not None and data.action is Action.FROM:
                src = data.int_arg()
                if len(destinations(match.state, src)) > 1:
                    return b.text, src
    raise AssertionError(f"no checker with several destinations: {board.button_texts}")


def shows_choice(board: Message | None, src: int) -> bool:
    """The board's keyboard offers the destinations of the checker on ``src`` (and the way
    back to the list)."""
    if board is None:
        return False
    data = [d for row in board.buttons for b in row if (d := decode(b.callback_data))]
    return (any(d.action is Action.BACK for d in data)
            and any(d.action is Action.MOVE and d.move()[0] == src for d in data))


async def the_choice_shows(standin: StandIn, group: Chat, src: int) -> Message:
    """The group's one live board ends up showing the checker chosen."""
    def shown() -> Message | None:
        live = boards(group)
        return live[0] if len(live) == 1 and shows_choice(live[0], src) else None
    return await standin.wait_for(shown, timeout=30, what="the choice on the board")  # type: ignore[no-any-return]


async def test_a_checker_chosen_while_the_worker_holds_the_place_shows_once_it_is_done(
    standin: StandIn, make_bot: Any
) -> None:
    bot: Running = await make_bot(plays_direct=0, group_moves=0)
    alice, bob, group, board = await players_in_a_group(standin, started=False)
    player, other = mover(board, alice, bob)
    board, final = await up_to_the_last_tap(standin, player, group)
    # Given the turn passed: the next player's board is posted, and the old one is being
    # deleted (a slow Telegram holds that call, and the worker holds the place meanwhile)
    standin.inject_delay("deleteMessage", HOLD, chat_id=group.id)
    player.tap(board, final)

    def deleting() -> Message | None:
        new = live_board(group)
        if new is None or new.message_id == board.message_id or not new.mentions(other):
            return None
        old = [m for m in boards(group) if m.message_id == board.message_id]
        return new if old and standin.requests_in_flight >= 1 else None
    new = await standin.wait_for(deleting, what="the new board, the old one being deleted")
    label, src = await checker_with_choices(bot, new)
    # When the next player chooses a checker on the new board
    answer = await other.tap(new, label)
    # Then the answer says the board is being updated, and the choice does show on it
    assert (answer.text, answer.show_alert) == (UPDATING, False)
    shown = await the_choice_shows(standin, group, src)
    assert shown.message_id == new.message_id


async def test_a_checker_chosen_on_a_board_posted_twice_shows_on_the_board_kept(
    standin: StandIn, make_bot: Any
) -> None:
    bot: Running = await make_bot(plays_direct=0, group_moves=0, read_timeout=READ_TIMEOUT)
    alice, bob, group, board = await players_in_a_group(standin, started=False)
    player, other = mover(board, alice, bob)
    board, final = await up_to_the_last_tap(standin, player, group)
    # Given the next board's send answered after the client gave up (it is sent again), and
    # the search for the first one's orphan slowed down, so both boards are seen for a while
    standin.inject_delay("sendPhoto", READ_TIMEOUT + 2.0, chat_id=group.id)
    standin.inject_delay("editMessageCaption", HOLD, chat_id=group.id)
    player.tap(board, final)

    def two() -> list[Message] | None:
        live = [m for m in boards(group) if m.message_id != board.message_id]
        return live if len(live) == 2 else None
    kept, orphan = await standin.wait_for(two, timeout=30, what="the board posted twice")
    assert orphan.caption == kept.caption and orphan.reply_markup == kept.reply_markup
    label, src = await checker_with_choices(bot, orphan)
    # When the next player chooses a checker on the newest-looking one, the orphan
    answer = await other.tap(orphan, label)
    # Then the answer says where the choice shows, and it shows on the board that is kept
    assert (answer.text, answer.show_alert) in (
        (UPDATING, False),
        ("This is an old copy of the board of match #1: play on the newest one, above. Your "
         "choice is shown there.", True))
    shown = await the_choice_shows(standin, group, src)
    assert shown.message_id == kept.message_id


NEW_BOARD = "A new board of match #1 comes in a moment, with your choice."
BELOW = ("This is an old copy of the board of match #1: play on the newest one, below. Your "
         "choice is shown there.")


async def test_after_a_restart_a_checker_chosen_shows_on_the_board_posted_again(
    standin: StandIn, make_bot: Any
) -> None:
    first: Running = await make_bot(plays_direct=0, group_moves=0)
    alice, bob, group, board = await players_in_a_group(standin, started=False)
    player, _other = mover(board, alice, bob)
    # Given the bot killed while it posted the board again (its place still claimed by that
    # run), and started again in the same container: the same process id, as process 1 is
    app = first.app
    await app.updater.stop()
    await app.stop()
    await app.post_stop(app)
    await first.uc.delivery.redeliver(1, seat=None, shared=True)
    dead = f"{socket.gethostname()}:{os.getpid()}:9999"
    assert len(await first.uc.delivery.claim_deliveries(dead, chat_key=str(group.id),
                                                        lease=600)) == 1
    bot: Running = await make_bot(plays_direct=0, group_moves=0)
    label, src = await checker_with_choices(bot, board)
    # When the player chooses a checker on the board they see, as the new run starts
    answer = await player.tap(board, label)
    # Then the answer says where the choice shows (the board is posted again: the dead
    # run's claim is let go at once), and it shows there
    assert (answer.text, answer.show_alert) in ((UPDATING, False), (NEW_BOARD, False),
                                                (BELOW, True))
    shown = await the_choice_shows(standin, group, src)
    assert shown.message_id > board.message_id
