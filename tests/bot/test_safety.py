"""Safety: only the player to move moves; stale, forged and double taps change nothing; Telegram
errors are retried or repaired and never lose a move."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from bot.views.callbacks import Action, decode, encode, move_arg
from standin import Message, StandIn, User
from standin.players import live_board, start_group_match
from tests.bot.conftest import Running


async def group_match(standin: StandIn) -> tuple[User, User, Message]:
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)
    return alice, bob, await start_group_match(standin, alice, bob, group)


def mover_of(board: Message, alice: User, bob: User) -> tuple[User, User]:
    return (alice, bob) if board.mentions(alice) else (bob, alice)


def first_button(board: Message, action: Action) -> str:
    for row in board.buttons:
        for b in row:
            if (data := decode(b.callback_data)) is not None and data.action is action:
                return b.text
    raise AssertionError(f"no {action.name} button in {board.button_texts}")


async def first_move(standin: StandIn, bot: Running, mover: User,
                     board: Message) -> tuple[int, int, Any, str]:
    """Match 1's version, the first checker offered on ``board`` that has a choice of
    destinations, its first destination, and the data of that destination's button: the
    mover taps the checker, and the board's keyboard then shows that button."""
    from bot.views.turn_choices import destinations

    match = (await bot.uc.load_match(1)).match
    assert match is not None
    checkers = [d.int_arg() for row in board.buttons for b in row
                if (d := decode(b.callback_data)) is not None and d.action is Action.FROM]
    src = next(c for c in checkers if len(destinations(match.state, c)) > 1)
    dest = destinations(match.state, src)[0]
    data = encode(Action.MOVE, 1, match.version, move_arg(src, dest.to_point)
                  + (f"-{dest.route}" if dest.route else ""))
    assert not (await mover.tap_data(board, encode(Action.FROM, 1, match.version, src))).show_alert
    await standin.wait_for(lambda: data in {b.callback_data for row in board.refresh().buttons
                                            for b in row}, what="the checker's destinations")
    return match.version, src, dest, data


@pytest.fixture
def no_errors(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.WARNING)
    return caplog


def assert_no_errors(caplog: pytest.LogCaptureFixture) -> None:
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


async def test_only_the_player_to_move_can_move(
    standin: StandIn, bot: Running, no_errors: pytest.LogCaptureFixture
) -> None:
    alice, bob, board = await group_match(standin)
    _mover, other = mover_of(board, alice, bob)
    before = (await bot.uc.load_match(1)).match
    answer = await other.tap(board, board.button_texts[0])
    assert answer.show_alert and answer.text == "It is not your turn."
    stranger = standin.user("Kostas")
    standin.join(standin.chat(board.chat_id), stranger)
    answer = await stranger.tap_data(board, board.buttons[0][0].callback_data or "")
    assert answer.show_alert and "not playing" in answer.text
    after = (await bot.uc.load_match(1)).match
    assert before is not None and after is not None and after.version == before.version
    assert_no_errors(no_errors)


async def test_forged_malformed_and_stale_callbacks_change_nothing(
    standin: StandIn, bot: Running, no_errors: pytest.LogCaptureFixture
) -> None:
    alice, bob, board = await group_match(standin)
    mover, _ = mover_of(board, alice, bob)
    version = (await bot.uc.load_match(1)).match.version  # type: ignore[union-attr]
    for data in ("garbage", "x" * 64,  # not our data's shape at all
                 encode(Action.MOVE, 1, 999, move_arg(24, 18)),  # a version never reached
                 encode(Action.MOVE, 1, 0, move_arg(24, 18)),  # a version long gone
                 encode(Action.MOVE, 1, version, move_arg(24, 1)),  # not a legal move
                 encode(Action.MOVE, 99, version, move_arg(24, 18)),  # no such match
                 encode(Action.FROM, 1, version, 3),  # no checker of the mover's there
                 encode(Action.PLAY, 1, version, 77),  # no such play
                 encode(Action.FROM, 1, version, "xx")):  # not a point
        answer = await mover.tap_data(board, data)
        assert answer.show_alert, data
    assert (await bot.uc.load_match(1)).match.version == version  # type: ignore[union-attr]
    assert_no_errors(no_errors)


