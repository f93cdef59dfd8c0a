"""The players' names on a board (issue 27, item 7): the opponent's above the board, the
viewer's below, each beside a checker of its colour over the tray column; long names, Greek
names and emoji are cut or left out to fit, never over the game's name."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from rendering import CLASSIC, render_board, render_table, view_of_counts
from rendering.bands import NAME_ROOM, NAME_SIZE, SWATCH_GAP, TITLE_GAP, name_band
from rendering.geometry import HEIGHT, WIDTH, board_geometry
from rendering.leaderboard import font
from rendering.table_sprites import TITLE_H, TITLE_SIZE, title_band
from rules.position import Move, Position, apply_move
from tests.rendering.helpers import count_near

LONG_GREEK = "Αλέξανδρος Παπαδόπουλος-Κωνσταντινίδης του Γεωργίου 🎲🎲🎲"
GEO = board_geometry("right")
SWATCH_X = (GEO.tray[0] + GEO.tray[2]) // 2


def png(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def board(**options: object) -> Image.Image:
    return png(render_board(Position.start(), image_format="png", dice=(6, 2),
                            **options))  # type: ignore[arg-type]


def ink_columns(band: Image.Image, home: str = "right") -> list[int]:
    """The columns of a band where its text (the numbers' colour) is drawn, outside the tray
    column (the checker there is about as light as the text)."""
    tray = board_geometry("right" if home == "right" else "left").tray
    return [x for x in range(band.width) if not tray[0] <= x < tray[2]
            and count_near(band, (x, 4, x + 1, band.height - 4), CLASSIC.numbers, 30) > 0]


def test_the_names_are_drawn_above_and_below_the_board_which_is_unchanged() -> None:
    plain = board()
    named = board(names=("Alice", "Bob"))
    assert plain.size == (WIDTH, HEIGHT)
    assert named.size == (WIDTH, HEIGHT + 2 * TITLE_H)
    # the board itself is the same picture, between the bands
    middle = named.crop((0, TITLE_H, WIDTH, TITLE_H + HEIGHT))
    assert ImageChops.difference(middle, plain).getbbox() is None
    # the opponent (Bob, black here) on top, the viewer (Alice, white) below, by their colours
    top, bottom = named.crop((0, 0, WIDTH, TITLE_H)), named.crop(
        (0, TITLE_H + HEIGHT, WIDTH, HEIGHT + 2 * TITLE_H))
    assert count_near(top, (SWATCH_X - 8, 24, SWATCH_X + 8, 40), CLASSIC.black.fill, 30) > 150
    assert count_near(bottom, (SWATCH_X - 8, 24, SWATCH_X + 8, 40), CLASSIC.white.fill, 30) > 150
    # each name written beside its checker, and only there
    for band in (top, bottom):
        columns = ink_columns(band)
        assert columns and max(columns) < GEO.tray[0] - SWATCH_GAP + 2
        assert min(columns) > GEO.tray[0] - 200  # a short name: beside the checker
    # different names, different pictures
    assert ImageChops.difference(named, board(names=("Alice", "Maria"))).getbbox() is not None
    black = board(names=("Alice", "Bob"), viewer_color="black")
    assert count_near(black, (SWATCH_X - 8, 24, SWATCH_X + 8, 40), CLASSIC.white.fill, 30) > 150


@pytest.mark.parametrize("title", ["", "Τάβλι · Πλακωτό"])
def test_a_long_name_is_cut_to_fit_beside_the_games_name(title: str) -> None:
    band = name_band(CLASSIC, "right", title, LONG_GREEK, CLASSIC.black, top=True)
    columns = ink_columns(band)
    name_columns = [x for x in columns if x > GEO.left_half[0] + (
        font(TITLE_SIZE, True).getlength(title) if title else 0) + 4]
    # cut with "…" to its room, ending beside the checker
    assert max(name_columns) < GEO.tray[0] - SWATCH_GAP + 2
    assert max(name_columns) - min(name_columns) <= NAME_ROOM
    if title:  # a clear gap between the game's name and the player's
        end = GEO.left_half[0] + font(TITLE_SIZE, True).getlength(title)
        assert not [x for x in columns if end + 4 < x < end + TITLE_GAP - 4]
        assert min(name_columns) >= end + TITLE_GAP - 4
        # the game's name is drawn as without a player's name
        left = band.crop((0, 0, round(end) + 2, TITLE_H))
        plain = title_band(CLASSIC, title, "right").crop((0, 0, round(end) + 2, TITLE_H))
        assert ImageChops.difference(left.convert("RGB"), plain.convert("RGB")).getbbox() is None
    # the long name fills its room, cut; a short one is drawn whole, beside the checker
    assert font(NAME_SIZE, True).getlength(LONG_GREEK) > NAME_ROOM
    assert max(name_columns) - min(name_columns) > 400
    short = [x for x in ink_columns(name_band(CLASSIC, "right", title, "Νίκος", CLASSIC.black,
                                              top=True)) if x >= min(name_columns)]
    assert short and max(short) - min(short) < 150
    assert abs(max(short) - max(name_columns)) <= 3  # both end beside the checker


def test_emoji_are_left_out_and_an_undrawable_name_leaves_the_checker_alone() -> None:
    with_emoji = name_band(CLASSIC, "right", "", "🎲 Bob 🇬🇷", CLASSIC.black, top=False)
    plain = name_band(CLASSIC, "right", "", "Bob", CLASSIC.black, top=False)
    assert ImageChops.difference(with_emoji, plain).getbbox() is None
    only_emoji = name_band(CLASSIC, "right", "", "🎲🎲", CLASSIC.black, top=False)
    assert ink_columns(only_emoji) == []
    assert count_near(only_emoji, (SWATCH_X - 8, 24, SWATCH_X + 8, 40), CLASSIC.black.fill,
                      30) > 150


def test_home_on_the_left_mirrors_the_names() -> None:
    geo = board_geometry("left")
    image = png(render_board(Position.start(), image_format="png", home="left",
                             names=("Alice", "Bob")))
    bottom = image.crop((0, TITLE_H + HEIGHT, WIDTH, HEIGHT + 2 * TITLE_H))
    columns = ink_columns(bottom, "left")
    assert min(columns) > geo.tray[2] + SWATCH_GAP - 2 and max(columns) < geo.tray[2] + 200


def test_the_other_games_boards_have_the_names_under_their_title() -> None:
    view = view_of_counts({24: 15, 1: -15}, title="Plakoto", names=("Alice", "Bob"))
    image = png(render_table(view, image_format="png"))
    assert image.size == (WIDTH, HEIGHT + 2 * TITLE_H)
    titled = png(render_table(view_of_counts({24: 15, 1: -15}, title="Plakoto"),
                              image_format="png"))
    # the board the same, the title where it was, a name beside it
    assert ImageChops.difference(image.crop((0, TITLE_H, WIDTH, TITLE_H + HEIGHT)),
                                 titled.crop((0, TITLE_H, WIDTH, TITLE_H + HEIGHT))
                                 ).getbbox() is None
    assert ImageChops.difference(image.crop((0, 0, WIDTH, TITLE_H)),
                                 titled.crop((0, 0, WIDTH, TITLE_H))).getbbox() is not None


def test_the_side_on_roll_has_its_moves_so_far_marked_and_its_dice_faded() -> None:
    """A board drawn from the side not on roll (a group's) marks the mover's moves so far at
    their place in the viewer's numbering, as it marks the viewer's own."""
    move = Move(24, 18, 6, False)
    after = apply_move(Position.start(), move)  # the mover's side; the viewer's: flipped
    seen = after.flip()
    drawn = png(render_board(seen, viewer_on_roll=False, dice=(6, 2), image_format="png",
                             moves_made=(move,)))
    x, y = GEO.checker_centers(7, 1)[0]  # the mover's 18 is the viewer's 7
    assert count_near(drawn, (x - 5, y - 5, x + 5, y + 5), CLASSIC.moved, 40) > 50
    unmarked = png(render_board(seen, viewer_on_roll=False, dice=(6, 2), image_format="png"))
    assert ImageChops.difference(drawn, unmarked).getbbox() is not None
