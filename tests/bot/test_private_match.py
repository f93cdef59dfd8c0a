"""Private matches: a deep link to a friend, each player on their own board, in their language."""

from __future__ import annotations

from typing import Any

import pytest

from bot.views import texts
from bot.views.i18n import tr
from standin import Message, StandIn, User
from standin.players import board_version, live_board, next_private_turn, play_turn
from tests.bot.conftest import Running
from tests.bot.helpers.private import deep_link_match
from tests.sampling import sample_or_full


async def test_deep_link_challenge_starts_a_private_match(standin: StandIn, bot: Running) -> None:
    alice, bob, _ = await deep_link_match(standin)
    mover, board = await next_private_turn(standin, [alice, bob], 0)
    other = bob if mover is alice else alice
    theirs = await standin.wait_for(lambda: live_board(other.private), what="the other board")
    assert not theirs.has_keyboard
    if mover is bob:
        assert "Σειρά σου" in board.caption
    else:
        assert "Your turn" in board.caption
    # a typed play in the private chat
    assert board.image().size[0] >= 800


@pytest.mark.long
@pytest.mark.parametrize("points", sample_or_full(1, 3))
async def test_a_match_played_out_in_private_chats(standin: StandIn, make_bot: Any,
                                                   points: int) -> None:
    """Played to its end by taps, each player on their own board: a one-point match in the
    default run, three points (several games, the score carried) in CI's ``-m full``."""
    bot: Running = await make_bot(plays_direct=40)
    alice, bob, _ = await deep_link_match(standin, "1 point" if points == 1 else f"{points} points")
    version = 0
    turns = 0
    while True:
        mover, board = await next_private_turn(standin, [alice, bob], version)
        if "wins the match" in (board.caption or ""):
            break
        version = board_version(board)
        await play_turn(standin, mover, mover.private, wait=False)
        turns += 1
        assert turns < 600
    await standin.idle()
    for user in (alice, bob):
        final = live_board(user.private)
        assert final is not None
        assert "wins the match" in final.caption or "κερδίζει τον αγώνα" in final.caption
        chat = user.private  # the seed revealed: a notice sent after the final board
        await standin.wait_for(lambda c=chat: any(  # type: ignore[misc]
            "python -m rules.common.fairdice" in m.content for m in c.bot_messages()),
            what="the seed revealed")
        # only one live board per player
        assert len([m for m in user.private.bot_messages() if m.photo_bytes]) == 1
    record = await bot.uc.match_record(1)
    assert record is not None and max(record.match.state.score) >= points


async def test_a_play_typed_in_notation(standin: StandIn, bot: Running) -> None:
    alice, bob, _ = await deep_link_match(standin)
    mover, board = await next_private_turn(standin, [alice, bob], 0)
    match = (await bot.uc.load_match(1)).match
    assert match is not None and match.state.dice is not None
    from rules.portes.notation import format_play

    state = match.state
    bad = mover.send(mover.private, "24/1")
    refusal = await mover.private.wait_for_bot_message(after=bad)
    assert refusal.photo_bytes is None and refusal.text
    # a chain longer than any play gets its own clear answer, at once (it used to cost
    # quadratic time in the parser, and exponential time in the bot's first check)
    flood = mover.send(mover.private, "24/18/13 " * 440)
    refusal = await mover.private.wait_for_bot_message(after=flood)
    lang = "el" if mover is bob else "en"
    reason, dice = refusal.text.split("\n")  # the reason, then the dice and a legal play
    assert reason == texts.error_text(tr(lang), "play_too_long")
    assert dice.startswith("Τα ζάρια σου: " if lang == "el" else "Your dice: ")
    play = state.legal_plays()[0]
    text = format_play(state.position, state.dice, play.moves)  # type: ignore[arg-type]
    mover.send(mover.private, text)
    other = bob if mover is alice else alice
    await next_private_turn(standin, [other, mover], board_version(board))
    record = await bot.uc.match_record(1)
    assert record is not None
    typed = [t for t in record.turns
             if t.game == state.game and t.turn == state.turn_number + 1]
    assert typed and typed[0].player == state.turn and typed[0].moves == play.moves


