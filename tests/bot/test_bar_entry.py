"""A checker on the bar is the only one that may move: the turn keyboard shows where it enters
at once, with no [bar] to tap first and no "↩ Other checker" (issue 27, item 17).

The position is crafted (as in ``test_tavli_draw.py``): the match's stored state is set to it the
way the storage keeps it (a new version, as every change makes), and the board is brought back
with /games."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlalchemy import update

from rules.common.dice import Dice
from rules.portes.board import parse_fixture
from standin import StandIn
from standin.players import live_board, new_board, start_group_match
from storage.models import MatchRow
from storage.usecases.rows import stored_state
from tests.bot.conftest import Running


async def test_a_checker_on_the_bar_is_chosen_already(standin: StandIn, make_bot: Any) -> None:
    # Given a group match played tap by tap, the player to move with a checker on the bar
    bot: Running = await make_bot(plays_direct=0)
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)
    board = await start_group_match(standin, alice, bob, group)
    mover = alice if board.mentions(alice) else bob
    state = (await bot.uc.load_match(1)).match.state  # type: ignore[union-attr]
    crafted = replace(state, dice=Dice(5, 3), chosen=(), position=parse_fixture(
        "x bar:1 24:1 13:5 8:3 6:5; o 24:2 13:5 8:3 6:5"))
    with bot.uc.db.sessions.begin() as session:
        session.execute(update(MatchRow).where(MatchRow.id == 1)
                        .values(version=MatchRow.version + 1, **stored_state(crafted)))
    # When the board is brought back
    cmd = mover.send(group, "/games")
    games = await group.wait_for_bot_message(after=cmd)
    await mover.tap(games, games.button_texts[0])
    board = await new_board(standin, group, board)
    # Then its buttons are where the checker enters (22 with the 3, 20 with the 5; its 19 is
    # closed), with no [bar] button and no "Other checker"
    assert "to play 5-3" in (board.caption or ""), board.caption
    # (beside the moves, the link that lets a player who never started the bot play privately)
    moves = [b.text for row in board.buttons for b in row if b.callback_data]
    assert moves == ["bar → 22", "bar → 20"], board.button_texts
    # And one tap enters it
    await mover.tap(board, "bar → 22")
    await standin.wait_for(lambda: "So far: bar/22" in (live_board(group).caption or ""),
                           what="the checker entered")
    after = (await bot.uc.load_match(1)).match.state  # type: ignore[union-attr]
    assert after.chosen and after.chosen[0][:2] == (25, 22)
