"""Train a game's value net by self-play TD(λ), numpy only.

    python -m computer.train plakoto --games 20000 --seed 1
    python -m computer.train fevga --games 20000 --seed 1 --out /tmp/fevga.npz

First the net learns the medium level's judgement: for ``--teacher-games`` games (320) the plays
are chosen by the hand evaluation (:mod:`computer.steps_eval`, 1-ply) and every candidate of
every roll is a training example, its target the evaluation turned into a chance of winning.
Then the net (:class:`computer.steps_net.StepsNet`) plays both sides, greedily by its own 1-ply
equity, sixteen games at a time in step (all the plays of all their rolls judged in one matrix
product). After each game, every position a
side played into is moved towards its λ-return: the net's judgement of the next position (the
other side's, turned round), mixed with the return after it, down to the result of the game
(``--lam``). Steps of Adam over the game's positions in order, :data:`BATCH` at a time, with
cross-entropy on the three outputs; the step size after ``i`` games is ``--lr / (1 + i / 2000)``,
whatever the number of games, so the net written after ``k`` games of a longer run
(``--save-every``) is the net of a run of ``k`` games.

Everything random (the first weights, every die) comes from ``numpy.random.default_rng(seed)``,
so a rerun with the same game, seed and number of games gives the same weights on the same
machine.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from computer.steps_eval import evaluate
from computer.steps_features import Matrix, batch
from computer.steps_net import StepsNet, decided_equity, probabilities_equity
from rules.games import game_outcome, legal_plays, start_position
from rules.steps.board import StepsPosition, Variant
from rules.steps.options import RuleOptions

GAMES = (Variant.PLAKOTO, Variant.FEVGA, Variant.NARDY)
MAX_TURNS = 600
"""A self-play game is cut off (and played again) after this many turns."""
PARALLEL = 16
"""Self-play games played in step."""
BATCH = 16
"""Positions per step of Adam: a game of 90 plays gives six steps, in order."""
TEACHER_GAMES = 320
"""Games played and judged by the hand evaluation first (see :func:`self_play`)."""
WIN_PIPS = 40.0
"""A game point in the hand evaluation's pips (:data:`computer.steps_eval.WIN`)."""


@dataclass
class Adam:
    """Adam's moments for the four weight arrays."""

    m: list[Matrix]
    v: list[Matrix]
    steps: int = 0

    @classmethod
    def for_net(cls, net: StepsNet) -> Adam:
        shapes = [net.w1, net.b1, net.w2, net.b2]
        return cls([np.zeros_like(a) for a in shapes], [np.zeros_like(a) for a in shapes])

    def step(self, net: StepsNet, grads: list[Matrix], lr: float) -> StepsNet:
        self.steps += 1
        b1, b2, eps = 0.9, 0.999, 1e-8
        params = [net.w1, net.b1, net.w2, net.b2]
        out = []
        for i, (p, g) in enumerate(zip(params, grads, strict=True)):
            self.m[i] = b1 * self.m[i] + (1 - b1) * g
            self.v[i] = b2 * self.v[i] + (1 - b2) * g * g
            m_hat = self.m[i] / (1 - b1**self.steps)
            v_hat = self.v[i] / (1 - b2**self.steps)
            out.append(p - lr * m_hat / (np.sqrt(v_hat) + eps))
        return replace(net, w1=out[0], b1=out[1], w2=out[2], b2=out[3])


def _terminal(after: StepsPosition) -> Matrix:
    """The result for the side that played: (win, win double, lose double)."""
    outcome = game_outcome(after)
    assert outcome is not None
    if outcome.mover_wins is None:
        return np.array([0.5, 0.0, 0.0])
    double = 1.0 if outcome.points >= 2 else 0.0
    if outcome.mover_wins:
        return np.array([1.0, double, 0.0])
    return np.array([0.0, 0.0, double])


def _turned(y: Matrix) -> Matrix:
    """Probabilities of one side -> the other's (win and lose swap, the doubles swap)."""
    return np.array([1.0 - y[0], y[2], y[1]])


