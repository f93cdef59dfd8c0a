"""A league's standings: points, then the tie-breaks, in a stated order.

Points: a match won scores 1 (``gammons``: the points of the game that decided it, 1 for a
single game, 2 for a gammon, 3 for a backgammon, so a league may reward gammons as BrainKing's
0/1/3/5 sections do). A match lost, lost on time, resigned or forfeited scores 0; a match that
never ended (the league's deadline passed) scores nobody anything.

Order, each step only among the players still tied:

1. points;
2. the **Sonneborn-Berger-style sum**: the points of every opponent you beat, added once per
   match you beat them in (beating the strong counts more than beating the weak);
3. **head to head**: points scored in the matches among the tied players only;
4. fewer forfeits (matches given up by leaving the group, blocking the bot, or not moving);
5. the sign-up order (the earlier sign-up first), so the order is always total.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

LEAGUE_MIN = 3
LEAGUE_MAX = 12


@dataclass(frozen=True)
class Result:
    """A finished match of the league between ``a`` and ``b``: won by ``winner`` (one of
    them), worth ``points`` (1, 2 or 3: how the deciding game ended); ``forfeit``: the loser
    gave it up without playing it out (left, blocked the bot, or ran out the deadline)."""

    a: int
    b: int
    winner: int
    points: int = 1
    forfeit: bool = False

    @property
    def loser(self) -> int:
        return self.b if self.winner == self.a else self.a


@dataclass(frozen=True)
class Row:
    """One line of the table: ``place`` is 1-based; ``shared`` is True when the tie-breaks
    after points decided it (the card marks those)."""

    place: int
    player: int
    played: int
    won: int
    lost: int
    points: int
    tiebreak: int
    head_to_head: int
    forfeits: int
    decided_by: str
    """What set this row apart from the row above: ``points``, ``sum`` (the sum of beaten
    opponents' points), ``head`` (head to head), ``forfeits``, ``order`` (sign-up), or ``""``
    for the first row."""


def _score(result: Result, gammons: bool) -> int:
    return max(1, min(3, result.points)) if gammons else 1


def standings(players: Sequence[int], results: Sequence[Result], *,
              gammons: bool = False) -> list[Row]:
    """The table of ``players`` (in sign-up order) after ``results``, best first."""
    index = {p: i for i, p in enumerate(players)}
    points = dict.fromkeys(players, 0)
    won = dict.fromkeys(players, 0)
    lost = dict.fromkeys(players, 0)
    forfeits = dict.fromkeys(players, 0)
    for r in results:
        if r.a not in index or r.b not in index or r.winner not in (r.a, r.b):
            raise ValueError(f"a result between strangers: {r}")
        points[r.winner] += _score(r, gammons)
        won[r.winner] += 1
        lost[r.loser] += 1
        if r.forfeit:
            forfeits[r.loser] += 1
    tiebreak = dict.fromkeys(players, 0)
    for r in results:
        tiebreak[r.winner] += points[r.loser]

    def head(p: int, group: set[int]) -> int:
        return sum(_score(r, gammons) for r in results
                   if r.winner == p and r.loser in group)

    heads = dict.fromkeys(players, 0)
    by_points: dict[tuple[int, int], set[int]] = {}
    for p in players:
        by_points.setdefault((points[p], tiebreak[p]), set()).add(p)
    for group in by_points.values():
        if len(group) > 1:
            for p in group:
                heads[p] = head(p, group)

    def key(p: int) -> tuple[int, int, int, int, int]:
        return (-points[p], -tiebreak[p], -heads[p], forfeits[p], index[p])

    ordered = sorted(players, key=key)
    rows: list[Row] = []
    names = ("points", "sum", "head", "forfeits", "order")
    for i, p in enumerate(ordered):
        decided = ""
        if i:
            above, here = key(ordered[i - 1]), key(p)
            decided = next(n for n, x, y in zip(names, above, here, strict=True) if x != y)
        rows.append(Row(i + 1, p, won[p] + lost[p], won[p], lost[p], points[p], tiebreak[p],
                        heads[p], forfeits[p], decided))
    return rows
