"""Colour themes, and the colour arithmetic the colour-blind test relies on.

A :class:`Theme` is a frozen, hashable value, so it can key the caches of pre-drawn boards.
"""

from __future__ import annotations

from dataclasses import dataclass

Colour = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class CheckerStyle:
    """How one side's checkers (and dice) look."""

    fill: Colour
    rim: Colour  # outline and groove of a checker, outline of a die
    ink: Colour  # counts written on the checker, pips of the die


@dataclass(frozen=True, slots=True)
class Theme:
    """The colours of a board. ``white`` and ``black`` are the two sides' checker styles."""

    name: str
    frame: Colour  # the wooden rim, with the point numbers on it
    frame_edge: Colour  # thin line where the frame meets the playing surface
    numbers: Colour  # point numbers
    felt: Colour  # the playing surface behind the triangles
    point_odd: Colour  # triangles of odd points (the viewer's 1, 3, ...)
    point_even: Colour
    bar: Colour
    tray: Colour
    white: CheckerStyle
    black: CheckerStyle
    last_play: Colour  # the opponent's last play: rings where checkers left, dots where they landed
    moved: Colour  # moves already made this turn
    target: Colour  # points the chosen checker may move to
    chosen: Colour  # ring around the chosen checker
    hit: Colour  # the mark of a hit
    panel: Colour  # background of the pip counts' and score's boxes
    panel_ink: Colour


CLASSIC = Theme(
    name="classic",
    frame=(94, 58, 33),
    frame_edge=(58, 34, 18),
    numbers=(246, 232, 204),
    felt=(214, 186, 140),
    point_odd=(140, 44, 32),
    point_even=(245, 233, 207),
    bar=(94, 58, 33),
    tray=(72, 44, 25),
    white=CheckerStyle(fill=(250, 247, 240), rim=(150, 138, 118), ink=(40, 34, 30)),
    black=CheckerStyle(fill=(42, 38, 36), rim=(112, 102, 96), ink=(250, 247, 240)),
    last_play=(232, 150, 20),
    moved=(40, 120, 220),
    target=(40, 170, 90),
    chosen=(40, 170, 90),
    hit=(220, 30, 30),
    panel=(58, 34, 18),
    panel_ink=(246, 232, 204),
)
"""Wood, cream and burgundy; ivory and ebony checkers."""

# Okabe-Ito colours for the marks (orange, sky blue, yellow, vermilion) on a mid-grey-blue board
# whose every surface sits between white and black checkers with at least 3:1 contrast to both,
# also after a deuteranopia simulation (tests/rendering/test_theme.py checks it).
HIGH_CONTRAST = Theme(
    name="high-contrast",
    frame=(28, 30, 36),
    frame_edge=(0, 0, 0),
    numbers=(255, 255, 255),
    felt=(96, 110, 126),
    point_odd=(70, 104, 160),
    point_even=(150, 136, 116),
    bar=(84, 96, 110),
    tray=(84, 96, 110),
    white=CheckerStyle(fill=(255, 255, 255), rim=(0, 0, 0), ink=(0, 0, 0)),
    black=CheckerStyle(fill=(0, 0, 0), rim=(255, 255, 255), ink=(255, 255, 255)),
    last_play=(230, 159, 0),
    moved=(86, 180, 233),
    target=(240, 228, 66),
    chosen=(240, 228, 66),
    hit=(213, 94, 0),
    panel=(0, 0, 0),
    panel_ink=(255, 255, 255),
)
"""White and black checkers on blue-grey, marks in the Okabe-Ito palette."""

THEMES: dict[str, Theme] = {t.name: t for t in (CLASSIC, HIGH_CONTRAST)}


# -- colour arithmetic -------------------------------------------------------------------------


def _to_linear(c: int) -> float:
    s = c / 255
    return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4


def _to_srgb(v: float) -> int:
    v = min(1.0, max(0.0, v))
    s = v * 12.92 if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055
    return round(s * 255)


# Machado, Oliveira & Fernandes (2009), deuteranopia at severity 1.0, on linear RGB.
_DEUTERANOPIA = (
    (0.367322, 0.860646, -0.227968),
    (0.280085, 0.672501, 0.047413),
    (-0.011820, 0.042940, 0.968881),
)


def simulate_deuteranopia(colour: Colour) -> Colour:
    """How a colour looks to a deuteranope (no green cones), as an sRGB colour."""
    lin = [_to_linear(c) for c in colour]
    return (
        _to_srgb(sum(m * v for m, v in zip(_DEUTERANOPIA[0], lin, strict=True))),
        _to_srgb(sum(m * v for m, v in zip(_DEUTERANOPIA[1], lin, strict=True))),
        _to_srgb(sum(m * v for m, v in zip(_DEUTERANOPIA[2], lin, strict=True))),
    )


def relative_luminance(colour: Colour) -> float:
    """WCAG 2 relative luminance of an sRGB colour, 0 (black) to 1 (white)."""
    r, g, b = (_to_linear(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: Colour, b: Colour) -> float:
    """WCAG 2 contrast ratio, 1 (same luminance) to 21 (black on white)."""
    la, lb = relative_luminance(a), relative_luminance(b)
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)
