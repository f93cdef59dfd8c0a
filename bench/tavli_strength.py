"""Strength benchmark for Plakoto, Fevga and Long Nardy: the easy level against random play.

    python bench/tavli_strength.py --games 200

Single games with default options; game ``i`` uses ``random.Random(seed * 1_000_003 + i)`` for
its dice and the players alternate who starts (the starter plays a random first roll; there is
no opening roll in this bench). A drawn Plakoto counts half. Output lines are exactly::

    tavli_strength[<game>]: easy vs random games=<n> easy_win_rate=<x> points_per_game=<x>
    think[<game>]: easy median_ms=<x> p95_ms=<x>
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from computer.tavli import TavliEasyPlayer
from rules.games import game_outcome, legal_plays, start_position
from rules.tavliboard import Variant


def play_game(variant: Variant, seed: int, easy_first: bool, thinks: list[float]) -> float:
    """Points for the easy player (negative when it loses; 0 for a draw)."""
    rng = random.Random(seed)
    easy = TavliEasyPlayer(seed=seed)
    position = start_position(variant)
    easy_turn = easy_first
    while True:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if easy_turn:
            t0 = time.perf_counter()
            play = easy.choose_play(position, dice)
            thinks.append((time.perf_counter() - t0) * 1000)
        else:
            play = rng.choice(legal_plays(position, dice))
        outcome = game_outcome(play.position)
        if outcome is not None:
            if outcome.mover_wins is None:
                return 0.0
            won = outcome.mover_wins == easy_turn
            return outcome.points if won else -outcome.points
        position = play.position.flip()
        easy_turn = not easy_turn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for variant in (Variant.PLAKOTO, Variant.FEVGA, Variant.NARDY):
        thinks: list[float] = []
        points = [play_game(variant, args.seed * 1_000_003 + i, i % 2 == 0, thinks)
                  for i in range(args.games)]
        wins = sum(1.0 if p > 0 else 0.5 if p == 0 else 0.0 for p in points)
        print(f"tavli_strength[{variant}]: easy vs random games={args.games} "
              f"easy_win_rate={wins / args.games:.3f} "
              f"points_per_game={sum(points) / args.games:.3f}")
        p95 = sorted(thinks)[int(0.95 * len(thinks))]
        print(f"think[{variant}]: easy median_ms={statistics.median(thinks):.2f} p95_ms={p95:.2f}",
              flush=True)


if __name__ == "__main__":
    main()
