"""The board of Plakoto, Fevga and Long Nardy: :class:`StepsPosition`.

Like Portes's :class:`~rules.portes.board.Position` (which it extends), a position is 26 signed
slots
seen from the side to move, who moves from 24 towards 1 with home 1-6; positive counts are the
mover's checkers, negative the opponent's. These games have no bar: slots 0 and 25 stay 0.
What differs is the geometry and, in Plakoto, pinned checkers:

* **Plakoto**: contrary movement, as in Portes; the opponent's point ``p`` is the mover's
  ``25 - p``. ``pins[p]`` marks a checker pinned *under* the top checkers of point ``p``:
  ``+1`` a mover's checker under the opponent's (``board[p] < 0``), ``-1`` an opponent's checker
  under the mover's (``board[p] > 0``).
* **Fevga and Long Nardy**: both sides move the same way round from opposite corners: the
  opponent's point ``q`` is the mover's ``q - 12`` (``q > 12``) or ``q + 12``; the opponent starts
  on the mover's 12 and bears off from the mover's 13-18.

:meth:`StepsPosition.flip` hands the turn over in the game's geometry.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from rules.common.errors import InvalidNotation
from rules.portes.board import CHECKERS, Position


class Variant(StrEnum):
    """The games the rules core plays."""

    PORTES = "portes"
    PLAKOTO = "plakoto"
    FEVGA = "fevga"
    NARDY = "nardy"


NO_PINS: tuple[int, ...] = (0,) * 26
_Reduced = tuple[type["StepsPosition"], tuple[Variant, tuple[int, ...], tuple[int, ...]]]


def same_way_point(point: int) -> int:
    """Fevga and Nardy: a point in the other side's numbering (the map is its own inverse)."""
    return point - 12 if point > 12 else point + 12


def other_side_point(variant: Variant, point: int) -> int:
    """A point in the other side's numbering, in ``variant``'s geometry."""
    if variant == Variant.PLAKOTO:
        return 25 - point
    return same_way_point(point)


