"""The cubeless match-equity table against numbers worked out by hand."""

from __future__ import annotations

import pytest

from computer.context import MatchContext
from computer.engine import Probabilities
from computer.evaluation import equity, match_winning_chance, money_equity
from computer.met import BACKGAMMON_RATE, GAMMON_RATE, match_equity, match_equity_table


def test_one_away_each_is_even() -> None:
    assert match_equity(1, 1) == pytest.approx(0.5)


def test_finished_matches() -> None:
    assert match_equity(0, 3) == 1.0
    assert match_equity(2, 0) == 0.0


def test_symmetric_entries_sum_to_one() -> None:
    table = match_equity_table()
    for a in range(1, 8):
        for b in range(1, 8):
            assert table[a][b] + table[b][a] == pytest.approx(1.0)
        assert table[a][a] == pytest.approx(0.5)


def test_without_gammons_it_is_the_simple_recursion() -> None:
    def plain(a: int, b: int) -> float:
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        return 0.5 * plain(a - 1, b) + 0.5 * plain(a, b - 1)

    # 2-away/1-away: win the next two games: 1/4
    assert match_equity(2, 1, gammon_rate=0, backgammon_rate=0) == pytest.approx(0.25)
    # 2-away/3-away: at least 2 wins out of the next 4 games: 11/16
    assert match_equity(2, 3, gammon_rate=0, backgammon_rate=0) == pytest.approx(11 / 16)
    for a in range(1, 6):
        for b in range(1, 6):
            assert match_equity(a, b, gammon_rate=0, backgammon_rate=0) == pytest.approx(
                plain(a, b)
            )


def test_two_away_one_away_with_gammons() -> None:
    # Needing 2 against 1: a single win leads to 1-away/1-away (1/2), a gammon wins the match.
    g = GAMMON_RATE
    expected = 0.5 * (1 - g) * 0.5 + 0.5 * g * 1.0
    assert match_equity(2, 1) == pytest.approx(expected)


def test_three_away_one_away_by_hand() -> None:
    # Needing 3 against 1: single win -> 2a-1a, gammon -> 1a-1a, backgammon wins the match.
    g, b = GAMMON_RATE, BACKGAMMON_RATE
    expected = 0.5 * (1 - g) * match_equity(2, 1) + 0.5 * (g - b) * 0.5 + 0.5 * b
    assert match_equity(3, 1) == pytest.approx(expected)
    # with no triple a backgammon is a gammon
    expected_nt = 0.5 * (1 - g) * match_equity(2, 1, no_triple=True) + 0.5 * g * 0.5
    assert match_equity(3, 1, no_triple=True) == pytest.approx(expected_nt)


def test_a_gammon_is_worth_nothing_extra_in_a_one_point_match() -> None:
    single = Probabilities(0.6, 0.0, 0.0, 0.0, 0.0)
    gammons = Probabilities(0.6, 0.5, 0.2, 0.3, 0.1)
    one_point = MatchContext(match_length=1)
    assert match_winning_chance(single, one_point) == pytest.approx(0.6)
    assert match_winning_chance(gammons, one_point) == pytest.approx(0.6)
    assert equity(gammons, one_point) == pytest.approx(0.2)
    # in a single game the same gammons are worth a lot
    assert money_equity(gammons) == pytest.approx(0.2 + 0.5 - 0.3 + 0.2 - 0.1)


def test_no_triple_makes_a_backgammon_a_gammon() -> None:
    p = Probabilities(0.7, 0.4, 0.3, 0.0, 0.0)
    assert money_equity(p) - money_equity(p, no_triple=True) == pytest.approx(0.3)


def test_gammon_value_at_match_score() -> None:
    # Leading 4-0 in a 5-point match (1-away): winning a gammon is no better than a single win.
    leading = MatchContext(match_length=5, mover_score=4, opponent_score=0)
    win_single = Probabilities(1.0, 0.0, 0.0, 0.0, 0.0)
    win_gammon = Probabilities(1.0, 1.0, 0.0, 0.0, 0.0)
    assert match_winning_chance(win_single, leading) == 1.0
    assert match_winning_chance(win_gammon, leading) == 1.0
    # Trailing 0-4 (5-away vs 1-away): a gammon is worth more than a single win.
    trailing = leading.flipped()
    assert match_winning_chance(win_gammon, trailing) > match_winning_chance(win_single, trailing)
    # Normalised equity: a single win is +1, a single loss -1, at any score.
    assert equity(win_single, trailing) == pytest.approx(1.0)
    assert equity(win_single.flipped(), trailing) == pytest.approx(-1.0)


def test_context_validation() -> None:
    with pytest.raises(ValueError):
        MatchContext(match_length=3, mover_score=3)
    with pytest.raises(ValueError):
        MatchContext(match_length=0, mover_score=1)
    assert MatchContext(5, 1, 3, True).flipped() == MatchContext(5, 3, 1, True)
