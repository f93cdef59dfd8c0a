"""The other games of tavli end to end (issue 15): Plakoto, Fevga and Long Nardy played by taps to
the end, the tavli match rotating Portes -> Plakoto -> Fevga, a typed play, the computer, and taps
that must change nothing."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from bot.views import texts
from bot.views.callbacks import Action, encode, move_arg
from bot.views.i18n import tr
from standin import Chat, Message, StandIn, User
from standin.players import board_version, live_board, next_private_turn, play_turn
from tests.bot.conftest import Running
from tests.bot.helpers.tavli import challenge, private_game, resign_game
from tests.storage.gnubg import gnubg_path, gnubg_score


async def group_game(standin: StandIn, game: str, length: str = "1 point"
                     ) -> tuple[User, User, Chat, Message]:
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)
    card = await challenge(standin, alice, group, game, length)
    assert f"challenges anyone to {game}" in card.text
    await bob.tap(card, "🎲 Accept")
    board = await standin.wait_for(lambda: live_board(group), what="the first board")
    return alice, bob, group, board


async def play_group_match(standin: StandIn, alice: User, bob: User, group: Chat) -> Message:
    """Both players tap their turns in the group until the match is won; the last board."""
    board = await standin.wait_for(lambda: live_board(group), what="a board")
    turns = 0
    while "wins the match" not in board.caption:
        mover = alice if board.mentions(alice) else bob
        await play_turn(standin, mover, group)
        board = await standin.wait_for(lambda: live_board(group), what="a board")
        turns += 1
        assert turns < 800
    return board


@pytest.mark.long
async def test_a_plakoto_match_in_a_group_is_played_by_taps_to_the_end(
        standin: StandIn, bot: Running) -> None:
    alice, bob, group, board = await group_game(standin, "Plakoto")
    assert board.caption.startswith("🎲 Plakoto") and "match to 1" in board.caption
    # the board is a Plakoto board: the game's name is drawn on it
    assert board.image().size[0] >= 800
    # /rules in the group shows the rules of the game being played
    cmd = alice.send(group, "/rules")
    rules = await group.wait_for_bot_message(after=cmd)
    assert "Plakoto" in rules.text and "mother" in rules.text
    final = await play_group_match(standin, alice, bob, group)
    assert "Plakoto" in final.caption
    # a rematch and a review (every game is reviewed now)
    assert "🔁 Rematch" in final.button_texts and "📊 Review" in final.button_texts
    record = await bot.uc.match_record(1)
    assert record is not None and record.match.state.game_type == "plakoto"
    assert max(record.match.state.score) >= 1
    assert all(r.game_key == "plakoto" for r in record.match.state.results)
    # the seed is revealed as for Portes (in the group, one line; the rest a tap away)
    await standin.wait_for(lambda: any("🔐 The dice seed was" in m.content
                                       for m in group.bot_messages()), what="the seed")


@pytest.mark.long
async def test_a_long_nardy_match_in_a_group_is_played_to_the_end(
        standin: StandIn, make_bot: Any) -> None:
    bot: Running = await make_bot(plays_direct=40)
    alice, bob, group, board = await group_game(standin, "Long Nardy")
    assert board.caption.startswith("🎲 Long Nardy")
    await play_group_match(standin, alice, bob, group)
    record = await bot.uc.match_record(1)
    assert record is not None and record.match.state.game_type == "nardy"
    assert record.match.state.results and record.match.state.results[-1].game_key == "nardy"






@pytest.mark.long
async def test_a_fevga_match_in_private_chats_with_a_typed_play(
        standin: StandIn, make_bot: Any) -> None:
    bot: Running = await make_bot(plays_direct=40)
    alice, bob = await private_game(standin, "Fevga")
    mover, board = await next_private_turn(standin, [alice, bob], 0)
    assert ("Fevga" if mover is alice else "Φεύγα") in board.caption
    # the mover types a play in notation (Fevga's own, read by the game's rules)
    from rules.games import format_play

    state = (await bot.uc.load_match(1)).match.state  # type: ignore[union-attr]
    assert state.dice is not None
    play = state.legal_plays()[-1]
    mover.send(mover.private, format_play(state.position, state.dice, play.moves, state.options))
    version = board_version(board)
    mover, board = await next_private_turn(standin, [alice, bob], version)
    record = await bot.uc.match_record(1)
    assert record is not None
    typed = [t for t in record.turns if t.game == state.game and t.turn == state.turn_number + 1]
    assert typed and typed[0].player == state.turn and typed[0].moves == play.moves
    # then both tap to the end
    turns = 0
    while "wins the match" not in (board.caption or ""):
        version = board_version(board)
        await play_turn(standin, mover, mover.private, wait=False)
        mover, board = await next_private_turn(standin, [alice, bob], version)
        turns += 1
        assert turns < 800
    await standin.idle()
    final = (await bot.uc.load_match(1)).match
    assert final is not None and final.state.winner is not None
    assert final.state.results[-1].game_key == "fevga"
    # /rules names a game; in Greek for Bob
    cmd = bob.send(bob.private, "/rules fevga")
    # (the match's last notices, the dice seed's reveal, may still be on their way)
    rules = await bob.private.wait_for_bot_message(after=cmd,
                                                   predicate=lambda m: "Φεύγα" in m.text)
    assert "Φεύγα" in rules.text and "πρώτο πούλι" in rules.text






async def test_a_tavli_match_rotates_portes_plakoto_fevga(
        standin: StandIn, bot: Running, tmp_path: Path) -> None:
    alice, bob = await private_game(standin, "Tavli", "3 points")
    seen: list[str] = []
    version = 0
    for _ in range(3):
        mover, board = await next_private_turn(standin, [alice, bob], version)
        await standin.idle()
        caption = (live_board(alice.private) or board).caption or ""  # Alice reads English
        assert caption.startswith("🎲 Tavli · "), caption
        seen.append(caption.split(" · ")[1])
        if len(seen) == 2:  # the café habit: the last game's winner (Bob) rolls first
            assert "Game 2: Βασίλης won the last game and rolls first." in caption
        # a turn of each game is tapped on its keyboard, until it is Alice's turn again
        await play_turn(standin, mover, mover.private, wait=False)
        mover, board = await next_private_turn(standin, [alice, bob], board_version(board))
        while mover is not alice:
            await play_turn(standin, mover, mover.private, wait=False)
            mover, board = await next_private_turn(standin, [alice, bob], board_version(board))
        # then Alice resigns the game for a point: the next game starts
        version = board_version(board)
        await resign_game(standin, alice, bob)
    assert seen == ["Portes", "Plakoto", "Fevga"]
    await standin.idle()
    record = await bot.uc.match_record(1)
    assert record is not None and record.match.state.game_type == "tavli"
    assert [r.game_key for r in record.match.state.results] == ["portes", "plakoto", "fevga"]
    assert record.match.state.score == (3, 0) or record.match.state.score == (0, 3)
    final = await standin.wait_for(  # the delivery worker edits the last board in
        lambda: "wins the match" in (((b := live_board(alice.private)) and b.caption) or ""),
        what="the final board")
    assert final
    # the dice reveal splits the rolls game by game, each later game opened by its winner
    reveal = (await alice.private.wait_for_bot_message(  # it follows the final board
        predicate=lambda m: "python -m rules.common.fairdice" in m.content)).content
    assert "Game 3:" in reveal
    # /history: a Download with the Portes game only (a .mat holds backgammon games), the
    # file's comment and the document's caption saying which games are left out
    cmd = alice.send(alice.private, "/history")
    listing = await alice.private.wait_for_bot_message(
        after=cmd, predicate=lambda m: "▶ Replay #1" in m.button_texts)
    await alice.tap(listing, "📄 Download #1")
    doc = await alice.private.wait_for_bot_message(after=listing,
                                                   predicate=lambda m: m.document is not None)
    assert doc.document is not None
    mat = doc.document[1].decode()
    left_out = ("Portes games only: games 2, 3 (Plakoto, Fevga) are left out, GNU Backgammon "
                "does not play them; the score counts their points.")
    assert mat.startswith(f'; [Comment "{left_out}"]\n\n 3 point match\n\n Game 1\n')
    assert " Game 2" not in mat and " Game 3" not in mat
    assert left_out in (doc.caption or "")
    if gnubg_path() or os.environ.get("CI"):  # gnubg reads that one game
        assert gnubg_score(mat, tmp_path).startswith("The score (after 1 game) is: Alice ")


async def computer_card(standin: StandIn, alice: User, game: str) -> Message:
    """/new in Alice's private chat, ``game`` ticked, then against the computer: the card."""
    hello = alice.start_bot()
    await alice.private.wait_for_bot_message(after=hello)
    cmd = alice.send(alice.private, "/new")
    card = await alice.private.wait_for_answer(cmd)
    await alice.tap(card, game)
    await standin.wait_for(lambda: f"✔ {game}" in card.refresh().button_texts, what="ticked")
    await alice.tap(card.refresh(), "🤖 Against the computer")
    return card


