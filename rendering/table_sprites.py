"""What the tavli boards draw beyond a Portes board, drawn once and cached like
:mod:`rendering.sprites`: the pin badge, the start tags and turn arrows that show each side's
course, the title band; and, not cached, the empty board with both courses pasted on it.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from rendering.geometry import HEIGHT, MIDDLE, WIDTH, Home, Point, board_geometry
from rendering.leaderboard import drawable
from rendering.leaderboard import font as text_font
from rendering.sprites import NUMBER_SIZE, SS, empty_board, font, shrink
from rendering.theme import CheckerStyle, Colour, Theme

TITLE_H = 64  # the band above the board with the game's name
TITLE_SIZE = 38
PIN_BADGE = 36  # the lock on the checker that pins
TAG_W, TAG_H, TAG_TIP = 86, 46, 18  # the start tag around a start point's number
ARROW_W, ARROW_H = 34, 84  # the turn arrow in the middle strip
ARROW_GAP = 20  # half the distance between two turn arrows in the same column

# A side's course as drawn: its style, its start point, the screen direction its tag points
# ("left" / "right"), and where it turns from one row to the other (column point, "up"/"down").
CourseMark = tuple[CheckerStyle, int, str, int, str]


@lru_cache(maxsize=8)
def pin_badge_sprite(colour: Colour) -> Image.Image:
    """A pin: a padlock, white on a disc of ``colour`` with a dark edge."""
    size = PIN_BADGE + 6
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    c = size * SS // 2
    r = PIN_BADGE * SS // 2
    draw.ellipse((c - r - 2 * SS, c - r - 2 * SS, c + r + 2 * SS, c + r + 2 * SS),
                 fill=(0, 0, 0, 220))
    draw.ellipse((c - r, c - r, c + r, c + r), fill=(*colour, 255))
    white = (255, 255, 255, 255)
    u = r / 9  # the lock drawn on a grid of ninths of the radius
    body = (c - 5 * u, c - 1 * u, c + 5 * u, c + 6 * u)
    draw.rounded_rectangle(body, radius=round(1.2 * u), fill=white)
    shackle = (c - 3.4 * u, c - 6.5 * u, c + 3.4 * u, c + 2 * u)
    draw.arc(shackle, 180, 360, fill=white, width=round(1.8 * u))
    for x in (c - 3.4 * u, c + 3.4 * u - 1.8 * u):
        draw.rectangle((x, c - 2.3 * u, x + 1.8 * u, c), fill=white)
    draw.ellipse((c - u, c + 1 * u, c + u, c + 3 * u), fill=(*colour, 255))  # keyhole
    return shrink(big)


@lru_cache(maxsize=64)
def tag_sprite(style: CheckerStyle, label: str, pointing: str) -> Image.Image:
    """A side's start: a tag in its checker colours around the point's number, its tip
    pointing the way the side's checkers leave (``"left"`` or ``"right"``)."""
    big = Image.new("RGBA", (TAG_W * SS, TAG_H * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    w, h, tip = TAG_W * SS - 1, TAG_H * SS - 1, TAG_TIP * SS
    shape = [(0, 0), (w - tip, 0), (w, h // 2), (w - tip, h), (0, h)]
    if pointing == "left":
        shape = [(w - x, y) for x, y in shape]
    draw.polygon(shape, fill=style.fill, outline=style.rim, width=3 * SS)
    middle = (w - tip) // 2 if pointing == "right" else tip + (w - tip) // 2
    draw.text((middle, h // 2), label, font=font(NUMBER_SIZE * SS), fill=style.ink, anchor="mm",
              stroke_width=SS, stroke_fill=style.ink)
    return shrink(big)


@lru_cache(maxsize=16)
def arrow_sprite(style: CheckerStyle, down: bool) -> Image.Image:
    """Where a side's checkers turn from one row to the other: an arrow in its checker colours."""
    big = Image.new("RGBA", (ARROW_W * SS, ARROW_H * SS), (0, 0, 0, 0))
    w, h = ARROW_W * SS - 1, ARROW_H * SS - 1
    head = round(ARROW_W * 0.9) * SS
    shaft = ARROW_W * SS * 2 // 5
    x0, x1 = (w - shaft) // 2, (w + shaft) // 2
    shape = [(x0, 0), (x1, 0), (x1, h - head), (w, h - head), (w // 2, h), (0, h - head),
             (x0, h - head)]
    if not down:
        shape = [(x, h - y) for x, y in shape]
    ImageDraw.Draw(big).polygon(shape, fill=style.fill, outline=style.rim, width=3 * SS)
    return shrink(big)


def title_text(title: str) -> str:
    """The parts of ``title`` (split at `` · ``) that the font can draw: without DejaVu Sans,
    ``"Plakoto · Πλακωτό"`` is drawn as ``"Plakoto"`` rather than as empty boxes."""
    if drawable(title):
        return title
    return " · ".join(part for part in title.split(" · ") if drawable(part))


@lru_cache(maxsize=16)
def title_band(theme: Theme, title: str, home: Home) -> Image.Image:
    """The band above the board: the game's name on the frame's wood, at the far end from the
    tray column (so it starts above the 13 point)."""
    band = Image.new("RGB", (WIDTH, TITLE_H), theme.frame)
    draw = ImageDraw.Draw(band)
    draw.line((0, TITLE_H - 1, WIDTH, TITLE_H - 1), fill=theme.frame_edge, width=2)
    geo = board_geometry(home)
    face = text_font(TITLE_SIZE, True)
    if home == "right":
        draw.text((geo.left_half[0], TITLE_H // 2 + 4), title_text(title), font=face,
                  fill=theme.numbers, anchor="lm")
    else:
        draw.text((geo.right_half[2], TITLE_H // 2 + 4), title_text(title), font=face,
                  fill=theme.numbers, anchor="rm")
    return band


def course_board(theme: Theme, home: Home, courses: tuple[CourseMark, ...]) -> Image.Image:
    """A copy of the empty board with each side's start tag on its start point's number and its
    turn arrow in the middle strip (two arrows in one column stand side by side). Not cached:
    pasting four cached sprites costs a fraction of a millisecond, and every combination of
    theme, side, colours and courses kept would hold 3.5 MB."""
    image = empty_board(theme, home).copy()
    geo = board_geometry(home)
    columns = [geo.point_x(turn) for _, _, _, turn, _ in courses]
    for i, (style, start, pointing, _, way) in enumerate(courses):
        tag = tag_sprite(style, str(start), pointing)
        x, y = geo.number_position(start)
        shift = TAG_TIP // 2 if pointing == "right" else -(TAG_TIP // 2)
        _paste(image, tag, (x + shift, y))
        shared = columns.count(columns[i]) > 1
        dx = (-ARROW_GAP if i == 0 else ARROW_GAP) if shared else 0
        _paste(image, arrow_sprite(style, way == "down"), (columns[i] + dx, geo.middle_y))
    return image


def _paste(image: Image.Image, sprite: Image.Image, centre: Point) -> None:
    x, y = centre
    image.paste(sprite, (x - sprite.width // 2, y - sprite.height // 2), sprite)


assert ARROW_H < MIDDLE and TITLE_H < HEIGHT
