"""The bands above and below a board: the game's name (:func:`rendering.table_sprites.title_band`)
and, on a board that several people read (a group's), each player's name beside a checker of
their colour: the player at the top of the picture in the band above it, the player at the
bottom in the band below, each with the checker over the tray column (next to their own
tray) and the name beside it.

Names can be long, in any script, with emoji: the symbols the font cannot draw are left out
(:func:`rendering.leaderboard.printable`; a name it cannot draw a letter of is left out
whole), and a name is cut with "…" to the room beside the title (at most :data:`NAME_ROOM`).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from rendering.geometry import WIDTH, Home, board_geometry
from rendering.leaderboard import fit, printable
from rendering.leaderboard import font as text_font
from rendering.sprites import checker_sprite
from rendering.table_sprites import TITLE_H, TITLE_SIZE, title_band, title_text
from rendering.theme import CheckerStyle, Theme

NAME_SIZE = 40  # as the point numbers
SWATCH = 48  # the checker drawn beside a name
SWATCH_GAP = 12
TITLE_GAP = 48  # between the game's name and a player's, at the least
NAME_ROOM = 600
"""The most room a name takes, in pixels (about 30 letters)."""


def with_bands(image: Image.Image, theme: Theme, home: Home, title: str,
               players: tuple[tuple[str, CheckerStyle], tuple[str, CheckerStyle]] | None,
               ) -> Image.Image:
    """``image`` (a board) with the band above it when there is a ``title``, and with
    ``players`` (``(name, checker style)`` of the viewer, then of the opponent) one band above
    and one below, the opponent's name on top (their checkers start at the top)."""
    if players is None:
        if not title:
            return image
        out = Image.new("RGB", (image.width, image.height + TITLE_H))
        out.paste(title_band(theme, title, home), (0, 0))
        out.paste(image, (0, TITLE_H))
        return out
    (mine, my_style), (theirs, their_style) = players
    out = Image.new("RGB", (image.width, image.height + 2 * TITLE_H))
    out.paste(name_band(theme, home, title, theirs, their_style, top=True), (0, 0))
    out.paste(image, (0, TITLE_H))
    out.paste(name_band(theme, home, "", mine, my_style, top=False),
              (0, TITLE_H + image.height))
    return out


@lru_cache(maxsize=32)
def swatch(style: CheckerStyle) -> Image.Image:
    """A checker of ``style``, small, to stand beside a name."""
    sprite = checker_sprite(style)
    size = round(sprite.width * SWATCH / 70)
    return sprite.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=32)
def name_band(theme: Theme, home: Home, title: str, name: str, style: CheckerStyle, *,
              top: bool) -> Image.Image:
    """A band with ``name`` beside a checker of ``style`` at the tray's end of the board, and
    (``top``) the game's name at the other end, as :func:`title_band` draws it."""
    if top:
        band = title_band(theme, title, home).copy()
    else:
        band = Image.new("RGB", (WIDTH, TITLE_H), theme.frame)
        ImageDraw.Draw(band).line((0, 0, WIDTH, 0), fill=theme.frame_edge, width=2)
    draw = ImageDraw.Draw(band)
    geo = board_geometry(home)
    face = text_font(NAME_SIZE, True)
    shown_title = title_text(title) if title else ""
    taken = draw.textlength(shown_title, font=text_font(TITLE_SIZE, True)) if shown_title else 0
    centre = (geo.tray[0] + geo.tray[2]) // 2
    if home == "right":  # the name ends beside the checker, over the tray column
        span = geo.tray[0] - SWATCH_GAP - geo.left_half[0]
    else:
        span = geo.right_half[2] - geo.tray[2] - SWATCH_GAP
    room = min(NAME_ROOM, span - taken - (TITLE_GAP if taken else 0))
    drawn = fit(draw, printable(name) or "", face, room)
    middle = TITLE_H // 2 + (2 if top else 0)
    disc = swatch(style)
    band.paste(disc, (centre - disc.width // 2, middle - disc.height // 2), disc)
    if drawn:
        x, anchor = ((geo.tray[0] - SWATCH_GAP, "rm") if home == "right"
                     else (geo.tray[2] + SWATCH_GAP, "lm"))
        draw.text((x, middle + 2), drawn, font=face, fill=theme.numbers, anchor=anchor)
    return band