@pytest.mark.long
@pytest.mark.full  # CI's -m full: the default run plays Long Nardy out in a group (above) and
# tests the medium player's Long Nardy on its own (tests/computer/test_steps_medium.py)
async def test_a_long_nardy_match_against_the_medium_computer(
        standin: StandIn, make_bot: Any) -> None:
    bot: Running = await make_bot(plays_direct=40)
    alice = standin.user("Alice", username="alice")
    card = await computer_card(standin, alice, "Long Nardy")
    await standin.wait_for(lambda: "✔ Medium" in card.refresh().button_texts, what="the levels")
    await alice.tap(card.refresh(), "1 point")
    await standin.wait_for(lambda: "▶ Start" in card.refresh().button_texts, what="Start")
    assert "medium" in (card.refresh().text or "")
    await alice.tap(card.refresh(), "▶ Start")
    version = 0
    for _ in range(400):
        _, board = await next_private_turn(standin, [alice], version)
        if "wins the match" in (board.caption or ""):
            break
        version = board_version(board)
        await play_turn(standin, alice, alice.private, wait=False)
    else:
        raise AssertionError("the match did not end")
    record = await bot.uc.match_record(1)
    assert record is not None and record.match.state.game_type == "nardy"
    assert record.match.computer_level == 2
    assert any(t.player == 1 and t.moves for t in record.turns)  # the computer moved


