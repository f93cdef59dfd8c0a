"""A player who never started the bot plays on the group's board (issue 27, item 5): every tap
there is a call in a group that gets 20 a minute, so a turn there takes as few taps as it can.
Every move is a button at once (no checker to choose first, which was an edit of its own), and
the move that completes the play ends the turn (the board's interim state and the next turn's
board are one edit). A turn on the group's board costs the group one call per tap, one or two
a turn, where it cost a keyboard edit per checker, an edit per move and one for Confirm; and
whatever waits for the group's budget, what the group's board shows in the end is the
database's latest state (an edit superseded by a later state is never sent). Played against a
stand-in enforcing Telegram's limits, with the bot's rates as shipped: no call answered 429."""

from __future__ import annotations

import hashlib
from typing import Any

from bot.views.board_image import SHARED_SIDE, Look, draw_board_async
from bot.views.callbacks import Action
from standin import Chat, Message, StandIn, User
from standin.players import (
    board_version,
    live_board,
    play_turn,
    tap_and_wait,
    turn_actions,
)
from tests.bot.conftest import Running
from tests.bot.helpers.budget import (
    bob_on_the_group_board,
    group_calls,
    spend_the_minute,
    taps_answered,
    throttled,
    to_move,
)

SEED = hashlib.sha256(b"issue 27 item 5: a turn on the group's board").digest()


async def shows_the_latest(running: Running, group: Chat, alice: User, bob: User) -> None:
    """The group's one board is the database's latest state: its picture, and the turn's
    buttons at the match's version when the mover plays there (else the private chat's link)."""
    mv = (await running.uc.load_match(1)).match
    assert mv is not None
    boards = [m for m in group.bot_messages() if m.photo_bytes]
    assert len(boards) == 1, [b.caption for b in boards]
    board = boards[0]
    assert board.uploaded_bytes == await draw_board_async(
        mv.state, SHARED_SIDE, Look.shared("en"), ("Alice", "Bob"))
    if board.mentions(bob):
        assert board_version(board) == mv.version, (board.button_texts, mv.version)
    else:
        assert board.mentions(alice) and board_version(board) == -1, board.button_texts


async def test_a_turn_on_the_group_board_costs_a_call_or_two_and_the_board_is_the_latest(
        standin: StandIn, make_bot: Any) -> None:
    running, _gate, alice, bob, _carol, group, _card = await bob_on_the_group_board(
        standin, make_bot, seed=SEED)
    costs: dict[str, list[int]] = {"Alice": [], "Bob": []}
    taps: list[int] = []
    for _ in range(10):
        mover = to_move(group, alice, bob)
        calls, answered = len(group_calls(standin, group)), taps_answered(standin)
        await play_turn(standin, mover, group)
        await standin.idle()
        made = group_calls(standin, group)[calls:]
        costs[mover.first_name].append(len(made))
        if mover is bob:
            taps.append(taps_answered(standin) - answered)
            assert set(made) <= {"editMessageMedia"}, made  # no keyboard-only edit
        await shows_the_latest(running, group, alice, bob)
    # a turn of Bob's on the group's board: one call per tap, one or two taps (a move, and
    # the one that completes the play); Alice's turn, in private: one edit of the group's
    assert costs["Bob"] == taps and all(1 <= n <= 2 for n in costs["Bob"]), (costs, taps)
    assert all(n == 1 for n in costs["Alice"]), costs
    turns = len(costs["Alice"]) + len(costs["Bob"])
    assert sum(costs["Alice"]) + sum(costs["Bob"]) <= 1.5 * turns, costs
    assert throttled(standin) == []


def private_turn(alice: User) -> Message | None:
    board = live_board(alice.private)
    turn = {Action.FROM, Action.MOVE, Action.PLAY, Action.CONFIRM}
    return board if board is not None and set(turn_actions(board)) & turn else None


async def alice_plays_in_private(standin: StandIn, alice: User) -> None:
    """Alice's whole turn on her private board, Telegram's clock moved on 4 s before each tap
    (her chat's few seconds free again; a call that would wait for room waits at the gate)."""
    for _ in range(12):
        board = await standin.wait_for(lambda: private_turn(alice), what="her private board")
        by_action = turn_actions(board)
        final = next(iter(by_action.get(Action.CONFIRM) or by_action.get(Action.PLAY) or []), None)
        choice = final or next(iter(by_action.get(Action.MOVE) or by_action.get(Action.FROM) or []))
        standin.advance_clock(4.0)
        if final is not None:
            answer = await alice.tap(board, final)
            assert answer is None or not answer.show_alert, answer
            return
        assert await tap_and_wait(standin, alice, board, choice) is None
    raise AssertionError("a turn took more than 12 taps")


async def test_an_edit_superseded_while_it_waits_for_the_budget_is_never_sent(
        standin: StandIn, make_bot: Any) -> None:
    running, gate, alice, bob, _carol, group, card = await bob_on_the_group_board(
        standin, make_bot, seed=SEED)
    board = live_board(group)
    assert board is not None and board.mentions(bob)
    while not (set(turn_actions(board)) & {Action.CONFIRM, Action.PLAY}):  # up to its last tap
        by_action = turn_actions(board)
        tap = (by_action.get(Action.MOVE) or by_action[Action.FROM])[0]
        await tap_and_wait(standin, bob, board, tap)
        await standin.idle()
        board = live_board(group)
        assert board is not None
    # Given the group's minute spent (the board's 19 calls), Bob's last tap waits for room
    await spend_the_minute(standin, running, group, card, 19)
    before = len(group_calls(standin, group))
    gate.close()
    by_action = turn_actions(board)
    final = next(iter(by_action.get(Action.CONFIRM) or by_action.get(Action.PLAY) or []))
    answer = await bob.tap(board, final).wait(10)
    assert answer is not None and "Played" in (answer.text or ""), answer
    await standin.wait_for(lambda: gate.waiting > 0, what="the group's edit to wait")
    # When Alice plays her whole turn in private meanwhile
    await alice_plays_in_private(standin, alice)
    gate.open()
    await standin.wait_for(lambda: (b := live_board(group)) is not None and b.mentions(bob)
                           and board_version(b) > board_version(board), what="Bob's turn")
    await standin.idle()
    # Then the group's board was edited once, straight to Bob's next turn: the state between
    # (Bob's play, Alice to move) was superseded while it waited, and never sent
    assert group_calls(standin, group)[before:] == ["editMessageMedia"]
    await shows_the_latest(running, group, alice, bob)
    assert throttled(standin) == []
