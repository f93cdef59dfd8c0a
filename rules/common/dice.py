"""A roll (:class:`Dice`), and dice sources: the match never rolls dice itself, it asks an
injected source for die number n.

A source is indexed, so the match state only needs to remember how many dice it has drawn; the
same source and the same count reproduce every roll of the match, opening-roll ties included.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple, Protocol

from rules.common.errors import IllegalPlay, InvalidAction


class Dice(NamedTuple):
    """A roll of two dice."""

    die1: int
    die2: int

    @classmethod
    def of(cls, die1: int, die2: int) -> Dice:
        if not (1 <= die1 <= 6 and 1 <= die2 <= 6):
            raise IllegalPlay(f"Dice must be 1-6, not {die1}-{die2}")
        return cls(die1, die2)

    @property
    def is_double(self) -> bool:
        return self.die1 == self.die2

    def values(self) -> tuple[int, ...]:
        """The dice to play: four of a double, else the two dice."""
        if self.die1 == self.die2:
            return (self.die1,) * 4
        return (self.die1, self.die2)

    def __str__(self) -> str:
        """The roll as players say it, the higher die first ("6-2", whichever came first)."""
        return f"{max(self)}-{min(self)}"


ALL_ROLLS: tuple[Dice, ...] = tuple(Dice(a, b) for a in range(1, 7) for b in range(a, 7))
"""The 21 distinct rolls (6 doubles, 15 mixed)."""


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

