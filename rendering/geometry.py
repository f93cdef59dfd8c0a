"""Where everything on the board image goes: a small pure function, no Pillow.

All point numbers here are in the *viewer's* numbering (the player the board is drawn for):
points 1-6 are the viewer's home, drawn bottom right (or bottom left with ``home="left"``),
7-12 bottom on the other half, 13-18 top on that half, 19-24 top above the home board.
The viewer's checkers move 24 -> 1; the opponent's point ``p`` is the viewer's ``25 - p``.

Layout at the default 1280 x 908 pixels, ``home="right"`` (x grows to the right, y downwards)::

    +--------------------------------------------------------------------+
    |   13   14 ...   18         19 ...   24                              |  <- numbers on the frame
    |  [left half, 6 points] [bar] [right half, 6 points]   [opp. tray]   |
    |   dice of the opponent  pips  dice of the viewer       score box    |  <- middle strip
    |  [left half, 6 points] [bar] [right half, 6 points]   [view. tray]  |
    |   12   11 ...    7          6 ...    1                              |
    +--------------------------------------------------------------------+

``home="left"`` mirrors every x coordinate (the tray moves to the left, point 1 to the far left).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

Home = Literal["right", "left"]
Side = Literal["viewer", "opponent"]
Point = tuple[int, int]
Box = tuple[int, int, int, int]
"""``(left, top, right, bottom)``, right and bottom exclusive."""

# The fixed layout, for home on the right. Everything else is derived from these numbers.
WIDTH = 1280
FRAME_SIDE = 44  # wood left of the left half and right of the tray
FRAME_TB = 56  # wood above and below the points (the point numbers are drawn on it)
POINT_W = 80  # width of one point (triangle base)
CHECKER = 70  # checker diameter
POINT_LEN = 5 * CHECKER  # a triangle is as long as five checkers
MIDDLE = 96  # the strip between the top and bottom points (dice, pips, score)
BAR_W = 96
TRAY_GAP = 24  # wood between the right half and the tray
TRAY_W = WIDTH - 2 * FRAME_SIDE - 12 * POINT_W - BAR_W - TRAY_GAP  # 112
HEIGHT = 2 * FRAME_TB + 2 * POINT_LEN + MIDDLE  # 908
MAX_PLAIN = 5  # more checkers than this on a point are drawn overlapping, with a count
BAR_PLAIN = 4  # the same for the bar, whose half is shorter
SLAB_H = 16  # a borne-off checker seen edge-on
SLAB_GAP = 2
DIE = 64
DIE_GAP = 14


@dataclass(frozen=True, slots=True)
class Geometry:
    """Pixel positions of every part of the board for one orientation (see the module doc)."""

    home: Home
    width: int
    height: int
    checker: int
    left_half: Box
    right_half: Box
    bar: Box
    tray: Box
    top_tray: Box  # the opponent's borne-off checkers
    bottom_tray: Box  # the viewer's borne-off checkers
    middle_y: int  # vertical centre of the board

    # -- points ---------------------------------------------------------------------------------

    def _mx(self, x: int) -> int:
        """Mirror an x coordinate of the home-right layout when home is on the left."""
        return x if self.home == "right" else self.width - x

    def point_x(self, point: int) -> int:
        """Horizontal centre of a point (1-24, viewer's numbering)."""
        if not 1 <= point <= 24:
            raise ValueError(f"no point {point}")
        right_end = FRAME_SIDE + 12 * POINT_W + BAR_W  # right edge of the right half
        if point <= 6:  # bottom right, 1 at the far right
            x = right_end - (point - 1) * POINT_W - POINT_W // 2
        elif point <= 12:  # bottom left, 7 next to the bar
            x = FRAME_SIDE + 6 * POINT_W - (point - 7) * POINT_W - POINT_W // 2
        elif point <= 18:  # top left, 13 at the far left
            x = FRAME_SIDE + (point - 13) * POINT_W + POINT_W // 2
        else:  # top right, 19 next to the bar
            x = FRAME_SIDE + 6 * POINT_W + BAR_W + (point - 19) * POINT_W + POINT_W // 2
        return self._mx(x)

    @staticmethod
    def is_top(point: int) -> bool:
        return point >= 13

    def point_base_y(self, point: int) -> int:
        """The y of the point's base (the board edge), where its first checker sits."""
        return FRAME_TB if self.is_top(point) else self.height - FRAME_TB

    def triangle(self, point: int) -> tuple[Point, Point, Point]:
        """The triangle of a point: two base corners and the tip."""
        x = self.point_x(point)
        base = self.point_base_y(point)
        sign = 1 if self.is_top(point) else -1
        tip = base + sign * (POINT_LEN - CHECKER // 3)
        half = POINT_W // 2
        return (x - half, base), (x + half, base), (x, tip)

    def point_box(self, point: int) -> Box:
        """The rectangle a point's checkers can occupy."""
        x = self.point_x(point)
        base = self.point_base_y(point)
        if self.is_top(point):
            return x - POINT_W // 2, base, x + POINT_W // 2, base + POINT_LEN
        return x - POINT_W // 2, base - POINT_LEN, x + POINT_W // 2, base

    def checker_centers(self, point: int, count: int) -> list[Point]:
        """Centres of ``count`` checkers on a point, from the edge of the board inwards.

        Up to five sit side by side; more are overlapped evenly so that any number up to 15
        fills exactly the length of the triangle.
        """
        x = self.point_x(point)
        base = self.point_base_y(point)
        sign = 1 if self.is_top(point) else -1
        step = _step(count, POINT_LEN, MAX_PLAIN)
        return [(x, base + sign * round(CHECKER / 2 + i * step)) for i in range(count)]

    def number_position(self, point: int) -> Point:
        """Centre of the point's number, on the frame beyond the point's base."""
        base = self.point_base_y(point)
        y = base - FRAME_TB // 2 if self.is_top(point) else base + FRAME_TB // 2
        return self.point_x(point), y

    # -- bar, trays ------------------------------------------------------------------------------

    def bar_x(self) -> int:
        return (self.bar[0] + self.bar[2]) // 2

    def bar_centers(self, side: Side, count: int) -> list[Point]:
        """Checkers on the bar: the viewer's below the middle strip, the opponent's above it,
        each stack starting next to the middle."""
        length = POINT_LEN - CHECKER // 2
        step = _step(count, length, BAR_PLAIN)
        if side == "viewer":
            start = self.middle_y + MIDDLE // 2
            sign = 1
        else:
            start = self.middle_y - MIDDLE // 2
            sign = -1
        x = self.bar_x()
        return [(x, start + sign * round(CHECKER / 2 + i * step)) for i in range(count)]

    def tray_box(self, side: Side) -> Box:
        return self.bottom_tray if side == "viewer" else self.top_tray

    def slab_boxes(self, side: Side, count: int) -> list[Box]:
        """Borne-off checkers as edge-on slabs, stacked from the outer end of the side's tray."""
        left, top, right, bottom = self.tray_box(side)
        inset = 12
        boxes: list[Box] = []
        for i in range(count):
            if side == "viewer":
                b = bottom - 6 - i * (SLAB_H + SLAB_GAP)
                boxes.append((left + inset, b - SLAB_H, right - inset, b))
            else:
                t = top + 6 + i * (SLAB_H + SLAB_GAP)
                boxes.append((left + inset, t, right - inset, t + SLAB_H))
        return boxes

    def off_count_position(self, side: Side) -> Point:
        """Centre of the borne-off count: at the inner end of the tray, past 15 slabs."""
        left, top, right, bottom = self.tray_box(side)
        x = (left + right) // 2
        used = 6 + 15 * (SLAB_H + SLAB_GAP)
        if side == "viewer":
            return x, (top + bottom - used) // 2
        return x, (top + used + bottom) // 2

    # -- middle strip -------------------------------------------------------------------------

    def dice_centers(self, side: Side, count: int) -> list[Point]:
        """Dice in the middle strip: the viewer's on the home half, the opponent's on the other."""
        box = self.right_half if (side == "viewer") == (self.home == "right") else self.left_half
        cx = (box[0] + box[2]) // 2
        span = count * DIE + (count - 1) * DIE_GAP
        first = cx - span // 2 + DIE // 2
        return [(first + i * (DIE + DIE_GAP), self.middle_y) for i in range(count)]

    def pip_position(self, side: Side) -> Point:
        """Centre of a side's pip count, on the bar in the middle strip (viewer below)."""
        dy = MIDDLE // 4 + 1
        return self.bar_x(), self.middle_y + (dy if side == "viewer" else -dy)

    def score_box(self) -> Box:
        """The match score box (two rows: one score per colour), in the middle of the tray
        column, between the two trays."""
        left, _, right, _ = self.tray
        return left + 2, self.middle_y - 44, right - 2, self.middle_y + 44


def _step(count: int, length: int, plain: int) -> float:
    """Distance between checker centres so that ``count`` of them fit ``length``."""
    if count <= plain:
        return float(CHECKER)
    return min(float(CHECKER), (length - CHECKER) / (count - 1))


@lru_cache(maxsize=4)
def board_geometry(home: Home = "right") -> Geometry:
    """The geometry of the board for the viewer's home on the ``home`` side."""
    if home not in ("right", "left"):
        raise ValueError(f"home must be 'right' or 'left', not {home!r}")
    top = FRAME_TB
    bottom = HEIGHT - FRAME_TB
    left_half = (FRAME_SIDE, top, FRAME_SIDE + 6 * POINT_W, bottom)
    bar = (left_half[2], top, left_half[2] + BAR_W, bottom)
    right_half = (bar[2], top, bar[2] + 6 * POINT_W, bottom)
    tray = (right_half[2] + TRAY_GAP, top, right_half[2] + TRAY_GAP + TRAY_W, bottom)
    middle = HEIGHT // 2
    top_tray = (tray[0], top, tray[2], middle - MIDDLE // 2)
    bottom_tray = (tray[0], middle + MIDDLE // 2, tray[2], bottom)
    if home == "left":

        def m(box: Box) -> Box:
            return WIDTH - box[2], box[1], WIDTH - box[0], box[3]

        left_half, right_half = m(right_half), m(left_half)
        bar, tray, top_tray, bottom_tray = m(bar), m(tray), m(top_tray), m(bottom_tray)
    return Geometry(
        home=home,
        width=WIDTH,
        height=HEIGHT,
        checker=CHECKER,
        left_half=left_half,
        right_half=right_half,
        bar=bar,
        tray=tray,
        top_tray=top_tray,
        bottom_tray=bottom_tray,
        middle_y=middle,
    )
