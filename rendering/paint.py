"""Painting shared by every board (Portes's :mod:`rendering.board`, the other tavli games'
:mod:`rendering.table`): dice, borne-off trays, pip counts, the score panel, and the small
helpers that paste sprites and write text.

Each takes what it draws from a :class:`Table`: the few fields both kinds of board have.
"""

from __future__ import annotations

from collections import Counter
from typing import Protocol

from PIL import Image, ImageDraw, ImageFont

from rendering.geometry import Box, Geometry, Point, Side
from rendering.sprites import die_sprite, dot_sprite, font, slab_sprite
from rendering.theme import CheckerStyle, Colour, Theme

PANEL_SIZE = 30  # pip counts, borne-off counts, score
SCORE_DISC = 24  # the checker beside each score
VIEWER: Side = "viewer"
OPPONENT: Side = "opponent"


class Table(Protocol):
    """What the shared painting needs to know of a board."""

    @property
    def theme(self) -> Theme: ...
    @property
    def viewer_color(self) -> str: ...
    @property
    def viewer_on_roll(self) -> bool: ...
    @property
    def dice(self) -> tuple[int, int] | None: ...
    @property
    def opening_roll(self) -> tuple[int, int] | None: ...
    @property
    def dice_used(self) -> tuple[int, ...]: ...
    @property
    def score(self) -> tuple[int, int, int] | None: ...
    def style(self, side: Side) -> CheckerStyle: ...


def draw_trays(
    image: Image.Image,
    geo: Geometry,
    table: Table,
    off: tuple[int, int],
    dots: dict[tuple[str, int | str], tuple[int, Colour]],
) -> None:
    """Borne-off checkers (``off`` = viewer's, opponent's) as slabs in each tray, their count,
    and dots on the ones just borne off."""
    for side, count in zip((VIEWER, OPPONENT), off, strict=True):
        slab = slab_sprite(table.style(side))
        boxes = geo.slab_boxes(side, count)
        for box in boxes:
            image.paste(slab, (box[0], box[1]), slab)
        if count:
            text(image, geo.off_count_position(side), str(count), PANEL_SIZE, table.theme.numbers)
        arrived = dots.get(("off", side))
        if arrived:
            n, colour = arrived
            for box in boxes[-n:]:
                paste_centred(image, dot_sprite(colour, 12), box_centre(box))


def draw_pips(image: Image.Image, geo: Geometry, table: Table, pips: tuple[int, int]) -> None:
    """Both pip counts (viewer's, opponent's) on the bar, each on a pill in its side's colours."""
    for side, count in zip((VIEWER, OPPONENT), pips, strict=True):
        style = table.style(side)
        pill(image, geo.pip_position(side), 84, 38, style.fill, style.rim)
        text(image, geo.pip_position(side), str(count), PANEL_SIZE, style.ink)


def draw_dice(image: Image.Image, geo: Geometry, table: Table) -> None:
    """The opening roll (a die on each half) or the roll of the side on roll, used dice faded."""
    if table.opening_roll is not None:
        mine, theirs = table.opening_roll
        for owner, value in ((VIEWER, mine), (OPPONENT, theirs)):
            (centre,) = geo.dice_centers(owner, 1)
            paste_centred(image, die_sprite(table.style(owner), value, False), centre)
        return
    if table.dice is None:
        return
    d1, d2 = table.dice
    values = [d1] * 4 if d1 == d2 else [d1, d2]
    used = Counter(table.dice_used)  # the side on roll's moves so far
    side: Side = "viewer" if table.viewer_on_roll else "opponent"
    style = table.style(side)
    # Used dice are the last ones of their value, so a half-played double fades from the right.
    faded = [False] * len(values)
    for i in range(len(values) - 1, -1, -1):
        if used[values[i]] > 0:
            used[values[i]] -= 1
            faded[i] = True
    for value, fade, centre in zip(values, faded, geo.dice_centers(side, len(values)), strict=True):
        paste_centred(image, die_sprite(style, value, fade), centre)


def draw_score(image: Image.Image, geo: Geometry, table: Table) -> None:
    """The score on a panel, the same from either side: white's score beside a white checker
    on top, black's beside a black one below, the match length to their right (``/5``). (The
    viewer's score first would swap the numbers each turn in a group, where the board is drawn
    for the player to move.)"""
    assert table.score is not None
    theme = table.theme
    left, top, right, bottom = geo.score_box()
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (left, top, right - 1, bottom - 1), radius=10, fill=theme.panel, outline=theme.numbers,
        width=2,
    )
    mine, theirs, length = table.score
    by_colour = {"white": mine, "black": theirs} if table.viewer_color == "white" else {
        "white": theirs, "black": mine}
    total = f"/{length}"
    size = PANEL_SIZE
    while True:  # shrink the text until it fits the box (two-digit scores and lengths)
        face = font(size)
        digits = max(face.getlength(str(n)) for n in by_colour.values())
        width = SCORE_DISC + 6 + digits + 8 + face.getlength(total)
        if width <= right - left - 12 or size <= 14:
            break
        size -= 2
    x = round((left + right) / 2 - width / 2)
    middle = (top + bottom) // 2
    rows = {"white": middle - (bottom - top) // 4, "black": middle + (bottom - top) // 4}
    for colour, y in rows.items():
        style = theme.white if colour == "white" else theme.black
        draw.ellipse((x, y - SCORE_DISC // 2, x + SCORE_DISC, y + SCORE_DISC // 2),
                     fill=style.fill, outline=theme.numbers, width=2)
        _panel_text(draw, (x + SCORE_DISC + 6, y), str(by_colour[colour]), face, theme)
    _panel_text(draw, (round(x + SCORE_DISC + 6 + digits + 8), middle), total, face, theme)


def _panel_text(draw: ImageDraw.ImageDraw, at: Point, text: str,
                face: ImageFont.FreeTypeFont | ImageFont.ImageFont,
                theme: Theme) -> None:
    draw.text(at, text, font=face, fill=theme.panel_ink, anchor="lm", stroke_width=1,
              stroke_fill=theme.panel_ink)


def text(image: Image.Image, centre: Point, label: str, size: int, colour: Colour) -> None:
    """``label`` centred on ``centre`` in the board's font, slightly emboldened."""
    ImageDraw.Draw(image).text(
        centre, label, font=font(size), fill=colour, anchor="mm", stroke_width=1, stroke_fill=colour
    )


def pill(image: Image.Image, centre: Point, w: int, h: int, fill: Colour, rim: Colour) -> None:
    x, y = centre
    ImageDraw.Draw(image).rounded_rectangle(
        (x - w // 2, y - h // 2, x + w // 2 - 1, y + h // 2 - 1),
        radius=h // 2,
        fill=fill,
        outline=rim,
        width=2,
    )


def paste_centred(image: Image.Image, sprite: Image.Image, centre: Point) -> None:
    x, y = centre
    image.paste(sprite, (x - sprite.width // 2, y - sprite.height // 2), sprite)


def box_centre(box: Box) -> Point:
    return (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
