"""In Plakoto only landing pins (issue 27, item 17): a checker that lands on a lone checker and
goes on with the other die passed over it, and the boards write its play with no ``*``.

As in ``test_tavli_draw.py``, the position is crafted: the match's stored state is set to it the
way the storage keeps it, and the player on turn types the play, as any player may."""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy import update

from rules.common.dice import Dice
from rules.steps.board import parse_steps
from standin import StandIn
from standin.players import board_version, next_private_turn
from storage.models import MatchRow
from storage.usecases.rows import stored_state
from tests.bot.conftest import Running
from tests.bot.helpers.tavli import private_game


async def test_a_checker_passing_over_a_lone_checker_is_written_without_a_pin(
        standin: StandIn, bot: Running) -> None:
    # Given a Plakoto match, the player on turn with a checker on 13, a lone opposing checker
    # on his 8, and 5-2 to play
    alice, bob = await private_game(standin, "Plakoto")
    mover, board = await next_private_turn(standin, [alice, bob], 0)
    state = (await bot.uc.load_match(1)).match.state  # type: ignore[union-attr]
    crafted = replace(state, position=parse_steps("plakoto", "x 13:1 6:14; o 17:1 24:14"),
                      dice=Dice(5, 2), chosen=())
    with bot.uc.db.sessions.begin() as session:
        session.execute(update(MatchRow).where(MatchRow.id == 1)
                        .values(**stored_state(crafted)))
    # When he plays that checker 13/8/6, over the lone checker
    mover.send(mover.private, "13/8/6")
    other, after = await next_private_turn(standin, [alice, bob], board_version(board))
    # Then the next board tells the play without a pin, and the record keeps it so
    assert other is not mover
    assert "5-2: 13/6" in (after.caption or ""), after.caption
    assert "*" not in (after.caption or "")
    record = await bot.uc.match_record(1)
    assert record is not None
    # (the next player's roll may leave one play, played for him before the record is read)
    played = [turn for turn in record.turns if not turn.forced]
    assert played[-1].text == "13/6", record.turns
