"""What one board shows, before any pixel: the checked options of a render, where each checker
stands, and the marks of the moves played (ghosts, dots, hits). Pure: no Pillow here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Literal

from rendering.geometry import Home, Side
from rendering.theme import CheckerStyle, Colour, Theme
from rules.position import BAR, OFF, Move, Position

CheckerColour = Literal["white", "black"]
VIEWER: Side = "viewer"
OPPONENT: Side = "opponent"


@dataclass(frozen=True, slots=True)
class Scene:
    """The arguments of :func:`rendering.board.render_board`, as one value."""

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
        """Refuse options that cannot be drawn, with a message naming the option."""
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

    @property
    def dice_used(self) -> tuple[int, ...]:
        """The dice the moves of this turn used (drawn faded)."""
        return tuple(move.die for move in self.moves_made)

    def style(self, side: Side) -> CheckerStyle:
        """The colours of ``side``'s checkers and dice."""
        white = (side == "viewer") == (self.viewer_color == "white")
        return self.theme.white if white else self.theme.black



# Where a checker can be: ("point", viewer's point 1-24), ("bar", side) or ("off", side).
Place = tuple[str, int | str]


def place(point: int, side: Side, *, source: bool) -> Place:
    """A point of a move in ``side``'s numbering, as a place on the viewer's board."""
    if source and point == BAR:
        return ("bar", side)
    if not source and point == OFF:
        return ("off", side)
    return ("point", point if side == "viewer" else 25 - point)


def checker_stacks(position: Position) -> dict[Place, tuple[Side, int]]:
    """Whose checkers stand on each point and on each bar, and how many."""
    board = position.board
    stacks: dict[Place, tuple[Side, int]] = {}
    for p in range(1, 25):
        if board[p] > 0:
            stacks[("point", p)] = ("viewer", board[p])
        elif board[p] < 0:
            stacks[("point", p)] = ("opponent", -board[p])
    stacks[("bar", "viewer")] = ("viewer", position.mover_bar)
    stacks[("bar", "opponent")] = ("opponent", position.opponent_bar)
    return stacks


@dataclass(frozen=True, slots=True)
class Marks:
    """The marks of the last play and of this turn's moves: ghosts where checkers left (whose,
    in which mark colour), dots where they arrived (how many, which colour), the bar of each
    checker hit (once per hit)."""

    ghosts: dict[Place, list[tuple[Side, Colour]]]
    dots: dict[Place, tuple[int, Colour]]
    hits: list[Place]


def play_marks(scene: Scene) -> Marks:
    """The marks of the scene's moves, by net flow per place: a checker that moved on through a
    point leaves no mark there."""
    marks = Marks({}, {}, [])
    theme = scene.theme
    marked: tuple[tuple[tuple[Move, ...], Side, Colour], ...] = (
        (scene.last_play, scene.last_play_by, theme.last_play),
        (scene.moves_made, VIEWER if scene.viewer_on_roll else OPPONENT, theme.moved),
    )
    for moves, side, colour in marked:
        flow: Counter[Place] = Counter()
        for move in moves:
            flow[place(move.from_point, side, source=True)] -= 1
            flow[place(move.to_point, side, source=False)] += 1
            if move.hit:
                # the mark goes on the checker that was hit, now on its owner's bar (on the
                # hitter it read as "captured")
                marks.hits.append(("bar", OPPONENT if side == VIEWER else VIEWER))
        for where, net in flow.items():
            if net < 0:
                marks.ghosts.setdefault(where, []).extend([(side, colour)] * -net)
            elif net > 0:
                marks.dots[where] = (net, colour)
    return marks
