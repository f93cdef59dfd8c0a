"""Benchmark: GNU Backgammon's own move text for every legal play must read back as gnubg's play.

For a fixed, seeded set of self-play positions x all 21 rolls, every legal play gnubg finds is
written by gnubg (``gnubg.move_tuple_to_string``) and read by :func:`rules.notation.parse_play`;
the result must be gnubg's resulting position. Needs the ``gnubg`` and ``gnubg-nn`` test
dependencies. The suite checks a sample (``tests/rules/test_notation_gnubg.py``); this runs the
full corpus (about two minutes for 2,000 positions on the project's machine).

Last line: ``gnubg_notation: positions=<n> plays=<m> mismatches=<k>`` (k must be 0).

Reference: ``gnubg_notation: positions=2000 plays=989856 mismatches=0``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from oracles.gnubg_bridge import gnubg_texts, notation_mismatches
from rules.position import ALL_ROLLS
from rules.selfplay import selfplay_positions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    import gnubg
    import gnubg_nn

    plays = mismatches = 0
    for position in selfplay_positions(args.positions, args.seed):
        for roll in ALL_ROLLS:
            theirs = gnubg_texts(gnubg, gnubg_nn, position, roll)
            plays += len(theirs)
            for text, ours in notation_mismatches(position, roll, theirs):
                mismatches += 1
                if mismatches <= 10:
                    print(f"{position.to_fixture()}  {roll}  {text!r}: {ours}")
    print(f"gnubg_notation: positions={args.positions} plays={plays} mismatches={mismatches}")


if __name__ == "__main__":
    main()
