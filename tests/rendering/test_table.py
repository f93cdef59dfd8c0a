"""Tavli boards drawn from a TableView: what a player sees of pins, of each side's start and
direction of play, of the game's name; and that a Portes position drawn through a view looks
exactly like the Portes board.

Coordinates are written out as numbers for the default layout (1280 x 908, home right), as in
test_render.py: point 20 is the column centred on x = 740, its first checker at y = 91.
"""

from __future__ import annotations

import dataclasses
import io
from typing import Any

import pytest
from PIL import Image, ImageChops

from rendering import CLASSIC, HIGH_CONTRAST, render_board
from rendering.geometry import board_geometry
from rendering.table import (
    OPPONENT,
    OPPOSITE_WAYS,
    SAME_WAY,
    VIEWER,
    Course,
    TableView,
    course_marks,
    pin_badge_centre,
    points_of,
    render_table,
    view_of_counts,
)
from rendering.table_sprites import TITLE_H
from rules.position import Move, Position, parse_fixture
from tests.rendering.helpers import assert_colour, at, closer_to, count_near

WHITE = CLASSIC.white.fill
BLACK = CLASSIC.black.fill
PIN = CLASSIC.hit
V, B = VIEWER, OPPONENT  # the viewer plays white, the opponent black

# A Plakoto game under way: the viewer (white) pins a black checker on 20 and is pinned on 13
# (under two) and on 8; eight black checkers are still on their start, the viewer's 1.
PLAKOTO = points_of({
    24: [V] * 6, 20: [B, V], 17: [V] * 3, 16: [V], 13: [V, B, B], 8: [V, B], 6: [V, V],
    1: [B] * 8, 9: [B, B], 3: [B],
})
FEVGA = points_of({
    24: [V] * 11, 20: [V], 18: [V], 15: [V], 9: [V],
    12: [B] * 11, 10: [B], 7: [B], 5: [B], 2: [B],
})


def draw(view: TableView) -> Image.Image:
    return Image.open(io.BytesIO(render_table(view, image_format="png"))).convert("RGB")


def plakoto(**options: Any) -> Image.Image:
    return draw(TableView(PLAKOTO, **options))


def pin_ink(image: Image.Image, point: int, home: str = "right", dy: int = 0) -> int:
    """How many pixels of the pin colour lie where the lock of ``point`` goes."""
    x, y = pin_badge_centre(board_geometry(home), point)  # type: ignore[arg-type]
    return count_near(image, (x - 18, y - 18 + dy, x + 18, y + 18 + dy), PIN, 30)


# -- pins ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pinned() -> Image.Image:
    return plakoto(show_course=False)


def test_a_pinned_checker_shows_under_its_pinner(pinned):
    # 20: black pinned at the edge, its uncovered part above the white pinner.
    assert_colour(pinned, 728, 80, BLACK, 30)
    assert_colour(pinned, 740, 131, WHITE)  # the pinner, on top, a little further in
    # 8 (bottom): white pinned under black, mirrored towards the bottom edge.
    assert_colour(pinned, 404, 908 - 80, WHITE, 30)
    assert_colour(pinned, 404, 908 - 131, BLACK)


def test_the_pinned_checker_carries_the_lock(pinned):
    for point in (20, 13, 8):
        assert pin_ink(pinned, point) > 300, point
    assert pin_badge_centre(board_geometry("right"), 20) == (762, 76)
    # no lock where nobody is pinned: the viewer's own stacks, the black start
    for point in (24, 17, 6, 1, 9):
        assert pin_ink(pinned, point) == 0, point


def test_who_pins_whom_follows_the_order_of_the_stack():
    swapped = draw(TableView(points_of({20: [V, B]}), show_course=False))
    assert_colour(swapped, 728, 80, WHITE, 30)  # now white is pinned ...
    assert_colour(swapped, 740, 131, BLACK)  # ... under black
    assert pin_ink(swapped, 20) > 300