async def test_a_double_tap_applies_once(
    standin: StandIn, make_bot: Any, no_errors: pytest.LogCaptureFixture
) -> None:
    bot: Running = await make_bot(plays_direct=0, group_moves=0)
    alice, bob, board = await group_match(standin)
    mover, _ = mover_of(board, alice, bob)
    # a move tapped twice at once (the first legal destination of that checker)
    version, src, dest, move_data = await first_move(standin, bot, mover, board)
    answers = await asyncio.gather(mover.tap_data(board, move_data),
                                   mover.tap_data(board, move_data))
    # the second tap repeats the move just applied: answered quietly, not with a modal alert
    assert [a.show_alert for a in answers] == [False, False]
    assert all(not a.text for a in answers)
    match = (await bot.uc.load_match(1)).match
    assert match is not None and match.state.chosen == dest.moves
    # a third, late, tap of the same button is still that repeat: quiet
    assert not (await mover.tap_data(board, move_data)).show_alert
    # any other tap on the old keyboard changes nothing: refused with the alert, or, while
    # the board's edit is still to come, told so (issue 27, item 6)
    other = encode(Action.FROM, 1, version, src)
    answer = await mover.tap_data(board, other)
    assert (answer.show_alert and "earlier turn" in (answer.text or "")) or (
        not answer.show_alert and "being updated" in (answer.text or "")), answer
    assert (await bot.uc.load_match(1)).match.version == match.version  # type: ignore[union-attr]
    assert_no_errors(no_errors)


async def test_both_players_tapping_at_once(
    standin: StandIn, bot: Running, no_errors: pytest.LogCaptureFixture
) -> None:
    alice, bob, board = await group_match(standin)
    data = board.buttons[0][0].callback_data or ""
    answers = await asyncio.gather(alice.tap_data(board, data), bob.tap_data(board, data))
    assert sum(1 for a in answers if a.show_alert) == 1
    assert_no_errors(no_errors)


async def test_the_opponent_tapping_the_button_just_applied_is_told_it_is_not_theirs(
    standin: StandIn, make_bot: Any, no_errors: pytest.LogCaptureFixture
) -> None:
    # The mover's tap was applied; a moment later the opponent taps the same button (same
    # data, same version): that is not an honest double tap, it gets the alert.
    bot: Running = await make_bot(plays_direct=0, group_moves=0)
    alice, bob, board = await group_match(standin)
    mover, other = mover_of(board, alice, bob)
    version, _, _, move_data = await first_move(standin, bot, mover, board)
    assert not (await mover.tap_data(board, move_data)).show_alert
    after = (await bot.uc.load_match(1)).match.version  # type: ignore[union-attr]
    assert after > version
    answer = await other.tap_data(board, move_data)
    assert answer.show_alert and answer.text
    assert (await bot.uc.load_match(1)).match.version == after  # type: ignore[union-attr]
    assert_no_errors(no_errors)


async def test_undo_takes_back_a_move(standin: StandIn, make_bot: Any) -> None:
    bot: Running = await make_bot(plays_direct=0, group_moves=0)
    alice, bob, board = await group_match(standin)
    mover, _ = mover_of(board, alice, bob)
    await mover.tap(board, first_button(board, Action.FROM))

    def actions() -> set[Action]:
        return {d.action for row in board.refresh().buttons for b in row
                if (d := decode(b.callback_data)) is not None}

    await standin.wait_for(lambda: Action.MOVE in actions() or Action.UNDO in actions())
    if Action.UNDO not in actions():
        await mover.tap(board.refresh(), first_button(board.refresh(), Action.MOVE))
        await standin.wait_for(lambda: Action.UNDO in actions())
    assert "So far:" in board.refresh().caption
    await mover.tap(board.refresh(), "⟲ Undo")
    await standin.wait_for(lambda: Action.UNDO not in actions())
    match = (await bot.uc.load_match(1)).match
    assert match is not None and match.state.chosen == ()
    assert "So far:" not in board.refresh().caption


