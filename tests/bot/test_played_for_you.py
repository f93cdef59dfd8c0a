"""The first board a player acts on says what happened before it (issue 27, item 9): in Fevga
and Long Nardy a player's first turns are often forced and played for them, in between the
computer's replies; the board told only the computer's last play. It now tells the opening
roll, and which of the player's turns were played for them, with their plays."""

from __future__ import annotations

import hashlib
from typing import Any

from standin import StandIn
from standin.players import board_version, next_private_turn, play_turn
from tests.bot.conftest import Running


async def test_the_first_board_tells_the_opening_roll_and_the_turns_played_for_you(
        standin: StandIn, make_bot: Any) -> None:
    # a fixed seed: Alice's first two turns of this Fevga match are forced (checked below)
    bot: Running = await make_bot(plays_direct=0, seed=hashlib.sha256(b"fevga 3").digest())
    alice = standin.user("Alice", username="alice")
    hello = alice.start_bot()
    await alice.private.wait_for_bot_message(after=hello)
    cmd = alice.send(alice.private, "/new")
    card = await alice.private.wait_for_answer(cmd)
    await alice.tap(card, "Fevga")
    await standin.wait_for(lambda: "✔ Fevga" in card.refresh().button_texts, what="ticked")
    await alice.tap(card.refresh(), "🤖 Against the computer")
    await standin.wait_for(lambda: "✔ Medium" in card.refresh().button_texts, what="levels")
    await alice.tap(card.refresh(), "Easy")
    await standin.wait_for(lambda: "✔ Easy" in card.refresh().button_texts, what="easy")
    await alice.tap(card.refresh(), "1 point")
    await standin.wait_for(lambda: "▶ Start" in card.refresh().button_texts, what="Start")
    await alice.tap(card.refresh(), "▶ Start")
    _, board = await next_private_turn(standin, [alice], 0)
    await standin.idle()
    record = await bot.uc.match_record(1)
    assert record is not None
    mine = [turn for turn in record.turns if turn.player == 0]
    assert len(mine) >= 2 and all(turn.forced for turn in mine), \
        "the seed no longer gives two forced turns first: pick another"
    assert not record.turns[-1].forced  # the computer's reply was its own choice
    caption = board.refresh().caption
    lines = caption.splitlines()
    # the opening roll, then Alice's own turns, played for her
    a, b = record.games[0].opening or (0, 0)
    starter = "Alice" if a > b else "Computer"
    assert f"Game 1: Alice rolled {a}, Computer rolled {b}; {starter} starts." in lines, caption
    plays = "; ".join(f"{turn.dice}: {turn.text}" for turn in mine)
    assert f"Your turns 1–{len(mine)} were forced and played for you: {plays}" in lines, caption
    # and the computer's last play, then her turn, as before
    last = record.turns[-1]
    assert f"Computer played {last.dice}: {last.text}" in lines
    assert lines.index(f"Computer played {last.dice}: {last.text}") < lines.index(
        f"Your turn: {record.match.state.dice}")
    # once she has made a choice of her own, her next board no longer tells them
    await play_turn(standin, alice, alice.private, wait=False)
    _, later = await next_private_turn(standin, [alice], board_version(board))
    assert "played for you" not in later.caption and f"rolled {a}, Computer" not in later.caption


def test_a_shared_board_tells_each_player_whose_turns_were_all_played_for_them() -> None:
    from dataclasses import replace
    from datetime import UTC, datetime

    from bot.views.i18n import tr
    from bot.views.texts import Names, caption
    from rules.dice import Dice, RecordedDice
    from rules.match import Match
    from rules.moves import Move
    from storage.results import LoggedTurn

    match, _ = Match.new(1, game_type="fevga").start(RecordedDice([3, 2]))
    match = replace(match, turn_number=3, turn=0, dice=Dice(6, 2))
    at = datetime(2026, 1, 1, tzinfo=UTC)

    def logged(turn: int, player: int, dice: Dice, text: str, forced: bool) -> LoggedTurn:
        moves = tuple(Move(int(a), int(b), int(a) - int(b))
                      for a, b in (m.split("/") for m in text.split()))
        return LoggedTurn(1, turn, player, dice, moves, text, "", forced, at)

    log = [logged(1, 0, Dice(3, 2), "24/19", True), logged(2, 1, Dice(5, 4), "24/15", True),
           logged(3, 0, Dice(6, 1), "19/13", True), logged(4, 1, Dice(6, 6), "", False)]
    # Given Alice's two turns and Bob's one were all played for them, on the group's board
    text = caption(tr("en"), match, Names("Alice", "Bob"), viewer=None, game_log=log)
    # Then the opening roll, and each player's turns played automatically, are told
    lines = text.splitlines()
    assert "Game 1: Alice rolled 3, Bob rolled 2; Alice starts." in lines
    assert "Alice's turns 1–2 were forced and played automatically: 3-2: 24/19; 6-1: 19/13" \
        in lines
    assert ("Bob's turns 1–2 were forced and played automatically: 5-4: 24/15; 6-6: no move"
            in lines)  # a roll with no legal move is played for him too
    # once Bob has chosen a play of his own, only Alice's are told
    log.append(logged(5, 1, Dice(5, 3), "24/21 15/10", False))
    text = caption(tr("el"), match, Names("Alice", "Bob"), viewer=None, game_log=log)
    assert "Alice: οι σειρές 1–2 ήταν αναγκαστικές και παίχτηκαν αυτόματα: 3-2: 24/19; " \
        "6-1: 19/13" in text.splitlines()
    assert "Bob:" not in text
