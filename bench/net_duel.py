"""Two nets of one game against each other (Plakoto, Fevga, Long Nardy): which to ship.

    python bench/net_duel.py fevga /tmp/fevga.10000.npz computer/nets/fevga.npz --games 400

Each side plays greedily by its own net at 1-ply (every legal play judged, the best taken: no
look-ahead and no deadline, so the result depends only on the nets and the dice and costs a few
milliseconds a decision, a twentieth of the strong level's search). Games come in pairs: games
``2k`` and ``2k + 1`` start from the same dice seed ``random.Random(seed * 1_000_003 + k)``, A
starting the first and B the second (the starter plays a random first roll). A drawn Plakoto
counts half. Output::

    duel[<game>]: <A> vs <B> games=<n> a_win_rate=<x> ci95=<lo>-<hi> a_points_per_game=<x>

(``--progress K``: the same line, ``progress`` for ``duel``, every K games). A net is a path to
an ``.npz`` written by ``python -m computer.train`` (or ``shipped`` for the package's own).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._stats import wilson
from computer.steps_net import StepsNet, after_equities, load_net
from rules.games import game_outcome, legal_plays, start_position
from rules.steps.board import StepsPosition, Variant


def _net(game: Variant, name: str) -> StepsNet:
    if name == "shipped":
        return load_net(game)
    net = StepsNet.from_bytes(Path(name).read_bytes())
    if net.variant != game:
        raise SystemExit(f"{name} is a {net.variant} net, not {game}")
    return net


def play_game(game: Variant, nets: tuple[StepsNet, StepsNet], seed: int, a_first: bool) -> float:
    """Points for net A (negative when it loses; 0 for a draw)."""
    rng = random.Random(seed)
    position = start_position(game)
    assert isinstance(position, StepsPosition)
    side = 0 if a_first else 1
    while True:
        plays = legal_plays(position, (rng.randint(1, 6), rng.randint(1, 6)))
        afters = [p.position for p in plays]
        values = after_equities(afters, nets[side])  # type: ignore[arg-type]
        play = plays[int(np.argmax(values))]
        outcome = game_outcome(play.position)
        if outcome is not None:
            if outcome.mover_wins is None:
                return 0.0
            return outcome.points if outcome.mover_wins == (side == 0) else -outcome.points
        position = play.position.flip()
        side = 1 - side


def _line(tag: str, game: Variant, names: tuple[str, str], points: list[float]) -> str:
    n = len(points)
    wins = sum(1.0 if p > 0 else 0.5 if p == 0 else 0.0 for p in points)
    lo, hi = wilson(round(wins), n)
    return (f"{tag}[{game}]: {names[0]} vs {names[1]} games={n} a_win_rate={wins / n:.3f} "
            f"ci95={lo:.3f}-{hi:.3f} a_points_per_game={sum(points) / n:.3f}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=["plakoto", "fevga", "nardy"])
    parser.add_argument("a", help="net A: an .npz path, or 'shipped'")
    parser.add_argument("b", help="net B: an .npz path, or 'shipped'")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--progress", type=int, default=0, metavar="K")
    args = parser.parse_args(argv)
    game = Variant(args.game)
    names = (args.a, args.b)
    nets = (_net(game, args.a), _net(game, args.b))
    points: list[float] = []
    for i in range(args.games):
        points.append(play_game(game, nets, args.seed * 1_000_003 + i // 2, i % 2 == 0))
        if args.progress and len(points) % args.progress == 0 and len(points) < args.games:
            print(_line("progress", game, names, points), flush=True)
    print(_line("duel", game, names, points), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
