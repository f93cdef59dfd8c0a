"""Round-robin pairings by the circle method (Berger tables).

With ``n`` players (a bye added when ``n`` is odd) there are ``n - 1`` rounds; the first
player stays put and the others turn around it one place per round, so each pair meets exactly
once. Seats alternate so that nobody is seat 0 (who rolls first in a game that has no opening
roll) far more often than anyone else. A double round robin plays the same rounds again with
the seats swapped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Pairing:
    """One match of a round: ``home`` takes seat 0, ``away`` seat 1 (0-based ``round``)."""

    round: int
    home: int
    away: int


def round_robin(players: Sequence[int], *, double: bool = False) -> list[list[Pairing]]:
    """The rounds of a round robin among ``players`` (distinct), each a list of pairings; a
    player with a bye in a round simply has no pairing in it."""
    if len(set(players)) != len(players):
        raise ValueError("players must be distinct")
    if len(players) < 2:
        return []
    circle: list[int | None] = list(players)
    if len(circle) % 2:
        circle.append(None)
    n = len(circle)
    rounds: list[list[Pairing]] = []
    for r in range(n - 1):
        pairs: list[Pairing] = []
        for i in range(n // 2):
            a, b = circle[i], circle[n - 1 - i]
            if a is None or b is None:
                continue
            # the fixed player alternates seats round by round; the others by table
            swap = (r % 2 == 1) if i == 0 else (i % 2 == 1)
            home, away = (b, a) if swap else (a, b)
            pairs.append(Pairing(r, home, away))
        rounds.append(pairs)
        circle = [circle[0], circle[-1], *circle[1:-1]]
    if double:
        half = len(rounds)
        rounds += [[Pairing(half + p.round, p.away, p.home) for p in pairs] for pairs in rounds]
    return rounds
