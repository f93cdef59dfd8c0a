"""Competitions, pure: round-robin pairings, the league's tie-breaks, the cup's bracket."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from rules.competition import Bracket, Result, round_robin, seed_order, standings


@pytest.mark.parametrize("n", range(2, 13))
def test_every_pair_meets_once_and_nobody_twice_a_round(n: int) -> None:
    players = [10 * i for i in range(1, n + 1)]
    rounds = round_robin(players)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met = Counter(frozenset((p.home, p.away)) for r in rounds for p in r)
    assert set(met) == {frozenset(c) for c in combinations(players, 2)}
    assert set(met.values()) == {1}
    for r in rounds:
        seated = [x for p in r for x in (p.home, p.away)]
        assert len(seated) == len(set(seated))


@pytest.mark.parametrize("n", range(3, 13))
def test_seats_are_balanced(n: int) -> None:
    rounds = round_robin(list(range(n)))
    home = Counter(p.home for r in rounds for p in r)
    assert max(home.values()) - min(home[p] for p in range(n)) <= 2


def test_a_double_round_robin_swaps_the_seats() -> None:
    rounds = round_robin([1, 2, 3, 4], double=True)
    assert len(rounds) == 6
    seats = Counter((p.home, p.away) for r in rounds for p in r)
    assert set(seats.values()) == {1} and len(seats) == 12
    assert [p.round for p in rounds[3]] == [3, 3]


def test_distinct_players_only() -> None:
    with pytest.raises(ValueError):
        round_robin([1, 1, 2])


def test_points_then_sum_of_beaten_opponents() -> None:
    # A beats B and C, loses to D; D beats A only; B beats C and D; C beats D
    # A 2, B 2, C 1, D 1. A beat B(2)+C(1) = 3; B beat C(1)+D(1) = 2: A first on the sum.
    r = [Result(1, 2, 1), Result(1, 3, 1), Result(1, 4, 4), Result(2, 3, 2), Result(2, 4, 2),
         Result(3, 4, 3)]
    table = standings([1, 2, 3, 4], r)
    # C and D: C beat D (1) -> 1; D beat A (2) -> 2: D above C
    assert [row.player for row in table] == [1, 2, 4, 3]
    assert [row.points for row in table] == [2, 2, 1, 1]
    assert [row.tiebreak for row in table] == [3, 2, 2, 1]
    assert [row.decided_by for row in table] == ["", "sum", "points", "sum"]


def test_head_to_head_after_an_equal_sum() -> None:
    # A and B both 1 point with the same sum, A beat B: A first, by head to head.
    r = [Result(1, 2, 1), Result(2, 3, 2), Result(3, 1, 3)]
    # a three-way cycle: all 1 point, sums all 1, head to head all 1: sign-up order
    table = standings([1, 2, 3], r)
    assert [row.player for row in table] == [1, 2, 3]
    assert [row.decided_by for row in table] == ["", "order", "order"]
    # the same, but 3 gave up a match to 1 by forfeit too (double round robin)
    r2 = [*r, Result(1, 2, 2), Result(2, 3, 3), Result(3, 1, 1, forfeit=True)]
    table = standings([1, 2, 3], r2)
    assert table[2].player == 3 and table[2].forfeits == 1 and table[2].decided_by == "forfeits"


HEAD_TO_HEAD = [(1, 4, 4), (3, 2, 2), (3, 1, 1), (2, 4, 4), (1, 2, 2), (4, 3, 3),
                (4, 1, 1), (2, 3, 3), (1, 3, 3), (4, 2, 4), (2, 1, 2), (3, 4, 3)]
"""A 4-player double league (its pairings in :func:`round_robin`'s order) where 2 and 4 end
level on points (3) and on the sum (8), and 4 beat 2 twice."""


def test_head_to_head_decides_between_two() -> None:
    results = [Result(a, b, w) for a, b, w in HEAD_TO_HEAD]
    pairs = [(p.home, p.away) for r in round_robin([1, 2, 3, 4], double=True) for p in r]
    assert pairs == [(a, b) for a, b, _ in HEAD_TO_HEAD]
    table = standings([1, 2, 3, 4], results)
    assert [(r.player, r.points, r.tiebreak) for r in table] == [
        (3, 4, 11), (4, 3, 8), (2, 3, 8), (1, 2, 7)]
    assert [r.decided_by for r in table] == ["", "points", "head", "points"]
    assert table[1].head_to_head == 2 and table[2].head_to_head == 0


def test_gammon_points_when_chosen() -> None:
    r = [Result(1, 2, 1, points=2), Result(2, 3, 2), Result(3, 1, 3)]
    plain = standings([1, 2, 3], r)
    gammons = standings([1, 2, 3], r, gammons=True)
    assert [row.points for row in plain] == [1, 1, 1]
    assert gammons[0].player == 1 and gammons[0].points == 2 and gammons[1].decided_by == "points"


def test_a_result_between_strangers_is_refused() -> None:
    with pytest.raises(ValueError):
        standings([1, 2], [Result(1, 3, 1)])


def test_seed_order_keeps_the_top_seeds_apart() -> None:
    assert seed_order(2) == [1, 2]
    assert seed_order(4) == [1, 4, 2, 3]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    order = seed_order(64)
    assert sorted(order) == list(range(1, 65))
    assert order.index(2) >= 32  # 1 and 2 in different halves
    for i in range(0, 64, 2):
        assert order[i] + order[i + 1] == 65


def test_a_five_player_cup_has_three_byes_and_advances() -> None:
    b = Bracket.seeded([50, 40, 30, 20, 10])  # best first
    first = b.rounds[0]
    assert [(g.a, g.b, g.bye) for g in first] == [
        (50, None, True), (20, 10, False), (40, None, True), (30, None, True)]
    assert [(g.a, g.b) for g in b.ready()] == [(20, 10), (40, 30)]
    b = b.decide(0, 1, 10)
    assert b.game(1, 0).a == 50 and b.game(1, 0).b == 10
    b = b.decide(1, 1, 30).decide(1, 0, 50)
    assert (b.game(2, 0).a, b.game(2, 0).b) == (50, 30) and b.current_round() == 2
    b = b.decide(2, 0, 30)
    assert b.champion == 30 and b.ready() == []
    with pytest.raises(ValueError):
        b.decide(2, 0, 50)


def test_a_cup_needs_two() -> None:
    with pytest.raises(ValueError):
        Bracket.seeded([1])
    b = Bracket.seeded([1, 2])
    assert len(b.rounds) == 1 and b.ready()[0].a == 1


@pytest.mark.parametrize("n", [3, 6, 7, 9, 33, 64])
def test_byes_only_in_the_first_round_and_never_against_each_other(n: int) -> None:
    b = Bracket.seeded(list(range(n)))
    byes = [g for g in b.rounds[0] if g.bye]
    assert len(byes) == len(b.rounds[0]) * 2 - n
    assert all(g.a is not None for g in b.rounds[0])