class StepsPosition(Position):
    """An immutable, hashable Plakoto, Fevga or Long Nardy board seen from the side to move."""

    __slots__ = ("pins", "variant")

    variant: Variant
    pins: tuple[int, ...]

    def __init__(
        self, variant: Variant | str, board: Iterable[int], pins: Iterable[int] = NO_PINS
    ) -> None:
        game = Variant(variant)
        if game == Variant.PORTES:
            raise ValueError("a Portes board is a Position")
        slots = tuple(board)
        marks = tuple(pins)
        if len(slots) != 26 or len(marks) != 26:
            raise ValueError("a position has 26 slots")
        if slots[0] or slots[25] or marks[0] or marks[25]:
            raise ValueError(f"{game} has no bar")
        for p in range(1, 25):
            if marks[p] and (game != Variant.PLAKOTO or marks[p] * slots[p] >= 0 or
                             abs(marks[p]) != 1):
                raise ValueError(f"bad pin on point {p}")
        mover = sum(c for c in slots if c > 0) + marks.count(1)
        opponent = -sum(c for c in slots if c < 0) + marks.count(-1)
        if mover > CHECKERS or opponent > CHECKERS:
            raise ValueError("more than 15 checkers on a side")
        self._set(game, slots, marks)

    def _set(self, variant: Variant, slots: tuple[int, ...], marks: tuple[int, ...]) -> None:
        # The hash is worked out when first asked for: the generator builds many positions.
        object.__setattr__(self, "variant", variant)
        object.__setattr__(self, "board", slots)
        object.__setattr__(self, "pins", marks)

    @classmethod
    def make(
        cls, variant: Variant, slots: tuple[int, ...], marks: tuple[int, ...] = NO_PINS
    ) -> StepsPosition:
        """Wrap slots the rules core built itself, skipping validation (see ``unchecked``)."""
        obj = cls.__new__(cls)
        obj._set(variant, slots, marks)
        return obj

    def __reduce__(self) -> _Reduced:  # type: ignore[override]
        # Pickle through the constructor, with the game and the pins.
        return (StepsPosition, (self.variant, self.board, self.pins))

    @classmethod
    def start_of(cls, variant: Variant | str) -> StepsPosition:
        """The set-up: all 15 of each side on its start (the mover's 24; the opponent's start is
        the mover's 1 in Plakoto and 12 in Fevga and Long Nardy)."""
        game = Variant(variant)
        slots = [0] * 26
        slots[24] = CHECKERS
        slots[1 if game == Variant.PLAKOTO else 12] = -CHECKERS
        return cls(game, slots)

    # -- views ---------------------------------------------------------------------------------

    def flip(self) -> StepsPosition:
        """The same board seen from the other side (hands over the turn)."""
        b, t = self.board, self.pins
        if self.variant == Variant.PLAKOTO:
            return StepsPosition.make(
                self.variant,
                tuple(-b[25 - i] for i in range(26)),
                tuple(-t[25 - i] for i in range(26)) if any(t) else NO_PINS,
            )
        return StepsPosition.make(
            self.variant, (0, *(-b[same_way_point(q)] for q in range(1, 25)), 0)
        )

    @property
    def mover_off(self) -> int:
        return CHECKERS - sum(c for c in self.board if c > 0) - self.pins.count(1)

    @property
    def opponent_off(self) -> int:
        return CHECKERS + sum(c for c in self.board if c < 0) - self.pins.count(-1)

    def mover_points(self) -> dict[int, int]:
        """``{point: count}`` of the mover's checkers, pinned ones included."""
        out = {p: c for p, c in enumerate(self.board) if c > 0}
        for p, mark in enumerate(self.pins):
            if mark == 1:
                out[p] = 1
        return out

    def opponent_points(self) -> dict[int, int]:
        """``{point: count}`` of the opponent's checkers in the opponent's own numbering."""
        out = {p: -c for p, c in enumerate(self.board) if c < 0}
        for p, mark in enumerate(self.pins):
            if mark == -1:
                out[p] = 1
        return {other_side_point(self.variant, p): c for p, c in out.items()}

    def pinned(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Plakoto: the points (mover's numbering) where ``(mover's, opponent's)`` checkers lie
        pinned."""
        t = self.pins
        return (
            tuple(p for p in range(1, 25) if t[p] == 1),
            tuple(p for p in range(1, 25) if t[p] == -1),
        )

    def pips(self) -> tuple[int, int]:
        """Pip counts ``(mover, opponent)``, each to bear everything off in its own numbering."""
        mover = sum(p * c for p, c in self.mover_points().items())
        opponent = sum(p * c for p, c in self.opponent_points().items())
        return mover, opponent

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, StepsPosition)
            and self.variant == other.variant
            and self.board == other.board
            and self.pins == other.pins
        )

    def __hash__(self) -> int:
        try:
            return self._hash
        except AttributeError:
            value = hash((self.variant, self.board, self.pins))
            object.__setattr__(self, "_hash", value)
            return value

    def __repr__(self) -> str:
        return f"parse_steps({self.variant.value!r}, {self.to_fixture()!r})"

    def to_fixture(self) -> str:
        """``x 24:13 20:2p; o 24:14`` (each side in its own numbering; ``p``: these checkers pin
        one of the other side beneath them)."""
        t = self.pins
        sides = []
        for name, sign in (("x", 1), ("o", -1)):
            words = []
            for p in range(24, 0, -1):
                count = self.board[p] * sign
                if count > 0:
                    own = p if sign == 1 else other_side_point(self.variant, p)
                    words.append((own, f"{count}{'p' if t[p] == -sign else ''}"))
            words.sort(reverse=True)
            sides.append(f"{name} " + " ".join(f"{p}:{c}" for p, c in words))
        return "; ".join(sides)

    def to_id(self) -> str:
        """A Position ID is GNU Backgammon's, for Portes only: the tavli games have none."""
        raise InvalidNotation(f"{self.variant} has no GNU Backgammon Position ID")


def parse_steps(variant: Variant | str, text: str) -> StepsPosition:
    """Read :meth:`StepsPosition.to_fixture`'s notation (``x 24:14 3:1p; o 24:14``)."""
    game = Variant(variant)
    slots = [0] * 26
    marks = [0] * 26
    for part in text.split(";"):
        words = part.split()
        if not words:
            continue
        side = words[0].lower().rstrip(":")
        if side not in ("x", "o"):
            raise InvalidNotation(f"fixture side must be x or o, not {side!r}")
        sign = 1 if side == "x" else -1
        for word in words[1:]:
            point_text, _, count_text = word.partition(":")
            pin = count_text.endswith("p")
            own = int(point_text)
            if not 1 <= own <= 24:
                raise InvalidNotation(f"no point {own} in {game}")
            p = own if sign == 1 else other_side_point(game, own)
            if slots[p] * sign < 0:
                raise InvalidNotation(f"both sides on top of point {p}")
            slots[p] += sign * int(count_text.rstrip("p") or "1")
            if pin:
                marks[p] = -sign
    try:
        return StepsPosition(game, slots, marks)
    except ValueError as exc:
        raise InvalidNotation(f"Not a {game} position: {exc}") from exc
