"""Positions, dice, moves and plays, and the legal-play generator: the one source of truth.

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
import functools
from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

from rules.errors import IllegalPlay, InvalidNotation

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
    def _trusted(cls, slots: tuple[int, ...]) -> Position:
        """Wrap slots the generator built itself, skipping validation (hot path)."""
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
        return Position._trusted(tuple(-b[25 - i] for i in range(26)))

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


class Dice(NamedTuple):
    """A roll of two dice."""

    die1: int
    die2: int

    @classmethod
    def of(cls, die1: int, die2: int) -> Dice:
        if not (1 <= die1 <= 6 and 1 <= die2 <= 6):
            raise IllegalPlay(f"Dice must be 1-6, not {die1}-{die2}")
        return cls(die1, die2)

    @property
    def is_double(self) -> bool:
        return self.die1 == self.die2

    def values(self) -> tuple[int, ...]:
        """The dice to play: four of a double, else the two dice."""
        if self.die1 == self.die2:
            return (self.die1,) * 4
        return (self.die1, self.die2)

    def __str__(self) -> str:
        return f"{self.die1}-{self.die2}"


ALL_ROLLS: tuple[Dice, ...] = tuple(Dice(a, b) for a in range(1, 7) for b in range(a, 7))
"""The 21 distinct rolls (6 doubles, 15 mixed)."""


class Move(NamedTuple):
    """One checker moved by one die: ``from_point`` 25 is the bar, ``to_point`` 0 is off."""

    from_point: int
    to_point: int
    die: int
    hit: bool = False

    def __str__(self) -> str:
        start = "bar" if self.from_point == BAR else str(self.from_point)
        end = "off" if self.to_point == OFF else str(self.to_point)
        return f"{start}/{end}{'*' if self.hit else ''}"


class Play(NamedTuple):
    """A whole turn: the single moves in the order played, and the position they lead to.

    ``position`` is still seen from the side that played (call ``flip()`` to hand over).
    An empty ``moves`` is a pass: nothing could be played.
    """

    moves: tuple[Move, ...]
    position: Position

    def to_text(self) -> str:
        from rules.notation import format_moves

        return format_moves(self.moves)

    def __str__(self) -> str:
        return self.to_text()


# -- the generator --------------------------------------------------------------------------


def _single_moves(b: tuple[int, ...], die: int, max_from: int) -> Iterator[tuple[int, int, bool]]:
    """Yield ``(from, to, hit)`` for every legal single move of ``die`` from points <= max_from.

    Rules enforced: a checker on the bar must enter first, on point 25 - die, which must not be
    closed (2+ opposing checkers); bearing off only while every checker is home (points 1-6),
    with the exact die, or with a higher die from the highest occupied point only.
    """
    if b[25] > 0:
        if max_from >= 25:
            dest = 25 - die
            if b[dest] >= -1:
                yield 25, dest, b[dest] == -1
        return
    high = 24
    while high > 0 and b[high] <= 0:
        high -= 1
    if high == 0:
        return
    all_home = high <= 6
    start = high if high < max_from else max_from
    for src in range(start, 0, -1):
        if b[src] <= 0:
            continue
        dest = src - die
        if dest > 0:
            if b[dest] >= -1:
                yield src, dest, b[dest] == -1
        elif all_home and (dest == 0 or src == high):
            yield src, 0, False


def _apply(b: tuple[int, ...], src: int, dest: int, hit: bool) -> tuple[int, ...]:
    nb = list(b)
    nb[src] -= 1
    if dest:
        if hit:
            nb[dest] = 1
            nb[0] -= 1
        else:
            nb[dest] += 1
    return tuple(nb)


def _apply_checked(b: tuple[int, ...], move: Move) -> tuple[int, ...]:
    for src, dest, hit in _single_moves(b, move.die, move.from_point):
        if src == move.from_point and dest == move.to_point:
            return _apply(b, src, dest, hit)
    raise IllegalPlay(f"{move} is not a legal move with a {move.die}")


def apply_move(position: Position, move: Move) -> Position:
    """The position after one single move, checked against the rules for a single die."""
    return Position._trusted(_apply_checked(position.board, move))


def _mixed(b: tuple[int, ...], d1: int, d2: int) -> dict[tuple[int, ...], tuple[Move, ...]]:
    two: dict[tuple[int, ...], tuple[Move, ...]] = {}
    singles: dict[int, dict[tuple[int, ...], tuple[Move, ...]]] = {d1: {}, d2: {}}
    for first, second in ((d1, d2), (d2, d1)):
        for s1, t1, h1 in _single_moves(b, first, 25):
            b1 = _apply(b, s1, t1, h1)
            m1 = Move(s1, t1, first, h1)
            found = False
            for s2, t2, h2 in _single_moves(b1, second, 25):
                found = True
                b2 = _apply(b1, s2, t2, h2)
                if b2 not in two:
                    two[b2] = (m1, Move(s2, t2, second, h2))
            if not found and not two and b1 not in singles[first]:
                singles[first][b1] = (m1,)
    if two:
        return two
    high, low = (d1, d2) if d1 > d2 else (d2, d1)
    # Only one die can be played: the larger one when it can be, else the smaller.
    if singles[high]:
        return singles[high]
    return singles[low]


def _doubles(b: tuple[int, ...], die: int) -> dict[tuple[int, ...], tuple[Move, ...]]:
    best: dict[tuple[int, ...], tuple[Move, ...]] = {}
    best_len = 0

    # Sources never increase along a line, so permutations of the same checkers are not
    # generated twice; any legal order of a double can be re-ordered that way.
    def walk(board: tuple[int, ...], max_from: int, moves: tuple[Move, ...]) -> None:
        nonlocal best, best_len
        extended = False
        if len(moves) < 4:
            for src, dest, hit in _single_moves(board, die, max_from):
                extended = True
                walk(_apply(board, src, dest, hit), src, (*moves, Move(src, dest, die, hit)))
        if not extended:
            n = len(moves)
            if n > best_len:
                best = {board: moves}
                best_len = n
            elif n == best_len and board not in best:
                best[board] = moves

    walk(b, 25, ())
    return best


def legal_plays(position: Position, dice: Dice | tuple[int, int]) -> list[Play]:
    """Every distinct legal play for the roll, deduplicated by resulting position.

    The order is deterministic (the order of generation). Never empty: when nothing can be
    played the single empty play (a pass) is returned. Plays use as many dice as possible; when
    only one die of a mixed roll can be played, the larger one if it can be.
    """
    d1, d2 = dice
    b = position.board
    found = _doubles(b, d1) if d1 == d2 else _mixed(b, d1, d2)
    if not found:
        return [Play((), position)]
    return [Play(moves, Position._trusted(board)) for board, moves in found.items()]


def legal_results(position: Position, dice: Dice | tuple[int, int]) -> frozenset[tuple[int, ...]]:
    """The boards (``Position.board``) the legal plays lead to; ``{position.board}`` alone
    means nothing can be played. Cached: a turn's taps, typed plays and the automatic pass
    and forced-play checks all ask again for the same turn."""
    d1, d2 = dice
    return _final_boards_cached(position.board, min(d1, d2), max(d1, d2))


@functools.lru_cache(maxsize=512)
def _final_boards_cached(b: tuple[int, ...], d1: int, d2: int) -> frozenset[tuple[int, ...]]:
    # Cached because every tap of a turn, and every typed play, asks again for the same turn.
    found = _doubles(b, d1) if d1 == d2 else _mixed(b, d1, d2)
    return frozenset(found) if found else frozenset((b,))


# -- tap-by-tap input -----------------------------------------------------------------------


def _successors(
    board: tuple[int, ...], remaining: tuple[int, ...]
) -> Iterator[tuple[Move, tuple[int, ...], tuple[int, ...]]]:
    """Each single move with one of the remaining dice: (move, board after, dice left)."""
    for i, die in enumerate(remaining):
        if die in remaining[:i]:
            continue
        rest = remaining[:i] + remaining[i + 1 :]
        for src, dest, hit in _single_moves(board, die, 25):
            yield Move(src, dest, die, hit), _apply(board, src, dest, hit), rest


class TurnInput:
    """Tap-by-tap input of one turn: which single move may come next, given the moves so far.

    A move is offered exactly when some completion with the remaining dice still reaches one of
    the legal final positions, so every legal order is accepted and no dead end is offered.
    Build it once per (position, dice) and query it as moves are chosen; undo is dropping the
    last chosen move.
    """

    __slots__ = ("_finals", "_memo", "_states", "dice", "position")

    def __init__(self, position: Position, dice: Dice | tuple[int, int]) -> None:
        self.position = position
        self.dice = Dice(*dice)
        self._finals = legal_results(position, self.dice)
        self._memo: dict[tuple[tuple[int, ...], tuple[int, ...]], bool] = {}
        self._states: dict[tuple[Move, ...], tuple[tuple[int, ...], tuple[int, ...]]] = {}

    def _reaches(self, board: tuple[int, ...], remaining: tuple[int, ...]) -> bool:
        if board in self._finals:
            return True
        key = (board, remaining)
        cached = self._memo.get(key)
        if cached is not None:
            return cached
        result = any(self._reaches(after, rest) for _, after, rest in _successors(board, remaining))
        self._memo[key] = result
        return result

    def _replay(self, chosen: Sequence[Move]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        key = tuple(chosen)
        state = self._states.get(key)
        if state is not None:
            return state
        if not key:
            state = (self.position.board, self.dice.values())
        else:
            board, remaining = self._replay(key[:-1])
            move = key[-1]
            if move.die not in remaining:
                raise IllegalPlay(f"{move}: no {move.die} left to play")
            i = remaining.index(move.die)
            board = _apply_checked(board, move)
            state = (board, remaining[:i] + remaining[i + 1 :])
        self._states[key] = state
        return state

    def next_moves(self, chosen: Sequence[Move] = ()) -> tuple[Move, ...]:
        """The single moves that may come next after ``chosen`` (empty when the turn is done)."""
        board, remaining = self._replay(chosen)
        offered = [
            move
            for move, after, rest in _successors(board, remaining)
            if self._reaches(after, rest)
        ]
        offered.sort(key=lambda m: (-m.from_point, -m.die))
        return tuple(offered)

    def position_after(self, chosen: Sequence[Move]) -> Position:
        """The board after the moves chosen so far (complete or not), from the mover's side."""
        board, _ = self._replay(chosen)
        return Position._trusted(board)

    def is_complete(self, chosen: Sequence[Move] = ()) -> bool:
        """True when the moves chosen make a whole legal play (the turn may be confirmed)."""
        board, _ = self._replay(chosen)
        return board in self._finals

    def play(self, chosen: Sequence[Move]) -> Play:
        """The chosen moves as a complete :class:`Play`; raises :class:`IllegalPlay` if not."""
        board, _ = self._replay(chosen)
        if board not in self._finals:
            raise IllegalPlay("The play is not complete: more dice must be played")
        return Play(tuple(chosen), Position._trusted(board))

    def check_step(self, chosen: Sequence[Move], move: Move) -> Move:
        """Validate one more move after ``chosen``; returns it with its hit flag settled."""
        for offered in self.next_moves(chosen):
            if (
                offered.from_point == move.from_point
                and offered.to_point == move.to_point
                and (offered.die == move.die)
            ):
                return offered
        raise IllegalPlay(f"{move} cannot be played now")


def next_moves(
    position: Position, dice: Dice | tuple[int, int], chosen: Sequence[Move] = ()
) -> tuple[Move, ...]:
    """Which single moves may come next this turn (see :class:`TurnInput`)."""
    return TurnInput(position, dice).next_moves(chosen)
