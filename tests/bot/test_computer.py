"""Matches against the computer through the bot: /new, the computer's turns, hints, resignation
offers, reviews at the end of every match, a restart, and a bot that keeps answering while the
computer thinks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.computer_player import ComputerSide, decisions_from_record
from bot.views.callbacks import Action, decode, encode
from rules.position import legal_plays
from standin import Message, StandIn
from standin.players import board_version, live_board, next_private_turn, play_turn
from storage.results import MatchStatus
from tests.bot.conftest import Running
from tests.bot.helpers.computer import start_computer_match
from tests.bot.helpers.private import deep_link_match
from tests.bot.helpers.slow_player import SlowPlayer


def side_of(bot: Running) -> ComputerSide:
    value = bot.app.bot_data["portes"].computer
    assert isinstance(value, ComputerSide)
    return value


def callback_actions(board: Message) -> set[Action]:
    return {data.action for row in board.buttons for b in row
            if (data := decode(b.callback_data)) is not None}




async def test_a_full_match_against_the_computer(standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    await start_computer_match(standin, alice)
    version = 0
    captions: list[str] = []
    hinted = False
    for _ in range(300):
        _, board = await next_private_turn(standin, [alice], version)
        captions.append(board.caption or "")
        if "wins the match" in (board.caption or ""):
            break
        version = board_version(board)
        if not hinted and Action.HINT in callback_actions(board):
            answer = await alice.tap(board, "💡 Hint")
            assert answer is not None and answer.show_alert
            assert "Best play" in (answer.text or "") and "Win" in (answer.text or "")
            hinted = True
        await play_turn(standin, alice, alice.private, wait=False)
    else:
        raise AssertionError("the match did not end")
    assert hinted, "no Hint button was offered"
    # the computer's plays are shown like a person's, in notation
    assert any("Computer played" in c or "Computer rolled" in c for c in captions)
    record = await bot.uc.match_record(1)
    assert record is not None and record.match.status == MatchStatus.FINISHED
    assert any(t.player == 1 and t.moves for t in record.turns)  # the computer moved
    assert record.match.seats[1].is_computer
    # every decision of the match is rebuilt from the move log (what reviews read): each turn's
    # position, dice and a play legal there (checked on this match, not on another played out)
    decisions = decisions_from_record(record)
    assert len(decisions) == len(record.turns)
    for d in decisions:
        assert d.play.position in {p.position for p in legal_plays(d.position, d.dice)}
        assert d.context.match_length == 1
    # the review arrives at match end
    review = await standin.wait_for(
        lambda: next((m for m in alice.private.bot_messages() if "Review of match #1" in m.content),
                     None), timeout=30, what="the review")
    assert "decision" in review.content and "luck" in review.content
    assert "Computer" in review.content
    # and again on request, from the end-of-match board
    final = live_board(alice.private)
    assert final is not None and "📊 Review" in final.button_texts
    count = sum("Review of match #1" in m.content for m in alice.private.bot_messages())
    await alice.tap(final, "📊 Review")
    await standin.wait_for(
        lambda: sum("Review of match #1" in m.content
                    for m in alice.private.bot_messages()) > count, what="the review again")
    # and from /review, which lists the finished matches
    cmd = alice.send(alice.private, "/review")
    listing = await alice.private.wait_for_bot_message(after=cmd)
    assert "#1" in listing.text and any("📊 #1" in b for b in listing.button_texts)


async def test_no_hint_between_people(standin: StandIn, bot: Running) -> None:
    alice, bob, _ = await deep_link_match(standin)
    mover, board = await next_private_turn(standin, [alice, bob], 0)
    assert Action.HINT not in callback_actions(board)
    assert not any("Hint" in text or "Υπόδειξη" in text for text in board.button_texts)
    # a forged Hint tap is refused: the board has no such button
    answer = await mover.tap_data(board, encode(Action.HINT, 1, board_version(board)))
    assert answer is not None and answer.show_alert
    assert any(s in (answer.text or "") for s in ("not on this message",
                                                  "δεν είναι σε αυτό το μήνυμα"))


async def test_review_after_a_match_between_people(standin: StandIn, bot: Running) -> None:
    alice, bob, _ = await deep_link_match(standin, "1 point")
    version = 0
    for _ in range(4):
        mover, board = await next_private_turn(standin, [alice, bob], version)
        version = board_version(board)
        await play_turn(standin, mover, mover.private, wait=False)
    cmd = alice.send(alice.private, "/resign")
    menu = await alice.private.wait_for_bot_message(  # not the last turn's board, if later
        after=cmd, predicate=lambda m: "🏳 Resign the match" in m.button_texts)
    await alice.tap(menu, "🏳 Resign the match")
    for user, title in ((alice, "Review of match #1"), (bob, "Ανάλυση του αγώνα #1")):
        review = await standin.wait_for(
            lambda u=user, s=title: next(  # type: ignore[misc]
                (m for m in u.private.bot_messages() if s in m.content), None),
            timeout=30, what=f"{user.first_name}'s review")
        assert "Alice" in review.content and "Βασίλης" in review.content


async def test_the_computer_answers_resignation_offers(standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    await start_computer_match(standin, alice, length="1 point")
    await next_private_turn(standin, [alice], 0)
    # in a 1-point match one point wins the match: the computer accepts at once
    cmd = alice.send(alice.private, "/resign")
    menu = await alice.private.wait_for_bot_message(after=cmd)
    await alice.tap(menu, "Game: 1 point")
    final = await standin.wait_for(
        lambda: (b := live_board(alice.private)) is not None and "wins the match" in b.caption
        and b, what="the end")
    assert "Computer wins the match" in final.caption


async def test_the_computer_declines_a_cheap_offer(bot: Running) -> None:
    """Offered 1 point when it is about to win a backgammon (and so a 3-point match), the
    computer declines; offered 3, it accepts."""
    from dataclasses import replace

    from rules.match import Match, Phase
    from rules.position import Dice, Position

    # from the offerer's side (to move): 15 checkers on their 20 point, inside the computer's
    # home; the computer has 2 checkers left, on its 1 point (the offerer's 24), 13 off
    board = [0] * 26
    board[20] = 15
    board[24] = -2
    state = replace(Match.new(3), phase=Phase.RESIGN_OFFERED, resign_offer=1, turn=0,
                    position=Position(board), dice=Dice(1, 2))
    side = side_of(bot)
    assert not await side.accepts_resignation(state)
    assert await side.accepts_resignation(replace(state, resign_offer=3))


async def test_the_bot_answers_while_the_computer_thinks(standin: StandIn, bot: Running,
                                                         tmp_path: Path) -> None:
    side = side_of(bot)
    thinking, release = tmp_path / "thinking", tmp_path / "think no more"
    side.players[1] = SlowPlayer(str(thinking), str(release))  # type: ignore[assignment]
    try:
        alice, bob, _ = await deep_link_match(standin, "1 point")
        human_mover, _ = await next_private_turn(standin, [alice, bob], 0)
        dora = standin.user("Dora", username="dora")
        await start_computer_match(standin, dora)
        # wait until the computer is the one to play in Dora's match
        version = 0
        for _ in range(20):
            match = (await bot.uc.load_match(2)).match
            assert match is not None
            if match.computer_to_act:
                break
            _, board = await next_private_turn(standin, [dora], version)
            version = board_version(board)
            await play_turn(standin, dora, dora.private, wait=False)
            await standin.wait_for(
                lambda v=version: (m := bot.app.bot_data["portes"].views.get(2)) is not None
                and m.version > v, what="Dora's play committed")
        match = (await bot.uc.load_match(2)).match
        assert match is not None and match.computer_to_act
        thinking_since = match.version
        # the computer thinks until it is let go; meanwhile the people's taps are answered
        await standin.wait_for(thinking.exists, what="the computer to start thinking")
        before = (await bot.uc.load_match(1)).match
        assert before is not None
        await play_turn(standin, human_mover, human_mover.private, wait=False)
        await standin.wait_for(
            lambda: (m := bot.app.bot_data["portes"].views.get(1)) is not None
            and m.version > before.version,
            what="the person's play committed while the computer thinks")
        still = (await bot.uc.load_match(2)).match
        assert still is not None and still.version == thinking_since, "the computer did not wait"
    finally:
        release.touch()  # and once it is let go, the computer's move arrives
    await standin.wait_for(
        lambda: (m := bot.app.bot_data["portes"].views.get(2)) is not None
        and m.version > thinking_since, timeout=15, what="the computer's move")


async def test_pending_computer_turns_are_resumed_at_start(
        standin: StandIn, make_bot: Any, db_url: str) -> None:
    from storage.db import Database
    from storage.usecases import UseCases

    alice = standin.user("Alice", username="alice")
    alice.start_bot()
    db = Database.from_url(db_url)
    uc = UseCases(db)
    await uc.upsert_player(alice.id, "Alice", username="alice", can_message=True)
    # a match against the computer, left with the computer to act (the bot was not running)
    match = None
    for _ in range(20):
        created = await uc.create_challenge(alice.id, length=1, computer_level=1)
        assert created.challenge is not None
        res = await uc.accept_challenge(created.challenge.id, alice.id, mix="resume-test")
        assert res.match is not None
        match = res.match
        if match.computer_to_act:
            break
        await uc.resign_match(match.id, alice.id)
    assert match is not None and match.computer_to_act
    await db.dispose()
    # the bot starts: it plays the computer's pending turn and shows Alice her board
    bot: Running = await make_bot()
    uc = bot.uc
    await standin.wait_for(
        lambda: (b := live_board(alice.private)) is not None and "Computer" in b.caption
        and b, timeout=15, what="Alice's board after the computer's resumed turn")
    after = (await uc.load_match(match.id)).match
    assert after is not None and after.version > match.version

