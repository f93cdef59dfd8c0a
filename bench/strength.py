"""Strength benchmark: seeded computer-against-computer games.

    python bench/strength.py                      # the issue's set, 200 games per pairing
    python bench/strength.py --games 1000         # the full run
    python bench/strength.py strong gnubg0 --games 400 --jobs 2
    python bench/strength.py --tavli --games 200 --jobs 2     # Plakoto, Fevga and Long Nardy
    python bench/strength.py --tavli fevga,nardy --games 40   # some of them

``--tavli`` plays the other games instead (:mod:`bench.steps_strength`): for each game, easy
against random, medium against random and medium against easy, with the same seeding, Wilson
interval and think-time percentiles (p50, p95 and max of medium, whose deadline is 200 ms).

Games are single games scored 1 / 2 / 3 (gammon 2, backgammon 3; ``--no-triple`` makes it 2),
played in the single-game ("money", cubeless) context; the players alternate who makes the
opening move; game ``i`` uses ``random.Random(seed * 1_000_003 + i)`` for its dice and the
players' noise seeds are derived from ``seed``. ``a_points_per_game`` is A's points won minus
points lost, per game. ``ci95`` is the Wilson score interval of A's win rate. Thinking time is
measured per decision with a real choice (more than one legal play), in this process.

Output lines are exactly::

    strength: <A> vs <B> games=<n> a_win_rate=<x> ci95=<lo>-<hi> a_points_per_game=<x>
    think: <level> median_ms=<x> p95_ms=<x>

Reference figures: ``python bench/strength.py --games 1000 --jobs 2`` (seed 1, single games
scored 1/2/3, the project's 2-core machine shared with other work; 10 min 17 s for the 5,000
games)::

    strength: strong vs random games=1000 a_win_rate=1.000 ci95=0.996-1.000 a_points_per_game=2.751
    strength: strong vs medium games=1000 a_win_rate=0.609 ci95=0.578-0.639 a_points_per_game=0.328
    strength: medium vs easy games=1000 a_win_rate=0.705 ci95=0.676-0.732 a_points_per_game=0.809
    strength: easy vs random games=1000 a_win_rate=0.999 ci95=0.994-1.000 a_points_per_game=2.584
    strength: strong vs gnubg0 games=1000 a_win_rate=0.544 ci95=0.513-0.575 a_points_per_game=0.109
    think: strong median_ms=4.2 p95_ms=34.8
    think: random median_ms=0.1 p95_ms=0.5
    think: medium median_ms=0.3 p95_ms=4.7
    think: easy median_ms=3.5 p95_ms=34.9
    think: gnubg0 median_ms=0.1 p95_ms=0.7

Targets: strong >= 95 % against random; each level above the one below with the 95 % interval
clear of 50 %; strong >= 45 % against gnubg 0-ply; thinking <= 200 ms (p95 <= 35 ms at every
level above, measured with two benchmark processes running at once).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._stats import percentile, wilson
from computer.context import MatchContext
from computer.players import BENCH_PLAYERS, make_player
from computer.selfplay import play_game

DEFAULT_PAIRS = (
    ("strong", "random"),
    ("strong", "medium"),
    ("medium", "easy"),
    ("easy", "random"),
    ("strong", "gnubg0"),
)


def _run(
    a: str, b: str, indices: Sequence[int], seed: int, no_triple: bool
) -> tuple[int, int, list[float], list[float]]:
    """Play games ``indices``; returns (A wins, A net points, A think times, B think times)."""
    players = (make_player(a, seed * 2 + 1), make_player(b, seed * 2 + 2))
    context = MatchContext(no_triple=no_triple)
    wins = 0
    points = 0
    think: tuple[list[float], list[float]] = ([], [])
    for i in indices:
        rng = random.Random(seed * 1_000_003 + i)
        record = play_game(players, rng, first=i % 2, context=context)
        if record.winner == 0:
            wins += 1
            points += record.points
        else:
            points -= record.points
        think[0].extend(record.think_seconds[0])
        think[1].extend(record.think_seconds[1])
    return wins, points, think[0], think[1]


def run_pair(
    a: str, b: str, games: int, seed: int, jobs: int, no_triple: bool
) -> tuple[int, int, list[float], list[float]]:
    if jobs <= 1:
        return _run(a, b, range(games), seed, no_triple)
    chunks = [list(range(j, games, jobs)) for j in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        parts = list(pool.map(_run, [a] * jobs, [b] * jobs, chunks, [seed] * jobs,
                              [no_triple] * jobs))
    wins = sum(p[0] for p in parts)
    points = sum(p[1] for p in parts)
    return wins, points, [t for p in parts for t in p[2]], [t for p in parts for t in p[3]]


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if any(a == "--tavli" or a.startswith("--tavli=") for a in args_list):
        from bench.steps_strength import main as tavli_main

        return tavli_main(args_list)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", nargs="?", choices=BENCH_PLAYERS, help="player A")
    parser.add_argument("b", nargs="?", choices=BENCH_PLAYERS, help="player B")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--no-triple", action="store_true")
    args = parser.parse_args(argv)
    if (args.a is None) != (args.b is None):
        parser.error("give two players, or none for the default set")
    pairs = [(args.a, args.b)] if args.a else list(DEFAULT_PAIRS)
    think: dict[str, list[float]] = {}
    for a, b in pairs:
        wins, points, think_a, think_b = run_pair(
            a, b, args.games, args.seed, args.jobs, args.no_triple
        )
        lo, hi = wilson(wins, args.games)
        print(
            f"strength: {a} vs {b} games={args.games} a_win_rate={wins / args.games:.3f} "
            f"ci95={lo:.3f}-{hi:.3f} a_points_per_game={points / args.games:.3f}",
            flush=True,
        )
        think.setdefault(a, []).extend(think_a)
        think.setdefault(b, []).extend(think_b)
    for level, times in think.items():
        if not times:
            continue
        print(
            f"think: {level} median_ms={statistics.median(times) * 1000:.1f} "
            f"p95_ms={percentile(times, 0.95) * 1000:.1f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
