"""Taps after the turn was played (issue 27, item 6): the last tap of a turn (Confirm, or a
whole play) is answered "Played", and until the new board comes a tap on the old board's
keyboard is told the new board is on its way, not "That button is from an earlier turn" (no
newer board exists yet). In a group where the players never started the bot (they play on
the group's board), with Telegram's limits on: those answers cost the group no call.

The new board is held back the way a busy group holds it: its first send fails (a 502) and
its retry waits on delivery's clock, which the test holds (``make_bot(wall=...)``)."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from bot.settings import RateLimits
from bot.views.callbacks import Action
from standin import Chat, StandIn, User
from standin.players import live_board, start_group_match, tap_and_wait, turn_actions
from tests.bot.helpers.budget import group_calls, throttled
from tests.bot.helpers.delivery import deleted, up_to_the_last_tap
from tests.bot.helpers.telegrams_clock import on_telegrams_clock
from tests.clocks import Wall

PLAYED = "✅ Played."
ON_ITS_WAY = "✅ Played: the new board is on its way."
EARLIER = "That button is from an earlier turn; use the newest board."


async def limited_bot(standin: StandIn, make_bot: Any, wall: Wall, plays_direct: int,
                      seed: bytes | None = None) -> Any:
    """The bot as shipped (its rates), against a stand-in enforcing Telegram's limits; its
    limiter counts on the stand-in's clock, and a wait for room moves that clock on (once the
    taps in hand are answered: :mod:`tests.bot.helpers.telegrams_clock`)."""
    standin.set_flood_limits()
    running = await make_bot(rate=RateLimits(), wall=wall, plays_direct=plays_direct, seed=seed)
    on_telegrams_clock(standin, running)
    return running


async def turn_with_the_new_board_held(
    standin: StandIn, bot: Any, wall: Wall, mover: User, group: Chat, *, again: bool
) -> tuple[list[str | None], list[bool], list[str]]:
    """The mover taps through their turn to its last tap; the group's next board is held
    back; the last tap is made (and, with ``again``, the old board's buttons tapped after
    it); then the board is let through. The answers, whether each was an alert, and the
    group's calls from the last tap on."""
    board, final = await up_to_the_last_tap(standin, mover, group)
    await standin.idle()
    # a game played at leisure: the group's minute is free, so its next board is a new
    # message below (in a busy group it is this one edited: tests/bot/test_busy_group_board.py)
    standin.advance_clock(61.0)
    before = len(group_calls(standin, group))
    standin.inject_error("sendPhoto", 502, chat_id=group.id, description="Bad Gateway")
    taps = [(board, final)]
    answer = await mover.tap(board, final)
    answers, alerts = [answer.text], [answer.show_alert]
    await standin.wait_for(lambda: standin.calls("sendPhoto", chat_id=group.id, ok=False),
                           what="the new board's first try")
    await standin.idle()
    if again:  # the old board still shows its keyboard: its buttons tapped again
        others = [b.text for row in board.refresh().buttons for b in row
                  if b.callback_data and b.text != final]
        taps = [(board, final)] + [(board, text) for text in others[:1]]
        for tapped, text in taps:
            answer = await mover.tap(tapped.refresh(), text)
            answers.append(answer.text)
            alerts.append(answer.show_alert)
        await standin.idle()
        # nothing was sent to the group for them: the old board as it was
        assert len(group_calls(standin, group)) == before
        assert live_board(group).message_id == board.message_id  # type: ignore[union-attr]
    delivery = bot.app.bot_data["portes"].delivery
    # the worker is done with the group's chat: the retry is scheduled (on the wall clock,
    # from its time then; moved before that, the wall would put the retry past this advance)
    await standin.wait_for(lambda: str(group.id) not in delivery.running,
                           what="the new board's retry scheduled")
    wall.advance(1.0)  # the new board's retry is due
    await delivery.poll()
    await standin.wait_for(lambda: live_board(group).message_id != board.message_id,  # type: ignore[union-attr]
                           timeout=30, what="the new board")
    await standin.wait_for(lambda: deleted(board), timeout=30, what="the old board taken down")
    await standin.idle(quiet=0.3)
    return answers, alerts, group_calls(standin, group)[before:]


