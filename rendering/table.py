"""Draw a board of any tavli game (Portes, Plakoto, Fevga, Long Nardy) from a neutral
description, :class:`TableView`, that any rules core can be mapped to.

A view lists, for each point in the viewer's numbering, its checkers from the bottom of the stack
to the top; a Plakoto pin is a stack such as ``(OPPONENT, VIEWER)``: the opponent's checker pinned
under the viewer's. Each side's :class:`Course` (where it starts, which way it goes round) is
drawn as a tag on its start point's number and an arrow where it turns from one row to the other;
the game's name goes in a band above the board. The rest (dice, trays, pips, score, themes,
``home``) is drawn by the same code as a Portes board (:mod:`rendering.paint`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from PIL import Image

from rendering.bands import with_bands
from rendering.board import COUNT_SIZE, ImageFormat, encode
from rendering.geometry import (
    BAR_PLAIN,
    CHECKER,
    MAX_PLAIN,
    POINT_LEN,
    Geometry,
    Home,
    Point,
    Side,
    board_geometry,
)
from rendering.paint import (
    OPPONENT,
    VIEWER,
    draw_dice,
    draw_pips,
    draw_score,
    draw_trays,
    paste_centred,
    text,
)
from rendering.scene import CheckerColour
from rendering.sprites import (
    checker_sprite,
    dot_sprite,
    frame_sprite,
    ghost_sprite,
    ring_sprite,
    triangle_sprite,
)
from rendering.table_sprites import CourseMark, course_board, pin_badge_sprite
from rendering.theme import CLASSIC, CheckerStyle, Colour, Theme

PIN_STEP = 40  # how far a pinner sits from the checker it pins: the pinned one shows below it
PIN_BADGE_DX = 22  # the lock sits this far right of the pinned checker's centre
Stack = tuple[Side, ...]
Hop = tuple[int, int]
"""One checker's move ``(from, to)`` in the viewer's numbering: 25 = its side's bar, 0 = off."""
Dots = dict[tuple[str, int | str], tuple[int, Colour]]


@dataclass(frozen=True, slots=True)
class Course:
    """Where a side's checkers start and which way they go round, in the viewer's numbering:
    ``step=-1`` goes 24 -> 1 (and on from 1 to 24 when it starts elsewhere), ``step=1`` the
    other way. The viewer always starts on 24 going down; the opponent starts on 1 going up in
    Portes and Plakoto, on 12 going down in Fevga and Long Nardy."""

    start: int
    step: Literal[1, -1]

    def route(self) -> tuple[int, ...]:
        """The 24 points in the order the side's checkers pass them."""
        return tuple((self.start - 1 + i * self.step) % 24 + 1 for i in range(24))

    def pips(self, point: int) -> int:
        """Pips a checker on ``point`` still has to go: 24 on the start, 1 on the last point."""
        return 24 - (point - self.start) * self.step % 24


OPPOSITE_WAYS = (Course(24, -1), Course(1, 1))
"""Portes and Plakoto: the opponent starts in the viewer's home and goes the other way round."""
SAME_WAY = (Course(24, -1), Course(12, -1))
"""Fevga and Long Nardy: both go counter-clockwise (home right), from opposite corners."""


