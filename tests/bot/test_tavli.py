"""The other games of tavli end to end (issue 15): Plakoto, Fevga and Long Nardy played by taps to
the end, the tavli match rotating Portes -> Plakoto -> Fevga, a typed play, the computer, and taps
that must change nothing."""

from __future__ import annotations

from typing import Any

from bot.views import texts
from bot.views.i18n import tr
from tests.bot.conftest import Running
from tests.bot.players import board_version, live_board, next_private_turn, play_turn
from tests.standin import Chat, Message, StandIn, User


async def challenge(standin: StandIn, author: User, chat: Chat, game: str,
                    length: str = "1 point") -> Message:
    """``/new`` in ``chat``, the game chosen (ticked on the card), then the length: the
    challenge card."""
    cmd = author.send(chat, "/new")
    card = await chat.wait_for_answer(cmd)
    assert "✔ Portes" in card.button_texts  # Portes until another game is chosen
    await author.tap(card, game)
    await standin.wait_for(lambda: f"✔ {game}" in card.refresh().button_texts,
                           what=f"{game} ticked")
    await author.tap(card.refresh(), length)
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""), what="the challenge")
    return card.refresh()


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
    # a rematch, but no review: reviews are GNU Backgammon's, for Portes only
    assert "🔁 Rematch" in final.button_texts and "📊 Review" not in final.button_texts
    record = await bot.uc.match_record(1)
    assert record is not None and record.match.state.game_type == "plakoto"
    assert max(record.match.state.score) >= 1
    assert all(r.variant == "plakoto" for r in record.match.state.results)
    # the seed is revealed as for Portes
    await standin.wait_for(lambda: any("python -m rules.fairdice" in m.content
                                       for m in group.bot_messages()), what="the seed")


async def test_a_long_nardy_match_in_a_group_is_played_to_the_end(
        standin: StandIn, make_bot: Any) -> None:
    bot: Running = await make_bot(plays_direct=40)
    alice, bob, group, board = await group_game(standin, "Long Nardy")
    assert board.caption.startswith("🎲 Long Nardy")
    await play_group_match(standin, alice, bob, group)
    record = await bot.uc.match_record(1)
    assert record is not None and record.match.state.game_type == "nardy"
    assert record.match.state.results and record.match.state.results[-1].variant == "nardy"


GREEK = {"Plakoto": "Πλακωτό", "Fevga": "Φεύγα", "Tavli": "Τάβλι", "Long Nardy": "Μακρύ νάρδι"}


async def private_game(standin: StandIn, game: str, length: str = "1 point"
                       ) -> tuple[User, User]:
    """Alice challenges by a link in her private chat; Bob (Greek) accepts in his."""
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Βασίλης", username="vasilis", language_code="el")
    hello = alice.start_bot()
    await alice.private.wait_for_bot_message(after=hello)
    card = await challenge(standin, alice, alice.private, game, length)
    link = next(e for e in card.text.split() if e.startswith("https://t.me/"))
    opened = bob.follow(link)
    invite = await bob.private.wait_for_bot_message(after=opened)
    assert GREEK[game] in invite.text  # the game, in Greek
    await bob.tap(invite, "🎲 Αποδοχή")
    return alice, bob


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
    assert final.state.results[-1].variant == "fevga"
    # /rules names a game; in Greek for Bob
    cmd = bob.send(bob.private, "/rules fevga")
    rules = await bob.private.wait_for_bot_message(after=cmd)
    assert "Φεύγα" in rules.text and "πρώτο πούλι" in rules.text


def actions(board: Message | None) -> set[str]:
    if board is None:
        return set()
    return {b.callback_data.split(":")[0] for row in board.buttons for b in row
            if b.callback_data}


async def resign_game(standin: StandIn, mover: User, other: User) -> None:
    """``mover`` (on turn) resigns the game for 1 point; ``other`` accepts on their board."""
    cmd = mover.send(mover.private, "/resign")
    menu = await mover.private.wait_for_bot_message(  # the menu, not a board posted later
        after=cmd, predicate=lambda m: m.photo_bytes is None and bool(m.button_texts))
    await mover.tap(menu, menu.button_texts[0])  # the game for 1 point, in either language
    offer = await standin.wait_for(
        lambda: (b := live_board(other.private)) is not None and "ra" in actions(b) and b,
        what="the offer")
    await other.tap(offer, offer.button_texts[0])  # Accept / Αποδοχή


