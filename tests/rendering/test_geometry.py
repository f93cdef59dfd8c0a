"""The board geometry: where points, checkers, bar, trays and dice go (no Pillow involved)."""

from __future__ import annotations

import itertools

import pytest

from rendering.geometry import CHECKER, board_geometry

RIGHT = board_geometry("right")
LEFT = board_geometry("left")


def inside(point: tuple[int, int], box: tuple[int, int, int, int]) -> bool:
    x, y = point
    return box[0] <= x < box[2] and box[1] <= y < box[3]


def test_size_is_full_telegram_size():
    assert (RIGHT.width, RIGHT.height) == (1280, 908)


def test_point_columns_with_home_bottom_right():
    # Given the viewer's home on the right, point 1 is at the far right, 12 at the far left.
    xs = {p: RIGHT.point_x(p) for p in (1, 6, 7, 12, 13, 18, 19, 24)}
    assert xs == {1: 1060, 6: 660, 7: 484, 12: 84, 13: 84, 18: 484, 19: 660, 24: 1060}


def test_bottom_row_is_one_to_twelve_and_top_row_thirteen_to_twenty_four():
    for p in range(1, 13):
        assert not RIGHT.is_top(p)
        assert RIGHT.point_base_y(p) == 852
    for p in range(13, 25):
        assert RIGHT.is_top(p)
        assert RIGHT.point_base_y(p) == 56


def test_points_run_in_order_round_the_board():
    bottom = [RIGHT.point_x(p) for p in range(1, 13)]
    top = [RIGHT.point_x(p) for p in range(13, 25)]
    assert bottom == sorted(bottom, reverse=True)
    assert top == sorted(top)
    assert len(set(bottom)) == 12


def test_opposite_points_share_a_column():
    for p in range(1, 13):
        assert RIGHT.point_x(p) == RIGHT.point_x(25 - p)


def test_home_left_mirrors_every_column():
    for p in range(1, 25):
        assert LEFT.point_x(p) == 1280 - RIGHT.point_x(p)
    assert LEFT.point_x(1) == 220
    assert LEFT.tray[2] <= LEFT.left_half[0]
    assert RIGHT.tray[0] >= RIGHT.right_half[2]


def test_first_checker_sits_at_the_edge_and_five_fit_without_overlap():
    assert RIGHT.checker_centers(6, 5) == [
        (660, 817),
        (660, 747),
        (660, 677),
        (660, 607),
        (660, 537),
    ]
    assert RIGHT.checker_centers(24, 2) == [(1060, 91), (1060, 161)]


@pytest.mark.parametrize("count", range(1, 16))
def test_any_stack_stays_on_its_point(count):
    for point in (1, 6, 12, 13, 24):
        centres = RIGHT.checker_centers(point, count)
        assert len(centres) == count
        box = RIGHT.point_box(point)
        r = CHECKER // 2
        for x, y in centres:
            assert box[1] <= y - r and y + r <= box[3], (point, count, y)
            assert x == RIGHT.point_x(point)
        ys = [y for _, y in centres]
        steps = {abs(b - a) for a, b in itertools.pairwise(ys)}
        assert all(s >= 19 for s in steps)  # 15 checkers still show a 20-pixel edge each
        assert all(s <= CHECKER for s in steps)


def test_fifteen_on_a_point_fill_exactly_the_triangle():
    centres = RIGHT.checker_centers(6, 15)
    assert centres[0] == (660, 817)
    assert centres[-1] == (660, 537)


def test_triangles_stop_before_the_middle_strip():
    for p in range(1, 25):
        (x0, y0), (x1, y1), (tx, ty) = RIGHT.triangle(p)
        assert x1 - x0 == 80 and y0 == y1 and tx == RIGHT.point_x(p)
        assert 56 <= ty <= 852
        assert abs(ty - RIGHT.middle_y) > 48


def test_bar_stacks_start_at_the_middle_viewer_below():
    assert RIGHT.bar_x() == 572
    assert RIGHT.bar_centers("viewer", 2) == [(572, 537), (572, 607)]
    assert RIGHT.bar_centers("opponent", 1) == [(572, 371)]
    for count in range(1, 16):
        for side in ("viewer", "opponent"):
            for centre in RIGHT.bar_centers(side, count):
                assert inside(centre, RIGHT.bar)
                assert abs(centre[1] - RIGHT.middle_y) >= 48 + CHECKER // 2


def test_fifteen_borne_off_fit_their_tray_and_leave_room_for_the_count():
    assert RIGHT.slab_boxes("viewer", 1) == [(1136, 830, 1224, 846)]
    assert RIGHT.slab_boxes("opponent", 1) == [(1136, 62, 1224, 78)]
    for side in ("viewer", "opponent"):
        tray = RIGHT.tray_box(side)
        slabs = RIGHT.slab_boxes(side, 15)
        for box in slabs:
            assert tray[0] <= box[0] < box[2] <= tray[2] and tray[1] <= box[1] < box[3] <= tray[3]
        x, y = RIGHT.off_count_position(side)
        assert inside((x, y), tray)
        assert all(not (box[1] - 14 <= y <= box[3] + 14) for box in slabs)
    assert RIGHT.tray_box("viewer")[1] > RIGHT.middle_y > RIGHT.tray_box("opponent")[3]


def test_dice_sit_in_the_middle_strip_of_their_owners_half():
    assert RIGHT.dice_centers("viewer", 2) == [(821, 454), (899, 454)]
    assert RIGHT.dice_centers("opponent", 1) == [(284, 454)]
    for geo in (RIGHT, LEFT):
        home_half = geo.right_half if geo.home == "right" else geo.left_half
        for n in (1, 2, 4):
            for centre in geo.dice_centers("viewer", n):
                assert inside(centre, home_half)
            for centre in geo.dice_centers("opponent", n):
                assert not inside(centre, home_half)


def test_numbers_are_on_the_frame_beyond_their_points():
    assert RIGHT.number_position(1) == (1060, 880)
    assert RIGHT.number_position(24) == (1060, 28)
    for p in range(1, 25):
        x, y = RIGHT.number_position(p)
        assert x == RIGHT.point_x(p)
        assert y < 56 or y > 852


def test_pips_and_score_are_in_the_middle_strip():
    for side in ("viewer", "opponent"):
        assert inside(RIGHT.pip_position(side), RIGHT.bar)
    assert RIGHT.pip_position("viewer")[1] > RIGHT.middle_y > RIGHT.pip_position("opponent")[1]
    left, top, right, bottom = RIGHT.score_box()
    assert RIGHT.tray[0] <= left < right <= RIGHT.tray[2]
    assert top >= RIGHT.top_tray[3] and bottom <= RIGHT.bottom_tray[1]


def test_everything_is_inside_the_image():
    for geo in (RIGHT, LEFT):
        for box in (geo.left_half, geo.right_half, geo.bar, geo.tray, geo.score_box()):
            assert 0 <= box[0] < box[2] <= geo.width and 0 <= box[1] < box[3] <= geo.height


def test_unknown_points_and_sides_are_refused():
    with pytest.raises(ValueError):
        RIGHT.point_x(0)
    with pytest.raises(ValueError):
        RIGHT.point_x(25)
    with pytest.raises(ValueError):
        board_geometry("up")  # type: ignore[arg-type]
