"""The board: :class:`Position`, the 26 signed slots seen from the side to move.

A :class:`Position` is always seen from the side to move ("the mover"). It is 26 signed slots:

* ``board[1..24]``: the points in the mover's own numbering (the mover moves from 24 towards 1,
  home is 1-6); a positive count is the mover's checkers, a negative count the opponent's;
* ``board[25]``: the mover's checkers on the bar (>= 0);
* ``board[0]``: the opponent's checkers on the bar, as a negative count (<= 0).

Borne-off checkers are implied: each side has 15. :meth:`Position.flip` hands the turn over by
reversing and negating the slots, so the generator only ever thinks in one direction.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable

from rules.common.errors import InvalidNotation, WrongGame

CHECKERS = 15
BAR = 25
"""The mover's bar, as a move's ``from_point``."""
OFF = 0
"""Borne off, as a move's ``to_point``."""

_START_POINTS = {24: 2, 13: 5, 8: 3, 6: 5}


class Position:
    """An immutable, hashable board seen from the side to move."""

    __slots__ = ("_hash", "board")

    board: tuple[int, ...]
    _hash: int

    def __init__(self, board: Iterable[int]) -> None:
        slots = tuple(board)
        if len(slots) != 26:
            raise ValueError("a position has 26 slots")
        if slots[25] < 0 or slots[0] > 0:
            raise ValueError("bar counts have the wrong sign")
        mover = sum(c for c in slots if c > 0)
        opponent = -sum(c for c in slots if c < 0)
        if mover > CHECKERS or opponent > CHECKERS:
            raise ValueError("more than 15 checkers on a side")
        object.__setattr__(self, "board", slots)
        object.__setattr__(self, "_hash", hash(slots))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Position is immutable")

    def __reduce__(self) -> tuple[type[Position], tuple[tuple[int, ...]]]:
        # Pickle through the constructor: the computer player ships positions to a worker.
        return (Position, (self.board,))

    @classmethod
    def unchecked(cls, slots: tuple[int, ...]) -> Position:
        """Wrap slots the rules core built itself (a legal move from a valid position), skipping
        validation: the move generator builds thousands per turn."""
        obj = cls.__new__(cls)
        object.__setattr__(obj, "board", slots)
        object.__setattr__(obj, "_hash", hash(slots))
        return obj

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def start(cls) -> Position:
        """The opening set-up: 2 on 24, 5 on 13, 3 on 8, 5 on 6 for each side."""
        return cls.from_points(_START_POINTS, _START_POINTS)

    @classmethod
    def from_points(
        cls,
        mover: dict[int, int],
        opponent: dict[int, int],
    ) -> Position:
        """Build a position from ``{point: count}`` for each side, each in its own numbering.

        Point 25 (or the key ``"bar"`` through :func:`parse_fixture`) is that side's bar.
        Checkers not placed are borne off.
        """
        slots = [0] * 26
        for point, count in mover.items():
            if not 1 <= point <= 25 or count < 0:
                raise ValueError(f"bad mover point {point}:{count}")
            slots[point] += count
        for point, count in opponent.items():
            if not 1 <= point <= 25 or count < 0:
                raise ValueError(f"bad opponent point {point}:{count}")
            mirror = 25 - point
            if slots[mirror] > 0 and count > 0:
                raise ValueError(f"both sides on point {mirror}")
            slots[mirror] -= count
        return cls(slots)

    # -- views ---------------------------------------------------------------------------------

    def flip(self) -> Position:
        """The same board seen from the other side (hands over the turn)."""
        b = self.board
        return Position.unchecked(tuple(-b[25 - i] for i in range(26)))

    @property
    def mover_off(self) -> int:
        """How many checkers the side to move has borne off."""
        return CHECKERS - sum(c for c in self.board if c > 0)

    @property
    def opponent_off(self) -> int:
        """How many checkers the other side has borne off."""
        return CHECKERS + sum(c for c in self.board if c < 0)

    @property
    def mover_bar(self) -> int:
        return self.board[25]

    @property
    def opponent_bar(self) -> int:
        return -self.board[0]

    def mover_points(self) -> dict[int, int]:
        """``{point: count}`` of the mover's checkers (25 is the bar)."""
        return {p: c for p, c in enumerate(self.board) if c > 0}

    def opponent_points(self) -> dict[int, int]:
        """``{point: count}`` of the opponent's checkers in the opponent's own numbering."""
        return {25 - p: -c for p, c in enumerate(self.board) if c < 0}

    def pips(self) -> tuple[int, int]:
        """Pip counts ``(mover, opponent)``: the pips each side needs to bear everything off."""
        mover = 0
        opponent = 0
        for p, c in enumerate(self.board):
            if c > 0:
                mover += p * c
            elif c < 0:
                opponent -= (25 - p) * c
        return mover, opponent

    def is_game_over(self) -> bool:
        """True when either side has borne off all 15 checkers."""
        return self.mover_off == CHECKERS or self.opponent_off == CHECKERS

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self.board == other.board

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Position.from_id({self.to_id()!r})"

    def to_fixture(self) -> str:
        """Compact text for tests: ``x 24:2 13:5 8:3 6:5; o 24:2 13:5 8:3 6:5``."""
        return (
            "x "
            + " ".join(
                f"{_pt_name(p)}:{c}" for p, c in sorted(self.mover_points().items(), reverse=True)
            )
            + "; o "
            + " ".join(
                f"{_pt_name(p)}:{c}"
                for p, c in sorted(self.opponent_points().items(), reverse=True)
            )
        )

    # -- GNU Backgammon Position ID ------------------------------------------------------------

    def to_id(self) -> str:
        """GNU Backgammon's 14-character Position ID, from the side to move (as gnubg does).

        gnubg writes the player *not* on roll first, then the player on roll; for each, the
        points 1-24 and the bar in that player's own numbering, each as that many 1-bits followed
        by a 0-bit, packed little-endian into 10 bytes, then base64 without padding.
        """
        b = self.board
        not_on_roll = [-b[25 - i] if b[25 - i] < 0 else 0 for i in range(1, 25)] + [-b[0]]
        on_roll = [b[i] if b[i] > 0 else 0 for i in range(1, 25)] + [b[25]]
        key = 0
        bit = 0
        for count in (*not_on_roll, *on_roll):
            key |= ((1 << count) - 1) << bit
            bit += count + 1
        raw = key.to_bytes(10, "little")
        return base64.b64encode(raw).decode("ascii")[:14]

    @classmethod
    def from_id(cls, position_id: str) -> Position:
        """Decode a GNU Backgammon Position ID (see :meth:`to_id`)."""
        text = position_id.strip()
        if len(text) != 14:
            raise InvalidNotation(f"A Position ID has 14 characters, not {len(text)}: {text!r}")
        try:
            raw = base64.b64decode(text + "==", validate=True)
        except (ValueError, TypeError) as exc:
            raise InvalidNotation(f"Not a Position ID: {text!r}") from exc
        key = int.from_bytes(raw, "little")
        counts: list[int] = []
        current = 0
        for bit in range(80):
            if len(counts) == 50:
                break
            if key >> bit & 1:
                current += 1
            else:
                counts.append(current)
                current = 0
        if len(counts) != 50:
            raise InvalidNotation(f"Not a Position ID (too many checkers): {text!r}")
        not_on_roll, on_roll = counts[:25], counts[25:]
        if sum(not_on_roll) > CHECKERS or sum(on_roll) > CHECKERS:
            raise InvalidNotation(f"Not a Position ID (more than 15 checkers): {text!r}")
        mover = {i + 1: c for i, c in enumerate(on_roll) if c}
        opponent = {i + 1: c for i, c in enumerate(not_on_roll) if c}
        try:
            return cls.from_points(mover, opponent)
        except ValueError as exc:
            raise InvalidNotation(f"Not a valid position: {text!r} ({exc})") from exc