@pytest.mark.long
async def test_a_plakoto_match_against_the_computer(standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    card = await computer_card(standin, alice, "Plakoto")
    # the computer has three levels in Plakoto too (strong: the game's own net), medium
    # ticked; easy is chosen
    await standin.wait_for(lambda: "✔ Medium" in card.refresh().button_texts, what="the levels")
    assert "Strong" in card.refresh().button_texts
    await alice.tap(card.refresh(), "Easy")
    await standin.wait_for(lambda: "✔ Easy" in card.refresh().button_texts, what="easy ticked")
    assert not any("No triple" in b for b in card.refresh().button_texts)  # none in Plakoto
    assert "Plakoto" in (card.refresh().text or "")
    await alice.tap(card.refresh(), "1 point")
    await standin.wait_for(lambda: "▶ Start" in card.refresh().button_texts, what="Start")
    await alice.tap(card.refresh(), "▶ Start")
    version, hinted = 0, 0
    for _ in range(400):
        _, board = await next_private_turn(standin, [alice], version)
        if "wins the match" in (board.caption or ""):
            break
        hinted += "💡 Hint" in board.button_texts  # hints in every game now
        version = board_version(board)
        await play_turn(standin, alice, alice.private, wait=False)
    else:
        raise AssertionError("the match did not end")
    record = await bot.uc.match_record(1)
    assert record is not None and record.match.state.game_type == "plakoto"
    assert any(t.player == 1 and t.moves for t in record.turns)  # the computer moved
    assert hinted > 0
    # /history: Replay, but no .mat Download (GNU Backgammon does not read Plakoto)
    cmd = alice.send(alice.private, "/history")
    listing = await alice.private.wait_for_bot_message(
        after=cmd, predicate=lambda m: "▶ Replay #1" in m.button_texts)
    assert "▶ Replay #1" in listing.button_texts and "📄 Download #1" not in listing.button_texts
    forged = await alice.tap_data(listing, encode(Action.DOWNLOAD, 1, 0))
    assert forged.show_alert and "not on this message" in (forged.text or "")
    await alice.tap(listing, "▶ Replay #1")
    shown = await alice.private.wait_for_bot_message(
        after=cmd, predicate=lambda m: m.photo_bytes is not None and "Game 1" in (m.caption or ""))
    assert "(1/" in shown.caption and shown.image().size[0] >= 800
    # the replay's Position button: no GNU Backgammon IDs for Plakoto
    answer = await alice.tap(shown, "📍 Position")
    assert answer.show_alert and "Portes only" in (answer.text or "")
    # /review lists the match: Plakoto is reviewed too (by its net)
    cmd = alice.send(alice.private, "/review")
    listing = await alice.private.wait_for_bot_message(
        after=cmd, predicate=lambda m: any(b.startswith("📊 #1") for b in m.button_texts))
    assert any(b.startswith("📊 #1") for b in listing.button_texts)


async def test_stale_and_forged_taps_change_nothing_in_fevga(
        standin: StandIn, make_bot: Any) -> None:
    bot: Running = await make_bot(plays_direct=0)
    alice, bob, group, board = await group_game(standin, "Fevga")
    mover = alice if board.mentions(alice) else bob
    version = (await bot.uc.load_match(1)).match.version  # type: ignore[union-attr]
    for data in (encode(Action.MOVE, 1, 999, move_arg(24, 18)),  # a version never reached
                 encode(Action.MOVE, 1, version, move_arg(24, 1)),  # not a legal move
                 encode(Action.FROM, 1, version, 3),  # no checker of the mover's there
                 encode(Action.PLAY, 1, version, 77),  # no such play
                 encode(Action.MOVE, 99, version, move_arg(24, 18))):  # no such match
        answer = await mover.tap_data(board, data)
        assert answer.show_alert, data
    assert (await bot.uc.load_match(1)).match.version == version  # type: ignore[union-attr]
    # a turn is played; a tap from the old keyboard is refused as from an earlier turn
    old = board.buttons[0][0].callback_data or ""
    await play_turn(standin, mover, group)
    board = await standin.wait_for(lambda: live_board(group), what="the board")
    answer = await mover.tap_data(board, old)
    assert answer.show_alert and answer.text == texts.error_text(tr("en"), "stale")


def test_a_pinned_mother_and_a_draw_are_told_in_both_languages() -> None:
    from bot.views.games import draw_text
    from rules.match import GameDrawn, GameKind
    from storage.delivery.outbox import notes_of

    # a drawn game reaches the caption as its own note
    assert notes_of([GameDrawn(game=2, game_key="plakoto")]) == [{"k": "draw", "game": 2}]
    for lang, mother, draw in (("en", "the mother checker is pinned", "a draw"),
                               ("el", "η μάνα πλακώθηκε", "ισοπαλία")):
        t = tr(lang)
        won = texts.game_result_text(t, texts.Names("Alice", "Bob"), 1, GameKind.MOTHER, 2,
                                     False)
        assert won.startswith("Bob") and mother in won and "2" in won
        assert draw in draw_text(t)


async def test_rules_tavli_tells_the_rotation_in_both_languages(
    standin: StandIn, bot: Running
) -> None:
    # Given an English and a Greek player, When each asks /rules tavli
    ann = standin.user("Ann")
    eleni = standin.user("Eleni", language_code="el")
    answers = []
    for user in (ann, eleni):
        cmd = user.send(user.private, "/rules tavli")
        answers.append((await user.private.wait_for_bot_message(after=cmd)).text)
    # Then each reads the rotation (not Portes's sheet) and how to reach each game's rules
    english, greek = answers
    assert english.startswith("Tavli: the three games in turn")
    assert "Portes, Plakoto, Fevga" in english and "/rules plakoto" in english
    assert greek.startswith("Τάβλι: τα τρία παιχνίδια με τη σειρά")
    assert "Πόρτες, Πλακωτό, Φεύγα" in greek and "ξαναπαίζεται" in greek
