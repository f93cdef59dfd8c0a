"""Whole plays and the legal-play generator: the one source of truth for what may be played.

Rules enforced: a play uses as many dice as possible (all four of a double when it can); when
only one die of a mixed roll can be played, the larger one if it can be; plays are
deduplicated by the position they lead to. Which single moves a die allows is
:func:`rules.portes.moves.single_moves`.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from rules.common.dice import Dice
from rules.common.movetext import format_moves
from rules.portes.board import Position, require_portes
from rules.portes.moves import Move, apply_single, single_moves


class Play(NamedTuple):
    """A whole turn: the single moves in the order played, and the position they lead to.

    ``position`` is still seen from the side that played (call ``flip()`` to hand over).
    An empty ``moves`` is a pass: nothing could be played.
    """

    moves: tuple[Move, ...]
    position: Position

    def to_text(self) -> str:
        return format_moves(self.moves)

    def __str__(self) -> str:
        return self.to_text()


def _mixed(b: tuple[int, ...], d1: int, d2: int) -> dict[tuple[int, ...], tuple[Move, ...]]:
    two: dict[tuple[int, ...], tuple[Move, ...]] = {}
    singles: dict[int, dict[tuple[int, ...], tuple[Move, ...]]] = {d1: {}, d2: {}}
    for first, second in ((d1, d2), (d2, d1)):
        for s1, t1, h1 in single_moves(b, first, 25):
            b1 = apply_single(b, s1, t1, h1)
            m1 = Move(s1, t1, first, h1)
            found = False
            for s2, t2, h2 in single_moves(b1, second, 25):
                found = True
                b2 = apply_single(b1, s2, t2, h2)
                if b2 not in two:
                    two[b2] = (m1, Move(s2, t2, second, h2))
            if not found and not two and b1 not in singles[first]:
                singles[first][b1] = (m1,)
    if two:
        return two
    high, low = (d1, d2) if d1 > d2 else (d2, d1)
    # Only one die can be played: the larger one when it can be, else the smaller.
    if singles[high]:
        return singles[high]
    return singles[low]


def _doubles(b: tuple[int, ...], die: int) -> dict[tuple[int, ...], tuple[Move, ...]]:
    best: dict[tuple[int, ...], tuple[Move, ...]] = {}
    best_len = 0

    # Sources never increase along a line, so permutations of the same checkers are not
    # generated twice; any legal order of a double can be re-ordered that way.
    def walk(board: tuple[int, ...], max_from: int, moves: tuple[Move, ...]) -> None:
        nonlocal best, best_len
        extended = False
        if len(moves) < 4:
            for src, dest, hit in single_moves(board, die, max_from):
                extended = True
                walk(apply_single(board, src, dest, hit), src, (*moves, Move(src, dest, die, hit)))
        if not extended:
            n = len(moves)
            if n > best_len:
                best = {board: moves}
                best_len = n
            elif n == best_len and board not in best:
                best[board] = moves

    walk(b, 25, ())
    return best


def legal_plays(position: Position, dice: Dice | tuple[int, int]) -> list[Play]:
    """Every distinct legal play for the roll, deduplicated by resulting position.

    The order is deterministic (the order of generation). Never empty: when nothing can be
    played the single empty play (a pass) is returned. Plays use as many dice as possible; when
    only one die of a mixed roll can be played, the larger one if it can be.
    """
    require_portes(position)
    d1, d2 = dice
    b = position.board
    found = _doubles(b, d1) if d1 == d2 else _mixed(b, d1, d2)
    if not found:
        return [Play((), position)]
    return [Play(moves, Position.unchecked(board)) for board, moves in found.items()]


def legal_results(position: Position, dice: Dice | tuple[int, int]) -> frozenset[tuple[int, ...]]:
    """The boards (``Position.board``) the legal plays lead to; ``{position.board}`` alone
    means nothing can be played. Cached: a turn's taps, typed plays and the automatic pass
    and forced-play checks all ask again for the same turn."""
    require_portes(position)
    d1, d2 = dice
    return _final_boards_cached(position.board, min(d1, d2), max(d1, d2))


@functools.lru_cache(maxsize=512)
def _final_boards_cached(b: tuple[int, ...], d1: int, d2: int) -> frozenset[tuple[int, ...]]:
    # Cached because every tap of a turn, and every typed play, asks again for the same turn.
    found = _doubles(b, d1) if d1 == d2 else _mixed(b, d1, d2)
    return frozenset(found) if found else frozenset((b,))

