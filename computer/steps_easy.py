"""The easy computer level in Plakoto, Fevga and Long Nardy: each game's strategy as a score.

Like :mod:`computer.heuristic` for Portes, a score of the position *after* a play, from the side
that played it (higher is better, the unit roughly pips). There is no neural net for these games.

* Plakoto: pin (above all the mother, and deep in your home board, where a pinned checker is
  stuck longest), do not leave blots where opposing checkers behind them can land, never get
  pinned, keep a guard on your own start while your mother is there, make points, race.
* Fevga and Long Nardy: race, and block: hold the points right in front of the opponent's
  checkers, in rows, and those that stop the opponent's next roll
  (:func:`computer.steps_eval.blocked_pips`; this took Fevga from 82-87 % to 94 % against random
  play); do not pile checkers up; get checkers off the start.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from computer.context import MONEY, MatchContext
from computer.players import TipsPlayer, decision_rng
from computer.steps_eval import blocked_pips
from rules.common.dice import Dice
from rules.games import game_outcome
from rules.games import legal_plays as game_plays
from rules.portes.board import Position
from rules.portes.legal import Play
from rules.steps.board import StepsPosition, Variant, same_way_point
from rules.steps.options import RuleOptions

_WIN = 1000.0
_PIN = 6.0  # an opposing checker pinned, plus its pips still to go
_PINNED = 8.0  # one of ours pinned
_MOTHER = 60.0
_BLOT = 2.5  # a blot within reach of opposing checkers behind it, per shot-ish
_POINT = 1.0
_RACE = 0.12
_BLOCK = 0.8
_ROW = 1.2
_STACK = 0.3
_MOBILITY = 0.5  # pips their next roll is expected to lose to our points


def _decided(position: StepsPosition) -> float | None:
    outcome = game_outcome(position)
    if outcome is None:
        return None
    if outcome.mover_wins is None:
        return 0.0
    return _WIN * outcome.points if outcome.mover_wins else -_WIN * outcome.points


def plakoto_score(position: StepsPosition) -> float:
    """Plakoto: pins, blots within reach, points, the mother, the race."""
    b, t = position.board, position.pins
    score = -_RACE * position.pips()[0]
    theirs = [p for p in range(1, 25) if b[p] < 0]
    for p in range(1, 25):
        if t[p] == -1:  # theirs pinned under ours: its pips to go are 25 - p
            score += _PIN + 0.3 * (25 - p) + (_MOTHER if p == 1 else 0.0)
        elif t[p] == 1:
            score -= _PINNED + 0.3 * p + (_MOTHER if p == 24 else 0.0)
        if b[p] >= 2:
            score += _POINT * (1.5 if p <= 6 else 1.0)
        elif b[p] == 1 and t[p] == 0:
            # Opposing checkers move up our numbering: those below p may land on it.
            reach = sum(1 for q in theirs if 0 < p - q <= 6) + 0.3 * sum(
                1 for q in theirs if 6 < p - q <= 12
            )
            score -= _BLOT * min(reach, 3.0) * (0.5 + p / 12)
    if b[24] >= 2 and t[1] != -1:
        score += 2.0  # a guard beside the mother while the race is young
    return score


def same_way_score(position: StepsPosition) -> float:
    """Fevga and Long Nardy: the race, blocks in front of their checkers, no piles."""
    b = position.board
    score = -_RACE * position.pips()[0]
    held = [b[same_way_point(q)] > 0 for q in range(25)]  # by their own numbering
    for q in range(1, 25):
        if b[same_way_point(q)] < 0:
            ahead = [held[q - k] for k in range(1, 7) if q - k >= 1]
            score += _BLOCK * sum(ahead)
    run = best = 0
    for q in range(1, 25):
        run = run + 1 if held[q] else 0
        best = max(best, run)
    score += _ROW * min(best, 5)
    for p in range(1, 24):
        if b[p] > 3:
            score -= _STACK * (b[p] - 3)
    score += 0.2 * sum(1 for p in range(1, 25) if b[p] > 0)
    theirs = {same_way_point(p) for p in range(1, 25) if b[p] < 0}
    closed = {same_way_point(p) for p in range(1, 25) if b[p] > 0}
    score += _MOBILITY * blocked_pips(theirs, closed, all(q <= 6 for q in theirs))
    return score


def steps_score(position: StepsPosition) -> float:
    decided = _decided(position)
    if decided is not None:
        return decided
    if position.variant == Variant.PLAKOTO:
        return plakoto_score(position)
    return same_way_score(position)


@dataclass(frozen=True, slots=True)
class StepsEasyPlayer:
    """The easy level in every game: :func:`steps_score` with a little noise in Plakoto, Fevga
    and Long Nardy, and the Portes easy level (:class:`computer.players.TipsPlayer`) in Portes, so
    one player serves a whole tavli match. ``options`` are the match's named rules."""

    options: RuleOptions = field(default_factory=RuleOptions)
    noise: float = 0.5
    seed: int = 0
    name: str = "easy"

    def choose_play(
        self, position: Position, dice: Dice | tuple[int, int], context: MatchContext = MONEY
    ) -> Play:
        if not isinstance(position, StepsPosition):
            return TipsPlayer(seed=self.seed, name=self.name).choose_play(position, dice, context)
        plays = game_plays(position, dice, self.options)
        if len(plays) == 1:
            return plays[0]
        rng = decision_rng(self.seed, position, dice)

        def score(play: Play) -> float:
            assert isinstance(play.position, StepsPosition)
            return steps_score(play.position) + rng.gauss(0.0, self.noise)

        return max(plays, key=score)
