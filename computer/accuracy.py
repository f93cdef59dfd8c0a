"""The accuracy figure of a finished match: each player's equity lost per decision.

A **decision** is a turn with a real choice (more than one legal play). On each, the equity
lost is the best play's equity minus that of the play made, both by the game's strongest
evaluator (:func:`computer.evaluators.evaluator_at`), in points. A player's figure:

* ``error_rate`` = 1000 x equity lost / decisions: thousandths of a point lost per decision
  (GNU Backgammon's "millipoints"; 2-5 is "world class", 5-8 "expert");
* ``performance_rating`` = 500 x equity lost / decisions (eXtreme Gammon's scale, as Backgammon
  Galaxy shows it: lower is better, 0 is a perfect match).

A match whose every play was the best scores 0 on both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from computer.evaluators import evaluator_at
from computer.review import Decision
from rules.steps.options import RuleOptions


@dataclass(frozen=True, slots=True)
class Accuracy:
    """One player's figure over a match."""

    seat: int
    decisions: int
    equity_lost: float
    """Summed over the decisions, in points."""

    @property
    def error_rate(self) -> float:
        """Thousandths of a point lost per decision (0 with no decision)."""
        return 1000.0 * self.equity_lost / self.decisions if self.decisions else 0.0

    @property
    def performance_rating(self) -> float:
        """500 x equity lost / decisions."""
        return 500.0 * self.equity_lost / self.decisions if self.decisions else 0.0


@dataclass(frozen=True, slots=True)
class MatchAccuracy:
    players: tuple[Accuracy, Accuracy]
    evaluator: str
    """What judged it ("GNU Backgammon 1-ply"; a rotation's evaluators joined by " + ")."""


def equity_lost(decision: Decision, options: RuleOptions | None = None) -> float | None:
    """Equity the play made lost against the best (``None``: no choice on that turn)."""
    judge = evaluator_at(decision.position)
    judged = judge.equities_of_plays(decision.position, decision.dice, decision.context, options)
    if len(judged) <= 1:
        return None
    made = next((e for p, e in judged if p.position == decision.play.position), None)
    if made is None:
        raise ValueError("the play made is not a legal play")
    return max(0.0, judged[0][1] - made)


def match_accuracy(decisions: Sequence[Decision],
                   options: RuleOptions | None = None) -> MatchAccuracy:
    """Both players' figures over a match's turns (forced ones are not decisions)."""
    return tally(decisions, [equity_lost(d, options) for d in decisions])


def tally(decisions: Sequence[Decision], losses: Sequence[float | None]) -> MatchAccuracy:
    """The figures from each turn's loss (``None``: no choice), judged one by one (the bot
    judges each turn in the engine's worker apart, so the computer's moves go in between)."""
    counted = [0, 0]
    lost = [0.0, 0.0]
    names: list[str] = []
    for decision, loss in zip(decisions, losses, strict=True):
        name = evaluator_at(decision.position).name
        if name not in names:
            names.append(name)
        if loss is not None:
            counted[decision.player] += 1
            lost[decision.player] += loss
    return MatchAccuracy((Accuracy(0, counted[0], lost[0]), Accuracy(1, counted[1], lost[1])),
                         " + ".join(names))