async def test_a_tavli_match_rotates_portes_plakoto_fevga(
        standin: StandIn, bot: Running) -> None:
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
    assert [r.variant for r in record.match.state.results] == ["portes", "plakoto", "fevga"]
    assert record.match.state.score == (3, 0) or record.match.state.score == (0, 3)
    final = live_board(alice.private)
    assert final is not None and "wins the match" in final.caption
    # the dice reveal splits the rolls game by game, each later game opened by its winner
    reveal = next(m.content for m in alice.private.bot_messages()
                  if "python -m rules.fairdice" in m.content)
    assert "Game 3:" in reveal


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


async def test_a_plakoto_match_against_the_computer(standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    card = await computer_card(standin, alice, "Plakoto")
    # outside Portes the computer has two levels, medium ticked; easy is chosen
    await standin.wait_for(lambda: "✔ Medium" in card.refresh().button_texts, what="the levels")
    assert "Strong" not in card.refresh().button_texts
    await alice.tap(card.refresh(), "Easy")
    await standin.wait_for(lambda: "✔ Easy" in card.refresh().button_texts, what="easy ticked")
    assert not any("No triple" in b for b in card.refresh().button_texts)  # none in Plakoto
    assert "Plakoto" in (card.refresh().text or "")
    await alice.tap(card.refresh(), "1 point")
    await standin.wait_for(lambda: "▶ Start" in card.refresh().button_texts, what="Start")
    await alice.tap(card.refresh(), "▶ Start")
    version = 0
    for _ in range(400):
        _, board = await next_private_turn(standin, [alice], version)
        if "wins the match" in (board.caption or ""):
            break
        assert "💡 Hint" not in board.button_texts  # hints are GNU Backgammon's: Portes only
        version = board_version(board)
        await play_turn(standin, alice, alice.private, wait=False)
    else:
        raise AssertionError("the match did not end")
    record = await bot.uc.match_record(1)
    assert record is not None and record.match.state.game_type == "plakoto"
    assert any(t.player == 1 and t.moves for t in record.turns)  # the computer moved
    # a forged Hint tap is refused: the board has no such button
    answer = await alice.tap_data(board, f"h:1:{record.match.version}")
    assert answer.show_alert and "not on this message" in (answer.text or "")
    # /history: Replay, but no .mat Download (GNU Backgammon does not read Plakoto)
    cmd = alice.send(alice.private, "/history")
    listing = await alice.private.wait_for_bot_message(
        after=cmd, predicate=lambda m: "▶ Replay #1" in m.button_texts)
    assert "▶ Replay #1" in listing.button_texts and "📄 Download #1" not in listing.button_texts
    forged = await alice.tap_data(listing, "hd:1:0")
    assert forged.show_alert and "not on this message" in (forged.text or "")
    await alice.tap(listing, "▶ Replay #1")
    shown = await alice.private.wait_for_bot_message(
        after=cmd, predicate=lambda m: m.photo_bytes is not None and "Game 1" in (m.caption or ""))
    assert "(1/" in shown.caption and shown.image().size[0] >= 800
    # the replay's Position button: no GNU Backgammon IDs for Plakoto
    answer = await alice.tap(shown, "📍 Position")
    assert answer.show_alert and "Portes only" in (answer.text or "")
    # /review 1: said why there is none, and /review lists no Review button for it
    cmd = alice.send(alice.private, "/review 1")
    said = await alice.private.wait_for_bot_message(
        after=cmd, predicate=lambda m: "Portes only" in m.content)
    assert "Portes only" in said.text
    cmd = alice.send(alice.private, "/review")
    listing = await alice.private.wait_for_bot_message(after=cmd)
    assert not any(b.startswith("📊 #1") for b in listing.button_texts)


async def test_stale_and_forged_taps_change_nothing_in_fevga(
        standin: StandIn, make_bot: Any) -> None:
    bot: Running = await make_bot(plays_direct=0)
    alice, bob, group, board = await group_game(standin, "Fevga")
    mover = alice if board.mentions(alice) else bob
    version = (await bot.uc.load_match(1)).match.version  # type: ignore[union-attr]
    for data in ("m:1:999:24-18", f"m:1:{version}:24-1", f"f:1:{version}:3",
                 f"p:1:{version}:77", f"m:99:{version}:24-18"):
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
    assert notes_of([GameDrawn(game=2, variant="plakoto")]) == [{"k": "draw", "game": 2}]
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
