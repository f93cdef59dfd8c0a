"""Storage benchmark: turns applied per second through the use cases, with p95 latency.

One process, 200 concurrent matches, each playing seeded random legal plays through
``UseCases.play`` (load, decide, compare-and-swap, log, timers, commit: one transaction in a
database worker thread). Prints exactly:

    storage[sqlite]: turns_per_s=<x> p95_ms=<x>
    storage[postgresql]: turns_per_s=<x> p95_ms=<x>     (when PORTES_TEST_POSTGRES_URL is set)

p95 is per turn as the caller sees it, so with 200 matches always waiting it is mostly queueing
(about 200 / turns_per_s).

Shared machines are noisy, so compare in one run: ``--rounds N`` alternates the databases (and
the ``--workers`` settings) N times, prints every round and the load average on stderr, and
gives the median round on the lines above; ``--workers 1,4`` runs each database with those
worker-thread counts side by side (the lines then name them: ``storage[sqlite,workers=1]``).

Usage: python bench/storage.py [--matches 200] [--turns 3000] [--rounds 1] [--workers N,...]
                               [--postgres-url URL]

Reference figures (the 2-core development machine, load average 3-6 from other work, medians
of three alternating rounds): ``storage[sqlite]: turns_per_s≈550 p95_ms≈430``,
``storage[postgresql]: turns_per_s≈285 p95_ms≈830``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import make_url, text

from storage import migrate
from storage.db import Database, make_engine, normalise_url
from storage.results import Outcome
from storage.usecases import UseCases

PG_ENV = "PORTES_TEST_POSTGRES_URL"


async def run(
    url: str, matches: int, turns: int, seed: int, workers: int | None = None
) -> tuple[float, float]:
    db = Database.from_url(url, **({"pool_size": workers} if workers else {}))
    uc = UseCases(db)
    for i in range(matches * 2):
        await uc.upsert_player(10_000 + i, f"Player {i}")
    ids = []
    for i in range(matches):
        created = await uc.create_challenge(10_000 + 2 * i, length=7)
        assert created.challenge is not None
        accepted = await uc.accept_challenge(created.challenge.id, 10_001 + 2 * i, mix=f"b{i}")
        assert accepted.ok
        ids.append(accepted.match.id)  # type: ignore[union-attr]
    latencies: list[float] = []
    budget = [turns]

    async def player(match_id: int, rng: random.Random) -> None:
        loaded = await uc.load_match(match_id)
        view = loaded.match
        while view is not None and budget[0] > 0 and view.to_act is not None:
            budget[0] -= 1
            seat = view.to_act
            actor = view.seats[seat].player.id  # type: ignore[union-attr]
            play = rng.choice(view.state.legal_plays())
            t0 = time.perf_counter()
            result = await uc.play(view.id, actor, view.version, play)
            latencies.append(time.perf_counter() - t0)
            assert result.outcome == Outcome.OK, result
            view = result.match

    rng = random.Random(seed)
    started = time.perf_counter()
    await asyncio.gather(*(player(m, random.Random(rng.random())) for m in ids))
    elapsed = time.perf_counter() - started
    await db.dispose()
    p95 = statistics.quantiles(latencies, n=20)[-1] * 1000
    return len(latencies) / elapsed, p95


def pg_database(admin: str) -> str:
    name = f"portes_bench_{uuid.uuid4().hex[:8]}"
    engine = make_engine(admin, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return make_url(normalise_url(admin)).set(database=name).render_as_string(hide_password=False)


def drop_pg(admin: str, url: str) -> None:
    engine = make_engine(admin, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)'))
    engine.dispose()


def load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


async def one_round(
    backend: str, args: argparse.Namespace, workers: int | None
) -> tuple[float, float]:
    if backend == "sqlite":
        with tempfile.TemporaryDirectory() as tmp:
            url = f"sqlite:///{tmp}/bench.sqlite3"
            await migrate.upgrade_async(url)
            return await run(url, args.matches, args.turns, args.seed, workers)
    url = pg_database(args.postgres_url)
    try:
        await migrate.upgrade_async(url)
        return await run(url, args.matches, args.turns, args.seed, workers)
    finally:
        drop_pg(args.postgres_url, url)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--turns", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument(
        "--workers", default="", help="worker threads, e.g. 4 or 1,4 (default: the Database's)"
    )
    parser.add_argument("--postgres-url", default=os.environ.get(PG_ENV))
    args = parser.parse_args()
    workers: list[int | None] = [int(w) for w in args.workers.split(",") if w] or [None]
    backends = ["sqlite", "postgresql"] if args.postgres_url else ["sqlite"]
    if not args.postgres_url:
        print(f"storage[postgresql]: skipped ({PG_ENV} not set)", file=sys.stderr)
    print(f"load average before: {load_average()} ({os.cpu_count()} CPUs)", file=sys.stderr)
    results: dict[tuple[str, int | None], list[tuple[float, float]]] = {}
    for i in range(args.rounds):
        for backend in backends:
            for w in workers:
                tps, p95 = await one_round(backend, args, w)
                results.setdefault((backend, w), []).append((tps, p95))
                if args.rounds > 1 or len(workers) > 1:
                    print(
                        f"  round {i + 1} {backend} workers={w or 'default'}: "
                        f"turns_per_s={tps:.0f} p95_ms={p95:.1f} (load {load_average()})",
                        file=sys.stderr,
                        flush=True,
                    )
    print(f"load average after: {load_average()}", file=sys.stderr)
    for (backend, w), rounds in results.items():
        tps, p95 = sorted(rounds)[len(rounds) // 2]
        label = backend if len(workers) == 1 else f"{backend},workers={w or 'default'}"
        print(f"storage[{label}]: turns_per_s={tps:.0f} p95_ms={p95:.1f}", flush=True)


if __name__ == "__main__":
    asyncio.run(main())
