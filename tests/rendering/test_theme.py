"""Themes: frozen values, and the high-contrast theme stays clear for colour-blind players."""

from __future__ import annotations

import dataclasses

import pytest

from rendering import CLASSIC, HIGH_CONTRAST, THEMES
from rendering.theme import contrast_ratio, relative_luminance, simulate_deuteranopia


def test_contrast_arithmetic_matches_wcag():
    assert contrast_ratio((255, 255, 255), (0, 0, 0)) == pytest.approx(21.0)
    assert contrast_ratio((118, 118, 118), (255, 255, 255)) == pytest.approx(4.54, abs=0.01)
    assert relative_luminance((255, 0, 0)) == pytest.approx(0.2126)


def test_deuteranopia_keeps_greys_and_merges_red_with_green():
    for grey in (0, 128, 255):
        simulated = simulate_deuteranopia((grey, grey, grey))
        assert all(abs(c - grey) <= 2 for c in simulated)
    red, green = simulate_deuteranopia((200, 60, 40)), simulate_deuteranopia((90, 130, 40))
    assert abs(red[0] - green[0]) < 40 and abs(red[1] - green[1]) < 40


def cb_contrast(a, b):
    return contrast_ratio(simulate_deuteranopia(a), simulate_deuteranopia(b))


def test_high_contrast_checkers_differ_by_three_to_one_for_deuteranopes():
    assert cb_contrast(HIGH_CONTRAST.white.fill, HIGH_CONTRAST.black.fill) >= 3.0


@pytest.mark.parametrize("side", ["white", "black"])
@pytest.mark.parametrize("surface", ["felt", "point_odd", "point_even", "bar", "tray"])
def test_high_contrast_checkers_stand_out_from_what_is_beneath(side, surface):
    # Checkers sit on the points and the felt, on the bar, and (edge-on) in the trays.
    checker = getattr(HIGH_CONTRAST, side).fill
    beneath = getattr(HIGH_CONTRAST, surface)
    assert cb_contrast(checker, beneath) >= 3.0, (side, surface)


@pytest.mark.parametrize("mark", ["target", "chosen", "last_play", "moved", "hit"])
def test_high_contrast_marks_stand_out_from_their_dark_halo(mark):
    # Rings and dots are drawn with a black halo, so they show on any surface and checker.
    assert cb_contrast(getattr(HIGH_CONTRAST, mark), (0, 0, 0)) >= 4.5, mark


def test_themes_are_frozen_hashable_values():
    with pytest.raises(dataclasses.FrozenInstanceError):
        CLASSIC.felt = (0, 0, 0)  # type: ignore[misc]
    assert hash(CLASSIC) != hash(HIGH_CONTRAST)
    assert THEMES == {"classic": CLASSIC, "high-contrast": HIGH_CONTRAST}
