"""The board's picture shows a roll as the captions write it, the higher die first (issue 27,
item 17): a roll drawn 2 then 6 looks the same as one drawn 6 then 2."""

from __future__ import annotations

from dataclasses import replace

from bot.views.board_image import board_key, draw_board
from rules.dice import Dice, RecordedDice
from rules.match import Match


def test_the_picture_shows_the_higher_die_first() -> None:
    match, _ = Match.new(3).start(RecordedDice([5, 3]))  # the opening roll, then play on
    low_first = replace(match, dice=Dice(2, 6))
    high_first = replace(match, dice=Dice(6, 2))
    assert board_key(low_first, match.turn)[3] == (6, 2)
    assert draw_board(low_first, match.turn) == draw_board(high_first, match.turn)