@dataclass(frozen=True, slots=True)
class TableView:
    """What one tavli board shows, seen by one player (the *viewer*).

    ``points`` holds 24 stacks, ``points[0]`` being the viewer's point 1, each listed bottom to
    top (:func:`points_of` builds it from a mapping). ``bar``, ``off`` and ``courses`` are
    ``(viewer's, opponent's)``; ``dice_used`` are the dice the moves this turn used (drawn
    faded); ``last_play`` (by ``last_play_by``) and ``moves_made`` (this turn's, by the side on
    roll: the viewer when ``viewer_on_roll``) are hops ``(from, to)`` in the viewer's numbering,
    marked as on a Portes board: a ghost where a checker left, a dot where it arrived;
    ``score`` is ``(viewer's, opponent's, match length)``. ``chosen_point`` (25 = bar) and
    ``targets`` (0 = bear off) are the move input, as on a Portes board. With ``title=""``
    there is no title band; with ``show_course=False`` no tags and arrows. ``names``:
    ``(viewer's, opponent's)``, drawn beside their colours above and below the board (see
    :mod:`rendering.bands`).
    """

    points: tuple[Stack, ...]
    title: str = ""
    courses: tuple[Course, Course] = OPPOSITE_WAYS
    bar: tuple[int, int] = (0, 0)
    off: tuple[int, int] = (0, 0)
    viewer_color: CheckerColour = "white"
    viewer_on_roll: bool = True
    dice: tuple[int, int] | None = None
    opening_roll: tuple[int, int] | None = None
    dice_used: tuple[int, ...] = ()
    last_play: tuple[Hop, ...] = ()
    last_play_by: Side = OPPONENT
    moves_made: tuple[Hop, ...] = ()
    chosen_point: int | None = None
    targets: frozenset[int] = field(default_factory=frozenset)
    score: tuple[int, int, int] | None = None
    names: tuple[str, str] | None = None
    show_pips: bool = True
    show_course: bool = True
    theme: Theme = CLASSIC
    home: Home = "right"

    def __post_init__(self) -> None:
        if not isinstance(self.targets, frozenset):  # any iterable of points will do
            object.__setattr__(self, "targets", frozenset(self.targets))

    def validate(self) -> None:
        """Refuse what cannot be drawn, with a message naming the field."""
        if len(self.points) != 24:
            raise ValueError(f"points holds 24 stacks, not {len(self.points)}")
        if any(side not in (VIEWER, OPPONENT) for stack in self.points for side in stack):
            raise ValueError("a stack lists sides: 'viewer' or 'opponent'")
        for i, side in enumerate((VIEWER, OPPONENT)):
            on_board = sum(stack.count(side) for stack in self.points)
            if min(self.bar[i], self.off[i]) < 0 or on_board + self.bar[i] + self.off[i] > 15:
                raise ValueError(f"the {side} has more than 15 checkers")
        if self.viewer_color not in ("white", "black"):
            raise ValueError(f"viewer_color must be 'white' or 'black', not {self.viewer_color!r}")
        for roll in (self.dice, self.opening_roll):
            if roll is not None and (len(roll) != 2 or not all(1 <= d <= 6 for d in roll)):
                raise ValueError(f"dice are two numbers 1-6, not {roll!r}")
        if any(not 1 <= c.start <= 24 or c.step not in (1, -1) for c in self.courses):
            raise ValueError(f"a course starts on 1-24 and steps 1 or -1: {self.courses!r}")
        if self.chosen_point is not None and not 1 <= self.chosen_point <= 25:
            raise ValueError(f"chosen_point must be 1-25, not {self.chosen_point}")
        if any(not 0 <= t <= 24 for t in self.targets):
            raise ValueError(f"targets must be points 0-24, not {sorted(self.targets)}")
        for start, end in (*self.last_play, *self.moves_made):
            if not (1 <= start <= 25 and 0 <= end <= 24):
                raise ValueError(f"a hop goes from 1-25 to 0-24, not {(start, end)}")
        if self.last_play_by not in (VIEWER, OPPONENT):
            raise ValueError(f"last_play_by is 'viewer' or 'opponent', not {self.last_play_by!r}")
        if self.score is not None and (len(self.score) != 3 or min(self.score) < 0):
            raise ValueError(f"score is (viewer, opponent, match length), not {self.score!r}")

    def style(self, side: Side) -> CheckerStyle:
        """The colours of ``side``'s checkers and dice."""
        white = (side == VIEWER) == (self.viewer_color == "white")
        return self.theme.white if white else self.theme.black

    def pips(self) -> tuple[int, int]:
        """Both sides' pip counts along their own courses (25 for a checker on the bar)."""
        counts = [25 * self.bar[0], 25 * self.bar[1]]
        for point, stack in enumerate(self.points, start=1):
            for side in stack:
                i = 0 if side == VIEWER else 1
                counts[i] += self.courses[i].pips(point)
        return counts[0], counts[1]


def points_of(stacks: Mapping[int, Sequence[Side]]) -> tuple[Stack, ...]:
    """The 24 stacks of a view from ``{point: stack bottom to top}`` (points left out are
    empty): ``points_of({24: [VIEWER] * 15, 5: [OPPONENT, VIEWER]})``."""
    if any(not 1 <= p <= 24 for p in stacks):
        raise ValueError(f"points are 1-24, not {sorted(stacks)}")
    return tuple(tuple(stacks.get(p, ())) for p in range(1, 25))


# -- drawing ---------------------------------------------------------------------------------


def render_table(view: TableView, *, image_format: ImageFormat = "jpeg") -> bytes:
    """Draw ``view`` and return the encoded image: 1280 x 908 pixels like a Portes board, plus a
    64-pixel band on top when the view has a title."""
    return encode(draw_table(view), image_format)


