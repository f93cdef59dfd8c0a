"""Crafted Plakoto, Fevga and Long Nardy positions that put each special rule to work: random
boards with pins and pinned mothers (Plakoto), first checkers, full starting quarters and blocks
in front of a stack (Fevga), first turns and six-point blocks (Long Nardy); and option sets that
flip each named option. Seeded, for the agreement test and ``bench/tavli_agreement.py``."""

from __future__ import annotations

import random

from rules.tavliboard import TavliPosition, Variant, same_way_point
from rules.tavlioptions import FevgaOptions, NardyOptions, PlakotoOptions, RuleOptions

OPTION_SETS: dict[Variant, list[RuleOptions]] = {
    Variant.PLAKOTO: [
        RuleOptions(),
        RuleOptions(plakoto=PlakotoOptions(plakoto_pinned_blocks_bearoff=True)),
        RuleOptions(plakoto=PlakotoOptions(plakoto_mother_ends_turn=True)),
    ],
    Variant.FEVGA: [
        RuleOptions(),
        RuleOptions(fevga=FevgaOptions(fevga_first_until=11)),
        RuleOptions(fevga=FevgaOptions(fevga_start_quarter=False, fevga_unblock=False)),
        RuleOptions(fevga=FevgaOptions(fevga_prime="nardy")),
        RuleOptions(fevga=FevgaOptions(fevga_prime="nardy", prime_check="end")),
    ],
    Variant.NARDY: [
        RuleOptions(),
        RuleOptions(nardy=NardyOptions(nardy_head_doubles=(6, 4))),
        RuleOptions(nardy=NardyOptions(prime_check="end")),
        RuleOptions(nardy=NardyOptions(nardy_prime=False)),
    ],
}


def _place(rng: random.Random, points: list[int], n: int, weights: list[float]) -> dict[int, int]:
    out: dict[int, int] = {}
    for p in rng.choices(points, weights=weights, k=n):
        out[p] = out.get(p, 0) + 1
    return out


def crafted_plakoto(rng: random.Random) -> TavliPosition:
    """Checkers spread with pins, often a mother near or under a pin, sometimes bearing off."""
    board = [0] * 26
    pins = [0] * 26
    home = rng.random() < 0.25
    mine = _place(rng, list(range(1, 7)) if home else list(range(1, 25)), rng.randint(3, 12),
                  [1.0] * (6 if home else 24))
    for p, c in mine.items():
        board[p] = c
    for _ in range(rng.randint(0, 3)):  # my checkers pinned under lone opposing ones
        p = rng.choice([p for p in range(1, 25) if board[p] == 0] or [0])
        if p:
            board[p], pins[p] = -1, 1
    theirs = rng.randint(2, 14 - pins.count(1))
    free = [p for p in range(1, 25) if board[p] <= 0 and not pins[p]]
    for p in rng.choices(free, k=theirs):
        board[p] -= 1
    if rng.random() < 0.5 and board[1] == 0:  # their mother alone on their start
        board[1] = -1
    if rng.random() < 0.4:  # pin one of their lone checkers (maybe the mother)
        lone = [p for p in range(1, 25) if board[p] == -1 and not pins[p]]
        if lone and sum(c for c in board if c > 0) + pins.count(1) < 15:
            p = 1 if 1 in lone and rng.random() < 0.6 else rng.choice(lone)
            board[p], pins[p] = 1, -1
    if rng.random() < 0.15 and board[24] == 0 and pins.count(1) < 15 - sum(
            c for c in board if c > 0):  # my own mother pinned under one of theirs
        board[24], pins[24] = -1, 1
    return TavliPosition(Variant.PLAKOTO, board, pins)


def crafted_fevga(rng: random.Random) -> TavliPosition:
    kind = rng.randrange(3)
    board = [0] * 26
    if kind == 0:  # the first checker on its way, the rest on the start
        board[24] = 14 if rng.random() < 0.8 else 15
        if board[24] == 14:
            board[rng.randint(12, 23)] = 1
        their = rng.choice([12, 12, 11, 10])
        board[their] = -rng.randint(10, 15)
    elif kind == 1:  # a full or nearly full starting quarter
        for p in range(19, 25):
            board[p] = rng.randint(0, 2)
        board[24] = max(board[24], 1)
        board[rng.randint(1, 12)] += 1
        board[rng.choice([12, 10, 7, 3])] = -rng.randint(5, 15)
    else:  # all of theirs on one point, with (part of) a block in front of it
        s = rng.randint(7, 24)
        board[same_way_point(s)] = -rng.randint(1, 15)
        for q in range(s - 6, s):
            if rng.random() < 0.85:
                board[same_way_point(q)] = rng.randint(1, 2)
        spare = 15 - sum(c for c in board if c > 0)
        for p in rng.choices(range(1, 25), k=max(0, spare - rng.randint(0, 3))):
            if board[p] >= 0:
                board[p] += 1
    return TavliPosition(Variant.FEVGA, board)


def crafted_nardy(rng: random.Random) -> TavliPosition:
    board = [0] * 26
    if rng.random() < 0.3:  # a first turn, the other side moved or not
        board[24] = 15
        board[12] = -rng.choice([15, 14])
        if board[12] == -14:
            board[rng.randint(1, 11)] = -1
        return TavliPosition(Variant.NARDY, board)
    start = rng.randint(1, 19)  # five or six of mine in a row, theirs before or past them
    for p in range(start, start + rng.choice([5, 6])):
        board[p] = rng.randint(1, 2)
    board[24] += rng.randint(0, 3)
    spare = 15 - sum(c for c in board if c > 0)
    for p in rng.choices(range(1, 25), k=max(0, spare)):
        if board[p] >= 0:
            board[p] += 1
    free = [p for p in range(1, 25) if board[p] == 0]
    for p in rng.choices(free, k=rng.randint(1, 15)):
        board[p] -= 1
    return TavliPosition(Variant.NARDY, board)


CRAFTERS = {
    Variant.PLAKOTO: crafted_plakoto,
    Variant.FEVGA: crafted_fevga,
    Variant.NARDY: crafted_nardy,
}


def crafted_positions(variant: Variant, count: int, seed: int = 15) -> list[TavliPosition]:
    rng = random.Random(seed)
    out: list[TavliPosition] = []
    while len(out) < count:
        try:
            out.append(CRAFTERS[variant](rng))
        except ValueError:  # too many checkers on a side: draw again
            continue
    return out
