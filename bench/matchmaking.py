"""Matchmaking benchmark: the time to pair a new request against a pool of 10,000 waiting.

Builds a migrated database (SQLite by default; ``--url`` for PostgreSQL) with ``--waiting``
players each waiting for an opponent (one game and one time per move, the worst case: the whole
pool is one queue), their global ratings spread like a community's (normal, 1500 ± 250), their
requests made over the last two hours (so some windows have widened, up to "anyone"). Then
``--pairs`` new players ask in turn; each is paired on arrival (:meth:`request_opponent`: the
request written, a partner found and claimed, the challenge made, both notices written, four
short transactions). Prints exactly:

    matchmaking: pair_ms=<p95 of request_opponent> claim_ms=<p95 of finding and claiming alone>
    challenge_ms=<p95 of the ordinary create_challenge alone, the baseline>

(on one line). Target: pair ≤ 50 ms (p95) with 10,000 waiting. The machine's load inflates
every figure alike: compare pair_ms with challenge_ms, measured in the same run.

Usage: python bench/matchmaking.py [--waiting 10000] [--pairs 200] [--url URL]

Reference figures (the project's 2-core machine shared by eight sessions, load average 18,
SQLite file): ``matchmaking: pair_ms=70.4 claim_ms=38.8 challenge_ms=32.0``: a pairing costs
about two ordinary challenges (four short transactions, the challenge one of them); the first
version, which read every level of the window with a sort by distance, took pair_ms=589.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._stats import percentile
from storage.db import Database
from storage.migrate import upgrade
from storage.models import Player, RatingRow
from storage.play_tables import MatchRequestRow
from storage.usecases import UseCases

DAY = 24 * 3600
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def fill(db: Database, waiting: int, pairs: int, rng: random.Random) -> None:
    """``waiting`` players waiting, and ``pairs`` more rated but not waiting yet."""
    players, ratings, requests = [], [], []
    for pid in range(1, waiting + pairs + 1):
        rating = rng.gauss(1500.0, 250.0)
        players.append({"id": pid, "display_name": f"P{pid}", "can_message": True,
                        "created_at": NOW, "updated_at": NOW})
        ratings.append({"player_id": pid, "game": "portes", "scope": 0, "rating": rating,
                        "experience": 50, "matches": 10, "updated_at": NOW})
        if pid <= waiting:
            requests.append({"player_id": pid, "status": "waiting", "game_type": "portes",
                             "length": rng.choice((None, 3, 5)), "move_seconds": DAY,
                             "winner_starts": False, "rating": rating,
                             "created_at": NOW - timedelta(seconds=rng.uniform(0, 7200))})
    with db.sessions.begin() as s:
        s.execute(Player.__table__.insert(), players)
        s.execute(RatingRow.__table__.insert(), ratings)
        s.execute(MatchRequestRow.__table__.insert(), requests)


async def run(url: str, waiting: int, pairs: int) -> tuple[float, float, float]:
    db = Database.from_url(url)
    uc = UseCases(db, clock=lambda: NOW)
    fill(db, waiting, pairs, random.Random(24))
    pair_ms, claim_ms, challenge_ms = [], [], []
    try:
        for pid in range(waiting + 1, waiting + pairs + 1):
            start = time.perf_counter()
            res = await uc.request_opponent(pid, game_type="portes", length=None,
                                            move_seconds=DAY)
            pair_ms.append((time.perf_counter() - start) * 1000)
            assert res.ok and res.pairing is not None, res
        # the claim alone: a request waiting, then found and claimed
        for pid in range(1, pairs + 1):
            player = waiting + pairs + pid
            await uc.upsert_player(player, f"Q{pid}", can_message=True)
            made, _ = await uc._enqueue(player, "portes", None, DAY, False)
            assert made.waiting is not None
            start = time.perf_counter()
            claimed = await uc._claim_pair(made.waiting.id)
            claim_ms.append((time.perf_counter() - start) * 1000)
            assert claimed is not None
        # the baseline: the ordinary challenge every pairing makes, alone
        for pid in range(1, pairs + 1):
            start = time.perf_counter()
            await uc.create_challenge(pid, length=3, target_id=pid + 1, move_seconds=DAY)
            challenge_ms.append((time.perf_counter() - start) * 1000)
    finally:
        await db.dispose()
    return (percentile(pair_ms, 0.95), percentile(claim_ms, 0.95),
            percentile(challenge_ms, 0.95))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--waiting", type=int, default=10_000)
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--url", default=None)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.url or f"sqlite:///{Path(tmp) / 'mm.sqlite3'}"
        upgrade(url)
        pair, claim, challenge = asyncio.run(run(url, args.waiting, args.pairs))
    print(f"matchmaking: pair_ms={pair:.1f} claim_ms={claim:.1f} challenge_ms={challenge:.1f}")


if __name__ == "__main__":
    main()
