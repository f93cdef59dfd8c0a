"""The leaderboard picture: its layout, what it can draw, medals and the reader's own line."""

from __future__ import annotations

import io

from PIL import Image

from rendering.leaderboard import (
    FONT_DIRS,
    GAP_HEIGHT,
    MEDALS,
    MINE,
    ROW_HEIGHT,
    TITLE_HEIGHT,
    WIDTH,
    Line,
    drawable,
    layout,
    printable,
    render_leaderboard,
)


def test_the_layout_stacks_the_lines_under_the_title() -> None:
    box = layout(3, gap=False, footer=False)
    assert [bottom - top for top, bottom in box.rows] == [ROW_HEIGHT] * 3
    assert box.rows[0][0] > TITLE_HEIGHT and box.gap is None and box.footer_top is None
    assert all(a[1] == b[0] for a, b in zip(box.rows, box.rows[1:], strict=False))
    assert box.height > box.rows[-1][1]


def test_the_gap_comes_before_the_readers_own_line_and_the_footer_last() -> None:
    box = layout(11, gap=True, footer=True)
    assert box.gap is not None and box.footer_top is not None
    assert box.rows[9][1] == box.gap[0] and box.gap[1] == box.rows[10][0]
    assert box.gap[1] - box.gap[0] == GAP_HEIGHT
    assert box.rows[10][1] < box.footer_top < box.height


def test_what_the_font_can_draw() -> None:
    assert drawable("Alice 1529.6* · 3")
    # Greek needs DejaVu Sans (Debian's fonts-dejavu-core); Pillow's own font has none
    dejavu = any((folder / "DejaVuSans.ttf").exists() for folder in FONT_DIRS)
    assert drawable("Κατάταξη: Ελένη") == dejavu
    assert not drawable("\U000f0000")  # a private-use character: no glyph anywhere
    assert not drawable("🏆 Leaderboard")


def test_printable_drops_the_symbols_it_cannot_draw_never_a_letter() -> None:
    assert printable("Nikos \U000f0000") == "Nikos"  # a symbol without a glyph: dropped
    assert printable("Ni\U000f0000kos") == "Nikos"
    assert printable("\U000f0000") is None  # nothing left of a name: no picture
    assert printable("Alice 1529.6*") == "Alice 1529.6*"
    dejavu = any((folder / "DejaVuSans.ttf").exists() for folder in FONT_DIRS)
    assert printable("Ελένη") == ("Ελένη" if dejavu else None)  # a letter is never dropped


def test_medals_and_the_readers_line() -> None:
    lines = [Line(1, "Ελένη", "1612.4", 42), Line(2, "Alice", "1529.6*", 3, provisional=True),
             Line(3, "Nikos " * 30, "1520.0", 12), Line(27, "Bob", "1470.4*", 3, mine=True)]
    png = render_leaderboard("Κατάταξη: Καφενείο", lines, gap=True, footer="* προσωρινή",
                             matches_label="αγώνες")
    image = Image.open(io.BytesIO(png)).convert("RGB")
    box = layout(4, gap=True, footer=True)
    assert image.size == (WIDTH, box.height)
    for (top, bottom), rank in zip(box.rows, (1, 2, 3), strict=False):
        # the rank's disc, left of its number
        assert image.getpixel((24 + 6, (top + bottom) // 2)) == MEDALS[rank]
    mine_middle = sum(box.rows[3]) // 2
    assert image.getpixel((WIDTH // 2, mine_middle)) == MINE
    assert image.getpixel((WIDTH // 2, sum(box.rows[0]) // 2)) != MINE
    # a long name is cut before the rating: the gap between them stays empty
    assert image.getpixel((560, sum(box.rows[2]) // 2)) == image.getpixel((560, box.rows[2][0] + 3))
