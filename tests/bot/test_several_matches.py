"""Several private matches at once: a typed play and /resign go to the match the player means,
or the bot asks which (one button per match, with the opponent and the score)."""

from __future__ import annotations

from bot.views.callbacks import Action, decode
from standin import StandIn, User
from standin.players import tap_and_wait
from tests.bot.conftest import Running
from tests.bot.helpers.several import (
    a_legal_play,
    alice_to_move,
    board_of,
    challenge_by_link,
    is_text,
    version,
)


async def alice_played(bot: Running, alice: User, match_id: int, before: int) -> bool:
    """Alice's turn in this match was played (the match moved past ``before``, her turn)."""
    mv = (await bot.uc.load_match(match_id)).match
    return mv is not None and mv.version > before and mv.to_act != mv.seat_of(alice.id)


async def tap_a_checker(standin: StandIn, alice: User, match_id: int) -> None:
    """A tap on the board: the first checker offered (a "from" button)."""
    board = board_of(alice, match_id)
    assert board is not None
    choice = next(b.text for row in board.buttons for b in row
                  if (data := decode(b.callback_data)) is not None and data.action is Action.FROM)
    assert await tap_and_wait(standin, alice, board, choice) is None


async def test_a_typed_play_goes_to_the_match_meant_or_the_bot_asks(
        standin: StandIn, bot: Running) -> None:
    alice, bob, carol = (standin.user("Alice"), standin.user("Bob"), standin.user("Carol"))
    hello = alice.start_bot()
    await alice.private.wait_for_bot_message(after=hello)
    m1 = await challenge_by_link(standin, bot, alice, bob)
    m2 = await challenge_by_link(standin, bot, alice, carol)
    await alice_to_move(standin, bot, alice, m1, bob)
    await alice_to_move(standin, bot, alice, m2, carol)

    # 1. Both matches wait for Alice and she touched neither board: the bot asks
    v1, v2 = await version(bot, m1), await version(bot, m2)
    play = await a_legal_play(bot, m2)
    typed = alice.send(alice.private, play)
    question = await alice.private.wait_for_bot_message(after=typed, predicate=is_text)
    assert question.text == f"Which match is {play} for?"
    assert question.reply_to_message_id == typed.message_id
    assert sorted(question.button_texts) == [f"#{m1} · Bob · 0–0/3", f"#{m2} · Carol · 0–0/3"]
    await standin.idle()
    assert (await version(bot, m1), await version(bot, m2)) == (v1, v2)  # nothing applied
    await alice.tap(question, f"#{m2} · Carol · 0–0/3")
    await standin.wait_for(lambda: question.refresh().text == f"Match #{m2}: {play}")
    assert await alice_played(bot, alice, m2, v2)
    assert await version(bot, m1) == v1
    # the question replies to her message: its id is recorded as her last typed play, so a
    # copy of it delivered again is not played again
    assert await bot.uc.last_typed(alice.id) == typed.message_id
    record = await bot.uc.match_record(m2)
    assert record is not None and record.turns[-1].player == record.match.seat_of(alice.id)

    # 2. Alice taps a checker on match 1's board; then Carol plays and match 2's new board
    # comes to Alice: which match she means next is no longer clear, so the bot asks again
    play = await a_legal_play(bot, m1)
    await tap_a_checker(standin, alice, m1)
    await alice_to_move(standin, bot, alice, m2, carol)
    v1, v2 = await version(bot, m1), await version(bot, m2)
    typed = alice.send(alice.private, play)
    question = await alice.private.wait_for_bot_message(after=typed, predicate=is_text)
    assert question.text == f"Which match is {play} for?"
    await alice.tap(question, f"#{m1} · Bob · 0–0/3")
    await standin.wait_for(lambda: question.refresh().text == f"Match #{m1}: {play}")
    assert await alice_played(bot, alice, m1, v1) and await version(bot, m2) == v2

    # 3. Bob plays; both wait for Alice again. She taps a checker on match 2's board, then
    # types a play: it goes to match 2, the board she last touched, without a question
    await alice_to_move(standin, bot, alice, m1, bob)
    play = await a_legal_play(bot, m2)
    await tap_a_checker(standin, alice, m2)
    v1, v2 = await version(bot, m1), await version(bot, m2)
    typed = alice.send(alice.private, play)
    await standin.idle()
    assert await alice_played(bot, alice, m2, v2) and await version(bot, m1) == v1
    assert not [m for m in alice.private.bot_messages()
                if m.message_id > typed.message_id and m.text and "Which match" in m.text]

    # 4. Carol plays (match 2's board comes back: Alice last touched match 2, so it stays
    # meant); a play typed as a reply to match 1's board goes to match 1 all the same
    await alice_to_move(standin, bot, alice, m2, carol)
    play = await a_legal_play(bot, m1)
    board = board_of(alice, m1)
    assert board is not None
    v1, v2 = await version(bot, m1), await version(bot, m2)
    alice.reply(alice.private, board, play)
    await standin.idle()
    assert await alice_played(bot, alice, m1, v1) and await version(bot, m2) == v2


async def test_resign_asks_which_match_when_several_could_be_meant(
        standin: StandIn, bot: Running) -> None:
    alice, bob, carol = (standin.user("Alice"), standin.user("Bob"), standin.user("Carol"))
    hello = alice.start_bot()
    await alice.private.wait_for_bot_message(after=hello)
    m1 = await challenge_by_link(standin, bot, alice, bob)
    m2 = await challenge_by_link(standin, bot, alice, carol)
    cmd = alice.send(alice.private, "/resign")
    question = await alice.private.wait_for_bot_message(after=cmd, predicate=is_text)
    assert question.text == "Which match do you want to resign?"
    assert sorted(question.button_texts) == [f"#{m1} · Bob · 0–0/3", f"#{m2} · Carol · 0–0/3"]
    await alice.tap(question, f"#{m2} · Carol · 0–0/3")
    card = await standin.wait_for(
        lambda: (q := question.refresh()).text.startswith(f"Match #{m2} against") and q,
        what="the resignation card")
    await alice.tap(card, "🏳 Resign the match")
    await standin.wait_for(lambda: any("Carol wins the match" in (m.caption or "")
                                       for m in carol.private.bot_messages()),
                           what="Carol's win")
    assert [s.id for s in await bot.uc.list_active_matches(alice.id)] == [m1]
    # one match left: /resign offers it at once
    await standin.idle()  # the end of match 2 (seed, review) told first
    cmd = alice.send(alice.private, "/resign")
    card = await alice.private.wait_for_bot_message(
        after=cmd, predicate=lambda m: bool(m.text) and m.text.startswith("Match #"))
    assert card.text.startswith(f"Match #{m1} against")
    assert "🏳 Resign the match" in card.button_texts


async def test_resign_follows_the_board_last_touched(standin: StandIn, bot: Running) -> None:
    alice, bob, carol = (standin.user("Alice"), standin.user("Bob"), standin.user("Carol"))
    hello = alice.start_bot()
    await alice.private.wait_for_bot_message(after=hello)
    m1 = await challenge_by_link(standin, bot, alice, bob)
    m2 = await challenge_by_link(standin, bot, alice, carol)
    await alice_to_move(standin, bot, alice, m1, bob)
    await alice_to_move(standin, bot, alice, m2, carol)
    await tap_a_checker(standin, alice, m1)
    cmd = alice.send(alice.private, "/resign")
    card = await alice.private.wait_for_bot_message(after=cmd, predicate=is_text)
    assert card.text.startswith(f"Match #{m1} against")
