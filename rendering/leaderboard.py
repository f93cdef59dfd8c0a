"""A leaderboard as a picture: ``render_leaderboard(title, lines, ...) -> bytes`` (PNG).

Knows nothing of Telegram, the database or languages: the caller passes the title, the lines
(already formatted ratings) and a footer in the reader's language. Names can be in any script,
so the text is set in DejaVu Sans when the system has it; Pillow's built-in font has no Greek,
so :func:`drawable` tells whether a text can be drawn at all (the caller sends text otherwise).
The layout is a small pure function (:func:`layout`), unit-tested.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from rendering.theme import CLASSIC, Colour, Theme

WIDTH = 800
TITLE_HEIGHT = 84
ROW_HEIGHT = 60
GAP_HEIGHT = 30
"""The room for the "…" between the top ten and the reader's own line."""
FOOTER_HEIGHT = 48
MARGIN = 24
MEDALS: dict[int, Colour] = {1: (212, 164, 36), 2: (168, 172, 178), 3: (176, 112, 60)}
MINE: Colour = (214, 232, 250)
"""The background of the reader's own line."""
FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/TTF"),
             Path("/usr/share/fonts/dejavu"), Path("/usr/local/share/fonts"))

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@dataclass(frozen=True, slots=True)
class Line:
    """One player's line: rank, name, rating as shown (``1529.6*``), rated matches."""

    rank: int
    name: str
    rating: str
    matches: int
    mine: bool = False
    provisional: bool = False


@dataclass(frozen=True, slots=True)
class Layout:
    height: int
    rows: tuple[tuple[int, int], ...]
    """Each line's top and bottom, in order."""
    gap: tuple[int, int] | None
    """Where the "…" goes (before the last line), if it is shown."""
    footer_top: int | None


def layout(count: int, *, gap: bool, footer: bool) -> Layout:
    """Where ``count`` lines go under the title; with ``gap``, a "…" before the last one."""
    y = TITLE_HEIGHT + MARGIN // 2
    rows = []
    gap_box = None
    for i in range(count):
        if gap and i == count - 1:
            gap_box = (y, y + GAP_HEIGHT)
            y += GAP_HEIGHT
        rows.append((y, y + ROW_HEIGHT))
        y += ROW_HEIGHT
    footer_top = y + MARGIN // 2 if footer else None
    height = (footer_top + FOOTER_HEIGHT if footer_top is not None else y) + MARGIN // 2
    return Layout(height, tuple(rows), gap_box, footer_top)


@functools.cache
def font(size: int, bold: bool = False) -> Font:
    """DejaVu Sans (bold or not) at ``size`` pixels, else Pillow's built-in font."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in FONT_DIRS:
        if (folder / name).exists():
            return ImageFont.truetype(str(folder / name), size)
    return ImageFont.load_default(size)


@functools.cache
def _glyph(ch: str) -> bytes:
    im = Image.new("L", (48, 40))
    ImageDraw.Draw(im).text((4, 4), ch, font=font(24), fill=255)
    return im.tobytes()


def drawable(text: str) -> bool:
    """Whether every visible character of ``text`` has a glyph in the text font (else it
    would come out as an empty box)."""
    missing = _glyph("\U0010ffff")
    return all(ch.isspace() or _glyph(ch) != missing for ch in set(text))


def printable(text: str) -> str | None:
    """``text`` without the symbols the font cannot draw (emoji, flags), or ``None`` when it
    cannot draw one of its letters or digits (a name must not lose any)."""
    missing = _glyph("\U0010ffff")
    out = []
    for ch in text:
        if ch.isspace() or _glyph(ch) != missing:
            out.append(ch)
        elif ch.isalnum():
            return None
    kept = " ".join("".join(out).split())
    return kept if kept or not text.strip() else None


def fit_text(draw: ImageDraw.ImageDraw, text: str, face: Font, width: float) -> str:
    """``text``, shortened with "…" to fit ``width`` pixels."""
    if draw.textlength(text, font=face) <= width:
        return text
    while text and draw.textlength(text + "…", font=face) > width:
        text = text[:-1]
    return text + "…"


def _line(draw: ImageDraw.ImageDraw, line: Line, top: int, theme: Theme) -> None:
    bottom = top + ROW_HEIGHT
    middle = (top + bottom) // 2
    if line.mine:
        draw.rectangle((0, top, WIDTH, bottom - 1), fill=MINE)
    draw.line((MARGIN, bottom - 1, WIDTH - MARGIN, bottom - 1), fill=theme.point_even, width=1)
    r = 20
    centre = MARGIN + r
    medal = MEDALS.get(line.rank)
    draw.ellipse((centre - r, middle - r, centre + r, middle + r),
                 fill=medal or theme.panel, outline=theme.frame_edge, width=2)
    draw.text((centre, middle), str(line.rank), font=font(20 if line.rank < 100 else 14, True),
              fill=theme.panel_ink if medal is None else (40, 30, 20), anchor="mm")
    rating_face = font(28, bold=True)
    ink = theme.frame_edge if line.provisional else (30, 24, 20)
    draw.text((WIDTH - MARGIN - 80, middle), line.rating, font=rating_face, fill=ink,
              anchor="rm")
    draw.text((WIDTH - MARGIN, middle), str(line.matches), font=font(22), fill=(110, 96, 84),
              anchor="rm")
    left = centre + r + 16
    room = WIDTH - MARGIN - 80 - draw.textlength("0000.0*", font=rating_face) - 16 - left
    draw.text((left, middle), fit_text(draw, line.name, font(28), room), font=font(28),
              fill=(30, 24, 20), anchor="lm")


def render_leaderboard(title: str, lines: Sequence[Line], *, gap: bool = False,
                       footer: str = "", matches_label: str = "",
                       theme: Theme = CLASSIC) -> bytes:
    """The leaderboard as a PNG: the title on the frame's colour, one line per player (medals
    for the first three, the reader's line highlighted, provisional ratings in a lighter ink),
    the matches counted on the right under ``matches_label``; with ``gap``, a "…" before the
    last line (the reader's own, below the top)."""
    box = layout(len(lines), gap=gap, footer=bool(footer))
    image = Image.new("RGB", (WIDTH, box.height), (250, 244, 232))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, TITLE_HEIGHT), fill=theme.frame)
    label_room = draw.textlength(matches_label, font=font(18)) + 16 if matches_label else 0
    draw.text((MARGIN, TITLE_HEIGHT // 2),
              fit_text(draw, title, font(34, True), WIDTH - 2 * MARGIN - label_room),
              font=font(34, True), fill=theme.numbers, anchor="lm")
    if matches_label:
        draw.text((WIDTH - MARGIN, TITLE_HEIGHT - 10), matches_label, font=font(18),
                  fill=theme.numbers, anchor="rs")
    for line, (top, _) in zip(lines, box.rows, strict=True):
        _line(draw, line, top, theme)
    if box.gap is not None:
        draw.text((WIDTH // 2, sum(box.gap) // 2), "…", font=font(28, True),
                  fill=(110, 96, 84), anchor="mm")
    if box.footer_top is not None:
        draw.text((MARGIN, box.footer_top + FOOTER_HEIGHT // 2),
                  fit_text(draw, footer, font(20), WIDTH - 2 * MARGIN), font=font(20),
                  fill=(110, 96, 84), anchor="lm")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
