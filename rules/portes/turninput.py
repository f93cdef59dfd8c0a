"""Tap-by-tap input of one turn: which single move may come next, given the moves so far.

A move is offered exactly when some completion with the remaining dice still reaches one of the
legal final positions (:func:`rules.portes.legal.legal_results`), so every legal order is accepted
(24/19 before 19/13 with 6-5) and no dead end is offered.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from rules.common.dice import Dice
from rules.common.errors import IllegalPlay
from rules.portes.board import Position
from rules.portes.legal import Play, legal_results
from rules.portes.moves import Move, apply_checked, apply_single, single_moves


def _successors(
    board: tuple[int, ...], remaining: tuple[int, ...]
) -> Iterator[tuple[Move, tuple[int, ...], tuple[int, ...]]]:
    """Each single move with one of the remaining dice: (move, board after, dice left)."""
    for i, die in enumerate(remaining):
        if die in remaining[:i]:
            continue
        rest = remaining[:i] + remaining[i + 1 :]
        for src, dest, hit in single_moves(board, die, 25):
            yield Move(src, dest, die, hit), apply_single(board, src, dest, hit), rest


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
            board = apply_checked(board, move)
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
        return Position.unchecked(board)

    def is_complete(self, chosen: Sequence[Move] = ()) -> bool:
        """True when the moves chosen make a whole legal play (the turn may be confirmed)."""
        board, _ = self._replay(chosen)
        return board in self._finals

    def play(self, chosen: Sequence[Move]) -> Play:
        """The chosen moves as a complete :class:`Play`; raises :class:`IllegalPlay` if not."""
        board, _ = self._replay(chosen)
        if board not in self._finals:
            raise IllegalPlay("The play is not complete: more dice must be played")
        return Play(tuple(chosen), Position.unchecked(board))

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


class TurnInputLike(Protocol):
    """The tap-by-tap input of a turn, as every game gives it (:meth:`rules.game.Game.turn_input`):
    Portes' :class:`TurnInput`, the step engine's :class:`rules.steps.turninput.StepsTurnInput`."""

    @property
    def position(self) -> Position: ...
    def next_moves(self, chosen: Sequence[Move] = ()) -> tuple[Move, ...]: ...
    def position_after(self, chosen: Sequence[Move]) -> Position: ...
    def is_complete(self, chosen: Sequence[Move] = ()) -> bool: ...
    def play(self, chosen: Sequence[Move]) -> Play: ...
    def check_step(self, chosen: Sequence[Move], move: Move) -> Move: ...


@dataclass(frozen=True)
class Destination:
    """Where the checker on a point may go, and the single moves that take it there;
    ``route`` numbers the routes to the same point that end in different positions (one hits
    or pins on the way)."""

    to_point: int
    moves: tuple[Move, ...]
    route: int = 0

    @property
    def hit(self) -> bool:
        return any(m.hit for m in self.moves)


def destinations(
    turn_input: TurnInputLike, chosen: Sequence[Move], from_point: int
) -> list[Destination]:
    """Every point the checker on ``from_point`` may reach after ``chosen``, with one die or
    several in a row, highest first; two routes to a point that end in different positions
    are both offered, the later with a higher ``route``."""
    found: dict[int, list[tuple[tuple[Move, ...], Position]]] = {}
    frontier: list[tuple[tuple[Move, ...], int]] = [((), from_point)]
    while frontier:
        nxt: list[tuple[tuple[Move, ...], int]] = []
        for path, point in frontier:
            for move in turn_input.next_moves((*chosen, *path)):
                if move.from_point != point:
                    continue
                new_path = (*path, move)
                board = turn_input.position_after((*chosen, *new_path))
                routes = found.setdefault(move.to_point, [])
                if any(result == board for _, result in routes):
                    continue
                routes.append((new_path, board))
                if move.to_point != 0:
                    nxt.append((new_path, move.to_point))
        frontier = nxt
    return [Destination(to_point, path, route)
            for to_point in sorted(found, reverse=True)
            for route, (path, _) in enumerate(found[to_point])]


def next_moves(
    position: Position, dice: Dice | tuple[int, int], chosen: Sequence[Move] = ()
) -> tuple[Move, ...]:
    """Which single moves may come next this turn (see :class:`TurnInput`)."""
    return TurnInput(position, dice).next_moves(chosen)