def test_a_checker_pinned_under_two_shows_both_pinners_and_no_count(pinned):
    # 13 is the top left corner (x = 84): white, then black at +40, black at +110.
    assert_colour(pinned, 84 - 12, 82, WHITE, 30)
    assert_colour(pinned, 84, 131, BLACK)
    assert_colour(pinned, 84, 201, BLACK)
    assert closer_to(at(pinned, 84, 271), CLASSIC.point_odd, BLACK)  # nothing further in


def test_a_squeezed_run_over_a_pin_gets_its_count():
    lone = draw(TableView(points_of({20: [B, V]}), show_course=False))
    squeezed = draw(TableView(points_of({20: [B] + [V] * 6}), show_course=False))
    # the top checker of six lies at 56 + 35 + 40 + 5 * 57 = 416 ... squeezed into the triangle
    top = board_geometry("right").point_base_y(20) + 35 + 40 + 5 * (350 - 70 - 40) // 5
    ink = CLASSIC.white.ink
    assert count_near(squeezed, (726, top - 14, 754, top + 14), ink, 40) > 10
    assert count_near(lone, (726, 117, 754, 145), ink, 40) == 0  # one pinner: no count


# -- courses: where each side starts and which way it goes -----------------------------------


def test_courses_route_and_pips():
    assert Course(24, -1).route()[:3] == (24, 23, 22)
    assert Course(12, -1).route()[11:14] == (1, 24, 23)
    assert Course(1, 1).route()[-1] == 24
    assert [Course(12, -1).pips(p) for p in (12, 1, 24, 13)] == [24, 13, 12, 1]
    assert Course(1, 1).pips(1) == 24 and Course(1, 1).pips(24) == 1


def test_portes_and_plakoto_go_opposite_ways_fevga_the_same_way():
    geo = board_geometry("right")
    opposite = course_marks(TableView(PLAKOTO), geo)
    same = course_marks(TableView(FEVGA, courses=SAME_WAY), geo)
    # (start, tag points, turn column, turn direction) of viewer and opponent
    assert [m[1:] for m in opposite] == [(24, "left", 13, "down"), (1, "left", 12, "up")]
    assert [m[1:] for m in same] == [(24, "left", 13, "down"), (12, "right", 1, "up")]


def test_turn_arrows_are_drawn_where_each_side_turns():
    middle = 454
    opposite = plakoto()
    same = draw(TableView(FEVGA, courses=SAME_WAY))
    no_course = plakoto(show_course=False)
    # Plakoto: both turn at the left end, side by side, white down and black up.
    assert_colour(opposite, 84 - 20, middle, WHITE)
    assert_colour(opposite, 84 + 20, middle, BLACK)
    assert_colour(opposite, 1060, middle, CLASSIC.felt)
    # Fevga: white turns down at the left end, black up at the right end.
    assert_colour(same, 84, middle, WHITE)
    assert_colour(same, 1060, middle, BLACK)
    assert_colour(no_course, 84 - 20, middle, CLASSIC.felt)
    # The arrow heads: white's points down (wide below the middle), black's up.
    assert_colour(opposite, 84 - 20 - 10, middle + 16, WHITE, 30)
    assert_colour(opposite, 84 - 20 - 10, middle - 16, CLASSIC.felt)
    assert_colour(opposite, 84 + 20 - 10, middle - 16, BLACK, 30)
    assert_colour(opposite, 84 + 20 - 10, middle + 16, CLASSIC.felt)


def test_start_tags_point_the_way_out():
    y = 908 - 28  # the bottom row of numbers
    opposite = plakoto()
    same = draw(TableView(FEVGA, courses=SAME_WAY))
    # Plakoto: black starts on 1 and leaves leftwards: the tag's tip reaches left of the number
    assert_colour(opposite, 1060 - 9 - 43 + 8, y, BLACK, 30)
    assert_colour(opposite, 1060 + 43, y, CLASSIC.frame, 12)
    # Fevga: black starts on 12 and leaves rightwards
    assert_colour(same, 84 + 9 + 43 - 8, y, BLACK, 30)
    assert_colour(same, 84 - 43, y, CLASSIC.frame, 12)
    # white starts on 24 (top right) in both, leaving leftwards
    for image in (opposite, same):
        assert_colour(image, 1060 - 9 - 43 + 8, 28, WHITE, 30)
    assert_colour(plakoto(show_course=False), 1060 - 9 - 43 + 8, y, CLASSIC.frame, 12)


