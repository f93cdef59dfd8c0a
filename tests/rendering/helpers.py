"""Shared helpers of the rendering tests: render to a lossless image and sample its pixels."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageChops

from rendering import render_board
from rules.position import Position

Colour = tuple[int, int, int]


def draw(position: Position, **options: Any) -> Image.Image:
    """``render_board`` as PNG (lossless, so pixel colours are exact), decoded."""
    data = render_board(position, image_format="png", **options)
    return Image.open(io.BytesIO(data)).convert("RGB")


def at(image: Image.Image, x: int, y: int) -> Colour:
    r, g, b = image.getpixel((x, y))  # type: ignore[misc]
    return (r, g, b)


def near(actual: Colour, expected: Colour, tolerance: int = 10) -> bool:
    return all(abs(a - e) <= tolerance for a, e in zip(actual, expected, strict=True))


def assert_colour(
    image: Image.Image, x: int, y: int, expected: Colour, tolerance: int = 10
) -> None:
    actual = at(image, x, y)
    assert near(actual, expected, tolerance), f"pixel ({x}, {y}) is {actual}, expected {expected}"


def closer_to(actual: Colour, a: Colour, b: Colour) -> bool:
    """True when ``actual`` is nearer to ``a`` than to ``b``."""

    def dist(c: Colour, d: Colour) -> int:
        return sum((x - y) ** 2 for x, y in zip(c, d, strict=True))

    return dist(actual, a) < dist(actual, b)


def count_near(
    image: Image.Image, box: tuple[int, int, int, int], colour: Colour, tolerance: int
) -> int:
    """How many pixels in ``box`` are within ``tolerance`` of ``colour`` (each channel, as
    :func:`near`): a mask per channel through a lookup table, their minimum, its count. Read
    pixel by pixel in Python, a whole board took 2.5 s."""
    left, top, right, bottom = box
    if not (0 <= left <= right <= image.width and 0 <= top <= bottom <= image.height):
        raise ValueError(f"{box} is not inside the {image.width}x{image.height} image")
    region = image.crop(box).convert("RGB")
    masks = [band.point([255 if abs(v - e) <= tolerance else 0 for v in range(256)])
             for band, e in zip(region.split(), colour, strict=True)]
    inside = ImageChops.darker(ImageChops.darker(masks[0], masks[1]), masks[2])
    return inside.histogram()[255]
