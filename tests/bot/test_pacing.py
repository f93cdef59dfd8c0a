"""How the game's calls are spaced in a group whose board a match is played on
(:func:`bot.delivery.pacing.spacing`, pure): at once up to three quarters of the window, then
more the fuller it is, up to the window's average rate when it is full."""

from __future__ import annotations

import pytest

from bot.delivery.pacing import spacing


def calls(n: int, last: float) -> list[float]:
    """``n`` calls in the window, the last at ``last``, the others long before it."""
    return [*(1.0 + i * 0.1 for i in range(n - 1)), last] if n else []


@pytest.mark.parametrize(("in_window", "wait"), [
    (0, 0.0), (8, 0.0), (11, 0.0), (12, 0.0),  # a tap after a quiet spell goes at once
    (13, 0.9375), (14, 1.875), (15, 2.8125), (16, 3.75), (20, 3.75),
])
def test_the_spacing_grows_from_three_quarters_of_the_window(in_window: int,
                                                           wait: float) -> None:
    now = 50.0
    assert spacing(calls(in_window, now), 16, 60.0, now) == pytest.approx(wait)


def test_the_spacing_runs_from_the_last_call_and_the_window_forgets() -> None:
    times = calls(16, 48.0)
    assert spacing(times, 16, 60.0, 50.0) == pytest.approx(1.75)
    assert spacing(times, 16, 60.0, 52.0) == 0.0
    # a minute on, the first ones left the window: fewer than three quarters remain
    assert spacing(times, 16, 60.0, 61.5) == 0.0
    assert spacing([], 16, 60.0, 50.0) == 0.0 and spacing(times, 3, 60.0, 50.0) == 0.0