# -- the game's name -------------------------------------------------------------------------


def test_the_title_is_drawn_in_a_band_above_the_same_board():
    plain = plakoto()
    titled = plakoto(title="Plakoto · Πλακωτό")
    assert plain.size == (1280, 908) and titled.size == (1280, 908 + TITLE_H)
    board = titled.crop((0, TITLE_H, 1280, 908 + TITLE_H))
    assert ImageChops.difference(board, plain).getbbox() is None
    ink = count_near(titled, (40, 8, 640, TITLE_H - 8), CLASSIC.numbers, 40)
    other = plakoto(title="Fevga · Φεύγα")
    assert ink > 1500
    assert ImageChops.difference(titled, other).getbbox() is not None
    left = plakoto(title="Plakoto · Πλακωτό", home="left")
    assert count_near(left, (640, 8, 1240, TITLE_H - 8), CLASSIC.numbers, 40) > 1500


# -- Portes through a view, themes, sides ----------------------------------------------------


def portes_view(position: Position, **options: Any) -> TableView:
    board = position.board
    return view_of_counts(
        {p: board[p] for p in range(1, 25)},
        bar=(position.mover_bar, position.opponent_bar),
        off=(position.mover_off, position.opponent_off),
        show_course=False,
        **options,
    )


PORTES = [
    (Position.start(), {"opening_roll": (6, 5), "score": (0, 0, 5)}),
    (parse_fixture("x 24:1 22:1 13:4 8:2 6:3 5:2; o 2:12 6:1 13:1 bar:1"),
     {"dice": (3, 3), "chosen_point": 13, "targets": {10, 7}}),
    (parse_fixture("x bar:5 3:2; o bar:4 20:3 24:2").flip(),
     {"viewer_on_roll": False, "dice": (4, 2), "theme": HIGH_CONTRAST}),
    (parse_fixture("x 6:15; o 1:3 2:2"),
     {"home": "left", "viewer_color": "black", "dice": (5, 2), "chosen_point": 6,
      "targets": {0, 4}, "score": (12, 10, 15)}),
]


AFTER_PLAYS = parse_fixture("x 24:2 13:4 8:4 6:5; o 24:1 18:1 13:4 11:1 8:3 6:5")


def test_marks_through_a_view_are_the_portes_marks():
    # The opponent played 24/18 13/11 (its numbering: the viewer's 1/7 12/14), the viewer 13/8.
    portes = render_board(
        AFTER_PLAYS, image_format="png", dice=(5, 2),
        last_play=[Move(24, 18, 6), Move(13, 11, 2)], moves_made=[Move(13, 8, 5)],
    )
    view = portes_view(AFTER_PLAYS, dice=(5, 2), dice_used=(5,),
                       last_play=((1, 7), (12, 14)), moves_made=((13, 8),))
    expected = Image.open(io.BytesIO(portes)).convert("RGB")
    assert ImageChops.difference(draw(view), expected).getbbox() is None
    assert ImageChops.difference(draw(dataclasses.replace(view, last_play=())),
                                 expected).getbbox() is not None


def test_a_pin_just_made_is_marked_where_the_pinner_landed():
    # Black came from 3 (where one black checker is left) to pin the white checker on 8.
    view = TableView(PLAKOTO, last_play=((3, 8),), show_course=False)
    image = draw(view)
    assert_colour(image, 404, 908 - 131, CLASSIC.last_play, 30)  # the dot on the pinner
    assert pin_ink(image, 8) > 300  # the lock still on the pinned checker
    # the ghost beyond the checker left on 3 (x = 900), a checker further in
    ghost_y = 908 - 56 - 35 - 70
    ring = count_near(image, (860, ghost_y - 40, 940, ghost_y + 40), CLASSIC.last_play, 30)
    assert ring > 200
    assert count_near(plakoto(show_course=False), (860, ghost_y - 40, 940, ghost_y + 40),
                      CLASSIC.last_play, 30) == 0


