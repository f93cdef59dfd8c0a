"""The strong level in Plakoto, Fevga and Long Nardy: a value net per game, and a search on it.

Each game has a small net (``computer/nets/<game>.npz``, trained by self-play TD(λ) with
:mod:`computer.train`): the inputs of :mod:`computer.steps_features`, one hidden layer of
sigmoids, and three sigmoid outputs for the side that just played: it wins, it wins double (a
gammon, or in Plakoto the other side's mother pinned), it loses double. Its equity in points is
``2 * win - 1 + win_double - lose_double``.

* :func:`after_equities` judges positions after a play (all the plays of a roll in one matrix
  product); decided games get their result, not the net's guess.
* :func:`equity` is a position's worth to the side to move, before it rolls (the net's judgement
  of the position the other side has just left) — the evaluator for hints and reviews.
* :class:`StepsStrongPlayer` plays: every legal play by the net (1-ply), then the best few
  (``candidates`` within ``margin`` points) one roll further: for each of the opponent's 21
  rolls its best reply by the net, averaged over the 36 rolls, within a deadline.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from io import BytesIO

import numpy as np
from numpy.typing import NDArray

from computer.context import MONEY, MatchContext
from computer.players import portes_player
from computer.steps_features import Matrix, batch, feature_count
from rules.common.dice import Dice
from rules.games import game_outcome
from rules.games import legal_plays as game_plays
from rules.portes.board import Position
from rules.portes.legal import Play
from rules.steps.board import StepsPosition, Variant
from rules.steps.options import RuleOptions

HIDDEN = 64
"""Hidden units of every game's net."""


@dataclass(frozen=True)
class StepsNet:
    """A game's value net: ``w1`` (inputs, hidden), ``b1``, ``w2`` (hidden, 3), ``b2``."""

    variant: Variant
    w1: Matrix
    b1: Matrix
    w2: Matrix
    b2: Matrix

    @classmethod
    def fresh(cls, variant: Variant | str, rng: np.random.Generator,
              hidden: int = HIDDEN) -> StepsNet:
        """Small random weights (the start of training)."""
        game = Variant(variant)
        inputs = feature_count(game)
        return cls(game, rng.normal(0, 1 / np.sqrt(inputs), (inputs, hidden)),
                   np.zeros(hidden), rng.normal(0, 1 / np.sqrt(hidden), (hidden, 3)),
                   np.zeros(3))

    def hidden(self, x: Matrix) -> Matrix:
        return 1 / (1 + np.exp(-(x @ self.w1 + self.b1)))

    def forward(self, x: Matrix) -> Matrix:
        """(n, inputs) -> (n, 3): win, win double, lose double for the side that played."""
        return 1 / (1 + np.exp(-(self.hidden(x) @ self.w2 + self.b2)))

    def save(self, path: str) -> None:
        np.savez_compressed(path, variant=np.array(self.variant.value), w1=self.w1, b1=self.b1,
                            w2=self.w2, b2=self.b2)

    @classmethod
    def from_bytes(cls, data: bytes) -> StepsNet:
        with np.load(BytesIO(data)) as f:
            return cls(Variant(str(f["variant"])), f["w1"], f["b1"], f["w2"], f["b2"])


def probabilities_equity(p: Matrix) -> NDArray[np.float64]:
    """Rows of (win, win double, lose double) -> equity in points."""
    return np.asarray(2 * p[:, 0] - 1 + p[:, 1] - p[:, 2], dtype=np.float64)


@functools.cache
def load_net(variant: Variant | str) -> StepsNet:
    """The shipped net of a game, from the package (``computer/nets/<game>.npz``)."""
    game = Variant(variant)
    data = resources.files("computer").joinpath("nets", f"{game.value}.npz").read_bytes()
    return StepsNet.from_bytes(data)


def decided_equity(after: StepsPosition) -> float | None:
    """A decided game's points for the side that played (0 for a draw); None while it goes on."""
    outcome = game_outcome(after)
    if outcome is None:
        return None
    if outcome.mover_wins is None:
        return 0.0
    return float(outcome.points if outcome.mover_wins else -outcome.points)


def after_equities(positions: Sequence[StepsPosition], net: StepsNet | None = None
                   ) -> NDArray[np.float64]:
    """Each position's equity for the side that has just played into it."""
    if not positions:
        return np.zeros(0)
    use = net or load_net(positions[0].variant)
    values = np.zeros(len(positions))
    open_rows = []
    for i, after in enumerate(positions):
        decided = decided_equity(after)
        if decided is None:
            open_rows.append(i)
        else:
            values[i] = decided
    if open_rows:
        x = batch([positions[i] for i in open_rows])
        values[open_rows] = probabilities_equity(use.forward(x))
    return values