def draw_table(view: TableView) -> Image.Image:
    """The board image of ``view``, layer over layer as on a Portes board."""
    view.validate()
    geo = board_geometry(view.home)
    marks = course_marks(view, geo) if view.show_course else ()
    image = course_board(view.theme, view.home, marks)
    _draw_target_tints(image, geo, view)
    ghosts, dots = hop_marks(view)
    centres = _draw_stacks(image, geo, view, ghosts)
    draw_trays(image, geo, view, view.off, dots)
    _draw_arrivals(image, centres, dots)
    _draw_input(image, geo, view, {p: spots[-1] for p, spots in centres.items() if spots})
    draw_dice(image, geo, view)
    if view.show_pips:
        draw_pips(image, geo, view, view.pips())
    if view.score is not None:
        draw_score(image, geo, view)
    players = None if view.names is None else (
        (view.names[0], view.style(VIEWER)), (view.names[1], view.style(OPPONENT)))
    return with_bands(image, view.theme, view.home, view.title, players)


def course_marks(view: TableView, geo: Geometry) -> tuple[CourseMark, ...]:
    """Each side's course as drawn: its colours, its start, which way its tag points, and the
    column and direction of its turn from one row to the other."""
    marks = []
    for side, course in zip((VIEWER, OPPONENT), view.courses, strict=True):
        route = course.route()
        ahead = next(p for p in route[1:] if geo.point_x(p) != geo.point_x(course.start))
        pointing = "right" if geo.point_x(ahead) > geo.point_x(course.start) else "left"
        turn = next(i for i in range(23) if geo.is_top(route[i]) != geo.is_top(route[i + 1]))
        way = "up" if geo.is_top(route[turn + 1]) else "down"
        marks.append((view.style(side), course.start, pointing, route[turn], way))
    return tuple(marks)


def stack_centres(geo: Geometry, point: int, stack: Stack) -> tuple[list[Point], int, bool]:
    """Where each checker of a stack goes, how many of them are pinned (the checkers under the
    top run of one side), and whether the top run is squeezed (its count is then written).

    A stack without pins sits exactly as on a Portes board. Pinned checkers sit PIN_STEP apart
    from the board's edge, so that each shows below the one over it; the pinners follow a
    checker apart, squeezed to fit the triangle."""
    count = len(stack)
    pinned = count
    while pinned > 0 and stack[pinned - 1] == stack[-1]:
        pinned -= 1
    if pinned == 0:
        return geo.checker_centers(point, count), 0, count > MAX_PLAIN
    x = geo.point_x(point)
    base = geo.point_base_y(point)
    sign = 1 if geo.is_top(point) else -1
    run = count - pinned
    room = POINT_LEN - CHECKER - pinned * PIN_STEP
    step = float(CHECKER) if run == 1 else min(float(CHECKER), room / (run - 1))
    offsets: list[float] = [float(i * PIN_STEP) for i in range(pinned)]
    offsets += [pinned * PIN_STEP + j * step for j in range(run)]
    centres = [(x, base + sign * round(CHECKER / 2 + off)) for off in offsets]
    return centres, pinned, step < CHECKER