def _pt_name(point: int) -> str:
    return "bar" if point == BAR else str(point)


def parse_fixture(text: str) -> Position:
    """Read the compact fixture notation of :meth:`Position.to_fixture`.

    ``"x 24:2 13:5 8:3 6:5; o 24:2 13:5 8:3 6:5"``; ``bar:1`` puts a checker on that side's
    bar; each side's points are in its own numbering; unplaced checkers are borne off.
    """
    sides: dict[str, dict[int, int]] = {"x": {}, "o": {}}
    for part in text.split(";"):
        words = part.split()
        if not words:
            continue
        side = words[0].lower().rstrip(":")
        if side not in sides:
            raise InvalidNotation(f"fixture side must be x or o, not {side!r}")
        for word in words[1:]:
            point_text, _, count_text = word.partition(":")
            point = BAR if point_text.lower() == "bar" else int(point_text)
            sides[side][point] = sides[side].get(point, 0) + int(count_text or "1")
    return Position.from_points(sides["x"], sides["o"])



def require_portes(position: Position) -> None:
    """Refuse a board of another game (a Plakoto, Fevga or Long Nardy board is a subclass of
    :class:`Position`, and Portes' rules would silently misplay it)."""
    if type(position) is not Position:
        raise WrongGame(
            f"Portes' rules were given a {type(position).__name__} ({position!r}): "
            "use rules.game.game_of(position) or rules.games")
