"""Dice sources: the match never rolls dice itself, it asks an injected source for die number n.

A source is indexed, so the match state only needs to remember how many dice it has drawn; the
same source and the same count reproduce every roll of the match, opening-roll ties included.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from rules.errors import InvalidAction


class DiceSource(Protocol):
    """Where the match's dice come from: ``die(n)`` is the n-th die of the match (from 0)."""

    def die(self, index: int) -> int:
        """Return die number ``index`` (1-6); the same index always gives the same die."""
        ...


class SeededDice:
    """A reproducible source for tests and benchmarks, from ``random.Random(seed)``."""

    def __init__(self, seed: int | str) -> None:
        self._rng = random.Random(seed)
        self._dice: list[int] = []

    def die(self, index: int) -> int:
        while len(self._dice) <= index:
            self._dice.append(self._rng.randint(1, 6))
        return self._dice[index]


class RecordedDice:
    """Replays a recorded sequence of dice; asking past its end is an error."""

    def __init__(self, dice: Sequence[int]) -> None:
        if any(not 1 <= d <= 6 for d in dice):
            raise ValueError("dice must be 1-6")
        self._dice = tuple(dice)

    def die(self, index: int) -> int:
        if index >= len(self._dice):
            raise InvalidAction(f"The recorded dice ran out at die {index + 1}")
        return self._dice[index]


class LoggingDice:
    """Wraps a source and remembers every die handed out (for recording a match)."""

    def __init__(self, source: DiceSource) -> None:
        self._source = source
        self.drawn: dict[int, int] = {}

    def die(self, index: int) -> int:
        value = self._source.die(index)
        self.drawn[index] = value
        return value
