"""Draw a Portes board: one pure function from what to show to image bytes.

Nothing here knows about Telegram or the database. The empty board (frame, triangles, point
numbers) and every sprite (checkers, dice, marks) are drawn once per theme and orientation,
antialiased by supersampling, and cached; a render then copies the empty board, pastes sprites,
writes a few numbers and encodes the result.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from rendering.geometry import (
    BAR_PLAIN,
    CHECKER,
    DIE,
    HEIGHT,
    MAX_PLAIN,
    POINT_LEN,
    POINT_W,
    SLAB_H,
    TRAY_W,
    WIDTH,
    Box,
    Geometry,
    Home,
    Point,
    Side,
    board_geometry,
)
from rendering.theme import CLASSIC, CheckerStyle, Colour, Theme
from rules.position import BAR, OFF, Move, Position

CheckerColour = Literal["white", "black"]
VIEWER: Side = "viewer"
OPPONENT: Side = "opponent"
ImageFormat = Literal["jpeg", "png"]

SS = 3  # supersampling factor for everything drawn once and cached
JPEG_QUALITY = 85
NUMBER_SIZE = 40  # point numbers: about 12 px tall at a 400 px wide view
COUNT_SIZE = 34  # the count on a stack of more than five
PANEL_SIZE = 30  # pip counts, borne-off counts, score
SHADOW = 4  # room around a checker sprite for its shadow


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
    - ``score``: ``(viewer's score, opponent's score, match length)``, drawn as ``3–1 / 5``.
    - ``show_pips``: the pip counts of both sides, on the bar (the viewer's below the middle).
    - ``image_format``: ``"jpeg"`` (default: small and fast; Telegram re-encodes photos as JPEG
      anyway) or ``"png"`` (lossless, for tests and documents).
    """
    image = _draw(
        _Scene(
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
    )
    buffer = io.BytesIO()
    if image_format == "jpeg":
        image.save(buffer, "JPEG", quality=JPEG_QUALITY, subsampling="4:2:0")
    elif image_format == "png":
        image.save(buffer, "PNG", compress_level=3)
    else:
        raise ValueError(f"image_format must be 'jpeg' or 'png', not {image_format!r}")
    return buffer.getvalue()


# -- what to draw ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Scene:
    position: Position
    viewer_on_roll: bool
    viewer_color: CheckerColour
    dice: tuple[int, int] | None
    opening_roll: tuple[int, int] | None
    last_play: tuple[Move, ...]
    last_play_by: Side
    chosen_point: int | None
    targets: frozenset[int]
    moves_made: tuple[Move, ...]
    score: tuple[int, int, int] | None
    show_pips: bool
    theme: Theme
    home: Home

    def validate(self) -> None:
        if self.viewer_color not in ("white", "black"):
            raise ValueError(f"viewer_color must be 'white' or 'black', not {self.viewer_color!r}")
        if self.last_play_by not in ("viewer", "opponent"):
            raise ValueError(f"last_play_by must be 'viewer' or 'opponent': {self.last_play_by!r}")
        for roll in (self.dice, self.opening_roll):
            if roll is not None and (len(roll) != 2 or not all(1 <= d <= 6 for d in roll)):
                raise ValueError(f"dice are two numbers 1-6, not {roll!r}")
        if self.dice is not None and self.opening_roll is not None:
            raise ValueError("draw either the dice or the opening roll, not both")
        if self.chosen_point is not None and not 1 <= self.chosen_point <= BAR:
            raise ValueError(f"chosen_point must be 1-25, not {self.chosen_point}")
        if any(not 0 <= t <= 24 for t in self.targets):
            raise ValueError(f"targets must be points 0-24, not {sorted(self.targets)}")
        for move in (*self.last_play, *self.moves_made):
            if not (1 <= move.from_point <= BAR and 0 <= move.to_point <= 24):
                raise ValueError(f"not a move: {move!r}")
        if self.score is not None and (len(self.score) != 3 or min(self.score) < 0):
            raise ValueError(f"score is (viewer, opponent, match length), not {self.score!r}")

    def style(self, side: Side) -> CheckerStyle:
        white = (side == "viewer") == (self.viewer_color == "white")
        return self.theme.white if white else self.theme.black


# Where a checker can be: ("point", viewer's point 1-24), ("bar", side) or ("off", side).
_Place = tuple[str, int | str]


def _place(point: int, side: Side, *, source: bool) -> _Place:
    """A point of a move in ``side``'s numbering, as a place on the viewer's board."""
    if source and point == BAR:
        return ("bar", side)
    if not source and point == OFF:
        return ("off", side)
    return ("point", point if side == "viewer" else 25 - point)


# -- drawing ---------------------------------------------------------------------------------


def _draw(scene: _Scene) -> Image.Image:
    scene.validate()
    geo = board_geometry(scene.home)
    theme = scene.theme
    image = _empty_board(theme, scene.home).copy()
    board = scene.position.board

    stacks: dict[_Place, tuple[Side, int]] = {}
    for p in range(1, 25):
        if board[p] > 0:
            stacks[("point", p)] = ("viewer", board[p])
        elif board[p] < 0:
            stacks[("point", p)] = ("opponent", -board[p])
    stacks[("bar", "viewer")] = ("viewer", scene.position.mover_bar)
    stacks[("bar", "opponent")] = ("opponent", scene.position.opponent_bar)

    # The marks of the last play and of this turn's moves: ghosts where checkers left, dots
    # where they arrived, a cross where one was hit.
    ghosts: dict[_Place, list[tuple[Side, Colour]]] = {}
    dots: dict[_Place, tuple[int, Colour]] = {}
    hits: list[_Place] = []
    marked: tuple[tuple[tuple[Move, ...], Side, Colour], ...] = (
        (scene.last_play, scene.last_play_by, theme.last_play),
        (scene.moves_made, VIEWER, theme.moved),
    )
    for moves, side, colour in marked:
        flow: Counter[_Place] = Counter()
        for move in moves:
            flow[_place(move.from_point, side, source=True)] -= 1
            flow[_place(move.to_point, side, source=False)] += 1
            if move.hit:
                hits.append(_place(move.to_point, side, source=False))
        for place, net in flow.items():
            if net < 0:
                ghosts.setdefault(place, []).extend([(side, colour)] * -net)
            elif net > 0:
                dots[place] = (net, colour)

    # Target highlights go under the checkers.
    for target in sorted(scene.targets):
        if target == OFF:
            continue
        overlay, mask = _triangle_sprite(theme.target, top=geo.is_top(target))
        left, top, _, _ = geo.point_box(target)
        image.paste(overlay, (left, top), mask)

    # Checkers on points and on the bar, with ghosts after them.
    centres: dict[_Place, list[Point]] = {}
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
        sprite = _checker_sprite(scene.style(side))
        for centre in spots[:count]:
            _paste_centred(image, sprite, centre)
        for (ghost_side, colour), centre in zip(extra, spots[count:], strict=True):
            _paste_centred(image, _ghost_sprite(scene.style(ghost_side), colour), centre)
        if count > (MAX_PLAIN if kind == "point" else BAR_PLAIN):
            style = scene.style(side)
            _text(image, centres[place][-1], str(count), COUNT_SIZE, style.ink)

    # Borne-off checkers.
    for side in (VIEWER, OPPONENT):
        off = scene.position.mover_off if side == "viewer" else scene.position.opponent_off
        slab = _slab_sprite(scene.style(side))
        boxes = geo.slab_boxes(side, off)
        for box in boxes:
            image.paste(slab, (box[0], box[1]), slab)
        if off:
            _text(image, geo.off_count_position(side), str(off), PANEL_SIZE, theme.numbers)
        arrived = dots.pop(("off", side), None)
        if arrived:
            count, colour = arrived
            for box in boxes[-count:]:
                _paste_centred(image, _dot_sprite(colour, 12), _box_centre(box))

    # Dots where checkers arrived, crosses where they hit, then the input highlights.
    for place, (count, colour) in dots.items():
        spots = centres.get(place, [])
        if len(spots) > (MAX_PLAIN if place[0] == "point" else BAR_PLAIN):
            # A counted stack: one dot beside the count on the top checker.
            x, y = spots[-1]
            _paste_centred(image, _dot_sprite(colour, 18), (x + 22, y))
            continue
        for centre in spots[-count:]:
            _paste_centred(image, _dot_sprite(colour, 22), centre)
    for place in hits:
        point = place[1]
        assert isinstance(point, int)
        spots = centres.get(place) or geo.checker_centers(point, 1)
        _paste_centred(image, _hit_sprite(theme.hit), spots[-1])
    for target in sorted(scene.targets):
        if target == OFF:
            left, top, right, bottom = geo.tray_box("viewer")
            _paste_centred(
                image,
                _frame_sprite(theme.target, right - left, bottom - top),
                _box_centre(geo.tray_box("viewer")),
            )
            continue
        side, count = stacks.get(("point", target), ("viewer", 0))
        slot = 0 if side == "opponent" else count
        spot = geo.checker_centers(target, max(slot + 1, 1))[slot]
        _paste_centred(image, _ring_sprite(theme.target, CHECKER - 8, 5), spot)
    if scene.chosen_point is not None:
        place = ("bar", "viewer") if scene.chosen_point == BAR else ("point", scene.chosen_point)
        chosen = centres.get(place)
        if chosen and stacks[place][0] == "viewer":
            _paste_centred(image, _ring_sprite(theme.chosen, CHECKER + 10, 6), chosen[-1])

    _draw_dice(image, geo, scene)
    if scene.show_pips:
        viewer_pips, opponent_pips = scene.position.pips()
        for side, pips in ((VIEWER, viewer_pips), (OPPONENT, opponent_pips)):
            style = scene.style(side)
            _pill(image, geo.pip_position(side), 84, 38, style.fill, style.rim)
            _text(image, geo.pip_position(side), str(pips), PANEL_SIZE, style.ink)
    if scene.score is not None:
        _draw_score(image, geo, theme, scene.score)
    return image


def _draw_dice(image: Image.Image, geo: Geometry, scene: _Scene) -> None:
    if scene.opening_roll is not None:
        mine, theirs = scene.opening_roll
        for owner, value in ((VIEWER, mine), (OPPONENT, theirs)):
            (centre,) = geo.dice_centers(owner, 1)
            _paste_centred(image, _die_sprite(scene.style(owner), value, False), centre)
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
        _paste_centred(image, _die_sprite(style, value, fade), centre)


def _draw_score(
    image: Image.Image, geo: Geometry, theme: Theme, score: tuple[int, int, int]
) -> None:
    left, top, right, bottom = geo.score_box()
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (left, top, right - 1, bottom - 1),
        radius=10,
        fill=theme.panel,
        outline=theme.numbers,
        width=2,
    )
    mine, theirs, length = score
    parts = [str(mine), "–", str(theirs), " / ", str(length)]
    gap = 3
    size = PANEL_SIZE
    while True:  # shrink the text until it fits the box (long matches, two-digit scores)
        font = _font(size)
        dash_w = size // 2
        widths = [dash_w if p == "–" else round(font.getlength(p)) for p in parts]
        if sum(widths) + gap * (len(parts) - 1) <= right - left - 14 or size <= 14:
            break
        size -= 2
    x = (left + right) // 2 - (sum(widths) + gap * (len(parts) - 1)) // 2
    y = (top + bottom) // 2
    for part, w in zip(parts, widths, strict=True):
        if part == "–":
            # The built-in font has no en dash: draw it.
            draw.rectangle((x, y - 1, x + w - 1, y + size // 12), fill=theme.panel_ink)
        else:
            draw.text(
                (x, y),
                part,
                font=font,
                fill=theme.panel_ink,
                anchor="lm",
                stroke_width=1,
                stroke_fill=theme.panel_ink,
            )
        x += w + gap


def _text(image: Image.Image, centre: Point, text: str, size: int, colour: Colour) -> None:
    ImageDraw.Draw(image).text(
        centre, text, font=_font(size), fill=colour, anchor="mm", stroke_width=1, stroke_fill=colour
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


# -- cached drawings ---------------------------------------------------------------------------


@lru_cache(maxsize=32)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's built-in scalable font (Aileron), so nothing has to be installed."""
    return ImageFont.load_default(size=size)


@lru_cache(maxsize=8)
def _empty_board(theme: Theme, home: Home) -> Image.Image:
    """Frame, surface, triangles, bar, trays and point numbers, drawn at SS x and reduced."""
    geo = board_geometry(home)
    big = Image.new("RGB", (WIDTH * SS, HEIGHT * SS), theme.frame)
    draw = ImageDraw.Draw(big)

    def s(box: Box) -> tuple[int, int, int, int]:
        return box[0] * SS, box[1] * SS, box[2] * SS - 1, box[3] * SS - 1

    edge = 2 * SS
    for half in (geo.left_half, geo.right_half):
        draw.rectangle(s(half), fill=theme.felt, outline=theme.frame_edge, width=edge)
    draw.rectangle(s(geo.bar), fill=theme.bar, outline=theme.frame_edge, width=edge)
    for tray in (geo.top_tray, geo.bottom_tray):
        draw.rounded_rectangle(
            s(tray), radius=8 * SS, fill=theme.tray, outline=theme.frame_edge, width=edge
        )
    for point in range(1, 25):
        colour = theme.point_odd if point % 2 else theme.point_even
        tri = [(x * SS, y * SS) for x, y in geo.triangle(point)]
        draw.polygon(tri, fill=colour)
    # Re-draw the halves' outlines over the triangle bases.
    for half in (geo.left_half, geo.right_half):
        draw.rectangle(s(half), outline=theme.frame_edge, width=edge)
    font = ImageFont.load_default(size=NUMBER_SIZE * SS)
    for point in range(1, 25):
        x, y = geo.number_position(point)
        draw.text(
            (x * SS, y * SS),
            str(point),
            font=font,
            fill=theme.numbers,
            anchor="mm",
            stroke_width=SS,
            stroke_fill=theme.numbers,
        )
    return big.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS)


def _reduce(big: Image.Image) -> Image.Image:
    return big.resize((big.width // SS, big.height // SS), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def _checker_sprite(style: CheckerStyle) -> Image.Image:
    """A checker with a rim, a groove and a soft shadow; RGBA, centred."""
    size = CHECKER + 2 * SHADOW
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    c = size * SS // 2
    r = CHECKER * SS // 2
    shadow = Image.new("RGBA", big.size, (0, 0, 0, 0))
    ImageDraw.Draw(shadow).ellipse(
        (c - r + SS, c - r + 2 * SS, c + r + SS, c + r + 2 * SS), fill=(0, 0, 0, 110)
    )
    big = Image.alpha_composite(big, shadow.filter(ImageFilter.GaussianBlur(2 * SS)))
    draw = ImageDraw.Draw(big)
    draw.ellipse((c - r, c - r, c + r - 1, c + r - 1), fill=style.rim)
    inner = r - 3 * SS
    draw.ellipse((c - inner, c - inner, c + inner - 1, c + inner - 1), fill=style.fill)
    groove = round(r * 0.66)
    draw.ellipse(
        (c - groove, c - groove, c + groove - 1, c + groove - 1),
        outline=_mix(style.fill, style.rim, 0.55),
        width=2 * SS,
    )
    return _reduce(big)


@lru_cache(maxsize=32)
def _ghost_sprite(style: CheckerStyle, mark: Colour) -> Image.Image:
    """Where a checker was: a faint checker inside a dashed-looking ring of the mark colour."""
    sprite = _checker_sprite(style).copy()
    alpha = sprite.getchannel("A").point(lambda a: a * 35 // 100)
    sprite.putalpha(alpha)
    ring = _ring_sprite(mark, CHECKER - 4, 5)
    out = Image.new("RGBA", sprite.size, (0, 0, 0, 0))
    out.alpha_composite(sprite)
    out.alpha_composite(
        ring, ((sprite.width - ring.width) // 2, (sprite.height - ring.height) // 2)
    )
    return out


@lru_cache(maxsize=32)
def _ring_sprite(colour: Colour, diameter: int, width: int) -> Image.Image:
    size = diameter + 4
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    c = size * SS // 2
    r = diameter * SS // 2
    draw = ImageDraw.Draw(big)
    dark = (0, 0, 0, 160)
    draw.ellipse(
        (c - r - SS, c - r - SS, c + r + SS, c + r + SS), outline=dark, width=(width + 2) * SS
    )
    draw.ellipse((c - r, c - r, c + r, c + r), outline=(*colour, 255), width=width * SS)
    return _reduce(big)


@lru_cache(maxsize=32)
def _dot_sprite(colour: Colour, diameter: int) -> Image.Image:
    size = diameter + 6
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    c = size * SS // 2
    r = diameter * SS // 2
    draw = ImageDraw.Draw(big)
    draw.ellipse(
        (c - r - 2 * SS, c - r - 2 * SS, c + r + 2 * SS, c + r + 2 * SS), fill=(0, 0, 0, 200)
    )
    draw.ellipse((c - r, c - r, c + r, c + r), fill=(*colour, 255))
    return _reduce(big)


@lru_cache(maxsize=8)
def _hit_sprite(colour: Colour) -> Image.Image:
    """A hit: a white cross on a disc of the hit colour."""
    size = 40
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    c = size * SS // 2
    r = 17 * SS
    draw = ImageDraw.Draw(big)
    draw.ellipse(
        (c - r - 2 * SS, c - r - 2 * SS, c + r + 2 * SS, c + r + 2 * SS), fill=(0, 0, 0, 220)
    )
    draw.ellipse((c - r, c - r, c + r, c + r), fill=(*colour, 255))
    a = 8 * SS
    for (x0, y0), (x1, y1) in (((c - a, c - a), (c + a, c + a)), ((c - a, c + a), (c + a, c - a))):
        draw.line((x0, y0, x1, y1), fill=(255, 255, 255, 255), width=5 * SS)
    return _reduce(big)


@lru_cache(maxsize=16)
def _triangle_sprite(colour: Colour, *, top: bool) -> tuple[Image.Image, Image.Image]:
    """A translucent tint over a point's triangle: (colour image, mask), at the point's box."""
    big = Image.new("L", (POINT_W * SS, POINT_LEN * SS), 0)
    tip = (POINT_LEN - CHECKER // 3) * SS
    if top:
        poly = [(0, 0), (POINT_W * SS - 1, 0), (POINT_W * SS // 2, tip)]
    else:
        h = POINT_LEN * SS - 1
        poly = [(0, h), (POINT_W * SS - 1, h), (POINT_W * SS // 2, h - tip)]
    ImageDraw.Draw(big).polygon(poly, fill=170)
    mask = big.resize((POINT_W, POINT_LEN), Image.Resampling.LANCZOS)
    return Image.new("RGB", mask.size, colour), mask


@lru_cache(maxsize=8)
def _frame_sprite(colour: Colour, w: int, h: int) -> Image.Image:
    """A highlight around a tray (bearing off is a target)."""
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, w * SS - 1, h * SS - 1), radius=8 * SS, outline=(*colour, 255), width=6 * SS
    )
    return _reduce(big)


@lru_cache(maxsize=8)
def _slab_sprite(style: CheckerStyle) -> Image.Image:
    w = TRAY_W - 24
    big = Image.new("RGBA", (w * SS, SLAB_H * SS), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, w * SS - 1, SLAB_H * SS - 1),
        radius=5 * SS,
        fill=style.fill,
        outline=style.rim,
        width=2 * SS,
    )
    return _reduce(big)


# Pip positions on a die, in thirds of its face.
_PIPS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)],
    5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
}


@lru_cache(maxsize=64)
def _die_sprite(style: CheckerStyle, value: int, faded: bool) -> Image.Image:
    size = DIE + 2 * SHADOW
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    o = SHADOW * SS
    d = DIE * SS
    shadow = Image.new("RGBA", big.size, (0, 0, 0, 0))
    ImageDraw.Draw(shadow).rounded_rectangle(
        (o + SS, o + 2 * SS, o + d + SS, o + d + 2 * SS), radius=12 * SS, fill=(0, 0, 0, 120)
    )
    big = Image.alpha_composite(big, shadow.filter(ImageFilter.GaussianBlur(2 * SS)))
    draw = ImageDraw.Draw(big)
    draw.rounded_rectangle(
        (o, o, o + d - 1, o + d - 1),
        radius=12 * SS,
        fill=style.fill,
        outline=style.rim,
        width=3 * SS,
    )
    pip = 6 * SS
    for col, row in _PIPS[value]:
        x = o + d * (col + 1) // 4
        y = o + d * (row + 1) // 4
        draw.ellipse((x - pip, y - pip, x + pip, y + pip), fill=style.ink)
    sprite = _reduce(big)
    if faded:
        sprite.putalpha(sprite.getchannel("A").point(lambda a: a * 40 // 100))
    return sprite


def _mix(a: Colour, b: Colour, t: float) -> Colour:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )
