"""Seeded generators of crafted positions, one family per trap of the rules.

Each family yields positions in which the trap actually arises for at least one of the 21 rolls
(checked with a predicate), so the differential test covers every rule where it bites.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from rules.position import ALL_ROLLS, Dice, Position, legal_plays


def _place(rng: random.Random, count: int, points: list[int], taken: set[int]) -> dict[int, int]:
    out: dict[int, int] = {}
    free = [p for p in points if p not in taken]
    for _ in range(count):
        if not free:
            break
        p = rng.choice(free)
        out[p] = out.get(p, 0) + 1
    return out


def random_position(
    rng: random.Random,
    *,
    mover_points: list[int],
    mover_count: int,
    mover_bar: int = 0,
    opponent_points: list[int] | None = None,
    opponent_count: int = 15,
    opponent_bar: int = 0,
    closed_mirror: list[int] | None = None,
) -> Position:
    """Random placement; ``closed_mirror`` are mover points the opponent holds with 2+."""
    opponent: dict[int, int] = {}
    taken_mirror: set[int] = set()
    left = opponent_count
    for p in closed_mirror or []:
        n = min(left, rng.choice((2, 2, 3)))
        if n < 2:
            break
        opponent[25 - p] = n
        taken_mirror.add(p)
        left -= n
    mover = _place(rng, mover_count, mover_points, taken_mirror)
    if mover_bar:
        mover[25] = mover_bar
    pool = opponent_points or list(range(1, 25))
    extra = _place(rng, max(0, left - opponent_bar), pool, {25 - p for p in mover})
    for p, c in extra.items():
        opponent[p] = opponent.get(p, 0) + c
    if opponent_bar:
        opponent[25] = opponent_bar
    return Position.from_points(mover, opponent)


def _dice_used(position: Position, roll: Dice) -> int:
    return max(len(p.moves) for p in legal_plays(position, roll))


def _bar_closed(rng: random.Random) -> Position:
    return random_position(
        rng,
        mover_points=list(range(1, 25)),
        mover_count=rng.randint(8, 13),
        mover_bar=rng.randint(1, 3),
        closed_mirror=rng.sample(range(19, 25), rng.randint(2, 6)),
    )


def _any(rng: random.Random) -> Position:
    return random_position(
        rng,
        mover_points=list(range(1, 25)),
        mover_count=rng.randint(3, 15),
        mover_bar=rng.choice((0, 0, 0, 1)),
        closed_mirror=rng.sample(range(1, 25), rng.randint(3, 7)),
    )


def _home(rng: random.Random) -> Position:
    return random_position(
        rng,
        mover_points=list(range(1, rng.randint(2, 6) + 1)),
        mover_count=rng.randint(1, 15),
        opponent_count=rng.randint(1, 15),
    )


def _home_with_blots(rng: random.Random) -> Position:
    mover = _place(rng, rng.randint(3, 14), list(range(1, 7)), set())
    blots = rng.sample([p for p in range(1, 7) if p not in mover] or [1], 1)
    opponent: dict[int, int] = {}
    for p in blots:
        if p not in mover:
            opponent[25 - p] = 1
    opponent[25] = rng.randint(0, 2)
    rest = 15 - sum(opponent.values()) - rng.randint(0, 5)
    more = _place(rng, rest, list(range(1, 19)), {25 - p for p in mover})
    for p, c in more.items():
        opponent[p] = opponent.get(p, 0) + c
    return Position.from_points(mover, opponent)


Trap = tuple[Callable[[random.Random], Position], Callable[[Position, Dice], bool]]

TRAPS: dict[str, Trap] = {
    "bar_entry_closed": (_bar_closed, lambda pos, r: pos.mover_bar > 0),
    "larger_die_rule": (
        _any,
        lambda pos, r: (
            not r.is_double
            and _dice_used(pos, r) == 1
            and len(legal_plays(pos, (max(r), max(r)))[0].moves) > 0
            and len(legal_plays(pos, (min(r), min(r)))[0].moves) > 0
        ),
    ),
    "only_one_die": (_any, lambda pos, r: not r.is_double and _dice_used(pos, r) == 1),
    "doubles_partly": (_any, lambda pos, r: r.is_double and 1 <= _dice_used(pos, r) <= 3),
    "bear_off_higher_die": (
        _home,
        lambda pos, r: max(r) > max(p for p in range(1, 7) if pos.board[p] > 0),
    ),
    "hit_in_bear_off": (
        _home_with_blots,
        lambda pos, r: any(m.hit for p in legal_plays(pos, r) for m in p.moves),
    ),
    "no_legal_move": (_any, lambda pos, r: not legal_plays(pos, r)[0].moves),
}


def crafted(name: str, count: int = 50, seed: int = 7) -> list[Position]:
    """``count`` distinct positions of one trap family, each biting for at least one roll."""
    make, bites = TRAPS[name]
    rng = random.Random(f"{name}:{seed}")
    out: list[Position] = []
    seen: set[Position] = set()
    attempts = 0
    while len(out) < count:
        attempts += 1
        if attempts > 200_000:
            raise RuntimeError(f"could not craft {count} positions for {name}")
        try:
            position = make(rng)
        except ValueError:
            continue
        if position in seen or position.mover_off == 15 or position.opponent_off == 15:
            continue
        if any(bites(position, roll) for roll in ALL_ROLLS):
            seen.add(position)
            out.append(position)
    return out


def all_crafted(count: int = 50) -> Iterator[tuple[str, Position]]:
    for name in TRAPS:
        for position in crafted(name, count):
            yield name, position
