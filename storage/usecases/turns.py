"""The turn: single moves tap by tap (step, steps, undo, reset), confirming them, or a whole
play at once. Each is one :meth:`~storage.usecases.kernel.Kernel.act`."""

from __future__ import annotations

from collections.abc import Sequence

from rules.common.dice import DiceSource
from rules.match import Event, Match
from rules.position import Move, Play
from storage.results import ActionResult, Actor
from storage.usecases.kernel import Feature, off_loop


class TurnCases(Feature):
    """Entering and playing a turn."""

    @off_loop
    def step(self, match_id: int, actor: Actor, version: int, move: Move) -> ActionResult:
        """Add one single move to the turn being entered (one tap). Choose ``move`` from
        ``match.state.next_moves()``. Nothing is sent to the opponent until :meth:`confirm`."""
        return self.kernel.act(
            match_id, actor, version, lambda m, seat, _d: (m.step(seat, move), [])
        )

    @off_loop
    def steps(
        self, match_id: int, actor: Actor, version: int, moves: Sequence[Move]
    ) -> ActionResult:
        """Add several single moves to the turn at once (one tap that moves a checker with
        both dice, e.g. 24/13 with 6-5), in order, as one accepted step: one transaction, one
        version bump. All or nothing: if any move is refused, nothing is written and the
        result is REFUSED (the refusal of the first move that failed). :meth:`undo` still takes
        back one single move at a time."""
        chosen = tuple(moves)
        if not chosen:
            raise ValueError("steps needs at least one move")

        def decide(m: Match, seat: int, _d: DiceSource) -> tuple[Match, list[Event]]:
            for move in chosen:
                m = m.step(seat, move)
            return m, []

        return self.kernel.act(match_id, actor, version, decide)

    @off_loop
    def undo(self, match_id: int, actor: Actor, version: int) -> ActionResult:
        """Take back the last single move chosen this turn."""
        return self.kernel.act(match_id, actor, version, lambda m, seat, _d: (m.undo(seat), []))

    @off_loop
    def reset_turn(self, match_id: int, actor: Actor, version: int) -> ActionResult:
        """Take back every single move chosen this turn."""
        return self.kernel.act(
            match_id, actor, version, lambda m, seat, _d: (m.reset_turn(seat), [])
        )

    @off_loop
    def confirm(self, match_id: int, actor: Actor, version: int) -> ActionResult:
        """End the turn with the moves chosen (they must make a whole legal play). The
        opponent's dice are rolled; forced plays and passes follow automatically."""
        return self.kernel.act(
            match_id, actor, version, lambda m, seat, d: m.confirm(seat, d), auto=True
        )

    @off_loop
    def play(
        self, match_id: int, actor: Actor, version: int, play: Play | str,
        *, typed: int | None = None,
    ) -> ActionResult:
        """Play a whole turn at once: a :class:`~rules.position.Play` from
        ``match.state.legal_plays()`` (the computer) or move text such as ``"24/18 13/11"``
        (a player typing). Any moves chosen tap by tap are replaced. ``typed``: the message id
        of a play typed in the private chat; a copy of one already played is refused with
        ``already_played`` (see :meth:`~storage.usecases.kernel.Kernel.act`)."""

        def decide(m: Match, seat: int, d: DiceSource) -> tuple[Match, list[Event]]:
            if m.chosen:
                m = m.reset_turn(seat)
            return m.play(seat, play, d)

        return self.kernel.act(match_id, actor, version, decide, auto=True, typed=typed)
