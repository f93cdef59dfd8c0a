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

from PIL import Image, ImageDraw, ImageFont

from rendering.geometry import (
    BAR_PLAIN,
    CHECKER,
    MAX_PLAIN,
    Box,
    Geometry,
    Home,
    Point,
    Side,
    board_geometry,
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
    die_sprite,
    dot_sprite,
    empty_board,
    font,
    frame_sprite,
    ghost_sprite,
    hit_sprite,
    ring_sprite,
    slab_sprite,
    triangle_sprite,
)
from rendering.theme import CLASSIC, Colour, Theme
from rules.position import BAR, OFF, Move, Position

ImageFormat = Literal["jpeg", "png"]

JPEG_QUALITY = 85
COUNT_SIZE = 34  # the count on a stack of more than five
PANEL_SIZE = 30  # pip counts, borne-off counts, score
SCORE_DISC = 24  # the checker beside each score

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
    - ``moves_made``: the viewer's moves so far this turn, in the viewer's numbering.
    - ``score``: ``(viewer's score, opponent's, match length)``, drawn by colour (white on top).
    - ``show_pips``: the pip counts of both sides, on the bar (the viewer's below the middle).
    - ``image_format``: ``"jpeg"`` (default: small and fast; Telegram re-encodes photos as JPEG
      anyway) or ``"png"`` (lossless, for tests and documents).
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
    return encode(draw(scene), image_format)


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
    _draw_borne_off(image, geo, scene, marks.dots)
    _draw_arrivals(image, marks.dots, centres)
    _draw_hits(image, scene.theme, marks.hits, centres)
    _draw_input(image, geo, scene, stacks, centres)
    _draw_dice(image, geo, scene)
    if scene.show_pips:
        _draw_pips(image, geo, scene)
    if scene.score is not None:
        _draw_score(image, geo, scene)
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
            _paste_centred(image, sprite, centre)
        for (ghost_side, colour), centre in zip(extra, spots[count:], strict=True):
            _paste_centred(image, ghost_sprite(scene.style(ghost_side), colour), centre)
        if count > (MAX_PLAIN if kind == "point" else BAR_PLAIN):
            style = scene.style(side)
            _text(image, centres[place][-1], str(count), COUNT_SIZE, style.ink)
    return centres


def _draw_borne_off(
    image: Image.Image, geo: Geometry, scene: Scene, dots: dict[Place, tuple[int, Colour]]
) -> None:
    """Borne-off checkers as slabs in each tray, their count, and dots on the ones just borne
    off."""
    for side in (VIEWER, OPPONENT):
        off = scene.position.mover_off if side == "viewer" else scene.position.opponent_off
        slab = slab_sprite(scene.style(side))
        boxes = geo.slab_boxes(side, off)
        for box in boxes:
            image.paste(slab, (box[0], box[1]), slab)
        if off:
            _text(image, geo.off_count_position(side), str(off), PANEL_SIZE, scene.theme.numbers)
        arrived = dots.get(("off", side))
        if arrived:
            count, colour = arrived
            for box in boxes[-count:]:
                _paste_centred(image, dot_sprite(colour, 12), _box_centre(box))


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
            _paste_centred(image, dot_sprite(colour, 18), (x + 22, y))
            continue
        for centre in spots[-count:]:
            _paste_centred(image, dot_sprite(colour, 22), centre)


def _draw_hits(
    image: Image.Image, theme: Theme, hits: list[Place], centres: Centres
) -> None:
    """A cross on each checker that was hit, on its bar (none once it has entered again)."""
    for where, count in Counter(hits).items():
        spots = centres.get(where, [])
        for centre in spots[-count:]:
            _paste_centred(image, hit_sprite(theme.hit), centre)


def _draw_input(
    image: Image.Image, geo: Geometry, scene: Scene, stacks: Stacks, centres: Centres
) -> None:
    """Move input: a ring where the checker would land on each target (the tray framed when
    bearing off is one), and a ring on the checker picked."""
    theme = scene.theme
    for target in sorted(scene.targets):
        if target == OFF:
            left, top, right, bottom = geo.tray_box("viewer")
            _paste_centred(
                image,
                frame_sprite(theme.target, right - left, bottom - top),
                _box_centre(geo.tray_box("viewer")),
            )
            continue
        side, count = stacks.get(("point", target), ("viewer", 0))
        slot = 0 if side == "opponent" else count
        spot = geo.checker_centers(target, max(slot + 1, 1))[slot]
        _paste_centred(image, ring_sprite(theme.target, CHECKER - 8, 5), spot)
    if scene.chosen_point is not None:
        place = ("bar", "viewer") if scene.chosen_point == BAR else ("point", scene.chosen_point)
        chosen = centres.get(place)
        if chosen and stacks[place][0] == "viewer":
            _paste_centred(image, ring_sprite(theme.chosen, CHECKER + 10, 6), chosen[-1])


def _draw_pips(image: Image.Image, geo: Geometry, scene: Scene) -> None:
    """Both pip counts on the bar, each on a pill in its side's colours."""
    viewer_pips, opponent_pips = scene.position.pips()
    for side, pips in ((VIEWER, viewer_pips), (OPPONENT, opponent_pips)):
        style = scene.style(side)
        _pill(image, geo.pip_position(side), 84, 38, style.fill, style.rim)
        _text(image, geo.pip_position(side), str(pips), PANEL_SIZE, style.ink)


def _draw_dice(image: Image.Image, geo: Geometry, scene: Scene) -> None:
    """The opening roll (a die on each half) or the roll of the side on roll, used dice faded."""
    if scene.opening_roll is not None:
        mine, theirs = scene.opening_roll
        for owner, value in ((VIEWER, mine), (OPPONENT, theirs)):
            (centre,) = geo.dice_centers(owner, 1)
            _paste_centred(image, die_sprite(scene.style(owner), value, False), centre)
        return
    if scene.dice is None:
        return
    d1, d2 = scene.dice
    values = [d1] * 4 if d1 == d2 else [d1, d2]
    used = Counter(move.die for move in scene.moves_made) if scene.viewer_on_roll else Counter()
    side: Side = "viewer" if scene.viewer_on_roll else "opponent"
    style = scene.style(side)
    # Used dice are the last ones of their value, so a half-played double fades from the right.
    faded = [False] * len(values)
    for i in range(len(values) - 1, -1, -1):
        if used[values[i]] > 0:
            used[values[i]] -= 1
            faded[i] = True
    for value, fade, centre in zip(values, faded, geo.dice_centers(side, len(values)), strict=True):
        _paste_centred(image, die_sprite(style, value, fade), centre)


def _draw_score(image: Image.Image, geo: Geometry, scene: Scene) -> None:
    """The score on a panel, the same from either side: white's score beside a white checker
    on top, black's beside a black one below, the match length to their right (``/5``). (The
    viewer's score first would swap the numbers each turn in a group, where the board is drawn
    for the player to move.)"""
    assert scene.score is not None
    theme = scene.theme
    left, top, right, bottom = geo.score_box()
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (left, top, right - 1, bottom - 1), radius=10, fill=theme.panel, outline=theme.numbers,
        width=2,
    )
    mine, theirs, length = scene.score
    by_colour = {"white": mine, "black": theirs} if scene.viewer_color == "white" else {
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


def _text(image: Image.Image, centre: Point, text: str, size: int, colour: Colour) -> None:
    ImageDraw.Draw(image).text(
        centre, text, font=font(size), fill=colour, anchor="mm", stroke_width=1, stroke_fill=colour
    )


def _pill(image: Image.Image, centre: Point, w: int, h: int, fill: Colour, rim: Colour) -> None:
    x, y = centre
    ImageDraw.Draw(image).rounded_rectangle(
        (x - w // 2, y - h // 2, x + w // 2 - 1, y + h // 2 - 1),
        radius=h // 2,
        fill=fill,
        outline=rim,
        width=2,
    )


def _paste_centred(image: Image.Image, sprite: Image.Image, centre: Point) -> None:
    x, y = centre
    image.paste(sprite, (x - sprite.width // 2, y - sprite.height // 2), sprite)


def _box_centre(box: Box) -> Point:
    return (box[0] + box[2]) // 2, (box[1] + box[3]) // 2

