"""A cup's bracket as a picture: ``render_bracket(title, rounds, ...) -> bytes`` (JPEG).

Knows nothing of Telegram, the database or languages: the caller passes the title, the round
headings and each game's two names (already shortened or translated: "bye", "—") with which of
them won. One column per round, the first round's games stacked, each later game centred
between the two it follows and joined to them by lines. :func:`layout` is the pure geometry,
unit-tested; the text font is :mod:`rendering.leaderboard`'s (DejaVu Sans: Greek, Cyrillic).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from rendering.leaderboard import fit, font
from rendering.theme import CLASSIC, Theme

COLUMN = 210
GUTTER = 28
BOX_HEIGHT = 44
BOX_GAP = 8
TITLE_HEIGHT = 72
HEADING_HEIGHT = 34
MARGIN = 20
PAPER = (250, 244, 232)
INK = (30, 24, 20)
MUTED = (130, 116, 104)
WON = (226, 240, 214)


@dataclass(frozen=True, slots=True)
class Entry:
    """One game of the bracket as drawn: two names (``None``: still to come), ``winner`` 0 or
    1 once decided, ``live`` while its match is being played."""

    top: str | None
    bottom: str | None
    winner: int | None = None
    live: bool = False


@dataclass(frozen=True, slots=True)
class Box:
    round: int
    slot: int
    x: int
    y: int


def layout(first_games: int, rounds: int) -> tuple[int, int, list[Box]]:
    """The picture's width, height and every game's box (its top-left corner): the first
    round's games stacked, each later game centred between its two feeders."""
    top = TITLE_HEIGHT + HEADING_HEIGHT + MARGIN
    boxes: list[Box] = []
    centres = [top + i * (BOX_HEIGHT + BOX_GAP) + BOX_HEIGHT // 2 for i in range(first_games)]
    for r in range(rounds):
        x = MARGIN + r * (COLUMN + GUTTER)
        boxes += [Box(r, i, x, c - BOX_HEIGHT // 2) for i, c in enumerate(centres)]
        centres = [(centres[i] + centres[i + 1]) // 2 for i in range(0, len(centres) - 1, 2)]
    width = 2 * MARGIN + rounds * COLUMN + (rounds - 1) * GUTTER
    height = top + first_games * (BOX_HEIGHT + BOX_GAP) - BOX_GAP + MARGIN
    return width, height, boxes


def render_bracket(title: str, headings: Sequence[str], rounds: Sequence[Sequence[Entry]], *,
                   footer: str = "", theme: Theme = CLASSIC) -> bytes:
    """The bracket as a JPEG: ``rounds[r][i]`` is game ``i`` of round ``r`` (the first round
    has the most games, each next one half as many); ``headings`` names the rounds."""
    width, height, boxes = layout(len(rounds[0]), len(rounds))
    height += 32 if footer else 0
    width = max(width, 520)
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width, TITLE_HEIGHT), fill=theme.frame)
    draw.text((MARGIN, TITLE_HEIGHT // 2), fit(draw, title, font(30, True), width - 2 * MARGIN),
              font=font(30, True), fill=theme.numbers, anchor="lm")
    for r, heading in enumerate(headings[:len(rounds)]):
        x = MARGIN + r * (COLUMN + GUTTER) + COLUMN // 2
        draw.text((x, TITLE_HEIGHT + HEADING_HEIGHT // 2 + 4), heading, font=font(18, True),
                  fill=MUTED, anchor="mm")
    where = {(b.round, b.slot): b for b in boxes}
    for b in boxes:
        if b.round + 1 < len(rounds):
            nxt = where[(b.round + 1, b.slot // 2)]
            mid_x = b.x + COLUMN + GUTTER // 2
            y, ny = b.y + BOX_HEIGHT // 2, nxt.y + BOX_HEIGHT // 2
            draw.line([(b.x + COLUMN, y), (mid_x, y), (mid_x, ny), (nxt.x, ny)],
                      fill=theme.frame_edge, width=2)
        _game(draw, rounds[b.round][b.slot], b, theme)
    if footer:
        draw.text((MARGIN, height - 22), fit(draw, footer, font(16), width - 2 * MARGIN),
                  font=font(16), fill=MUTED, anchor="lm")
    out = io.BytesIO()
    # JPEG: Telegram turns every photo into one anyway (with its colour halved, as here), and
    # a 64-player bracket is a tall picture whose PNG encoding alone took ten times as long;
    # dark names on light boxes stay crisp
    image.save(out, format="JPEG", quality=90)
    return out.getvalue()


def _game(draw: ImageDraw.ImageDraw, entry: Entry, box: Box, theme: Theme) -> None:
    half = BOX_HEIGHT // 2
    outline = theme.frame if entry.live else theme.frame_edge
    draw.rectangle((box.x, box.y, box.x + COLUMN, box.y + BOX_HEIGHT), fill=(255, 252, 246),
                   outline=outline, width=3 if entry.live else 1)
    for i, name in enumerate((entry.top, entry.bottom)):
        y = box.y + i * half
        if entry.winner == i:
            draw.rectangle((box.x + 1, y + 1, box.x + COLUMN - 1, y + half - 1), fill=WON)
        face = font(16, bold=entry.winner == i)
        ink = MUTED if name is None or (entry.winner is not None and entry.winner != i) else INK
        text = fit(draw, name if name is not None else "…", face, COLUMN - 20)
        draw.text((box.x + 10, y + half // 2), text, font=face, fill=ink, anchor="lm")
    draw.line((box.x, box.y + half, box.x + COLUMN, box.y + half), fill=theme.point_even)
