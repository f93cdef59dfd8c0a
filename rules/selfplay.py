"""Seeded random self-play positions: the shared corpus of tests and benchmarks.

Deterministic for a seed (its own ``random.Random``), stdlib only, so tests, the differential
check against GNU Backgammon and ``bench/legal_plays.py`` all see the same positions.
"""

from __future__ import annotations

import random

from rules.position import Position, legal_plays


def selfplay_positions(count: int, seed: int = 2026) -> list[Position]:
    """``count`` distinct positions (side to move on roll) from random legal self-play."""
    rng = random.Random(seed)
    seen: set[Position] = set()
    out: list[Position] = []
    while len(out) < count:
        position = Position.start()
        while not position.is_game_over() and len(out) < count:
            if position not in seen:
                seen.add(position)
                out.append(position)
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            position = rng.choice(legal_plays(position, dice)).position.flip()
    return out