async def test_a_deleted_board_is_posted_again(standin: StandIn, bot: Running) -> None:
    alice, bob, _ = await deep_link_match(standin)
    mover, board = await next_private_turn(standin, [alice, bob], 0)
    # the mover's board disappears (deleted), then they type their play
    await bot.app.bot.delete_message(board.chat_id, board.message_id)
    state = (await bot.uc.load_match(1)).match.state  # type: ignore[union-attr]
    from rules.portes.notation import format_play

    play = state.legal_plays()[0]
    mover.send(mover.private, format_play(state.position, state.dice, play.moves))  # type: ignore[arg-type]
    # the board they would have had edited is posted again instead
    fresh = await standin.wait_for(
        lambda: (b := live_board(mover.private)) is not None
        and b.message_id != board.message_id and b, what="a fresh board")
    assert fresh.photo_bytes


async def test_the_first_turn_of_game_2_names_its_opening_roll_once(
        standin: StandIn, bot: Running) -> None:
    alice, bob, _ = await deep_link_match(standin)
    mover, _ = await next_private_turn(standin, [alice, bob], 0)
    other = bob if mover is alice else alice
    # game 1: the mover offers to resign it for a point, the other accepts on their board
    cmd = mover.send(mover.private, "/resign")
    menu = await mover.private.wait_for_bot_message(after=cmd)
    await mover.tap(menu, menu.button_texts[0])  # the game for 1 point, in either language
    offer = await standin.wait_for(
        lambda: (b := live_board(other.private)) is not None and b.has_keyboard and b,
        what="the offer on the other's board")
    await other.tap(offer, offer.button_texts[0])  # Accept / Αποδοχή

    def game_2_board() -> tuple[User, Message] | None:
        for user in (alice, bob):
            b = live_board(user.private)
            if b is not None and b.has_keyboard and ("Game 2" in b.caption
                                                     or "Παρτίδα 2" in b.caption):
                return user, b
        return None

    starter, first = await standin.wait_for(game_2_board, what="game 2's first board")
    view = (await bot.uc.load_match(1)).match
    assert view is not None and view.state.game == 2 and view.state.opening is not None
    a, b = view.state.opening
    lines = first.caption.splitlines()
    if starter is alice:
        opening = [ln for ln in lines if "Game 2" in ln or "rolled" in ln or "opening" in ln]
        assert opening == [f"Game 2: Alice rolled {a}, Βασίλης rolled {b}; "
                           f"{'Alice' if view.state.turn == 0 else 'Βασίλης'} starts."]
        assert any(ln.startswith("🏁") and "wins the game: 1 point" in ln for ln in lines)
    else:
        opening = [ln for ln in lines if "Παρτίδα 2" in ln or "έφερε" in ln or "ζαριά" in ln]
        assert opening == [f"Παρτίδα 2: Alice έφερε {a}, Βασίλης έφερε {b}· ξεκινά "
                           f"{'Alice' if view.state.turn == 0 else 'Βασίλης'}."]
    # the other player's board (not their turn) says it once too
    rest = alice if starter is bob else bob

    def game_2_line(b: Message | None) -> bool:
        return b is not None and any("2:" in ln and ("Game" in ln or "Παρτίδα" in ln)
                                     for ln in b.caption.splitlines())

    # (its board is edited by the delivery worker: waited for, not assumed there at idle)
    theirs = await standin.wait_for(
        lambda: shown if game_2_line(shown := live_board(rest.private)) else None,
        what="game 2 on the other player's board")
    assert sum("2:" in ln and ("Game" in ln or "Παρτίδα" in ln)
               for ln in theirs.caption.splitlines()) == 1
