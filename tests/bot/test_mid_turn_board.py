"""The board during a turn (issue 27): each move the player to move makes (or takes back) is
drawn on their board, not only listed in the caption ("So far: 24/21"): the picture is the
position after the moves so far, those moves marked in blue, as /help promises. On a double the
player sees each of the four moves. The group's board is left as it is meanwhile (its budget
pays for the turns, not for each tap of a player who plays in private)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlalchemy import update

from bot.views.callbacks import Action, decode
from rendering import render_board, render_table
from rendering.theme import CLASSIC
from rules.common.dice import Dice
from rules.match import Match
from rules.portes.moves import Move
from standin import Message, StandIn, User
from standin.players import (
    board_version,
    live_board,
    next_private_turn,
    start_the_bot,
    tap_and_wait,
    turn_actions,
)
from storage.models import MatchRow
from storage.usecases.rows import stored_state
from tests.bot.conftest import Running
from tests.bot.helpers.tavli import challenge


async def match_by_link(standin: StandIn, alice: User, bob: User, game: str = "Portes",
                        chat: Any = None) -> None:
    """Alice challenges to a 1-point match (in her private chat, or in ``chat``), Bob accepts."""
    where = chat or alice.private
    if game == "Portes":  # ticked on the card already
        cmd = alice.send(where, "/new")
        card = await where.wait_for_answer(cmd)
        await alice.tap(card, "1 point")
        card = await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or "")
                                      and card.refresh(), what="the challenge")
    else:
        card = await challenge(standin, alice, where, game)
    if chat is not None:
        await bob.tap(card, "🎲 Accept")
        return
    link = next(e for e in card.text.split() if e.startswith("https://t.me/"))
    opened = bob.follow(link)
    invite = await bob.private.wait_for_bot_message(after=opened)
    await bob.tap(invite, "🎲 Accept")


async def one_move(standin: StandIn, user: User, board: Message) -> Message:
    """``user`` moves one checker by one die: a checker, then (when it may go to several
    points) the nearest destination; the board once the move is on it."""
    now = board.refresh()
    version = board_version(now)
    checkers = turn_actions(now).get(Action.FROM)
    if checkers:  # several checkers may move: choose one (a single source is chosen already)
        await tap_and_wait(standin, user, now, checkers[0])
        now = board.refresh()
    if board_version(now) == version:  # a choice of destinations: the keyboard only
        buttons = [b for row in now.buttons for b in row
                   if (cb := decode(b.callback_data)) is not None and cb.action.value == "m"]
        nearest = min(buttons, key=lambda b: abs(decode(b.callback_data).move()[0]  # type: ignore[union-attr]
                                                 - decode(b.callback_data).move()[1]))  # type: ignore[union-attr]
        await user.tap(now, nearest.text)
    return await standin.wait_for(
        lambda: (b := board.refresh()) is not None and board_version(b) > version and b,
        what="the board after the move")


def drawn_portes(start: Match, seat: int, chosen: tuple[Move, ...]) -> bytes:
    """The renderer's picture of ``start`` from the mover's side after ``chosen``, those moves
    marked (what a player with the standard look must see)."""
    assert start.dice is not None
    last = start.last_play
    return render_board(
        start.turn_input().position_after(chosen), viewer_on_roll=True,
        viewer_color="white" if seat == 0 else "black", dice=(max(start.dice), min(start.dice)),
        last_play=last.moves if last is not None else (),
        last_play_by="viewer" if last is not None and last.player == seat else "opponent",
        moves_made=chosen, score=(start.score[seat], start.score[1 - seat], start.length),
        theme=CLASSIC, home="right")


async def state_of(bot: Running) -> Match:
    mv = (await bot.uc.load_match(1)).match
    assert mv is not None
    return mv.state


async def test_a_move_and_its_undo_are_drawn_on_the_movers_board(
        standin: StandIn, make_bot: Any) -> None:
    bot: Running = await make_bot(plays_direct=0)  # tap by tap, never whole plays
    alice, bob = standin.user("Alice", username="alice"), standin.user("Bob", username="bob")
    await start_the_bot(alice, bob)
    await match_by_link(standin, alice, bob)
    mover, board = await next_private_turn(standin, [alice, bob], 0)
    await standin.idle()
    start = await state_of(bot)
    seat = start.turn
    before = board.refresh()
    assert before.uploaded_bytes == drawn_portes(start, seat, ())
    # When the player to move moves one checker
    after = await one_move(standin, mover, board)
    await standin.idle()
    after = board.refresh()
    chosen = (await state_of(bot)).chosen
    assert len(chosen) == 1 and f"So far: {chosen[0]}" in after.caption
    # Then the picture changed, to the position after the move with the move marked
    assert after.uploaded_bytes != before.uploaded_bytes
    assert after.uploaded_bytes == drawn_portes(start, seat, chosen)
    # And Undo takes it off the picture again
    version = board_version(after)
    await tap_and_wait(standin, mover, after, turn_actions(after)[Action.UNDO][0])
    await standin.wait_for(lambda: (b := board.refresh()) is not None
                           and board_version(b) > version and b, what="the undo")
    await standin.idle()
    assert board.refresh().uploaded_bytes == before.uploaded_bytes


async def test_each_of_a_doubles_four_moves_is_drawn(standin: StandIn, make_bot: Any) -> None:
    bot: Running = await make_bot(plays_direct=0)
    alice, bob = standin.user("Alice", username="alice"), standin.user("Bob", username="bob")
    await start_the_bot(alice, bob)
    await match_by_link(standin, alice, bob)
    mover, _ = await next_private_turn(standin, [alice, bob], 0)
    await standin.idle()
    # Given the player to move has rolled 3-3 (the state set as storage keeps it, a version
    # on, and their board brought back with the deep link)
    rolled = replace(await state_of(bot), dice=Dice(3, 3), chosen=())
    with bot.uc.db.sessions.begin() as session:
        session.execute(update(MatchRow).where(MatchRow.id == 1)
                        .values(version=MatchRow.version + 1, **stored_state(rolled)))
    old = live_board(mover.private)
    assert old is not None
    mover.follow(f"https://t.me/{standin.bot_username}?start=m1")
    board = await standin.wait_for(
        lambda: (b := live_board(mover.private)) is not None
        and b.message_id != old.message_id and b.has_keyboard and b, what="the 3-3 board")
    await standin.idle()
    seat = rolled.turn
    seen = [board.refresh().uploaded_bytes]
    assert seen[0] == drawn_portes(rolled, seat, ())
    # When they move four checkers, one die at a time
    for count in range(1, 5):
        await one_move(standin, mover, board)
        await standin.idle()
        chosen = (await state_of(bot)).chosen
        assert len(chosen) == count and all(m.die == 3 for m in chosen)
        # Then after each move the picture is the position so far, the moves marked
        shown = board.refresh().uploaded_bytes
        assert shown == drawn_portes(rolled, seat, chosen)
        assert shown not in seen
        seen.append(shown)
    assert Action.CONFIRM in turn_actions(board.refresh())  # and the turn can be confirmed


async def test_a_plakoto_move_is_drawn_on_the_private_board_and_the_group_board_stays(
        standin: StandIn, make_bot: Any) -> None:
    from bot.views.board_image import DEFAULT_LOOK, tavli_view

    bot: Running = await make_bot(plays_direct=0)
    alice, bob = standin.user("Alice", username="alice"), standin.user("Bob", username="bob")
    await start_the_bot(alice, bob)
    group = standin.group("Kafeneio", alice, bob)
    # Given a Plakoto match in a group, whose players play their turns in private
    await match_by_link(standin, alice, bob, "Plakoto", chat=group)
    mover, board = await next_private_turn(standin, [alice, bob], 0)
    await standin.idle()
    shared = live_board(group)
    assert shared is not None
    start = await state_of(bot)
    seat = start.turn
    before = board.refresh()
    # When the player to move moves one checker on their private board
    await one_move(standin, mover, board)
    await standin.idle()
    chosen = (await state_of(bot)).chosen
    assert len(chosen) == 1
    # Then their picture is the Plakoto board after the move, the move marked
    assert start.dice is not None
    board_after = tavli_view(start.turn_input().position_after(chosen),  # type: ignore[arg-type]
                             True, "white" if seat == 0 else "black",
                             (max(start.dice), min(start.dice)), (),
                             False, (0, 0, 1), DEFAULT_LOOK)
    view = replace(board_after, moves_made=((chosen[0].from_point, chosen[0].to_point),),
                   dice_used=(chosen[0].die,))
    after = board.refresh()
    assert after.uploaded_bytes != before.uploaded_bytes
    assert after.uploaded_bytes == render_table(view)
    # and the group's board was not touched
    now = shared.refresh()
    assert (now.edit_count, now.uploaded_bytes) == (shared.edit_count, shared.uploaded_bytes)