@dataclass
class _Game:
    """A self-play game under way: the position to play, and what the sides played into."""

    position: StepsPosition
    rows: list[Matrix] = field(default_factory=list)
    outputs: list[Matrix] = field(default_factory=list)


def _new_game(variant: Variant) -> _Game:
    start = start_position(variant)
    assert isinstance(start, StepsPosition)
    return _Game(start)


def teacher_targets(afters: Sequence[StepsPosition]) -> Matrix:
    """The hand evaluation's judgement (:func:`computer.steps_eval.evaluate`, in pips) as the
    net's three outputs: winning ``(1 + tanh(pips / 40)) / 2`` (40 pips a game point, as there),
    no doubles."""
    pips = np.array([evaluate(a) for a in afters])
    win = (1 + np.tanh(pips / WIN_PIPS)) / 2
    return np.stack([win, np.zeros_like(win), np.zeros_like(win)], axis=1)


def self_play(net_of: Callable[[], StepsNet], variant: Variant, rng: np.random.Generator,
              games: int, parallel: int = PARALLEL, options: RuleOptions | None = None,
              teacher_games: int = 0, fit: Callable[[Matrix, Matrix], None] | None = None,
              ) -> Iterator[tuple[Matrix, Matrix, Matrix]]:
    """``games`` games, the net against itself, ``parallel`` at a time in step (every game's
    candidates judged in one matrix product): for each game as it ends, the inputs of each
    position played into, the net's outputs for them, and the result for the side of the last
    play. ``net_of()`` is the net to play with now (training changes it as games end); games cut
    off at :data:`MAX_TURNS` are played again. A game that ends frees its slot for a new one
    whatever ``games`` is, so the first ``k`` games are the same in a longer run.

    Until ``teacher_games`` games have ended the plays are chosen by the hand evaluation
    instead, and ``fit(inputs, targets)`` is given every candidate of the step with
    :func:`teacher_targets` (the net learns the medium level's judgement first)."""
    under_way = [_new_game(variant) for _ in range(parallel)]
    ended = 0
    while ended < games:
        net = net_of()
        dice = rng.integers(1, 7, size=(len(under_way), 2))
        afters: list[StepsPosition] = []
        bounds = []
        for g, roll in zip(under_way, dice, strict=True):
            start = len(afters)
            afters.extend(p.position for p in legal_plays(  # type: ignore[misc]
                g.position, (int(roll[0]), int(roll[1])), options))
            bounds.append((start, len(afters)))
        decided = [decided_equity(a) for a in afters]
        open_rows = [i for i, d in enumerate(decided) if d is None]
        values = np.array([d if d is not None else 0.0 for d in decided])
        x = batch([afters[i] for i in open_rows]) if open_rows else np.zeros((0, 0))
        probs = net.forward(x) if open_rows else np.zeros((0, 3))
        if ended < teacher_games and open_rows:
            taught = teacher_targets([afters[i] for i in open_rows])
            values[open_rows] = 2 * taught[:, 0] - 1
            if fit is not None:
                fit(x, taught)
        else:
            values[open_rows] = probabilities_equity(probs)
        where = np.full(len(afters), -1)
        where[open_rows] = np.arange(len(open_rows))
        for slot, (lo, hi) in enumerate(bounds):
            g = under_way[slot]
            best = lo + int(np.argmax(values[lo:hi]))
            if decided[best] is not None:
                if ended < games:
                    yield np.array(g.rows), np.array(g.outputs), _terminal(afters[best])
                ended += 1
            elif len(g.rows) < MAX_TURNS:
                g.rows.append(x[where[best]])
                g.outputs.append(probs[where[best]])
                g.position = afters[best].flip()
                continue
            under_way[slot] = _new_game(variant)


