"""Seeded random self-play positions: the shared corpus of tests and benchmarks.

Deterministic for a seed (its own ``random.Random``), stdlib only, so tests, the differential
check against GNU Backgammon and ``bench/legal_plays.py`` all see the same positions.
"""

from __future__ import annotations

import random

from rules.games import game_outcome
from rules.position import Position, legal_plays
from rules.steps.board import StepsPosition, Variant
from rules.steps.legal import legal_plays as tavli_plays
from rules.steps.options import RuleOptions


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


def steps_selfplay_positions(
    variant: Variant | str, count: int, seed: int = 2026, options: RuleOptions | None = None
) -> list[StepsPosition]:
    """``count`` distinct Plakoto, Fevga or Long Nardy positions from random legal self-play
    (a game ends when a side bears off or a mother decides it)."""
    rng = random.Random(seed)
    seen: set[StepsPosition] = set()
    out: list[StepsPosition] = []
    while len(out) < count:
        position = StepsPosition.start_of(variant)
        while len(out) < count:
            if position not in seen:
                seen.add(position)
                out.append(position)
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            after = rng.choice(tavli_plays(position, dice, options)).position
            assert isinstance(after, StepsPosition)
            if after.is_game_over() or game_outcome(after) is not None:
                break
            position = after.flip()
    return out
