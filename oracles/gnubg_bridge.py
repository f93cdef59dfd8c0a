"""Conversion between our positions and GNU Backgammon's boards, for the reference tests, and
gnubg's own move text for every legal play, to check that we read it as gnubg means it.

gnubg's board is ``[player not on roll, player on roll]``, each 25 counts: index i is that
player's point i + 1 in their own numbering, index 24 their bar.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from rules.errors import PortesError
from rules.notation import parse_play
from rules.position import Dice, Position


class GnubgPlay(NamedTuple):
    """A legal play as gnubg gives it: its move text and the position it leads to."""

    text: str
    result: Position


def to_gnubg(position: Position) -> list[list[int]]:
    b = position.board
    opponent = [max(0, -b[25 - i]) for i in range(1, 25)] + [-b[0]]
    mover = [max(0, b[i]) for i in range(1, 25)] + [b[25]]
    return [opponent, mover]


def from_gnubg(board: list[list[int]] | tuple[tuple[int, ...], ...]) -> Position:
    opponent, mover = board
    return Position.from_points(
        {i + 1: c for i, c in enumerate(mover) if c},
        {i + 1: c for i, c in enumerate(opponent) if c},
    )


def gnubg_texts(gnubg: Any, gnubg_nn: Any, position: Position, roll: Dice) -> list[GnubgPlay]:
    """Every legal play gnubg finds for ``roll``: its own move text and its resulting position."""
    board = to_gnubg(position)
    return [
        GnubgPlay(gnubg.move_tuple_to_string(steps, board),
                  from_gnubg(gnubg_nn.board_from_position_key(key)))
        for key, steps in gnubg_nn.moves(board, roll.die1, roll.die2, 1)
    ]


def notation_mismatches(
    position: Position, roll: Dice, plays: list[GnubgPlay]
) -> Iterator[tuple[str, str]]:
    """Each of gnubg's ``plays`` whose text we read differently: (text, what we made of it)."""
    for play in plays:
        try:
            ours = parse_play(position, roll, play.text).position
        except PortesError as refused:
            yield play.text, f"{refused.code}: {refused}"
            continue
        if ours != play.result:
            yield play.text, f"another play: {ours.to_fixture()}"
