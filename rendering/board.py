"""Draw a Portes board: one pure function from what to show to image bytes.

Nothing here knows about Telegram or the database. The empty board (frame, triangles, point
numbers) and every sprite (checkers, dice, marks) are drawn once per theme and orientation,
antialiased by supersampling, and cached (:mod:`rendering.sprites`); a render then copies the
empty board, pastes sprites, writes a few numbers and encodes the result. Where things go is
:mod:`rendering.geometry`, the colours :mod:`rendering.theme`, what to show
:mod:`rendering.scene`.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Literal

from PIL import Image

from rendering.bands import with_bands
from rendering.geometry import (
    BAR_PLAIN,
    CHECKER,
    MAX_PLAIN,
    Geometry,
    Home,
    Point,
    Side,
    board_geometry,
)
from rendering.paint import (
    box_centre,
    draw_dice,
    draw_pips,
    draw_score,
    draw_trays,
    paste_centred,
    text,
)
from rendering.scene import (
    OPPONENT,
    VIEWER,
    CheckerColour,
    Place,
    Scene,
    checker_stacks,
    play_marks,
)
from rendering.sprites import (
    checker_sprite,
    dot_sprite,
    empty_board,
    frame_sprite,
    ghost_sprite,
    hit_sprite,
    ring_sprite,
    triangle_sprite,
)
from rendering.theme import CLASSIC, Colour, Theme
from rules.position import BAR, OFF, Move, Position

ImageFormat = Literal["jpeg", "png"]

JPEG_QUALITY = 85
COUNT_SIZE = 34  # the count on a stack of more than five

Stacks = dict[Place, tuple[Side, int]]
Centres = dict[Place, list[Point]]


# -- public API ------------------------------------------------------------------------------


def render_board(
    position: Position,
    *,
    viewer_on_roll: bool = True,
    viewer_color: CheckerColour = "white",
    dice: tuple[int, int] | None = None,
    opening_roll: tuple[int, int] | None = None,
    last_play: Sequence[Move] = (),
    last_play_by: Side = "opponent",
    chosen_point: int | None = None,
    targets: Iterable[int] = (),
    moves_made: Sequence[Move] = (),
    score: tuple[int, int, int] | None = None,
    show_pips: bool = True,
    theme: Theme = CLASSIC,
    home: Home = "right",
    image_format: ImageFormat = "jpeg",
    title: str = "",
    names: tuple[str, str] | None = None,
) -> bytes:
    """Draw ``position`` for one player (the *viewer*) and return the encoded image.

    ``position`` is seen from the viewer's side: pass the game's position as it is when the
    viewer is on roll, and ``position.flip()`` with ``viewer_on_roll=False`` when not. The point
    numbers on the board are the viewer's, with the viewer's home bottom right (``home="left"``
    mirrors the board). The position drawn is the current one: the moves in ``last_play`` and
    ``moves_made`` have already been played on it.

    - ``viewer_color``: which checkers the viewer plays, ``"white"`` or ``"black"``.
    - ``dice``: the roll of the side on roll (drawn on its half, in its colour); dice used by
      ``moves_made`` are drawn faded. Doubles are drawn as four dice.
    - ``opening_roll``: ``(viewer's die, opponent's die)``, one die on each side's half;
      not together with ``dice``.
    - ``last_play``: the single moves of the last play, in the numbering of the side that made
      them (the rules core's ``Play.moves`` as they are), made by ``last_play_by``
      (``"opponent"`` unless said otherwise): checkers' old places drawn as ghosts, their new
      places dotted, hits marked.
    - ``chosen_point`` (25 = bar) and ``targets`` (0 = bearing off), in the viewer's numbering:
      during move input, the checker picked and where it may go.
    - ``moves_made``: the moves so far this turn of the side on roll (the viewer's when
      ``viewer_on_roll``, else the opponent's), in that side's numbering like ``last_play``;
      the dice they used are drawn faded.
    - ``score``: ``(viewer's score, opponent's, match length)``, drawn by colour (white on top).
    - ``show_pips``: the pip counts of both sides, on the bar (the viewer's below the middle).
    - ``image_format``: ``"jpeg"`` (default: small and fast; Telegram re-encodes photos as JPEG
      anyway) or ``"png"`` (lossless, for tests and documents).
    - ``title``: the game's name in a band above the board, as on the other games' boards (the
      Portes games of a tavli match); ``""``: none.
    - ``names``: ``(viewer's, opponent's)`` names, each drawn beside a checker of its colour,
      the opponent's in a band above the board and the viewer's in one below it (a board read
      by several people, a group's: see :mod:`rendering.bands`); ``None``: no names.
    """
    scene = Scene(
        position=position,
        viewer_on_roll=viewer_on_roll,
        viewer_color=viewer_color,
        dice=dice,
        opening_roll=opening_roll,
        last_play=tuple(last_play),
        last_play_by=last_play_by,
        chosen_point=chosen_point,
        targets=frozenset(targets),
        moves_made=tuple(moves_made),
        score=score,
        show_pips=show_pips,
        theme=theme,
        home=home,
    )
    players = None if names is None else (
        (names[0], scene.style(VIEWER)), (names[1], scene.style(OPPONENT)))
    return encode(with_bands(draw(scene), theme, home, title, players), image_format)


def encode(image: Image.Image, image_format: ImageFormat) -> bytes:
    """JPEG at quality 85 with 4:2:0 subsampling (Telegram re-encodes photos as JPEG anyway), or
    PNG for tests and documents."""
    buffer = io.BytesIO()
    if image_format == "jpeg":
        image.save(buffer, "JPEG", quality=JPEG_QUALITY, subsampling="4:2:0")
    elif image_format == "png":
        image.save(buffer, "PNG", compress_level=3)
    else:
        raise ValueError(f"image_format must be 'jpeg' or 'png', not {image_format!r}")
    return buffer.getvalue()


# -- drawing, back to front ------------------------------------------------------------------


def draw(scene: Scene) -> Image.Image:
    """The board image of ``scene``: each layer drawn over the ones before it."""
    scene.validate()
    geo = board_geometry(scene.home)
    image = empty_board(scene.theme, scene.home).copy()
    stacks = checker_stacks(scene.position)
    marks = play_marks(scene)
    _draw_target_tints(image, geo, scene)
    centres = _draw_checkers(image, geo, scene, stacks, marks.ghosts)
    position = scene.position
    draw_trays(image, geo, scene, (position.mover_off, position.opponent_off), marks.dots)
    _draw_arrivals(image, marks.dots, centres)
    _draw_hits(image, scene.theme, marks.hits, centres)
    _draw_input(image, geo, scene, stacks, centres)
    draw_dice(image, geo, scene)
    if scene.show_pips:
        draw_pips(image, geo, scene, position.pips())
    if scene.score is not None:
        draw_score(image, geo, scene)
    return image


def _draw_target_tints(image: Image.Image, geo: Geometry, scene: Scene) -> None:
    """Target highlights go under the checkers."""
    for target in sorted(scene.targets):
        if target == OFF:
            continue
        overlay, mask = triangle_sprite(scene.theme.target, top=geo.is_top(target))
        left, top, _, _ = geo.point_box(target)
        image.paste(overlay, (left, top), mask)


def _draw_checkers(
    image: Image.Image,
    geo: Geometry,
    scene: Scene,
    stacks: Stacks,
    ghosts: dict[Place, list[tuple[Side, Colour]]],
) -> Centres:
    """Checkers on points and on the bar, with ghosts after them; returns where each checker
    of a place was drawn (ghosts not included)."""
    centres: Centres = {}
    for place in {*stacks, *ghosts}:
        side, count = stacks.get(place, ("viewer", 0))
        extra = ghosts.get(place, [])
        total = count + len(extra)
        if total == 0:
            continue
        kind, where = place
        if kind == "point":
            assert isinstance(where, int)
            spots = geo.checker_centers(where, total)
        else:
            spots = geo.bar_centers(VIEWER if where == VIEWER else OPPONENT, total)
        centres[place] = spots[:count]
        sprite = checker_sprite(scene.style(side))
        for centre in spots[:count]:
            paste_centred(image, sprite, centre)
        for (ghost_side, colour), centre in zip(extra, spots[count:], strict=True):
            paste_centred(image, ghost_sprite(scene.style(ghost_side), colour), centre)
        if count > (MAX_PLAIN if kind == "point" else BAR_PLAIN):
            style = scene.style(side)
            text(image, centres[place][-1], str(count), COUNT_SIZE, style.ink)
    return centres


def _draw_arrivals(
    image: Image.Image, dots: dict[Place, tuple[int, Colour]], centres: Centres
) -> None:
    """Dots where checkers arrived on a point or the bar (the trays' are drawn with them)."""
    for place, (count, colour) in dots.items():
        if place[0] == "off":
            continue
        spots = centres.get(place, [])
        if len(spots) > (MAX_PLAIN if place[0] == "point" else BAR_PLAIN):
            # A counted stack: one dot beside the count on the top checker.
            x, y = spots[-1]
            paste_centred(image, dot_sprite(colour, 18), (x + 22, y))
            continue
        for centre in spots[-count:]:
            paste_centred(image, dot_sprite(colour, 22), centre)


def _draw_hits(
    image: Image.Image, theme: Theme, hits: list[Place], centres: Centres
) -> None:
    """A cross on each checker that was hit, on its bar (none once it has entered again)."""
    for where, count in Counter(hits).items():
        spots = centres.get(where, [])
        for centre in spots[-count:]:
            paste_centred(image, hit_sprite(theme.hit), centre)


def _draw_input(
    image: Image.Image, geo: Geometry, scene: Scene, stacks: Stacks, centres: Centres
) -> None:
    """Move input: a ring where the checker would land on each target (the tray framed when
    bearing off is one), and a ring on the checker picked."""
    theme = scene.theme
    for target in sorted(scene.targets):
        if target == OFF:
            left, top, right, bottom = geo.tray_box("viewer")
            paste_centred(
                image,
                frame_sprite(theme.target, right - left, bottom - top),
                box_centre(geo.tray_box("viewer")),
            )
            continue
        side, count = stacks.get(("point", target), ("viewer", 0))
        slot = 0 if side == "opponent" else count
        spot = geo.checker_centers(target, max(slot + 1, 1))[slot]
        paste_centred(image, ring_sprite(theme.target, CHECKER - 8, 5), spot)
    if scene.chosen_point is not None:
        place = ("bar", "viewer") if scene.chosen_point == BAR else ("point", scene.chosen_point)
        chosen = centres.get(place)
        if chosen and stacks[place][0] == "viewer":
            paste_centred(image, ring_sprite(theme.chosen, CHECKER + 10, 6), chosen[-1])


