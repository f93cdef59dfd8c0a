"""How the game's calls are spaced in a group whose board a match is played on
(:func:`bot.delivery.pacing.spacing`, pure): at once up to half the window, then more the
fuller it is, up to the window's average rate when it is full; a call about to leave the
window does not count."""

from __future__ import annotations

import pytest

from bot.delivery.pacing import spacing


def calls(n: int, last: float) -> list[float]:
    """``n`` calls in the window, the last at ``last``, the others long before it."""
    return [*(10.0 + i * 0.1 for i in range(n - 1)), last] if n else []


@pytest.mark.parametrize(("in_window", "wait"), [
    (0, 0.0), (4, 0.0), (7, 0.0), (8, 0.0),  # a tap after a quiet spell goes at once
    (9, 0.46875), (10, 0.9375), (12, 1.875), (15, 3.28125), (16, 3.75), (20, 3.75),
])
def test_the_spacing_grows_from_half_the_window(in_window: int, wait: float) -> None:
    now = 50.0
    assert spacing(calls(in_window, now), 16, 60.0, now) == pytest.approx(wait)


def test_the_spacing_runs_from_the_last_call_and_the_window_forgets() -> None:
    times = calls(16, 48.0)
    assert spacing(times, 16, 60.0, 50.0) == pytest.approx(1.75)
    assert spacing(times, 16, 60.0, 52.0) == 0.0
    # a minute on, the first ones left the window: fewer than half remain
    assert spacing(times, 16, 60.0, 71.5) == 0.0
    assert spacing([], 16, 60.0, 50.0) == 0.0 and spacing(times, 3, 60.0, 50.0) == 0.0


def test_calls_about_to_leave_the_window_leave_their_room() -> None:
    """A full window whose oldest calls leave it within one average spacing (3.75 s here) does
    not hold the next call back for that spacing: they no longer count."""
    leaving = [0.5 + i * 0.1 for i in range(15)]  # in the window until 60.5-61.9
    assert spacing([*leaving, 59.0], 16, 60.0, 60.0) == 0.0
    staying = [10.0 + i * 0.1 for i in range(15)]  # in the window until 70-71.4
    assert spacing([*staying, 59.0], 16, 60.0, 60.0) == pytest.approx(2.75)
    # the margin widens the window: with it, the calls stay long enough to count
    assert spacing([*leaving, 59.0], 16, 60.0, 60.0, margin=4.0) == pytest.approx(2.75)