def td_targets(outputs: Matrix, result: Matrix, lam: float) -> Matrix:
    """λ-returns of the positions of a game (each from the side that played into it)."""
    n = len(outputs)
    targets = np.zeros((n, 3))
    g = result  # the return of the position after, from its side
    v = result
    for t in range(n - 1, -1, -1):
        g = _turned((1 - lam) * v + lam * g)
        targets[t] = g
        v = outputs[t]
    return targets


def gradients(net: StepsNet, x: Matrix, targets: Matrix) -> list[Matrix]:
    """Cross-entropy gradients over a batch (mean over rows)."""
    h = net.hidden(x)
    p = 1 / (1 + np.exp(-(h @ net.w2 + net.b2)))
    d_out = (p - targets) / len(x)
    d_hidden = (d_out @ net.w2.T) * h * (1 - h)
    return [x.T @ d_hidden, d_hidden.sum(axis=0), h.T @ d_out, d_out.sum(axis=0)]


def train(variant: Variant | str, games: int, seed: int, lam: float = 0.7, lr: float = 0.003,
          log_every: int = 0, save: Callable[[StepsNet, int], None] | None = None,
          save_every: int = 0, parallel: int = PARALLEL,
          teacher_games: int = TEACHER_GAMES) -> StepsNet:
    """A net trained by ``games`` self-play games from ``seed`` (the first ``teacher_games``
    played and judged by the hand evaluation, see :func:`self_play`); ``save(net, games)`` is
    called every ``save_every`` games."""
    game = Variant(variant)
    rng = np.random.default_rng(seed)
    net = StepsNet.fresh(game, rng)
    adam = Adam.for_net(net)
    started = time.perf_counter()
    lengths = 0
    current = [net]  # the net self-play uses, replaced at each step

    def fit(x: Matrix, targets: Matrix) -> None:
        current[0] = adam.step(current[0], gradients(current[0], x, targets), lr)

    for i, (x, outputs, result) in enumerate(self_play(lambda: current[0], game, rng, games,
                                                       parallel, None, teacher_games, fit)):
        lengths += len(x)
        net = current[0]
        if len(x):
            rate = lr / (1 + i / 2000)
            targets = td_targets(outputs, result, lam)
            for lo in range(0, len(x), BATCH):
                net = adam.step(net, gradients(net, x[lo : lo + BATCH], targets[lo : lo + BATCH]),
                                rate)
            current[0] = net
        if log_every and (i + 1) % log_every == 0:
            print(f"train[{game}]: games={i + 1} plies_per_game={lengths / log_every:.1f} "
                  f"seconds={time.perf_counter() - started:.0f}", flush=True)
            lengths = 0
        if save is not None and save_every and (i + 1) % save_every == 0:
            save(net, i + 1)
    return current[0]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=[g.value for g in GAMES])
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lam", type=float, default=0.7, help="TD(λ)'s λ")
    parser.add_argument("--lr", type=float, default=0.003, help="Adam's first step size")
    parser.add_argument("--out", help="where to write the .npz (default: the shipped net)")
    parser.add_argument("--teacher-games", type=int, default=TEACHER_GAMES,
                        help="games first played and judged by the hand evaluation")
    parser.add_argument("--log-every", type=int, default=500)
    parser.add_argument("--save-every", type=int, default=0,
                        help="also write the net every so many games (to --out, with .<games>)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    out = Path(args.out) if args.out else Path(__file__).parent / "nets" / f"{args.game}.npz"
    out.parent.mkdir(parents=True, exist_ok=True)

    def snapshot(net: StepsNet, done: int) -> None:
        net.save(str(out.with_suffix(f".{done}.npz")))
        print(f"train[{args.game}]: snapshot games={done} "
              f"seconds={time.perf_counter() - started:.0f}", flush=True)

    net = train(args.game, args.games, args.seed, args.lam, args.lr, args.log_every,
                snapshot, args.save_every, teacher_games=args.teacher_games)
    net.save(str(out))
    print(f"train[{args.game}]: wrote {out} games={args.games} seed={args.seed} "
          f"seconds={time.perf_counter() - started:.0f}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
