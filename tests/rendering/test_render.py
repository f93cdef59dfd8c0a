"""Rendered boards, checked by sampling pixels: the right colour where a checker, a mark or a
die must be, and the board's colour where nothing is.

Many coordinates are written out as numbers (the default 1280 x 908 layout, home on the right)
rather than taken from the geometry, so that a geometry bug cannot hide behind itself.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image

from rendering import CLASSIC, HIGH_CONTRAST, render_board
from rendering.geometry import board_geometry
from rules.position import Move, Position, parse_fixture
from tests.rendering.helpers import assert_colour, at, closer_to, count_near, draw

WHITE = CLASSIC.white.fill
BLACK = CLASSIC.black.fill
ODD = CLASSIC.point_odd  # triangles of odd points
EVEN = CLASSIC.point_even
GEO = board_geometry("right")


@pytest.fixture(scope="module")
def start() -> Image.Image:
    return draw(Position.start())


def test_start_position_viewer_checkers(start):
    # The viewer (white) has 5 on its 6 point, bottom right half, next to the bar.
    for y in (817, 747, 677, 607, 537):
        assert_colour(start, 660, y, WHITE)
    # 3 on the 8 point, 5 on 13 (top left), 2 on 24 (top right).
    for y in (817, 747, 677):
        assert_colour(start, 404, y, WHITE)
    for y in (91, 161, 231, 301, 371):
        assert_colour(start, 84, y, WHITE)
    assert_colour(start, 1060, 91, WHITE)
    assert_colour(start, 1060, 161, WHITE)


def test_start_position_opponent_checkers_mirror_the_viewer(start):
    # The opponent's 24 is the viewer's 1 (bottom right), its 6 the viewer's 19, and so on.
    assert_colour(start, 1060, 817, BLACK)
    assert_colour(start, 1060, 747, BLACK)
    for y in (91, 161, 231, 301, 371):
        assert_colour(start, 660, y, BLACK)
    for y in (91, 161, 231):
        assert_colour(start, 404, y, BLACK)
    for y in (817, 747, 677, 607, 537):
        assert_colour(start, 84, y, BLACK)


def test_start_position_empty_places_show_the_board(start):
    assert_colour(start, 1060, 677, ODD)  # above the two on point 1
    assert_colour(start, 1060, 231, EVEN)  # below the two on point 24
    assert_colour(start, 740, 817, ODD)  # point 5 is empty
    assert_colour(start, 980, 91, ODD)  # point 23
    assert_colour(start, 404, 607, EVEN)  # the fourth place on the 8 point
    assert_colour(start, 572, 700, CLASSIC.bar)  # nobody on the bar
    assert_colour(start, 1180, 700, CLASSIC.tray)  # nothing borne off
    assert_colour(start, 1180, 200, CLASSIC.tray)
    # Every point without checkers shows its own triangle colour where a first checker would go.
    occupied = {1, 6, 8, 12, 13, 17, 19, 24}
    for p in set(range(1, 25)) - occupied:
        x, y = GEO.checker_centers(p, 1)[0]
        assert_colour(start, x, y, ODD if p % 2 else EVEN)


def test_point_numbers_are_drawn_on_the_frame(start):
    def ink(box):
        return count_near(start, box, CLASSIC.numbers, 40)

    assert ink((1040, 860, 1080, 900)) > 40  # "1" below the far right
    assert ink((1040, 8, 1080, 48)) > 40  # "24" above it
    assert ink((1108, 860, 1124, 900)) == 0  # nothing between point 1 and the tray


def test_drawn_for_the_other_player_with_black_checkers():
    # The same starting board drawn for the opponent, who plays black: the viewer's checkers
    # are black now, in the same places, and the numbers are the viewer's own.
    image = draw(Position.start().flip(), viewer_on_roll=False, viewer_color="black")
    assert_colour(image, 660, 817, BLACK)
    assert_colour(image, 1060, 817, WHITE)
    assert_colour(image, 1060, 91, BLACK)
    assert_colour(image, 740, 817, ODD)


def test_home_on_the_left_mirrors_the_board():
    image = draw(Position.start(), home="left")
    assert_colour(image, 620, 817, WHITE)  # the 6 point, left of the bar now
    assert_colour(image, 220, 817, BLACK)  # point 1 at the far left
    assert_colour(image, 220, 91, WHITE)  # point 24
    assert_colour(image, 540, 817, ODD)  # point 5 empty
    assert_colour(image, 100, 700, CLASSIC.tray)  # the tray is on the left
    assert_colour(image, 1180, 454, CLASSIC.felt)  # and the felt where it was


def test_bar():
    position = parse_fixture("x 13:5 8:3 6:5 bar:2; o 24:2 13:5 8:3 6:4 bar:1")
    image = draw(position)
    assert_colour(image, 572, 537, WHITE)  # the viewer's bar checkers, below the middle
    assert_colour(image, 572, 607, WHITE)
    assert_colour(image, 572, 677, CLASSIC.bar)
    assert_colour(image, 572, 371, BLACK)  # the opponent's above it
    assert_colour(image, 572, 301, CLASSIC.bar)


def test_many_on_the_bar_are_stacked_with_a_count():
    image = draw(parse_fixture("x 6:9 bar:6; o 6:10 bar:5"))
    centres = GEO.bar_centers("viewer", 6)
    for x, y in centres[:-1]:
        assert_colour(image, x, y - 16, WHITE)  # the visible edge of each checker
    x, y = centres[-1]
    assert count_near(image, (x - 14, y - 14, x + 14, y + 14), CLASSIC.white.ink, 40) > 10


def test_bear_off_trays():
    image = draw(parse_fixture("x 6:2 5:3; o 6:1"))
    # Ten of the viewer's checkers off, as slabs from the bottom of the lower tray.
    assert_colour(image, 1180, 838, WHITE)
    assert_colour(image, 1180, 838 - 9 * 18, WHITE)
    assert_colour(image, 1180, 838 - 10 * 18, CLASSIC.tray)
    # Fourteen of the opponent's off, from the top of the upper tray.
    assert_colour(image, 1180, 70, BLACK)
    assert_colour(image, 1180, 70 + 13 * 18, BLACK)
    assert_colour(image, 1180, 70 + 14 * 18, CLASSIC.tray)
    # And the counts are written beyond the slabs.
    for x, y in (GEO.off_count_position("viewer"), GEO.off_count_position("opponent")):
        assert count_near(image, (x - 20, y - 15, x + 20, y + 15), CLASSIC.numbers, 30) > 10


def test_all_borne_off():
    image = draw(parse_fixture("x ; o 6:3 5:2"))
    for i in range(15):
        assert_colour(image, 1180, 838 - i * 18, WHITE)
    for p in range(1, 25):
        x, y = GEO.checker_centers(p, 1)[0]
        if p not in (19, 20):
            assert_colour(image, x, y, ODD if p % 2 else EVEN)


def test_fifteen_on_one_point_are_all_visible_with_a_count():
    image = draw(parse_fixture("x 6:15; o 6:15"))
    # Overlapped evenly: 20 pixels apart, each showing an edge; the last one on top.
    for i in range(14):
        assert_colour(image, 660, 817 - 20 * i + 28, WHITE)  # the visible edge of each
    assert_colour(image, 660 - 28, 537, WHITE)
    assert_colour(image, 660, 537 - 45, CLASSIC.felt)  # nothing beyond the triangle
    assert count_near(image, (646, 523, 674, 551), CLASSIC.white.ink, 40) > 30  # "15"
    # The opponent's fifteen on its 6 point: the viewer's 19, top right by the bar.
    assert_colour(image, 660, 91 - 28, BLACK)
    assert_colour(image, 660 - 28, 371, BLACK)


def test_dice_of_the_side_on_roll_with_pips():
    image = draw(Position.start(), dice=(6, 5))
    # Viewer on roll: the dice on the viewer's (right) half, in the middle strip.
    assert_colour(image, 821, 454, WHITE)  # a 6 has no middle pip
    assert_colour(image, 805, 438, CLASSIC.white.ink)  # its top-left pip
    assert_colour(image, 899, 454, CLASSIC.white.ink)  # a 5 has one
    assert_colour(image, 284, 454, CLASSIC.felt)  # nothing on the other half
    other = draw(Position.start().flip(), viewer_on_roll=False, dice=(1, 2))
    # Opponent on roll: its (black) dice on the left half.
    assert_colour(other, 245, 454, CLASSIC.black.ink)  # the 1's pip
    assert_colour(other, 323, 454, BLACK)  # the 2 has none in the middle
    assert_colour(other, 860, 454, CLASSIC.felt)


def test_opening_roll_one_die_each():
    image = draw(Position.start(), opening_roll=(3, 4), viewer_color="black")
    assert_colour(image, 860, 454, CLASSIC.black.ink)  # the viewer's 3 (middle pip), black
    assert_colour(image, 860 + 16, 454 - 16, BLACK)
    assert_colour(image, 284, 454, WHITE)  # the opponent's 4 (no middle pip), white
    assert_colour(image, 284 - 16, 454 - 16, CLASSIC.white.ink)


def test_doubles_are_four_dice_and_used_ones_fade():
    position = parse_fixture("x 24:2 13:5 8:3 6:4 3:1; o 24:2 13:5 8:3 6:5")
    image = draw(position, dice=(3, 3), moves_made=[Move(6, 3, 3)])
    centres = GEO.dice_centers("viewer", 4)
    assert [c[0] for c in centres] == [743, 821, 899, 977]
    for x, y in centres[:3]:
        assert_colour(image, x + 16, y - 16, WHITE)  # a 3 has no pip there
    faded = at(image, 977 + 16, 454 - 16)
    assert closer_to(faded, CLASSIC.felt, WHITE)


def test_chosen_checker_and_its_targets_are_highlighted():
    image = draw(Position.start(), dice=(6, 5), chosen_point=13, targets=[7, 8])
    # A ring round the top checker of the 13 point (84, 371).
    assert_colour(image, 84 + 37, 371, CLASSIC.chosen, 30)
    assert_colour(image, 84, 371, WHITE)
    # Point 7 (empty): tinted triangle and a ring where the checker would land.
    tinted = at(image, 484, 700)
    assert closer_to(tinted, CLASSIC.target, ODD)
    assert_colour(image, 484 + 28, 817, CLASSIC.target, 30)
    # Point 8 (three white): the ring goes on the fourth place.
    assert_colour(image, 404 + 28, 607, CLASSIC.target, 30)
    # Untouched points keep their colour.
    assert_colour(image, 324, 700, ODD)


def test_bearing_off_as_a_target_lights_the_tray():
    image = draw(parse_fixture("x 6:2 5:3; o 24:2"), dice=(6, 5), chosen_point=6, targets=[0])
    assert_colour(image, 1124 + 2, 680, CLASSIC.target, 30)
    assert_colour(image, 1124 + 2, 230, CLASSIC.frame_edge, 40)  # not the opponent's tray


def test_last_play_is_marked_where_it_left_landed_and_hit():
    # The opponent played 13/7* 7/6 (its numbering): from the viewer's 12 to 18 (hitting)
    # and on to 19. The viewer's hit checker is on the bar.
    position = parse_fixture("x 13:5 8:3 6:5 24:1 bar:1; o 24:2 13:4 8:3 6:6")
    image = draw(position, last_play=[Move(13, 7, 6, True), Move(7, 6, 1)])
    # A ghost where the checker left: after the four black checkers left on the viewer's 12,
    # a faint checker in an orange ring.
    assert_colour(image, 84, 607, BLACK)
    assert_colour(image, 84 + 30, 537, CLASSIC.last_play, 30)
    assert closer_to(at(image, 84 + 15, 537), ODD, BLACK)  # faint: the triangle shows through
    # Where it landed (19, six black checkers now, so a counted stack), a dot beside the count.
    x, y = GEO.checker_centers(19, 6)[-1]
    assert (x, y) == (660, 371)
    assert_colour(image, 660 + 22, 371, CLASSIC.last_play, 20)
    assert count_near(image, (646, 357, 674, 385), CLASSIC.black.ink, 40) > 20  # "6"
    # The checker it hit gets a cross of the hit colour, on the bar where it went (not the
    # hitter: a cross there read as "captured")
    x, y = GEO.bar_centers("viewer", 1)[0]
    assert_colour(image, x + 12, y - 6, CLASSIC.hit, 40)
    assert count_near(image, (484 - 20, 91 - 20, 484 + 20, 91 + 20), CLASSIC.hit, 40) == 0


def test_a_hit_checker_that_entered_again_has_no_cross():
    # the viewer was hit in the last play and has entered since (this turn's moves)
    position = parse_fixture("x 13:5 8:3 6:5 24:1 20:1; o 24:2 13:4 8:3 6:6")
    image = draw(position, last_play=[Move(13, 7, 6, True), Move(7, 6, 1)],
                 moves_made=[Move(25, 20, 5)], dice=(5, 2))
    assert count_near(image, (0, 0, 1280, 908), CLASSIC.hit, 20) == 0


def test_moves_made_this_turn_are_visible():
    position = parse_fixture("x 24:2 13:4 8:3 6:5 7:1; o 24:2 13:5 8:3 6:5")
    image = draw(position, dice=(6, 5), moves_made=[Move(13, 7, 6)])
    assert_colour(image, 84 + 30, 371, CLASSIC.moved, 30)  # ghost ring on the 13 point's 5th place
    assert_colour(image, 484, 817, CLASSIC.moved, 20)  # dot on the checker that arrived on 7
    assert closer_to(at(image, 821 + 16, 454 - 16), CLASSIC.felt, WHITE)  # the 6 is used


def test_high_contrast_theme():
    image = draw(Position.start(), theme=HIGH_CONTRAST)
    assert_colour(image, 660, 817, HIGH_CONTRAST.white.fill)
    assert_colour(image, 1060, 817, HIGH_CONTRAST.black.fill)
    assert_colour(image, 740, 817, HIGH_CONTRAST.point_odd)
    assert_colour(image, 740, 470, HIGH_CONTRAST.felt)


def test_score_and_pips_are_drawn_only_when_asked():
    def ink(image, box, colour):
        return count_near(image, box, colour, 30)

    score_box = (1130, 430, 1230, 480)
    plain = draw(Position.start(), show_pips=False)
    scored = draw(Position.start(), score=(3, 1, 5))
    assert ink(plain, score_box, CLASSIC.panel_ink) == 0
    assert ink(scored, score_box, CLASSIC.panel_ink) > 60
    pips = (540, 465, 604, 495)  # the viewer's pip count, on the bar below the middle
    assert ink(plain, pips, CLASSIC.white.ink) == 0
    assert ink(scored, pips, CLASSIC.white.ink) > 40


def test_default_output_is_a_compact_jpeg():
    position = parse_fixture("x 24:1 22:1 13:4 8:2 6:3 5:2; o 2:12 6:1 13:1 bar:1")
    data = render_board(position, dice=(3, 3), score=(3, 1, 5), chosen_point=13, targets=[10, 7])
    assert data[:3] == b"\xff\xd8\xff"
    assert len(data) < 150 * 1024
    assert Image.open(io.BytesIO(data)).size == (1280, 908)


@pytest.mark.parametrize(
    "options",
    [
        {"dice": (6, 5), "opening_roll": (3, 1)},
        {"dice": (7, 1)},
        {"targets": [25]},
        {"chosen_point": 0},
        {"viewer_color": "red"},
        {"image_format": "gif"},
        {"score": (1, 2)},
        {"last_play": [Move(26, 3, 6)]},
    ],
)
def test_nonsense_is_refused(options):
    with pytest.raises(ValueError):
        render_board(Position.start(), **options)


@pytest.mark.parametrize("theme", [CLASSIC, HIGH_CONTRAST])
def test_the_score_reads_the_same_from_either_side(theme):
    # White leads 3-1 in a match to 5: the badge is the same whether White or Black is shown
    # the board (in a group it is drawn for whoever is to move, so it changes every turn)
    box = board_geometry("right").score_box()
    as_white = draw(Position.start(), score=(3, 1, 5), viewer_color="white", theme=theme)
    as_black = draw(Position.start(), score=(1, 3, 5), viewer_color="black", theme=theme)
    assert as_white.crop(box).tobytes() == as_black.crop(box).tobytes()
    # and it does say who leads: White's lead and Black's do not look alike
    black_leads = draw(Position.start(), score=(1, 3, 5), viewer_color="white", theme=theme)
    assert as_white.crop(box).tobytes() != black_leads.crop(box).tobytes()
