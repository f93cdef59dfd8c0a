"""Benchmark: our legal_plays against GNU Backgammon's generator, side by side in one run.

Corpus: a fixed, seeded set of self-play positions x all 21 rolls. Prints median and p99
microseconds per position+roll for each, their ratio, and the median of the tap-by-tap
"next moves" query (a fresh TurnInput and its first query, as the bot does for a new turn).
Then each of the other games (Plakoto, Fevga, Long Nardy: seeded self-play positions x all 21
rolls, default options; target median <= 100 us), one line each:
``legal_plays[<game>]: median_us=<x> p99_us=<x> next_moves_median_us=<x> calls=<n>``.
Then a fresh process's first calls, with nothing warmed (one line):
``legal_plays[cold]: import_ms=<x> first_us[<game>]=<x> ... first_medium_ms[<game>]=<x> ...``
(importing ``rules.games``; each game's first ``legal_plays`` of the set-up with 6-5; the first
medium decision, after ``computer`` is imported). Last line: ``legal_plays: median_us=<x>
p99_us=<x> gnubg_median_us=<x> ratio=<x> next_moves_median_us=<x>`` (Portes).

Reference figures (2026-12-01, two shared cores under load): medians Plakoto 84 us, Fevga
80 us, Long Nardy 76 us, Portes 31 us; p99 about 1-2 ms (doubles with many checkers spread
out). Cold line: importing ``rules.games`` about 33 ms, each game's first ``legal_plays``
55-80 us, the same as later calls.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.position import ALL_ROLLS, Position, TurnInput, legal_plays
from rules.selfplay import selfplay_positions, steps_selfplay_positions
from rules.steps.board import Variant
from rules.steps.legal import legal_plays as tavli_plays
from rules.steps.turninput import StepsTurnInput


def to_gnubg(position: Position) -> list[list[int]]:
    b = position.board
    opponent = [max(0, -b[25 - i]) for i in range(1, 25)] + [-b[0]]
    mover = [max(0, b[i]) for i in range(1, 25)] + [b[25]]
    return [opponent, mover]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_game(variant: Variant, positions: int, seed: int) -> str:
    """One game's line: legal_plays per position x roll, and a new turn's first keyboard."""
    corpus = steps_selfplay_positions(variant, positions, seed)
    clock = time.perf_counter_ns
    times: list[float] = []
    taps: list[float] = []
    for position in corpus:
        for roll in ALL_ROLLS:
            t0 = clock()
            tavli_plays(position, roll)
            times.append((clock() - t0) / 1000)
    for i, position in enumerate(corpus[:1000]):
        roll = ALL_ROLLS[i % 21]
        t0 = clock()
        StepsTurnInput(position, roll).next_moves()
        taps.append((clock() - t0) / 1000)
    return (
        f"legal_plays[{variant}]: median_us={statistics.median(times):.1f} "
        f"p99_us={percentile(times, 0.99):.1f} "
        f"next_moves_median_us={statistics.median(taps):.1f} calls={len(times)}"
    )


_COLD = """
import time
t0 = time.perf_counter()
from rules.games import legal_plays, start_position
words = [f"import_ms={(time.perf_counter() - t0) * 1000:.1f}"]
for game in ("plakoto", "fevga", "nardy"):
    position = start_position(game)
    t0 = time.perf_counter()
    legal_plays(position, (6, 5))
    words.append(f"first_us[{game}]={(time.perf_counter() - t0) * 1e6:.0f}")
from computer import steps_player
for game in ("plakoto", "fevga", "nardy"):
    position = start_position(game)
    t0 = time.perf_counter()
    steps_player("medium").choose_play(position, (6, 5))
    words.append(f"first_medium_ms[{game}]={(time.perf_counter() - t0) * 1000:.1f}")
print("legal_plays[cold]: " + " ".join(words))
"""


def cold_start() -> str:
    """The cold line (see the module's text), from a new interpreter."""
    root = str(Path(__file__).resolve().parent.parent)
    code = f"import sys; sys.path.insert(0, {root!r})\n" + _COLD
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    return done.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--tavli-positions", type=int, default=1500,
                        help="self-play positions for each of Plakoto, Fevga, Long Nardy")
    args = parser.parse_args()

    corpus = selfplay_positions(args.positions, args.seed)
    clock = time.perf_counter_ns
    ours: list[float] = []
    theirs: list[float] = []
    taps: list[float] = []
    try:
        import gnubg_nn
    except ImportError:  # pragma: no cover - the bench says so instead of failing
        gnubg_nn = None
    for position in corpus:
        board = to_gnubg(position)
        for roll in ALL_ROLLS:
            t0 = clock()
            legal_plays(position, roll)
            t1 = clock()
            ours.append((t1 - t0) / 1000)
            if gnubg_nn is not None:
                t0 = clock()
                gnubg_nn.moves(board, roll.die1, roll.die2)
                t1 = clock()
                theirs.append((t1 - t0) / 1000)
    for i, position in enumerate(corpus[:1000]):
        roll = ALL_ROLLS[i % 21]
        t0 = clock()
        TurnInput(position, roll).next_moves()
        t1 = clock()
        taps.append((t1 - t0) / 1000)

    median = statistics.median(ours)
    p99 = percentile(ours, 0.99)
    gmedian = statistics.median(theirs) if theirs else float("nan")
    ratio = median / gmedian if theirs else float("nan")
    tap_median = statistics.median(taps)
    print(f"corpus: {len(corpus)} positions x {len(ALL_ROLLS)} rolls = {len(ours)} calls")
    print(f"ours:  median {median:.1f} us  p99 {p99:.1f} us  max {max(ours):.1f} us")
    if theirs:
        print(f"gnubg: median {gmedian:.1f} us  p99 {percentile(theirs, 0.99):.1f} us")
    print(f"next moves (new turn): median {tap_median:.1f} us  p99 {percentile(taps, 0.99):.1f} us")
    for variant in (Variant.PLAKOTO, Variant.FEVGA, Variant.NARDY):
        print(bench_game(variant, args.tavli_positions, args.seed))
    print(cold_start())
    print(
        f"legal_plays: median_us={median:.1f} p99_us={p99:.1f} gnubg_median_us={gmedian:.1f} "
        f"ratio={ratio:.1f} next_moves_median_us={tap_median:.1f}"
    )


if __name__ == "__main__":
    main()
