"""Strength benchmark for Plakoto, Fevga and Long Nardy: the levels against random play and
against each other.

    python bench/strength.py --tavli --games 1000 --jobs 2     # strong vs medium, the same as
    python bench/steps_strength.py --games 1000 --jobs 2
    python bench/steps_strength.py medium easy --tavli fevga,nardy --games 40 --jobs 2

Without two players it plays strong against medium in each game and also prints::

    strength[<game>]: strong_vs_medium=<win rate> ci95=<lo>-<hi> games=<n> think_p95_ms=<x>

(``think_p95_ms``: strong's wall clock, as below). ``--progress K`` (with ``--jobs 1``) also
prints the figures so far every K games, so that a run stopped early still reports::

    progress[<game>]: <A> vs <B> games=<k> a_win_rate=<x> ci95=<lo>-<hi> a_points_per_game=<x>
        a_think_p95_ms=<x> a_cpu_p95_ms=<x>

``--record DIR`` keeps every game played in ``DIR/<game>-<A>-<B>-seed<S>.jsonl``
(:mod:`bench._strength_record`) and, started again, plays only the games not in it: the 1,000
games of a game, about 85 minutes of two cores, can be gathered over several sessions, and the
figures are those of one uninterrupted run. A record of other code (the ``computer`` and
``rules`` sources, the game's net) is refused. ``bench/results/`` holds the reference runs'
records; rerun the same command to print their figures at once.

Single games with default options; game ``i`` uses ``random.Random(seed * 1_000_003 + i)`` for
its dice and the players alternate who starts (the starter plays a random first roll; there is
no opening roll in this bench). A drawn Plakoto counts half. Thinking time is per decision with a
real choice (more than one legal play). Output lines are exactly::

    steps_strength[<game>]: <A> vs <B> games=<n> a_win_rate=<x> ci95=<lo>-<hi> a_points_per_game=<x>
    think[<game>]: <level> p50_ms=<x> p95_ms=<x> max_ms=<x> cpu_p95_ms=<x> cpu_max_ms=<x>
        decisions=<n>

``p50/p95/max`` are wall clock, what a player waits; ``cpu_`` the thread's CPU time, what the
search itself cost (on a shared machine the two differ by the other processes' turns).

Strong against medium: ``python bench/strength.py --tavli <game> --games 1000 --jobs 1 --seed 1
--progress 5``, the three games at once on the shared 2-core machine (load average 11-21),
stopped after 230-250 games for lack of time (the last ``progress`` lines)::

    progress[plakoto]: strong vs medium games=230 a_win_rate=0.648 ci95=0.584-0.707
        a_points_per_game=0.552 a_think_p95_ms=184.0 a_cpu_p95_ms=65.9
    progress[fevga]: strong vs medium games=240 a_win_rate=0.617 ci95=0.554-0.676
        a_points_per_game=0.504 a_think_p95_ms=183.3 a_cpu_p95_ms=60.8
    progress[nardy]: strong vs medium games=250 a_win_rate=0.768 ci95=0.712-0.816
        a_points_per_game=1.084 a_think_p95_ms=175.9 a_cpu_p95_ms=57.2

The 12,000-game Plakoto net, ``python bench/strength.py --tavli plakoto --games 1000 --jobs 2
--seed 1 --progress 25 --record bench/results`` (2026-12-03, 09:53-11:20 UTC, the 2-core
machine running only this at first, then test runs at ``nice -n 10`` beside it)::

    strength[plakoto]: strong_vs_medium=0.707 ci95=0.678-0.734 games=1000 think_p95_ms=142.2
    think[plakoto]: strong p50_ms=121.95 p95_ms=142.24 max_ms=361.12 cpu_p95_ms=90.08
        cpu_max_ms=225.46 decisions=40306

Target: the interval's lower end >= 0.60 over 1,000 games in each game, think p95 <= 200 ms.
(Those are the first training's Plakoto and Fevga nets; the 12,000-game nets' figures are in
docs/computer.md, "The strong level against medium".)

Reference figures: ``nice python bench/strength.py --tavli --games 200 --jobs 2`` (seed 1,
default options, medium at 2-ply, six candidates within 12 pips, 150 ms deadline; 34 minutes on
the project's 2-core machine shared with four other jobs, load average 3.5-8.5)::

    steps_strength[plakoto]: easy vs random games=200 a_win_rate=0.985 ci95=0.957-0.995
        a_points_per_game=1.935
    steps_strength[plakoto]: medium vs random games=200 a_win_rate=1.000 ci95=0.981-1.000
        a_points_per_game=1.965
    steps_strength[plakoto]: medium vs easy games=200 a_win_rate=0.575 ci95=0.506-0.641
        a_points_per_game=0.335
    think[plakoto]: easy p50_ms=0.62 p95_ms=9.09 max_ms=751.38 cpu_p95_ms=3.65 cpu_max_ms=50.41
        decisions=12921
    think[plakoto]: medium p50_ms=37.85 p95_ms=158.31 max_ms=938.63 cpu_p95_ms=87.88
        cpu_max_ms=153.10 decisions=13159
    steps_strength[fevga]: easy vs random games=200 a_win_rate=0.925 ci95=0.880-0.954
        a_points_per_game=1.415
    steps_strength[fevga]: medium vs random games=200 a_win_rate=0.980 ci95=0.950-0.992
        a_points_per_game=1.730
    steps_strength[fevga]: medium vs easy games=200 a_win_rate=0.665 ci95=0.597-0.727
        a_points_per_game=0.605
    think[fevga]: easy p50_ms=1.19 p95_ms=32.04 max_ms=1273.51 cpu_p95_ms=4.16 cpu_max_ms=51.91
        decisions=15753
    think[fevga]: medium p50_ms=36.36 p95_ms=159.22 max_ms=1196.30 cpu_p95_ms=145.15
        cpu_max_ms=158.48 decisions=16045
    steps_strength[nardy]: easy vs random games=200 a_win_rate=0.930 ci95=0.886-0.958
        a_points_per_game=1.510
    steps_strength[nardy]: medium vs random games=200 a_win_rate=0.990 ci95=0.964-0.997
        a_points_per_game=1.735
    steps_strength[nardy]: medium vs easy games=200 a_win_rate=0.645 ci95=0.577-0.708
        a_points_per_game=0.490
    think[nardy]: easy p50_ms=1.06 p95_ms=17.29 max_ms=876.92 cpu_p95_ms=3.64 cpu_max_ms=49.26
        decisions=15807
    think[nardy]: medium p50_ms=33.57 p95_ms=156.13 max_ms=1075.49 cpu_p95_ms=110.00
        cpu_max_ms=153.18 decisions=16166

Targets: medium >= 90 % against random in each game; medium above easy with the interval clear
of 50 % (Plakoto, at 57.5 %, is the one below 60 %). The search's own cost stays within the
deadline (medium's CPU time at most 153-158 ms); the wall-clock maxima of 0.9-1.2 s are the
machine's stalls, not the search: the easy level, which does not search (CPU at most 52 ms),
had its own 0.75-1.27 s decisions in the same run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._stats import percentile, wilson
from bench._strength_record import Game, Record, Think
from computer.players import ComputerPlayer
from computer.steps_medium import steps_player
from rules.games import game_outcome, legal_plays, start_position
from rules.steps.board import Variant

GAMES = (Variant.PLAKOTO, Variant.FEVGA, Variant.NARDY)
DEFAULT_PAIRS = (("strong", "medium"),)
PLAYERS = ("random", "easy", "medium", "strong")


def _player(level: str, seed: int) -> ComputerPlayer | None:
    return None if level == "random" else steps_player(level, seed=seed)


def play_game(
    variant: Variant, levels: tuple[str, str], seed: int, a_first: bool,
    thinks: tuple[list[Think], list[Think]],
) -> float:
    """Points for player A (negative when it loses; 0 for a draw)."""
    rng = random.Random(seed)
    players = (_player(levels[0], seed), _player(levels[1], seed + 1))
    position = start_position(variant)
    side = 0 if a_first else 1
    while True:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        player = players[side]
        if player is None:
            play = rng.choice(legal_plays(position, dice))
        else:
            t0, c0 = time.perf_counter(), time.thread_time()
            play = player.choose_play(position, dice)
            if len(legal_plays(position, dice)) > 1:
                thinks[side].append(((time.perf_counter() - t0) * 1000,
                                     (time.thread_time() - c0) * 1000))
        outcome = game_outcome(play.position)
        if outcome is not None:
            if outcome.mover_wins is None:
                return 0.0
            return outcome.points if outcome.mover_wins == (side == 0) else -outcome.points
        position = play.position.flip()
        side = 1 - side


def _one(variant: Variant, levels: tuple[str, str], seed: int, i: int) -> Game:
    """Game ``i`` of a pairing: A's points, and both sides' think times."""
    thinks: tuple[list[Think], list[Think]] = ([], [])
    points = play_game(variant, levels, seed * 1_000_003 + i, i % 2 == 0, thinks)
    return Game(i, points, thinks[0], thinks[1])


def _progress(variant: Variant, levels: tuple[str, str], games: Sequence[Game]) -> None:
    """The figures so far (``--progress``): a long run cut short still says what it found."""
    n = len(games)
    points = [g.points for g in games]
    think_a = [t for g in games for t in g.think_a]
    wins = sum(1.0 if p > 0 else 0.5 if p == 0 else 0.0 for p in points)
    lo, hi = wilson(round(wins), n)
    wall = percentile([w for w, _ in think_a], 0.95) if think_a else 0.0
    cpu = percentile([c for _, c in think_a], 0.95) if think_a else 0.0
    print(f"progress[{variant}]: {levels[0]} vs {levels[1]} games={n} "
          f"a_win_rate={wins / n:.3f} ci95={lo:.3f}-{hi:.3f} "
          f"a_points_per_game={sum(points) / n:.3f} a_think_p95_ms={wall:.1f} "
          f"a_cpu_p95_ms={cpu:.1f}", flush=True)


def run_pair(
    variant: Variant, levels: tuple[str, str], games: int, seed: int, jobs: int,
    progress: int = 0, record: Path | None = None,
) -> list[Game]:
    """Games ``0 .. games-1``; with ``record``, those already in it are read, not played, and
    each game played is added to it as soon as it ends."""
    book = Record.open(record, variant, levels, seed) if record else None
    done = {g.index: g for g in book.games if g.index < games} if book else {}
    if done:
        print(f"record[{variant}]: {len(done)} of {games} games read from {record}", flush=True)
    todo = [i for i in range(games) if i not in done]

    def finished(game: Game) -> None:
        done[game.index] = game
        if book:
            book.add(game)
        if progress and len(done) % progress == 0:
            _progress(variant, levels, sorted(done.values(), key=lambda g: g.index))

    if jobs <= 1:
        for i in todo:
            finished(_one(variant, levels, seed, i))
    else:
        with ProcessPoolExecutor(jobs) as pool:
            futures = [pool.submit(_one, variant, levels, seed, i) for i in todo]
            for future in as_completed(futures):
                finished(future.result())
    return [done[i] for i in range(games)]


def report(variant: Variant, pairs: Sequence[tuple[str, str]], games: int, seed: int,
           jobs: int, progress: int = 0, record_dir: Path | None = None) -> None:
    think: dict[str, list[Think]] = {}
    for a, b in pairs:
        record = record_dir / f"{variant}-{a}-{b}-seed{seed}.jsonl" if record_dir else None
        played = run_pair(variant, (a, b), games, seed, jobs, progress, record)
        points = [g.points for g in played]
        think_a = [t for g in played for t in g.think_a]
        wins = sum(1.0 if p > 0 else 0.5 if p == 0 else 0.0 for p in points)
        lo, hi = wilson(round(wins), games)
        print(f"steps_strength[{variant}]: {a} vs {b} games={games} "
              f"a_win_rate={wins / games:.3f} ci95={lo:.3f}-{hi:.3f} "
              f"a_points_per_game={sum(points) / games:.3f}", flush=True)
        if (a, b) == ("strong", "medium"):
            p95 = percentile([wall for wall, _ in think_a], 0.95) if think_a else 0.0
            print(f"strength[{variant}]: strong_vs_medium={wins / games:.3f} "
                  f"ci95={lo:.3f}-{hi:.3f} games={games} think_p95_ms={p95:.1f}", flush=True)
        think.setdefault(a, []).extend(think_a)
        think.setdefault(b, []).extend(t for g in played for t in g.think_b)
    for level, pairs_ms in think.items():
        if pairs_ms:
            times = [wall for wall, _ in pairs_ms]
            cpu = [c for _, c in pairs_ms]
            print(f"think[{variant}]: {level} p50_ms={statistics.median(times):.2f} "
                  f"p95_ms={percentile(times, 0.95):.2f} max_ms={max(times):.2f} "
                  f"cpu_p95_ms={percentile(cpu, 0.95):.2f} cpu_max_ms={max(cpu):.2f} "
                  f"decisions={len(times)}", flush=True)


def _variants(text: str) -> tuple[Variant, ...]:
    if text == "all":
        return GAMES
    try:
        chosen = tuple(Variant(name.strip()) for name in text.split(","))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"games are {', '.join(GAMES)}: {exc}") from exc
    if Variant.PORTES in chosen:
        raise argparse.ArgumentTypeError("Portes is bench/strength.py without --tavli")
    return chosen


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", nargs="?", choices=PLAYERS, help="player A")
    parser.add_argument("b", nargs="?", choices=PLAYERS, help="player B")
    parser.add_argument("--tavli", nargs="?", const="all", default="all", type=_variants,
                        help="the games, comma-separated (plakoto,fevga,nardy); all by default")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--progress", type=int, default=0, metavar="K",
                        help="print the figures so far every K games")
    parser.add_argument("--record", type=Path, default=None, metavar="DIR",
                        help="keep every game in DIR/<game>-<A>-<B>-seed<S>.jsonl and resume "
                             "from it (bench/results/ holds the reference runs)")
    args = parser.parse_args(argv)
    if (args.a is None) != (args.b is None):
        parser.error("give two players, or none for the default set")
    pairs = [(args.a, args.b)] if args.a else list(DEFAULT_PAIRS)
    for variant in args.tavli:
        report(variant, pairs, args.games, args.seed, args.jobs, args.progress,
               args.record)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
