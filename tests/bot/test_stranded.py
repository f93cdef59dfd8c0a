"""No player is left stranded (issue 28, item 8): when a group's board cannot be posted or a
player blocks the bot, every player of the match is told where to play, or the match ends
fairly, at once (no timer has to fire)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from bot.views.i18n import tr
from standin import Chat, Message, StandIn, User
from standin.players import (
    board_version,
    live_board,
    next_private_turn,
    play_turn,
    turn_actions,
    turn_board,
)
from standin.sim import Answer
from storage.models import MatchRow
from storage.results import MatchStatus
from tests.bot.conftest import Running
from tests.bot.helpers.delivery import boards, mover, players_in_a_group, up_to_the_last_tap
from tests.bot.helpers.private import deep_link_match


async def games_show(user: User, chat: Chat) -> Answer:
    """``user`` sends /games in ``chat`` and taps match 1's button; the tap's answer."""
    cmd = user.send(chat, "/games")
    listing = await chat.wait_for_bot_message(after=cmd)
    label = next(b.text for row in listing.buttons for b in row if b.text.startswith("#1 "))
    return await user.tap(listing, label)


def row_of(bot: Running) -> MatchRow:
    with bot.uc.db.sessions() as session:
        row = session.scalar(select(MatchRow).where(MatchRow.id == 1))
        assert row is not None
        session.expunge(row)
        return row


async def test_a_group_board_refused_asks_who_never_started_the_bot_to_start_it(
    standin: StandIn, bot: Running
) -> None:
    alice, bob, group, board = await players_in_a_group(standin, started=False)
    player, other = mover(board, alice, bob)
    # Given Telegram refuses the group's next board (403), while the group still reads text
    standin.inject_error("sendPhoto", 403, chat_id=group.id,
                         description="Forbidden: not enough rights to send photos")
    board, final = await up_to_the_last_tap(standin, player, group)
    await player.tap(board, final)
    # Then the group is told, both players mentioned, with a button that starts the bot
    notice: Message = await standin.wait_for(
        lambda: next((m for m in group.bot_messages() if "Match #1 cannot be played in this "
                      "group" in m.content), None), what="the notice in the group")
    assert notice.mentions(alice) and notice.mentions(bob)
    [start] = [b for row in notice.buttons for b in row]
    assert start.url == f"https://t.me/{standin.bot_username}?start=m1"
    # and the group's old board, whose buttons no longer count, is gone
    await standin.idle()
    assert boards(group) == []
    # and the match goes on in private chats
    assert (row_of(bot).status, row_of(bot).chat_id) == (MatchStatus.ACTIVE.value, None)
    # When the next player asks for the board with /games in the group
    answer = await games_show(other, group)
    # Then the answer opens the private chat, where START brings their board to play on
    assert answer.url == start.url
    other.follow(answer.url or "")
    await play_turn(standin, other, other.private, wait=False)
    # And the other player, following the group's button, gets the board and plays on
    player.follow(start.url or "")
    mine = await standin.wait_for(lambda: (b := live_board(player.private)) is not None
                                  and turn_actions(b) and b, what="the board in private")
    assert mine.has_keyboard
    await play_turn(standin, player, player.private, wait=False)
    assert row_of(bot).status == MatchStatus.ACTIVE.value


async def test_removed_from_the_group_a_match_no_board_can_reach_is_cancelled_and_said_so(
    standin: StandIn, bot: Running
) -> None:
    # Given a group match between Alice, who started the bot, and Bob, who never did
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    hello = alice.start_bot()
    await alice.private.wait_for_bot_message(after=hello)
    group, _board = await the_group_match(standin, alice, bob)
    # When the bot is removed from the group (nobody can tell Bob anything there)
    alice.remove_bot(group)
    await standin.idle()
    # Then the match is cancelled, counting for nobody, and Alice is told why
    row = row_of(bot)
    assert (row.status, row.end_reason, row.winner) == (MatchStatus.CANCELLED.value,
                                                        "unreachable", None)
    told = [m.content for m in alice.private.bot_messages() if "Match #1 is cancelled" in m.content]
    assert len(told) == 1 and "Bob never started the bot" in told[0]
    # and no board with buttons is left to her
    assert all(board_version(m) == -1 for m in alice.private.bot_messages())
    # And Bob, who starts the bot later, has no match waiting for a board
    hello = bob.start_bot()
    await bob.private.wait_for_bot_message(after=hello)
    cmd = bob.send(bob.private, "/games")
    reply = await bob.private.wait_for_bot_message(after=cmd)
    assert "no active match" in reply.text


async def the_group_match(standin: StandIn, alice: User, bob: User) -> tuple[Chat, Message]:
    from standin.players import start_group_match

    group = standin.group("Kafeneio", alice, bob)
    board = await start_group_match(standin, alice, bob, group, length="3 points")
    await standin.idle()
    return group, board


@pytest.mark.parametrize("who", ["mover", "waiting"])
async def test_a_player_who_blocks_the_bot_in_a_private_match_loses_it_and_the_other_is_told(
    standin: StandIn, bot: Running, who: str
) -> None:
    # Given a match played in private chats
    alice, bob, _ = await deep_link_match(standin)
    to_move, _board = await next_private_turn(standin, [alice, bob], 0)
    waiting = bob if to_move is alice else alice
    blocker, winner = (to_move, waiting) if who == "mover" else (waiting, to_move)
    before = (await bot.uc.load_match(1)).match
    assert before is not None
    # When one of them blocks the bot
    blocker.block_bot()
    # Then the match ends at once: they lose it, and the other's new board says why
    t = tr(winner.language_code)
    name = before.seats[before.seat_of(blocker.id) or 0].player.display_name  # type: ignore[union-attr]
    line = t._("{player} blocked the bot, so no board can reach them.", player=name)
    final = await standin.wait_for(
        lambda: (b := live_board(winner.private)) is not None and line in (b.caption or "")
        and b, what="the result on the other player's board")
    assert board_version(final) == -1
    row = row_of(bot)
    assert (row.status, row.end_reason) == (MatchStatus.ABANDONED.value, "blocked")
    assert row.winner == before.seat_of(winner.id)


async def test_a_player_who_blocks_the_bot_on_their_turn_plays_on_the_groups_board(
    standin: StandIn, bot: Running
) -> None:
    # Given a group match whose players started the bot: each plays their turn in private
    alice, bob, group, board = await players_in_a_group(standin, started=True)
    player, other = mover(board, alice, bob)
    assert await standin.wait_for(lambda: turn_board(player, group), what="the private board")
    # When the player to move blocks the bot during their turn
    player.block_bot()
    # Then the group's board is posted again, with the turn's buttons and them mentioned
    new = await standin.wait_for(
        lambda: (b := live_board(group)) is not None and b.message_id != board.message_id
        and turn_actions(b) and b, what="the group's board for the blocked player")
    assert new.mentions(player)
    assert (await bot.uc.get_player(player.id)).can_message is False  # type: ignore[union-attr]
    # And they play their turn there; the other player's turn follows in private
    await play_turn(standin, player, group)
    shown = live_board(group)
    assert shown is not None and shown.mentions(other)
    assert await standin.wait_for(lambda: turn_board(other, group), what="their private board")