@pytest.mark.parametrize("case", range(len(PORTES)))
def test_a_portes_position_through_a_view_is_the_portes_board(case):
    position, options = PORTES[case]
    view = portes_view(position, **options)
    assert view.pips() == position.pips()
    expected = render_board(position, image_format="png", **options)
    expected_image = Image.open(io.BytesIO(expected)).convert("RGB")
    assert ImageChops.difference(draw(view), expected_image).getbbox() is None


def test_used_dice_are_faded():
    fresh = draw(TableView(PLAKOTO, dice=(3, 3)))
    used = draw(TableView(PLAKOTO, dice=(3, 3), dice_used=(3,)))
    centres = board_geometry("right").dice_centers("viewer", 4)
    x, y = centres[-1]
    assert closer_to(at(fresh, x - 25, y), WHITE, CLASSIC.felt)
    assert closer_to(at(used, x - 25, y), CLASSIC.felt, WHITE)
    x, y = centres[0]
    assert at(used, x - 25, y) == at(fresh, x - 25, y)


@pytest.mark.parametrize("theme", [CLASSIC, HIGH_CONTRAST])
@pytest.mark.parametrize("home", ["right", "left"])
def test_themes_and_home_sides(theme, home):
    view = TableView(PLAKOTO, title="Plakoto · Πλακωτό", theme=theme, home=home,
                     viewer_color="black", dice=(6, 6), dice_used=(6,), score=(1, 2, 5))
    image = draw(view)
    assert image.size == (1280, 908 + TITLE_H)
    for point in (20, 13, 8):  # the lock on each pinned checker, wherever the home is
        x, y = pin_badge_centre(board_geometry(home), point)
        assert count_near(image, (x - 18, y - 18 + TITLE_H, x + 18, y + 18 + TITLE_H),
                          theme.hit, 30) > 300
    jpeg = render_table(dataclasses.replace(view, show_pips=False))
    assert jpeg[:2] == b"\xff\xd8"


@pytest.mark.parametrize(
    ("points", "options", "message"),
    [
        (points_of({24: [V] * 16}), {}, "more than 15"),
        (points_of({24: [V] * 14}), {"off": (2, 0)}, "more than 15"),
        (points_of({24: ["white"]}), {}, "sides"),  # type: ignore[list-item]
        (PLAKOTO[:23], {}, "24 stacks"),
        (PLAKOTO, {"dice": (0, 3)}, "dice"),
        (PLAKOTO, {"courses": (Course(25, -1), OPPOSITE_WAYS[1])}, "course"),
    ],
)
def test_what_cannot_be_drawn_is_refused(points, options, message):
    with pytest.raises(ValueError, match=message):
        render_table(TableView(points, **options))


def test_home_on_the_left_mirrors_the_courses():
    image = plakoto(home="left")
    # 12 and 13 are at the far right now (x = 1280 - 84): both turn there
    assert_colour(image, 1196 - 20, 454, WHITE)
    assert_colour(image, 1196 + 20, 454, BLACK)
    assert_colour(image, 84 - 20, 454, CLASSIC.frame)  # the tray column (between its trays)
    # black's start tag on 1 (x = 1280 - 1060 = 220) points right, towards 2
    assert_colour(image, 220 + 9 + 43 - 8, 908 - 28, BLACK, 30)


def test_a_title_the_font_cannot_draw_keeps_what_it_can():
    from rendering.leaderboard import FONT_DIRS
    from rendering.table_sprites import title_text

    dejavu = any((folder / "DejaVuSans.ttf").exists() for folder in FONT_DIRS)
    assert title_text("Plakoto · Πλακωτό") == ("Plakoto · Πλακωτό" if dejavu else "Plakoto")
    assert title_text("Fevga \U000f0000 · Φεύγα") == ("Φεύγα" if dejavu else "")
