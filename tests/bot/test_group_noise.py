"""A group where someone plays on the group's board (issue 27, items 5 and 8): a player who
never started the bot plays there, every tap an edit in a group that gets 20 calls a minute.
The group's calls go first to what players wait for: a command's answer before the board's
queued edits, taps that waited collapsed into one edit, one call per tap and nothing more per
turn (no new board and deletion of the old one at every turn, which notified every member). The
match's end reveals the dice seed in a few words, every roll one tap away in private; a group's
admins can make the bot quiet there. Played against a stand-in enforcing Telegram's limits,
with the bot's rates as shipped: no call is ever answered 429."""

from __future__ import annotations

from typing import Any

from bot.views.callbacks import Action
from standin import Chat, Message, StandIn, User
from standin.players import live_board, play_turn, start_group_match, start_the_bot, turn_actions
from tests.bot.helpers.budget import (
    bob_on_the_group_board,
    group_calls,
    spend_the_minute,
    taps_answered,
    telegram_limits,
    throttled,
    to_move,
)


def silent(call: Any) -> bool:
    """Whether a send asked Telegram not to notify (the flag as it came over HTTP)."""
    return str(call.params.get("disable_notification")).lower() in ("true", "1")


def sources(board: Message) -> list[str]:
    return turn_actions(board).get(Action.FROM, [])




async def test_a_turn_on_the_group_board_costs_a_call_per_tap_and_waiting_taps_collapse(
        standin: StandIn, make_bot: Any) -> None:
    # plays_direct=0, group_moves=0: every turn is tapped checker by checker (a checker, then
    # its destination), so each turn has several taps
    running, gate, alice, bob, _carol, group, card = await bob_on_the_group_board(
        standin, make_bot, plays_direct=0, group_moves=0)
    # Given Bob's taps wait for the group's budget (19 calls in its minute: the board's
    # share while nobody asked anything there, one kept for an answer)
    board = live_board(group)
    assert board is not None and board.mentions(bob)
    first, second = sources(board)[:2]
    await spend_the_minute(standin, running, group, card, 19)
    before = len(group_calls(standin, group))
    gate.close()
    # When he picks one checker, then another, on the same board, before it could change
    answers = [await bob.tap(board, first).wait(10), await bob.tap(board, second).wait(10)]
    assert not any(a is not None and a.show_alert for a in answers), answers
    await standin.wait_for(lambda: gate.waiting > 0, what="the board's edit to wait")
    gate.open()
    await standin.wait_for(lambda: board.refresh().edit_count > board.edit_count,
                           what="the board edited")
    await standin.idle()
    # Then the board was edited once, with the latest choice: the second checker's moves
    assert group_calls(standin, group)[before:] == ["editMessageReplyMarkup"]
    shown = board.refresh()
    assert all(t.startswith(f"{second} →") for t in turn_actions(shown).get(Action.MOVE, []))
    assert turn_actions(shown).get(Action.MOVE)
    # And a whole turn costs the group one call per tap on its board, and nothing else: no
    # new board at each turn, no deletion of the old one (Alice's turn, on her private
    # board, is one edit of the group's)
    for _ in range(4):
        mover = to_move(group, alice, bob)
        calls, taps = len(group_calls(standin, group)), taps_answered(standin)
        await play_turn(standin, mover, group)
        await standin.idle()
        made = group_calls(standin, group)[calls:]
        if mover is bob:
            assert 0 < len(made) <= taps_answered(standin) - taps, made
            assert set(made) <= {"editMessageMedia", "editMessageReplyMarkup",
                                 "editMessageCaption"}, made
        else:
            assert made == ["editMessageMedia"], made
    assert len([m for m in group.bot_messages() if m.photo_bytes]) == 1
    assert throttled(standin) == []


async def test_a_command_in_a_busy_group_is_answered_before_the_boards_queued_edit(
        standin: StandIn, make_bot: Any) -> None:
    running, gate, _alice, bob, carol, group, card = await bob_on_the_group_board(
        standin, make_bot)
    board = live_board(group)
    assert board is not None
    # Given the group's minute nearly spent (19 of its 20 calls: the board's while nobody
    # asked anything, one kept for an answer), Bob's tap waits for room
    await spend_the_minute(standin, running, group, card, 19)
    start = len(standin.calls(chat_id=group.id))
    gate.close()
    by_action = turn_actions(board)
    tap = next(iter(by_action.get(Action.PLAY) or by_action.get(Action.MOVE)
                    or by_action.get(Action.FROM) or []))
    answer = await bob.tap(board, tap).wait(10)
    assert answer is None or not answer.show_alert
    # When Carol asks for the rules meanwhile
    asked = carol.send(group, "/rules")
    try:
        await standin.wait_for(lambda: any(m.message_id > asked.message_id and m.text
                                           for m in group.bot_messages()),
                               timeout=10, what="the answer to /rules")
    finally:
        gate.open()
    await standin.wait_for(lambda: board.refresh().edit_count > board.edit_count
                           or live_board(group) != board, what="the board's edit")
    await standin.idle()
    # Then the answer went out first, the board's change after it (an edit, or, the board
    # now being above the answer, a new one in its place)
    order = [c.method for c in standin.calls(chat_id=group.id)[start:]
             if c.ok and c.method.lower().startswith(("send", "edit", "delete"))]
    assert order[0] == "sendMessage" and "sendMessage" not in order[1:], order
    assert any(m.startswith(("editMessage", "sendPhoto")) for m in order[1:]), order
    assert throttled(standin) == []


