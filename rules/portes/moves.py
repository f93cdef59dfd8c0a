"""One checker moved by one die: :class:`Move`, and the single moves the rules allow.

These work on a :class:`~rules.portes.board.Position`'s raw slots (``Position.board``), because the
legal-play generator and the tap-by-tap input call them thousands of times per turn.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from rules.common.errors import IllegalPlay
from rules.portes.board import BAR, OFF, Position


class Move(NamedTuple):
    """One checker moved by one die: ``from_point`` 25 is the bar, ``to_point`` 0 is off."""

    from_point: int
    to_point: int
    die: int
    hit: bool = False

    def __str__(self) -> str:
        start = "bar" if self.from_point == BAR else str(self.from_point)
        end = "off" if self.to_point == OFF else str(self.to_point)
        return f"{start}/{end}{'*' if self.hit else ''}"


def single_moves(b: tuple[int, ...], die: int, max_from: int) -> Iterator[tuple[int, int, bool]]:
    """Yield ``(from, to, hit)`` for every legal single move of ``die`` from points <= max_from.

    Rules enforced: a checker lands only on a point that is not closed (2+ opposing checkers),
    and landing on a lone opposing checker hits it; a checker on the bar must enter first, on
    point 25 - die; bearing off only while every checker is home (points 1-6), with the exact
    die, or with a higher die from the highest occupied point only.
    """
    if b[25] > 0:
        if max_from >= 25:
            dest = 25 - die
            if b[dest] >= -1:
                yield 25, dest, b[dest] == -1
        return
    high = 24
    while high > 0 and b[high] <= 0:
        high -= 1
    if high == 0:
        return
    all_home = high <= 6
    start = high if high < max_from else max_from
    for src in range(start, 0, -1):
        if b[src] <= 0:
            continue
        dest = src - die
        if dest > 0:
            if b[dest] >= -1:
                yield src, dest, b[dest] == -1
        elif all_home and (dest == 0 or src == high):
            yield src, 0, False


def apply_single(b: tuple[int, ...], src: int, dest: int, hit: bool) -> tuple[int, ...]:
    """The slots after a move :func:`single_moves` yielded (not checked again); a hit blot goes
    to the opponent's bar."""
    nb = list(b)
    nb[src] -= 1
    if dest:
        if hit:
            nb[dest] = 1
            nb[0] -= 1
        else:
            nb[dest] += 1
    return tuple(nb)


def apply_checked(b: tuple[int, ...], move: Move) -> tuple[int, ...]:
    """The slots after ``move``, which must be a legal single move of its die (else
    :class:`IllegalPlay`); its hit flag is settled by the board, not trusted."""
    for src, dest, hit in single_moves(b, move.die, move.from_point):
        if src == move.from_point and dest == move.to_point:
            return apply_single(b, src, dest, hit)
    raise IllegalPlay(f"{move} is not a legal move with a {move.die}")


def apply_move(position: Position, move: Move) -> Position:
    """The position after one single move, checked against the rules for a single die."""
    return Position.unchecked(apply_checked(position.board, move))

