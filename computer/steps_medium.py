"""The medium level in Plakoto, Fevga and Long Nardy: a search with a hand-made evaluation.

Every legal play is judged by :func:`computer.steps_eval.evaluate` of the position it leaves
(1-ply). With ``plies=2`` (the default) the best few (``candidates``, within ``margin`` pips of
the best) are then judged one roll further: for each of the opponent's 21 rolls, the reply that
is best for the opponent by the same evaluation, averaged over the rolls (36ths). The look-ahead
goes roll by roll, each candidate in turn, so that a search cut short has judged every candidate
on the same rolls (:data:`ROLL_ORDER` mixes them). A deadline (``budget_ms``, 150 ms from the
start) is checked every few evaluations: when it passes, the search stops and the best play found
so far is chosen: by the rolls finished, or by the 1-ply ranking if none was.

:func:`steps_player` is the door the bot uses: a player by level for the match's rules.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from importlib.util import find_spec

from computer.context import MONEY, MatchContext
from computer.players import ComputerPlayer, decision_rng, portes_player
from computer.steps_easy import StepsEasyPlayer
from computer.steps_eval import DECIDED, evaluate
from rules.common.dice import Dice
from rules.games import game_outcome
from rules.games import legal_plays as game_plays
from rules.portes.board import Position
from rules.portes.legal import Play
from rules.steps.board import StepsPosition
from rules.steps.options import RuleOptions

STRONG_READY = find_spec("numpy") is not None
"""Whether the strong level can play here: its nets (:mod:`computer.steps_net`) need numpy."""
STEPS_LEVELS = ("easy", "medium", "strong") if STRONG_READY else ("easy", "medium")
"""The levels of Plakoto, Fevga and Long Nardy (strong: their own nets, with numpy)."""


def _value(play: Play) -> float:
    after = play.position
    assert isinstance(after, StepsPosition)
    return evaluate(after)


@dataclass(frozen=True, slots=True)
class StepsMediumPlayer:
    """The medium level (see the module's text); plays Portes as the Portes medium level."""

    options: RuleOptions = field(default_factory=RuleOptions)
    plies: int = 2
    candidates: int = 6
    margin: float = 12.0
    """Only plays within this many pips of the best 1-ply value go one ply further."""
    budget_ms: float = 150.0
    """The search's deadline from the start of the decision, under 200 ms so that the step begun
    before it (eight evaluations, or one roll's legal plays) still ends within 200 ms on a busy
    machine."""
    noise: float = 0.0
    seed: int = 0
    name: str = "medium"

    def choose_play(
        self, position: Position, dice: Dice | tuple[int, int], context: MatchContext = MONEY
    ) -> Play:
        deadline = time.perf_counter() + self.budget_ms / 1000
        if not isinstance(position, StepsPosition):
            return portes_player("medium", self.seed).choose_play(position, dice, context)
        plays = game_plays(position, dice, self.options)
        if len(plays) == 1:
            return plays[0]
        ranked = self._one_ply(plays, deadline, position, dice)
        if self.plies < 2 or len(ranked) == 1:
            return ranked[0][1]
        return self._two_ply(ranked, deadline)

    def _one_ply(
        self,
        plays: list[Play],
        deadline: float,
        position: StepsPosition,
        dice: Dice | tuple[int, int],
    ) -> list[tuple[float, Play]]:
        rng = decision_rng(self.seed, position, dice) if self.noise > 0 else None
        scored: list[tuple[float, Play]] = []
        for i, play in enumerate(plays):
            if i % 8 == 7 and time.perf_counter() > deadline:
                break
            value = _value(play)
            if rng is not None:
                value += rng.gauss(0.0, self.noise)
            scored.append((value, play))
        scored.sort(key=lambda vp: vp[0], reverse=True)
        return scored

    def _two_ply(self, ranked: list[tuple[float, Play]], deadline: float) -> Play:
        best_value, best = ranked[0][0], ranked[0][1]
        if abs(best_value) >= DECIDED:  # a decided game: nothing to look at
            return best
        shortlist = [p for v, p in ranked[: self.candidates] if v >= best_value - self.margin]
        if len(shortlist) == 1:
            return best
        totals = _look_ahead(shortlist, self.options, deadline)
        if totals is None:  # not one roll judged in time: the 1-ply choice
            return best
        # Ties keep the 1-ply order (max returns the first).
        return shortlist[max(range(len(shortlist)), key=totals.__getitem__)]


ROLL_ORDER = ((6, 5), (1, 1), (4, 2), (3, 3), (6, 1), (5, 3), (2, 2), (6, 4), (3, 1), (5, 5),
              (4, 3), (2, 1), (6, 6), (5, 2), (4, 1), (6, 3), (4, 4), (5, 1), (3, 2), (6, 2),
              (5, 4))
"""The opponent's 21 rolls in the order the look-ahead takes them: mixed so that any first few
already spread over small and large dice, doubles and not, when the deadline cuts it short."""


def _look_ahead(
    shortlist: list[Play], options: RuleOptions, deadline: float
) -> list[float] | None:
    """Each play's value after the opponent's best reply (by :func:`evaluate`), summed over the
    rolls taken (a double once, the others twice, as in 36 rolls). Roll by roll, every play in
    turn, so that when the deadline passes all plays have been judged on the same rolls; None
    when not one roll was finished."""
    sides = []
    for play in shortlist:
        after = play.position
        assert isinstance(after, StepsPosition)
        sides.append(None if game_outcome(after) is not None else after.flip())
    fixed = [_value(play) for play in shortlist]
    totals = [0.0] * len(shortlist)
    for done, roll in enumerate(ROLL_ORDER):
        weight = 1 if roll[0] == roll[1] else 2
        row = []
        for theirs, value in zip(sides, fixed, strict=True):
            reply = value if theirs is None else _their_best(theirs, roll, options, deadline)
            if reply is None:
                return totals if done else None
            row.append(reply)
        totals = [t + weight * r for t, r in zip(totals, row, strict=True)]
    return totals


def _their_best(
    theirs: StepsPosition, roll: tuple[int, int], options: RuleOptions, deadline: float
) -> float | None:
    """Our value after the opponent's best reply to ``roll`` by :func:`evaluate` (minus theirs);
    None when the deadline passes first."""
    if time.perf_counter() > deadline:
        return None
    best = None
    for i, reply in enumerate(game_plays(theirs, roll, options)):
        if i % 8 == 7 and time.perf_counter() > deadline:
            return None
        value = _value(reply)
        if best is None or value > best:
            best = value
    assert best is not None
    return -best


def steps_player(level: str, options: RuleOptions | None = None, seed: int = 0) -> ComputerPlayer:
    """The computer player of a Plakoto, Fevga, Long Nardy or tavli match by level (``easy``,
    ``medium``, ``strong``; strong is medium where numpy is missing); each also plays Portes,
    for the tavli rotation. ``options`` are the match's named rules (``Match.options``)."""
    rules = options or RuleOptions()
    if level == "strong" and STRONG_READY:
        from computer.steps_net import StepsStrongPlayer

        return StepsStrongPlayer(options=rules, seed=seed)
    if level in ("medium", "strong"):
        return StepsMediumPlayer(options=rules, seed=seed)
    if level == "easy":
        return StepsEasyPlayer(options=rules, seed=seed)
    raise ValueError(f"unknown tavli level {level!r}; choose from easy, medium, strong")
