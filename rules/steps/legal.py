"""The legal plays of Plakoto, Fevga and Long Nardy: the one source of truth for these games.

Rules enforced here, common to the three (single moves are :mod:`rules.steps.singles`): a play
uses as many dice as possible (four of a double); when only one die of a mixed roll can be played,
the larger one if it can be; plays are deduplicated by the position they lead to. A play is any
sequence of single moves, each legal where it is made; rules checked only at the end of a play
(``prime_check="end"``) keep the sequences whose final position passes, and the longest of those
count. A play that decides a Plakoto game at once (``plakoto_mother_ends_turn``) counts as using
every die. Among the longest plays Fevga then keeps those that open the block in front of all the
opponent's checkers, when some do.

Unlike Portes's generator, the search is over states (position, dice left, checkers taken from the
head), each visited once: the order restrictions of these games (the first checker, the head)
make Portes's trick of never letting sources increase unsound here.
"""

from __future__ import annotations

import functools

from rules.common.dice import Dice
from rules.portes.legal import Play
from rules.portes.moves import Move
from rules.steps.board import StepsPosition
from rules.steps.options import RuleOptions
from rules.steps.singles import Key, Raw, State, Steps, stepper

Found = dict[Key, tuple[Raw, ...]]

_as_move = tuple.__new__
"""``_as_move(Move, raw)``: a :class:`Move` from the search's ``(from, to, die, pin)`` without
NamedTuple's slower constructor (a turn can make thousands)."""


def search(st: Steps) -> Found:
    """Every legal play of the stepper's turn, by resulting ``(board, pins)``; empty when
    nothing can be played."""
    d1, d2 = st.dice
    values = (d1,) * 4 if d1 == d2 else (d1, d2)
    full = len(values)
    levels: list[Found] = [{} for _ in range(full + 1)]
    by_die: dict[int, Found] = {d1: {}, d2: {}}
    seen: set[tuple[State, tuple[int, ...]]] = set()

    simple = st.simple
    last = levels[full]

    def walk(state: State, remaining: tuple[int, ...], moves: tuple[Raw, ...]) -> None:
        terminal = not simple and st.terminal(state)
        if simple or st.final_ok(state):
            key = (state[0], state[1])
            level = full if terminal else len(moves)
            levels[level].setdefault(key, moves)
            if level == 1:
                by_die[moves[0][2]].setdefault(key, moves)
        if terminal:
            return
        for i, die in enumerate(remaining):
            if die in remaining[:i]:
                continue
            rest = remaining[:i] + remaining[i + 1 :]
            if simple and not rest:
                # The last die: record the plays without a call each.
                for move, after in st.steps(state, die):
                    last.setdefault((after[0], after[1]), (*moves, move))
                continue
            for move, after in st.steps(state, die):
                mark = (after, rest)
                if mark not in seen:
                    seen.add(mark)
                    walk(after, rest, (*moves, move))

    start = st.initial()
    for i, die in enumerate(values[:2] if d1 != d2 else values[:1]):
        rest = values[:i] + values[i + 1 :]
        for move, after in st.steps(start, die):
            if (after, rest) not in seen:
                seen.add((after, rest))
                walk(after, rest, (move,))
    for level in range(full, 0, -1):
        if levels[level]:
            break
    else:
        return {}
    found = levels[level]
    if level == 1 and d1 != d2:
        found = by_die[max(d1, d2)] or by_die[min(d1, d2)]
    return st.prefer(found)


def legal_plays(
    position: StepsPosition, dice: Dice | tuple[int, int], options: RuleOptions | None = None
) -> list[Play]:
    """Every distinct legal play for the roll, deduplicated by resulting position; never empty
    (a pass is the one empty play). ``Play.position`` is still seen from the side that played."""
    d1, d2 = dice
    found = search(stepper(position, (d1, d2), options))
    if not found:
        return [Play((), position)]
    v = position.variant
    return [
        Play(tuple([_as_move(Move, m) for m in moves]), StepsPosition.make(v, b, t))
        for (b, t), moves in found.items()
    ]


def legal_finals(
    position: StepsPosition, dice: Dice | tuple[int, int], options: RuleOptions | None = None
) -> dict[Key, int]:
    """The positions ``(board, pins)`` the legal plays lead to, with how many single moves each
    takes; ``{(board, pins): 0}`` alone means nothing can be played. Cached: every tap of a turn
    asks again."""
    d1, d2 = dice
    return _finals_cached(position, min(d1, d2), max(d1, d2), options or RuleOptions())


@functools.lru_cache(maxsize=512)
def _finals_cached(
    position: StepsPosition, d1: int, d2: int, options: RuleOptions
) -> dict[Key, int]:
    found = search(stepper(position, (d1, d2), options))
    if not found:
        return {(position.board, position.pins): 0}
    return {key: len(moves) for key, moves in found.items()}