def equity(game: Variant | str, position: StepsPosition) -> float:
    """The position's worth in points to the side to move, before it rolls (by the net of
    ``game``): minus the net's equity for the side that has just played into it."""
    net = load_net(game)
    return -float(after_equities([position.flip()], net)[0])


def play_equities(position: StepsPosition, dice: Dice | tuple[int, int],
                  options: RuleOptions | None = None) -> list[tuple[Play, float]]:
    """Every legal play with its 1-ply equity for the side to move, best first."""
    plays = game_plays(position, dice, options)
    values = after_equities([_after(p) for p in plays])
    ranked = sorted(zip(plays, values.tolist(), strict=True), key=lambda pv: -pv[1])
    return ranked


def _after(play: Play) -> StepsPosition:
    after = play.position
    assert isinstance(after, StepsPosition)
    return after


ROLLS = tuple((a, b) for a in range(1, 7) for b in range(a, 7))


@dataclass(frozen=True, slots=True)
class StepsStrongPlayer:
    """The strong level (see the module's text); plays Portes as the Portes strong level."""

    options: RuleOptions = field(default_factory=RuleOptions)
    plies: int = 2
    candidates: int = 4
    margin: float = 0.25
    """Only plays within this many points of the best 1-ply equity go one ply further."""
    budget_ms: float = 120.0
    """The look-ahead's deadline from the start of the decision: what is begun before it (one
    reply's legal plays, or one roll's judgement) still ends within 200 ms on a busy machine."""
    seed: int = 0
    name: str = "strong"

    def choose_play(
        self, position: Position, dice: Dice | tuple[int, int], context: MatchContext = MONEY
    ) -> Play:
        deadline = time.perf_counter() + self.budget_ms / 1000
        if not isinstance(position, StepsPosition):
            return portes_player("strong", self.seed).choose_play(position, dice, context)
        plays = game_plays(position, dice, self.options)
        if len(plays) == 1:
            return plays[0]
        afters = [_after(p) for p in plays]
        net = load_net(position.variant)
        values = after_equities(afters, net)
        order = np.argsort(-values, kind="stable")
        best = int(order[0])
        if self.plies < 2 or decided_equity(afters[best]) is not None:
            return plays[best]
        short = [int(i) for i in order[: self.candidates]
                 if values[i] >= values[best] - self.margin]
        if len(short) == 1:
            return plays[best]
        totals = self._look_ahead([afters[i] for i in short], net, deadline)
        if totals is None:
            return plays[best]
        return plays[short[int(np.argmax(totals))]]

    def _look_ahead(self, afters: list[StepsPosition], net: StepsNet, deadline: float
                    ) -> list[float] | None:
        """Each candidate's equity after the opponent's best reply by the net, over the rolls
        taken (36ths); roll by roll, every candidate in turn, so a deadline leaves them judged on
        the same rolls. None when not one roll was finished."""
        fixed = [decided_equity(after) for after in afters]
        sides = [after.flip() for after in afters]
        totals = [0.0] * len(afters)
        for done, roll in enumerate(_ROLL_ORDER):
            if time.perf_counter() > deadline:
                return totals if done else None
            weight = 1 if roll[0] == roll[1] else 2
            replies: list[StepsPosition] = []
            bounds = []
            for theirs, value in zip(sides, fixed, strict=True):
                start = len(replies)
                if value is None:
                    if time.perf_counter() > deadline:  # this roll unfinished: drop it
                        return totals if done else None
                    replies.extend(_after(p) for p in game_plays(theirs, roll, self.options))
                bounds.append((start, len(replies)))
            values = after_equities(replies, net)
            for i, (lo, hi) in enumerate(bounds):
                value = fixed[i]
                totals[i] += weight * (value if value is not None else -float(values[lo:hi].max()))
        return totals


_ROLL_ORDER = ((6, 5), (1, 1), (4, 2), (3, 3), (6, 1), (5, 3), (2, 2), (6, 4), (3, 1), (5, 5),
               (4, 3), (2, 1), (6, 6), (5, 2), (4, 1), (6, 3), (4, 4), (5, 1), (3, 2), (6, 2),
               (5, 4))
