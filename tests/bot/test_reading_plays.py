"""Typed plays, read and answered (issue 27, item 13): an answer replies to the play it is about,
a refused play is answered with the dice and one legal play, and a play typed in a group (a
reply to the bot, or a mention) is told where plays are typed."""

from __future__ import annotations

import re

from standin import StandIn
from standin.players import live_board, start_group_match, start_the_bot
from tests.bot.conftest import Running


async def test_a_refused_play_is_answered_with_the_dice_and_a_legal_play(
        standin: StandIn, bot: Running) -> None:
    # Given a group match whose players started the bot (they play in private)
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    await start_the_bot(alice, bob)
    group = standin.group("Kafeneio", alice, bob)
    board = await start_group_match(standin, alice, bob, group, "3 points")
    mover = alice if board.mentions(alice) else bob
    await standin.wait_for(lambda: live_board(mover.private), what="the mover's board")
    await standin.idle()
    before = (await bot.uc.load_match(1)).match
    assert before is not None
    # When the mover types something that is not a play, then a play that is not legal
    sent = mover.send(mover.private, "hello")
    answer = await mover.private.wait_for_bot_message(after=sent)
    # Then each answer replies to the message it is about
    assert answer.reply_to_message_id == sent.message_id
    sent = mover.send(mover.private, "1/off 1/off")
    answer = await mover.private.wait_for_bot_message(after=sent)
    assert answer.reply_to_message_id == sent.message_id
    # And the refusal says the dice and one legal play, in notation
    found = re.search(r"Your dice: (.+)\. A legal play: (.+)$", answer.text)
    assert found is not None, answer.text
    assert found.group(1) == str(before.state.dice)
    # which, typed, is played
    mover.send(mover.private, found.group(2))
    await standin.wait_for(
        lambda: (b := live_board(group)) is not None and found.group(2) in b.caption,
        what="the example play on the group's board")
    after = (await bot.uc.load_match(1)).match
    assert after is not None and after.state.turn != before.state.turn


async def test_a_play_typed_in_a_group_is_told_where_to_type_it(
        standin: StandIn, bot: Running) -> None:
    # Given a group match of players who never started the bot
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)
    board = await start_group_match(standin, alice, bob, group, "3 points")
    mover = alice if board.mentions(alice) else bob
    await standin.idle()
    version = (await bot.uc.load_match(1)).match.version  # type: ignore[union-attr]
    # When the mover replies to the board with a play, and mentions the bot with one
    for send in (lambda: mover.reply(group, board, "13/7 8/3"),
                 lambda: mover.send(group, f"@{standin.bot_username} 24/18 13/11")):
        sent = send()
        answer = await group.wait_for_bot_message(after=sent)
        # Then the bot answers there, replying: plays are typed in the private chat, a button
        # leads there (to the board of this match)
        assert answer.reply_to_message_id == sent.message_id
        assert answer.text.startswith("Plays are typed in our private chat")
        (button,) = answer.buttons[0]
        assert button.url == f"https://t.me/{standin.bot_username}?start=m1"
    # And a reply to the board that is not a play gets nothing; nothing was played
    chat = mover.reply(group, board, "nice dice")
    await standin.idle()
    assert not any(m.message_id > chat.message_id and (m.text or "").startswith("Plays are")
                   for m in group.bot_messages())
    assert (await bot.uc.load_match(1)).match.version == version  # type: ignore[union-attr]
