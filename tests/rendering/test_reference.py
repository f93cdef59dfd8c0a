"""Reference images: a change in the look of the board is a visible, reviewed diff.

The images in ``reference/`` are the boards at half size (640 x 454), which keeps them small
and forgives sub-pixel differences in font rasterisation between Pillow/FreeType builds. After a
deliberate change of the look, regenerate them and review the diff:

    PORTES_UPDATE_REFERENCE=1 .venv/bin/pytest tests/rendering/test_reference.py
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from rendering import HIGH_CONTRAST
from rules.position import Move, Position, parse_fixture
from tests.rendering.helpers import draw

REFERENCE = Path(__file__).parent / "reference"
UPDATE = os.environ.get("PORTES_UPDATE_REFERENCE") == "1"

SCENES: dict[str, tuple[Position, dict[str, Any]]] = {
    "start-opening-roll": (Position.start(), {"opening_roll": (6, 5), "score": (0, 0, 5)}),
    "midgame-marks": (
        parse_fixture("x 24:1 22:1 13:4 8:2 6:3 5:2; o 2:12 6:1 13:1 bar:1"),
        {
            "dice": (3, 3),
            "score": (3, 1, 5),
            "last_play": [Move(13, 7, 6, True), Move(7, 6, 1)],
            "moves_made": [Move(25, 22, 3)],
            "chosen_point": 13,
            "targets": [10, 7],
        },
    ),
    "bar-high-contrast-other-side": (
        parse_fixture("x bar:5 3:2; o bar:4 20:3 24:2").flip(),
        {
            "viewer_on_roll": False,
            "dice": (4, 2),
            "last_play": [Move(3, 0, 3), Move(3, 0, 3)],
            "last_play_by": "viewer",
            "theme": HIGH_CONTRAST,
        },
    ),
    "bear-off-home-left": (
        parse_fixture("x 6:15; o 1:3 2:2"),
        {
            "home": "left",
            "viewer_color": "black",
            "dice": (5, 2),
            "chosen_point": 6,
            "targets": [0, 4],
            "score": (12, 10, 15),
        },
    ),
}


def difference(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """Mean absolute difference per channel, and the share of pixels off by more than 40."""
    diff = ImageChops.difference(a, b)
    mean = sum(ImageStat.Stat(diff).mean) / 3
    strong = diff.convert("L").point(lambda v: 255 if v > 40 else 0).histogram()[255]
    return mean, strong / (a.width * a.height)


def test_the_tolerance_still_sees_a_moved_checker():
    before = draw(Position.start()).reduce(2)
    after = draw(parse_fixture("x 24:2 13:5 8:3 6:4 5:1; o 24:2 13:5 8:3 6:5")).reduce(2)
    mean, share = difference(before, after)
    assert mean > 0.05 and share > 0.002


@pytest.mark.parametrize("name", sorted(SCENES))
def test_board_looks_like_its_reference(name, tmp_path):
    position, options = SCENES[name]
    full = draw(position, **options)
    actual = full.reduce(2)
    path = REFERENCE / f"{name}.png"
    if UPDATE or not path.exists():
        REFERENCE.mkdir(exist_ok=True)
        actual.save(path, optimize=True)
        if not UPDATE:
            pytest.fail(f"created the missing reference {path}; review it and run again")
        return
    expected = Image.open(path).convert("RGB")
    assert expected.size == actual.size
    mean, share = difference(actual, expected)
    if mean > 1.0 or share > 0.002:
        actual.save(tmp_path / f"{name}.png")
        pytest.fail(
            f"{name} differs from its reference (mean {mean:.2f}, {share:.2%} strongly); "
            f"new image in {tmp_path}; if the change is wanted, regenerate the references"
        )
