"""A match-equity table for matches played without a doubling cube.

``match_equity(a, b)`` is the chance that a side needing ``a`` more points wins the match
against a side needing ``b``, before a new game starts. Without a cube there is no Crawford
rule and no cube leverage, so the table is a short dynamic program over the scores: each game is
won by either side with chance 1/2 (the start is symmetric: the opening roll decides who moves
first), and a win is a gammon or a backgammon at the rates below::

    M(a, b) = sum over k in {1, 2, 3} of p_k * (M(a - k, b) + M(a, b - k))
    M(a <= 0, b > 0) = 1,   M(a > 0, b <= 0) = 0

with ``p_1 = (1 - G) / 2``, ``p_2 = (G - B) / 2``, ``p_3 = B / 2`` (``p_2 += p_3`` and ``p_3 = 0``
with "no triple").

Gammon rates assumed (document, don't guess): GNU Backgammon's neural net evaluates the opening
position (cubeless, 0-ply) at 15.4 % gammons won and 13.0 % lost per game, i.e. 28.4 % of all
games end in a gammon or backgammon, and 1.5 % in a backgammon. As a fraction of the wins of
either side that is ``G = 0.28`` and ``B = 0.015``.
"""

from __future__ import annotations

from functools import lru_cache

GAMMON_RATE = 0.28
"""Fraction of wins that are gammons or backgammons."""
BACKGAMMON_RATE = 0.015
"""Fraction of wins that are backgammons."""
MAX_AWAY = 25
"""Largest table built (a 7-point match needs 7; bigger tables cost nothing)."""


@lru_cache(maxsize=32)
def match_equity_table(
    size: int = MAX_AWAY,
    *,
    no_triple: bool = False,
    gammon_rate: float = GAMMON_RATE,
    backgammon_rate: float = BACKGAMMON_RATE,
) -> tuple[tuple[float, ...], ...]:
    """``table[a][b]`` = chance to win the match needing ``a`` vs ``b`` (``1 <= a, b <= size``).

    Row and column 0 are filled with the finished-match values (``a == 0``: 1, ``b == 0``: 0;
    ``table[0][0]`` is meaningless and 0.5).
    """
    if not 0 <= backgammon_rate <= gammon_rate <= 1:
        raise ValueError("need 0 <= backgammon_rate <= gammon_rate <= 1")
    p1 = (1.0 - gammon_rate) / 2
    p2 = (gammon_rate - backgammon_rate) / 2
    p3 = backgammon_rate / 2
    if no_triple:
        p2, p3 = p2 + p3, 0.0
    weights = ((1, p1), (2, p2), (3, p3))
    m = [[0.5] * (size + 1) for _ in range(size + 1)]
    for a in range(size + 1):
        for b in range(size + 1):
            if a == 0 and b == 0:
                continue
            if a == 0:
                m[a][b] = 1.0
            elif b == 0:
                m[a][b] = 0.0

    def at(a: int, b: int) -> float:
        return m[max(a, 0)][max(b, 0)] if a > 0 or b > 0 else 0.5

    for total in range(2, 2 * size + 1):
        for a in range(max(1, total - size), min(size, total - 1) + 1):
            b = total - a
            m[a][b] = sum(p * (at(a - k, b) + at(a, b - k)) for k, p in weights)
    return tuple(tuple(row) for row in m)


def match_equity(
    mover_away: int,
    opponent_away: int,
    *,
    no_triple: bool = False,
    gammon_rate: float = GAMMON_RATE,
    backgammon_rate: float = BACKGAMMON_RATE,
) -> float:
    """Chance that the side needing ``mover_away`` points wins the match (before a game).

    ``mover_away <= 0`` means that side has already won (1.0); ``opponent_away <= 0`` lost (0.0).
    """
    if mover_away <= 0:
        return 1.0
    if opponent_away <= 0:
        return 0.0
    size = max(MAX_AWAY, mover_away, opponent_away)
    table = match_equity_table(
        size,
        no_triple=no_triple,
        gammon_rate=gammon_rate,
        backgammon_rate=backgammon_rate,
    )
    return table[mover_away][opponent_away]
