"""A cup: single elimination, seeded, with byes when the field is not a power of two.

The field is seeded best first (the caller orders it by the group's rating). The bracket has
the next power of two of places; seeds are placed in the standard order (1 meets 16, 8 meets 9,
...), so the top two seeds can meet only in the final and the empty places (byes) fall to the
top seeds: with 5 players seeds 1, 2 and 3 have a bye and seeds 4 and 5 play the first round.

A :class:`Bracket` is a value: its rounds of :class:`BracketGame`, each game's players either
known or still to come from the two games it follows. :meth:`Bracket.decide` returns a new
bracket with a winner set and carried into the next round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

CUP_MIN = 2
CUP_MAX = 64


def bracket_size(players: int) -> int:
    """The number of places: the smallest power of two at least ``players`` (2 at least)."""
    size = 2
    while size < players:
        size *= 2
    return size


def seed_order(size: int) -> list[int]:
    """The 1-based seeds in bracket order for ``size`` places (a power of two): for 8,
    ``[1, 8, 4, 5, 2, 7, 3, 6]``; neighbours meet in the first round."""
    if size < 1 or size & (size - 1):
        raise ValueError("size must be a power of two")
    order = [1]
    while len(order) < size:
        n = len(order) * 2
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


@dataclass(frozen=True)
class BracketGame:
    """Game ``slot`` of round ``round`` (both 0-based): ``a`` and ``b`` are the players once
    known (``None``: still to come, or a bye in the first round); ``winner`` once decided; a
    bye's winner is decided at once (``bye``)."""

    round: int
    slot: int
    a: int | None
    b: int | None
    winner: int | None = None
    bye: bool = False

    @property
    def ready(self) -> bool:
        """Both players known and no winner yet: the match can be played."""
        return self.a is not None and self.b is not None and self.winner is None


@dataclass(frozen=True)
class Bracket:
    rounds: tuple[tuple[BracketGame, ...], ...]

    @classmethod
    def seeded(cls, players: Sequence[int]) -> Bracket:
        """The bracket of ``players`` ordered best first (distinct; at least two)."""
        if len(set(players)) != len(players):
            raise ValueError("players must be distinct")
        if len(players) < CUP_MIN:
            raise ValueError("a cup needs two players at least")
        size = bracket_size(len(players))
        order = seed_order(size)
        places = [players[s - 1] if s <= len(players) else None for s in order]
        first = tuple(BracketGame(0, i, places[2 * i], places[2 * i + 1])
                      for i in range(size // 2))
        rounds: list[tuple[BracketGame, ...]] = [first]
        games = size // 4
        r = 1
        while games >= 1:
            rounds.append(tuple(BracketGame(r, i, None, None) for i in range(games)))
            games //= 2
            r += 1
        bracket = cls(tuple(rounds))
        for g in first:
            if g.a is None or g.b is None:
                only = g.a if g.a is not None else g.b
                assert only is not None  # byes never meet byes: seeds fill every pair's top
                bracket = bracket.decide(0, g.slot, only, bye=True)
        return bracket

    def game(self, round_: int, slot: int) -> BracketGame:
        return self.rounds[round_][slot]

    def decide(self, round_: int, slot: int, winner: int, *, bye: bool = False) -> Bracket:
        """The bracket with game ``(round_, slot)`` won by ``winner``, who is carried into the
        next round's game (as ``a`` from an even slot, ``b`` from an odd one)."""
        g = self.game(round_, slot)
        if winner not in (g.a, g.b) or winner is None:
            raise ValueError(f"{winner} is not playing game {round_}/{slot}")
        if g.winner is not None:
            raise ValueError(f"game {round_}/{slot} is already decided")
        rounds = [list(r) for r in self.rounds]
        rounds[round_][slot] = replace(g, winner=winner, bye=bye)
        if round_ + 1 < len(rounds):
            nxt = rounds[round_ + 1][slot // 2]
            rounds[round_ + 1][slot // 2] = (replace(nxt, a=winner) if slot % 2 == 0
                                              else replace(nxt, b=winner))
        return Bracket(tuple(tuple(r) for r in rounds))

    @property
    def champion(self) -> int | None:
        return self.rounds[-1][0].winner

    def ready(self) -> list[BracketGame]:
        """The games that can be played now."""
        return [g for r in self.rounds for g in r if g.ready]

    def current_round(self) -> int:
        """The first round with a game still undecided (the last round once it is over)."""
        for r, games in enumerate(self.rounds):
            if any(g.winner is None for g in games):
                return r
        return len(self.rounds) - 1