@pytest.mark.parametrize(("last", "plays_direct"), [("Confirm", 0), ("a whole play", 1000)])
async def test_taps_after_a_turn_was_played_say_so_and_cost_the_group_nothing(
    standin: StandIn, make_bot: Any, last: str, plays_direct: int
) -> None:
    wall = Wall()
    bot = await limited_bot(standin, make_bot, wall, plays_direct)
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)  # neither started the bot
    board = await start_group_match(standin, alice, bob, group, "5 points")
    mover, other = (alice, bob) if board.mentions(alice) else (bob, alice)
    # When the mover ends the turn and, before the new board comes, taps the old board's
    # last button again and then another of its buttons
    answers, alerts, calls = await turn_with_the_new_board_held(standin, bot, wall, mover,
                                                                group, again=True)
    # Then the last tap is answered "Played", each later tap that the new board is on its
    # way (a toast, not an alert), and neither is "an earlier turn"
    assert answers == [PLAYED, ON_ITS_WAY, ON_ITS_WAY], answers
    assert alerts == [False, False, False]
    assert live_board(group).mentions(other)  # type: ignore[union-attr]
    # and the taps cost the group nothing: the next turn, played without them, makes the
    # same calls there
    _, _, plain = await turn_with_the_new_board_held(standin, bot, wall, other, group,
                                                     again=False)
    assert calls == plain, (calls, plain)
    assert throttled(standin) == []
    # once the new board is there, a tap on a button of the old one's kind is refused on it:
    # the old board is gone (deleted), so nothing of it is left to tap
    assert all(m.photo_bytes is None or m.message_id == live_board(group).message_id  # type: ignore[union-attr]
               for m in group.bot_messages() if m.has_keyboard)
    assert EARLIER not in answers


async def test_a_tap_on_a_board_whose_move_is_still_to_show_says_it_is_updated(
    standin: StandIn, make_bot: Any
) -> None:
    """Within a turn: a move made on the group's board, whose edit is held back; another of
    the old keyboard's buttons tapped meanwhile is told the board is being updated (a toast)."""
    wall = Wall()
    # a fixed seed: the opening roll (4-3) gives the checkers on 24 two destinations; with
    # some rolls (5-2: 24 can only go to 22, then 13 and 8 one each) every checker has one,
    # moved at once, and the loop below never finds a choice to hold back
    bot = await limited_bot(standin, make_bot, wall, plays_direct=0,
                            seed=hashlib.sha256(b"several destinations").digest())
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)
    board = await start_group_match(standin, alice, bob, group, "5 points")
    mover = alice if board.mentions(alice) else bob
    await standin.idle()
    for attempt in range(12):  # a checker chosen: its destinations offered (each a move)
        board = live_board(group)
        assert board is not None
        actions = turn_actions(board)
        if actions.get(Action.MOVE):
            break
        # a checker with one destination moved at once: another one, or the move undone
        tap = (actions[Action.FROM][attempt % len(actions[Action.FROM])] if actions.get(Action.FROM)
               else actions[Action.UNDO][0])
        assert await tap_and_wait(standin, mover, board, tap) is None
    else:
        raise AssertionError("no checker with several destinations: pick another seed")
    moves = actions[Action.MOVE]
    standin.inject_error("editMessageMedia", 502, chat_id=group.id, description="Bad Gateway")
    first = await mover.tap(board, moves[0])
    await standin.wait_for(lambda: standin.calls("editMessageMedia", chat_id=group.id,
                                                 ok=False), what="the board's edit tried")
    await standin.idle()
    assert board.refresh().reply_markup == board.reply_markup  # the old keyboard, still
    again = await mover.tap(board.refresh(), moves[-1])
    assert first.text is None and not first.show_alert
    assert again.text == "⏳ This board is being updated: the new one is on its way."
    assert not again.show_alert
    wall.advance(1.0)
    await bot.app.bot_data["portes"].delivery.poll()
    await standin.wait_for(lambda: board.refresh().edit_count > board.edit_count, timeout=30,
                           what="the board edited")