def pin_badge_centre(geo: Geometry, point: int) -> Point:
    """Where the pin's lock goes: on the part of the (first) pinned checker left uncovered,
    towards the point's right edge, so the pinned checker's colour still shows beside it."""
    x = geo.point_x(point)
    sign = 1 if geo.is_top(point) else -1
    uncovered = (PIN_STEP - CHECKER) // 2  # the middle of the uncovered part, from the centre
    return x + PIN_BADGE_DX, geo.point_base_y(point) + sign * (CHECKER // 2 + uncovered)


def hop_marks(view: TableView) -> tuple[dict[int, list[tuple[Side, Colour]]], Dots]:
    """Ghosts per point (whose, in which colour) and dots per place (how many, which colour),
    by net flow per place: a checker that moved on through a point leaves no mark there."""
    ghosts: dict[int, list[tuple[Side, Colour]]] = {}
    dots: Dots = {}
    theme = view.theme
    for hops, side, colour in ((view.last_play, view.last_play_by, theme.last_play),
                               (view.moves_made, VIEWER if view.viewer_on_roll else OPPONENT,
                                theme.moved)):
        flow: dict[tuple[str, int | str], int] = {}
        for start, end in hops:
            source = ("bar", side) if start == 25 else ("point", start)
            target = ("off", side) if end == 0 else ("point", end)
            flow[source] = flow.get(source, 0) - 1
            flow[target] = flow.get(target, 0) + 1
        for (kind, where), net in flow.items():
            if net < 0 and kind == "point":
                assert isinstance(where, int)
                ghosts.setdefault(where, []).extend([(side, colour)] * -net)
            elif net > 0:
                dots[(kind, where)] = (net, colour)
    return ghosts, dots


def _draw_stacks(
    image: Image.Image, geo: Geometry, view: TableView, ghosts: dict[int, list[tuple[Side, Colour]]]
) -> dict[int, list[Point]]:
    """Checkers on the points and the bar, pins marked, ghosts beyond each stack; returns where
    the checkers of each occupied place stand (points 1-24, 25 the viewer's bar)."""
    placed: dict[int, list[Point]] = {}
    for point, stack in enumerate(view.points, start=1):
        extra = ghosts.get(point, [])
        if stack or extra:
            placed[point] = _draw_stack(image, geo, view, point, stack, extra)
    for side, count in zip((VIEWER, OPPONENT), view.bar, strict=True):
        spots = geo.bar_centers(side, count)
        for centre in spots:
            paste_centred(image, checker_sprite(view.style(side)), centre)
        if count > BAR_PLAIN:
            text(image, spots[-1], str(count), COUNT_SIZE, view.style(side).ink)
        if count and side == VIEWER:
            placed[25] = spots
    return placed


def _draw_stack(
    image: Image.Image,
    geo: Geometry,
    view: TableView,
    point: int,
    stack: Stack,
    ghosts: list[tuple[Side, Colour]],
) -> list[Point]:
    """One point's checkers, the pinned ones ringed and locked, a squeezed run counted, and
    ghosts beyond the top as if they were more of the top run (without pins: exactly where a
    Portes board puts them). Returns where the checkers stand."""
    shape = (*stack, *[stack[-1]] * len(ghosts)) if stack else tuple(s for s, _ in ghosts)
    spots, _, _ = stack_centres(geo, point, shape)
    _, pinned, squeezed = stack_centres(geo, point, stack) if stack else ([], 0, False)
    centres = spots[: len(stack)]
    for i, (side, centre) in enumerate(zip(stack, centres, strict=True)):
        paste_centred(image, checker_sprite(view.style(side)), centre)
        if i < pinned:  # the pin's ring shows around the part left uncovered
            paste_centred(image, ring_sprite(view.theme.hit, CHECKER - 4, 5), centre)
    for (side, colour), centre in zip(ghosts, spots[len(stack):], strict=True):
        paste_centred(image, ghost_sprite(view.style(side), colour), centre)
    if pinned:
        paste_centred(image, pin_badge_sprite(view.theme.hit), pin_badge_centre(geo, point))
    if squeezed:
        text(image, centres[-1], str(len(stack) - pinned), COUNT_SIZE, view.style(stack[-1]).ink)
    return centres


def _draw_arrivals(image: Image.Image, centres: dict[int, list[Point]], dots: Dots) -> None:
    """Dots on the checkers that arrived on a point (a counted stack: one dot by the count)."""
    for (kind, where), (count, colour) in dots.items():
        if kind != "point":
            continue
        assert isinstance(where, int)
        spots = centres.get(where, [])
        if len(spots) > MAX_PLAIN:
            x, y = spots[-1]
            paste_centred(image, dot_sprite(colour, 18), (x + 22, y))
            continue
        for centre in spots[-count:]:
            paste_centred(image, dot_sprite(colour, 22), centre)


def _draw_target_tints(image: Image.Image, geo: Geometry, view: TableView) -> None:
    for target in sorted(view.targets):
        if target == 0:
            continue
        overlay, mask = triangle_sprite(view.theme.target, top=geo.is_top(target))
        left, top, _, _ = geo.point_box(target)
        image.paste(overlay, (left, top), mask)


def _draw_input(image: Image.Image, geo: Geometry, view: TableView, tops: dict[int, Point]) -> None:
    """A ring where the checker would land on each target (the tray framed for bearing off),
    and a ring on the checker picked."""
    theme = view.theme
    for target in sorted(view.targets):
        if target == 0:
            box = geo.tray_box(VIEWER)
            frame = frame_sprite(theme.target, box[2] - box[0], box[3] - box[1])
            paste_centred(image, frame, ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2))
            continue
        stack = view.points[target - 1]
        centres, _, _ = stack_centres(geo, target, (*stack, VIEWER))
        paste_centred(image, ring_sprite(theme.target, CHECKER - 8, 5), centres[-1])
    chosen = view.chosen_point
    if chosen is not None and chosen in tops:
        stack = view.points[chosen - 1] if chosen <= 24 else (VIEWER,)
        if stack[-1] == VIEWER:
            paste_centred(image, ring_sprite(theme.chosen, CHECKER + 10, 6), tops[chosen])


def view_of_counts(counts: Mapping[int, int], **options: object) -> TableView:
    """A view without pins from signed counts per viewer point (> 0 the viewer's checkers,
    < 0 the opponent's), e.g. a Portes, Fevga or Long Nardy position; ``options`` are the
    other fields of :class:`TableView`."""
    stacks = {p: [VIEWER if n > 0 else OPPONENT] * abs(n) for p, n in counts.items() if n}
    return TableView(points_of(stacks), **options)  # type: ignore[arg-type]

