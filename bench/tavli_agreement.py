"""Benchmark / slow check: the fast Plakoto, Fevga and Long Nardy generator against the brute-force
one of the tests (``oracles/bruteforce_tavli.py``), on at least 100,000 position x roll pairs.

Corpus, per game: seeded self-play positions x all 21 rolls (default options), and crafted
positions that put each special rule to work (pins and mothers, first checker, starting quarter,
blocks, head rule; ``oracles/tavli_crafted.py``) x every option set x two seeded rolls.
Compares the sets of positions the legal plays lead to. Prints one line per game and a last line
``tavli_agreement: pairs=<n> disagreements=<n>``; exits 1 on any disagreement.

Reference figures (2026-12-01): 105,900 pairs (Plakoto 33,300, Fevga 37,300, Long Nardy
35,300), 0 disagreements.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from oracles.bruteforce_tavli import brute_results  # noqa: E402
from oracles.tavli_crafted import OPTION_SETS, crafted_positions  # noqa: E402
from rules.dice import ALL_ROLLS  # noqa: E402
from rules.selfplay import tavli_selfplay_positions  # noqa: E402
from rules.tavliboard import Variant  # noqa: E402
from rules.tavlilegal import legal_plays  # noqa: E402
from rules.tavlioptions import RuleOptions  # noqa: E402


def pairs(variant: Variant, selfplay: int, crafted: int, seed: int):
    for position in tavli_selfplay_positions(variant, selfplay, seed):
        for roll in ALL_ROLLS:
            yield position, (roll.die1, roll.die2), RuleOptions()
    rng = random.Random(seed)
    for position in crafted_positions(variant, crafted, seed):
        for options in OPTION_SETS[variant]:
            for roll in rng.sample(ALL_ROLLS, 2):
                yield position, (roll.die1, roll.die2), options


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--selfplay", type=int, default=1300, help="self-play positions a game")
    parser.add_argument("--crafted", type=int, default=1000, help="crafted positions a game")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    total = bad = 0
    for variant in (Variant.PLAKOTO, Variant.FEVGA, Variant.NARDY):
        start = time.perf_counter()
        n = wrong = 0
        for position, roll, options in pairs(variant, args.selfplay, args.crafted, args.seed):
            fast = {play.position for play in legal_plays(position, roll, options)}
            if fast != brute_results(position, roll, options):
                wrong += 1
                if wrong <= 5:
                    print(f"  DISAGREE {variant} {position!r} {roll} {options}")
            n += 1
        print(f"{variant}: pairs={n} disagreements={wrong} "
              f"seconds={time.perf_counter() - start:.0f}", flush=True)
        total += n
        bad += wrong
    print(f"tavli_agreement: pairs={total} disagreements={bad}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
