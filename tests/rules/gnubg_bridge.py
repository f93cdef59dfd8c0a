"""Conversion between our positions and GNU Backgammon's boards, for the reference tests.

gnubg's board is ``[player not on roll, player on roll]``, each 25 counts: index i is that
player's point i + 1 in their own numbering, index 24 their bar.
"""

from __future__ import annotations

from rules.position import Position


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
