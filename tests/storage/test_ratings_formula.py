"""The FIBS formula against numbers worked out by hand."""

from __future__ import annotations

import pytest

from storage.ratings import Standing, k_factor, rate, upset_probability


def test_newcomers_of_equal_rating_swing_ten_points_over_one_point() -> None:
    # P = 0.5, K = 5 for both: 4 * 5 * 1 * 0.5 = 10
    won, lost = rate(Standing(), Standing(), 1)
    assert won == Standing(1510.0, 1, 1)
    assert lost == Standing(1490.0, 1, 1)


def test_experienced_equals_exchange_two_points() -> None:
    won, lost = rate(Standing(1500, 400, 50), Standing(1500, 900, 80), 1)
    assert won.rating == pytest.approx(1502.0)
    assert lost.rating == pytest.approx(1498.0)
    assert (won.experience, lost.experience) == (401, 901)


def test_underdog_and_favourite_in_a_four_point_match() -> None:
    # D = 100, sqrt(4) = 2: P_upset = 1 / (10 ** 0.1 + 1) = 1 / 2.258925 = 0.442688
    assert upset_probability(100, 4) == pytest.approx(0.442688, abs=1e-6)
    fav, dog = Standing(1600, 500), Standing(1500, 500)
    # the underdog wins: P = 0.557312, 4 * 1 * 2 * P = 4.458496
    won, lost = rate(dog, fav, 4)
    assert won.rating == pytest.approx(1504.458496, abs=1e-5)
    assert lost.rating == pytest.approx(1595.541504, abs=1e-5)
    # the favourite wins: P = 0.442688, 4 * 2 * P = 3.541504
    won, lost = rate(fav, dog, 4)
    assert won.rating == pytest.approx(1603.541504, abs=1e-5)
    assert lost.rating == pytest.approx(1496.458496, abs=1e-5)


def test_experience_scales_each_side_on_its_own() -> None:
    assert k_factor(0) == 5.0
    assert k_factor(250) == 2.5
    assert k_factor(400) == 1.0
    assert k_factor(10_000) == 1.0
    # equal ratings, 3-point match: 4 * sqrt(3) * 0.5 = 3.464102; winner K = 2.5, loser K = 5
    won, lost = rate(Standing(1500, 250), Standing(1500, 0), 3)
    assert won.rating == pytest.approx(1500 + 2.5 * 3.464102, abs=1e-5)
    assert lost.rating == pytest.approx(1500 - 5 * 3.464102, abs=1e-5)
