"""Tap-by-tap input of a Plakoto, Fevga or Long Nardy turn, as
:class:`rules.portes.turninput.TurnInput`
is for Portes (the same methods, so the keyboard code serves every game).

A move is offered exactly when some completion with the remaining dice still reaches one of the
legal final positions (:func:`rules.steps.legal.legal_finals`), so every legal order is accepted
and no dead end is offered.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rules.common.dice import Dice
from rules.common.errors import IllegalPlay
from rules.portes.legal import Play
from rules.portes.moves import Move
from rules.steps.board import StepsPosition
from rules.steps.legal import legal_finals
from rules.steps.options import RuleOptions
from rules.steps.singles import State, stepper

Stage = tuple[State, tuple[int, ...], int]
"""A turn part-way: the state, the dice left, the single moves made."""


class StepsTurnInput:
    """Which single move may come next, given the moves so far (see the module's text)."""

    __slots__ = ("_finals", "_memo", "_stages", "_steps", "dice", "position")

    def __init__(
        self,
        position: StepsPosition,
        dice: Dice | tuple[int, int],
        options: RuleOptions | None = None,
    ) -> None:
        self.position = position
        self.dice = Dice(*dice)
        self._steps = stepper(position, (self.dice.die1, self.dice.die2), options)
        self._finals = legal_finals(position, self.dice, options)
        self._memo: dict[tuple[State, tuple[int, ...]], bool] = {}
        self._stages: dict[tuple[Move, ...], Stage] = {}

    def _successors(
        self, state: State, remaining: tuple[int, ...]
    ) -> Iterator[tuple[Move, State, tuple[int, ...]]]:
        if self._steps.terminal(state):
            return
        for i, die in enumerate(remaining):
            if die in remaining[:i]:
                continue
            rest = remaining[:i] + remaining[i + 1 :]
            for raw, after in self._steps.steps(state, die):
                yield Move(*raw), after, rest

    def _final(self, state: State, used: int) -> bool:
        return self._finals.get((state[0], state[1])) == used

    def _reaches(self, state: State, remaining: tuple[int, ...], used: int) -> bool:
        if self._final(state, used):
            return True
        key = (state, remaining)
        cached = self._memo.get(key)
        if cached is None:
            cached = any(
                self._reaches(after, rest, used + 1)
                for _, after, rest in self._successors(state, remaining)
            )
            self._memo[key] = cached
        return cached

    def _replay(self, chosen: Sequence[Move]) -> Stage:
        key = tuple(chosen)
        stage = self._stages.get(key)
        if stage is not None:
            return stage
        if not key:
            stage = (self._steps.initial(), self.dice.values(), 0)
        else:
            state, remaining, used = self._replay(key[:-1])
            move = key[-1]
            if move.die not in remaining:
                raise IllegalPlay(f"{move}: no {move.die} left to play")
            for made, after, rest in self._successors(state, remaining):
                if (made.from_point, made.to_point, made.die) == move[:3]:
                    stage = (after, rest, used + 1)
                    break
            else:
                raise IllegalPlay(f"{move} is not a legal move with a {move.die}")
        self._stages[key] = stage
        return stage

    def next_moves(self, chosen: Sequence[Move] = ()) -> tuple[Move, ...]:
        """The single moves that may come next after ``chosen`` (empty when the turn is done)."""
        state, remaining, used = self._replay(chosen)
        offered = [
            move
            for move, after, rest in self._successors(state, remaining)
            if self._reaches(after, rest, used + 1)
        ]
        offered.sort(key=lambda m: (-m.from_point, -m.die))
        return tuple(offered)

    def position_after(self, chosen: Sequence[Move]) -> StepsPosition:
        """The board after the moves chosen so far (complete or not), from the mover's side."""
        state, _, _ = self._replay(chosen)
        return StepsPosition.make(self.position.variant, state[0], state[1])

    def is_complete(self, chosen: Sequence[Move] = ()) -> bool:
        """True when the moves chosen make a whole legal play (the turn may be confirmed)."""
        state, _, used = self._replay(chosen)
        return self._final(state, used)

    def play(self, chosen: Sequence[Move]) -> Play:
        """The chosen moves as a complete :class:`Play`; raises :class:`IllegalPlay` if not."""
        if not self.is_complete(chosen):
            raise IllegalPlay("The play is not complete: more dice must be played")
        state, _, _ = self._replay(chosen)
        moves = tuple(self._replay_moves(chosen))
        return Play(moves, StepsPosition.make(self.position.variant, state[0], state[1]))

    def _replay_moves(self, chosen: Sequence[Move]) -> Iterator[Move]:
        """The chosen moves with their pin flags settled by the board."""
        for i, move in enumerate(chosen):
            yield self.check_step(chosen[:i], move)

    def check_step(self, chosen: Sequence[Move], move: Move) -> Move:
        """Validate one more move after ``chosen``; returns it with its pin flag settled."""
        for offered in self.next_moves(chosen):
            if offered[:3] == move[:3]:
                return offered
        raise IllegalPlay(f"{move} cannot be played now")