async def test_a_player_on_the_group_board_gets_no_notifying_board_each_turn(
        standin: StandIn, make_bot: Any) -> None:
    _running, _gate, alice, bob, _carol, group, _card = await bob_on_the_group_board(
        standin, make_bot)
    board = live_board(group)
    assert board is not None
    # the group's board says how to play in private: one Start, a link to the bot
    links = [b.url for row in board.buttons for b in row if b.url]
    assert links == [f"https://t.me/{standin.bot_username}?start=m1"]
    for _ in range(6):
        await play_turn(standin, to_move(group, alice, bob), group)
    await standin.idle()
    # one board in the group, posted once (notifying: the match began), edited since
    posts = [c for c in standin.calls("sendPhoto", chat_id=group.id, ok=True)]
    assert len(posts) == 1 and not silent(posts[0])
    assert standin.calls("deleteMessage", chat_id=group.id) == []
    assert len([m for m in group.bot_messages() if m.photo_bytes]) == 1
    assert throttled(standin) == []


async def resign_the_match(standin: StandIn, group: Chat, who: User) -> None:
    cmd = who.send(group, "/resign")
    menu = await group.wait_for_bot_message(after=cmd)
    await who.tap(menu, next(b for b in menu.button_texts if b.startswith("🏳")))


def seed_messages(chat: Chat) -> list[Message]:
    return [m for m in chat.bot_messages() if "🔐 The dice seed was" in m.content]


async def test_the_groups_reveal_is_short_and_every_roll_is_one_tap_away(
        standin: StandIn, make_bot: Any) -> None:
    running, _gate, alice, bob, _carol, group, _card = await bob_on_the_group_board(
        standin, make_bot)
    await resign_the_match(standin, group, alice)
    short = await standin.wait_for(lambda: next(iter(seed_messages(group)), None),
                                   what="the seed revealed")
    fair = await running.uc.fairness(1)
    assert fair is not None and fair.seed_hex is not None
    # in the group: the seed, in a few words; no command, no list of rolls
    assert fair.seed_hex in short.content and len(short.content) < 300
    assert "fairdice" not in short.content and "Game 1" not in short.content
    [[button]] = short.buttons
    assert button.url == f"https://t.me/{standin.bot_username}?start=seed1"
    # one tap: Bob (who never started the bot) gets the whole reveal in private
    opened = bob.follow(button.url)
    full = await standin.wait_for(lambda: next(
        (m for m in seed_messages(bob.private) if m.message_id > opened.message_id), None),
        what="the whole reveal")
    assert fair.seed_hex in full.content and "python -m rules.common.fairdice" in full.content
    assert "The rolls, in order:" in full.content and "Game 1: " in full.content
    # asked again: not sent twice, he is told where it is
    again = bob.follow(button.url)
    told = await bob.private.wait_for_bot_message(after=again)
    assert "sent to you in this chat already" in told.content
    await standin.idle()
    assert len([m for m in seed_messages(bob.private) if "The rolls" in m.content]) == 1
    assert throttled(standin) == []


async def test_a_groups_admin_can_quiet_it_and_a_member_cannot(
        standin: StandIn, make_bot: Any) -> None:
    running, _gate = await telegram_limits(standin, make_bot)
    alice = standin.user("Alice", username="alice")  # the group's creator
    bob = standin.user("Bob", username="bob")
    await start_the_bot(alice)
    group = standin.group("Kafeneio", alice, bob)
    # a member cannot
    cmd = bob.send(group, "/quiet on")
    refused = await group.wait_for_bot_message(after=cmd)
    assert "Only the group's admins" in refused.content
    assert not await running.uc.chat_quiet(group.id)
    # an admin can
    cmd = alice.send(group, "/quiet on")
    done = await group.wait_for_bot_message(after=cmd)
    assert done.content.startswith("🔕")
    assert await running.uc.chat_quiet(group.id)
    # then the group's boards come silently, and the seed goes to the players in private
    await start_group_match(standin, alice, bob, group, "1 point")
    await standin.idle()
    posts = standin.calls("sendPhoto", chat_id=group.id, ok=True)
    assert posts and all(silent(c) for c in posts)
    await resign_the_match(standin, group, bob)
    full = await standin.wait_for(lambda: next(iter(seed_messages(alice.private)), None),
                                  what="the seed, in Alice's private chat")
    assert "The rolls, in order:" in full.content
    await standin.idle()
    assert seed_messages(group) == []
    # and an admin can make it loud again, a minute later (within the minute the match just
    # spent the group's share of answers: a command then is shed, its sender told in private)
    standin.advance_clock(61.0)
    cmd = alice.send(group, "/quiet off")
    back = await group.wait_for_bot_message(after=cmd)
    assert back.content.startswith("🔔") and not await running.uc.chat_quiet(group.id)