async def test_429_and_5xx_are_retried_and_the_move_is_kept(
    standin: StandIn, bot: Running, no_errors: pytest.LogCaptureFixture
) -> None:
    alice, bob, board = await group_match(standin)
    mover, _ = mover_of(board, alice, bob)
    standin.inject_error("sendPhoto", 429, retry_after=1, times=1)
    standin.inject_error("sendPhoto", 502, times=1, description="Bad Gateway")
    match = (await bot.uc.load_match(1)).match
    assert match is not None
    # play the turn with whole plays or taps until Confirm
    from standin.players import play_turn

    await play_turn(standin, mover, standin.chat(board.chat_id), wait=False)
    group = standin.chat(board.chat_id)
    new = await standin.wait_for(
        lambda: (b := live_board(group)) is not None and b.message_id != board.message_id
        and b, timeout=15, what="the next board despite the errors")
    assert new
    after = (await bot.uc.load_match(1)).match
    assert after is not None and after.version > match.version
    sends = standin.calls("sendPhoto")
    assert [c.ok for c in sends][-3:] == [False, False, True]
    assert_no_errors(no_errors)


async def test_a_player_who_blocked_the_bot_does_not_stop_a_group_match(
    standin: StandIn, bot: Running, no_errors: pytest.LogCaptureFixture
) -> None:
    alice, bob, board = await group_match(standin)
    for user in (alice, bob):
        user.start_bot()
        user.block_bot()
    mover, _ = mover_of(board, alice, bob)
    from standin.players import play_turn

    await play_turn(standin, mover, standin.chat(board.chat_id))
    assert_no_errors(no_errors)


async def test_rematch_only_once_and_only_when_finished(
    standin: StandIn, bot: Running, no_errors: pytest.LogCaptureFixture
) -> None:
    alice, bob, board = await group_match(standin)
    group = standin.chat(board.chat_id)
    # the first board shows the value mixed into the dice, before any die of a turn is used
    mix = (await bot.uc.load_match(1)).match.mix  # type: ignore[union-attr]
    assert mix and f"mixed with {mix}" in board.caption
    # Rematch on the active match (the board has no such button): refused, nothing opened
    answer = await alice.tap_data(board, encode(Action.REMATCH, 1, 0))
    assert answer.show_alert and answer.text == ("This button is not on this message; use the "
                                                 "buttons it shows now.")
    assert await bot.uc.get_challenge(2) is None
    cmd = alice.send(group, "/resign")
    menu = await group.wait_for_bot_message(after=cmd)
    await alice.tap(menu, "🏳 Resign the match")
    final = await standin.wait_for(
        lambda: (b := live_board(group)) is not None and "wins the match" in b.caption and b,
        what="the end")
    # five taps at once, then five in a row: one challenge, one card
    answers = list(await asyncio.gather(*(u.tap(final, "🔁 Rematch")
                                          for u in (alice, bob, alice, bob, alice))))
    for user in (bob, alice, bob, alice, bob):
        answers.append(await user.tap(final, "🔁 Rematch"))
    assert not any(a.show_alert for a in answers)
    assert sum(a.text == "Rematch offered." for a in answers) == 1
    assert sum(a.text == "A rematch of this match has already been offered." for a in answers) == 9
    await standin.idle(quiet=0.3)
    cards = [m for m in group.bot_messages() if "🎲 Accept" in m.button_texts]
    assert len(cards) == 1
    assert await bot.uc.get_challenge(2) is not None and await bot.uc.get_challenge(3) is None
    assert_no_errors(no_errors)
