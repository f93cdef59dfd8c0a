"""Group play at Telegram's limits (issue 10, case 7): a group gets about 20 calls a minute,
sends, edits and deletions alike, so a group's board changes once per turn. A player who
started the bot plays their turns on a private board; one who never did plays on the group's
board. Played against a stand-in that enforces Telegram's flood limits, with the bot's
default rate settings: no call is ever answered 429."""

from __future__ import annotations

from typing import Any

from standin import Chat, StandIn, User
from standin.players import live_board, play_turn, start_group_match, start_the_bot, turn_board
from tests.bot.helpers.budget import group_calls, telegram_limits, throttled


def to_move(standin: StandIn, group: Chat, alice: User, bob: User) -> User:
    board = live_board(group)
    assert board is not None
    return alice if board.mentions(alice) else bob


async def test_players_who_started_the_bot_play_privately_and_the_group_board_changes_once_a_turn(
    standin: StandIn, make_bot: Any
) -> None:
    await telegram_limits(standin, make_bot)
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    await start_the_bot(alice, bob)
    group = standin.group("Kafeneio", alice, bob)
    first = await start_group_match(standin, alice, bob, group, "5 points")
    # the group's board says where the mover plays, and links there
    mover = to_move(standin, group, alice, bob)
    assert "private chat" in first.caption
    [[link]] = first.buttons
    assert link.url is not None and link.url.endswith("?start=m1") and not link.callback_data
    await standin.idle()
    before = len(group_calls(standin, group))
    turns = 3
    for _ in range(turns):
        mover = to_move(standin, group, alice, bob)
        mine = await standin.wait_for(lambda m=mover: turn_board(m, group), what="a board")
        assert mine.chat_id == mover.id  # taps go to the private board
        await play_turn(standin, mover, group)
        # the turn passed: the mover's own board keeps the position, without buttons
        assert not live_board(mover.private).has_keyboard  # type: ignore[union-attr]
    await standin.idle()
    calls = group_calls(standin, group)[before:]
    # one edit of the group's board per turn (the image with the play), nothing else
    assert calls == ["editMessageMedia"] * turns, calls
    assert len([m for m in group.bot_messages() if m.photo_bytes]) == 1
    assert throttled(standin) == []
    # the player to move now has exactly one live board in private, with the turn's buttons
    mover = to_move(standin, group, alice, bob)
    boards = [m for m in mover.private.bot_messages() if m.photo_bytes and m.has_keyboard]
    assert len(boards) == 1


async def test_a_player_who_never_started_the_bot_plays_on_the_group_board(
    standin: StandIn, make_bot: Any
) -> None:
    await telegram_limits(standin, make_bot)
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    await start_the_bot(alice)  # Bob never does
    group = standin.group("Kafeneio", alice, bob)
    await start_group_match(standin, alice, bob, group, "5 points")
    seen = {"Alice": 0, "Bob": 0}
    for _ in range(3):
        mover = to_move(standin, group, alice, bob)
        board = live_board(group)
        assert board is not None
        if mover is bob:
            # his turn is played on the group's board: a new message that mentions him
            assert turn_board(bob, group) is not None and board.has_keyboard
            assert "👉" in board.caption and "private chat" not in board.caption
        else:
            assert "private chat" in board.caption
        seen[mover.first_name] += 1
        await play_turn(standin, mover, group)
    await standin.idle()
    assert seen["Alice"] and seen["Bob"]
    assert throttled(standin) == []
    # one live board in the group (older ones deleted), none left with turn buttons
    live = [m for m in group.bot_messages() if m.photo_bytes]
    assert len(live) == 1
    assert not bob.private.bot_messages()


async def test_the_private_board_link_brings_the_board_back(
    standin: StandIn, make_bot: Any
) -> None:
    await make_bot()
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    await start_the_bot(alice, bob)
    group = standin.group("Kafeneio", alice, bob)
    await start_group_match(standin, alice, bob, group)
    mover = to_move(standin, group, alice, bob)
    other = bob if mover is alice else alice
    first = await standin.wait_for(lambda: live_board(mover.private), what="the board")
    await standin.idle()  # (a request to post it again while it is being posted is that post)
    # the group's link (a deep link) posts the mover's board again, the old one retired
    hello = mover.send(mover.private, "/start m1")
    again = await standin.wait_for(
        lambda: (b := live_board(mover.private)) is not None
        and b.message_id != first.message_id and b, what="the board again")
    assert again.has_keyboard and again.message_id > hello.message_id
    # for the player who waits, it says where the match is played
    asked = other.send(other.private, "/start m1")
    reply = await other.private.wait_for_bot_message(after=asked)
    assert "played in its group" in reply.content


async def test_a_play_typed_in_the_private_chat_goes_to_the_group_match(
    standin: StandIn, make_bot: Any
) -> None:
    from rules.portes.notation import format_play

    running = await make_bot()
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    await start_the_bot(alice, bob)
    group = standin.group("Kafeneio", alice, bob)
    first = await start_group_match(standin, alice, bob, group)
    mover = to_move(standin, group, alice, bob)
    await standin.wait_for(lambda: live_board(mover.private), what="the private board")
    await standin.idle()
    match = (await running.uc.load_match(1)).match
    assert match is not None and match.state.dice is not None
    state = match.state
    play = state.legal_plays()[0]
    mover.send(mover.private, format_play(state.position, state.dice, play.moves))
    # the play is the group match's: its board shows the turn passed
    await standin.wait_for(lambda: first.refresh().edit_count > first.edit_count,
                           what="the group's board edited")
    after = (await running.uc.load_match(1)).match
    assert after is not None and after.version > match.version
