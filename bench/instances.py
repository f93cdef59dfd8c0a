"""Several instances: taps through two bot processes on one PostgreSQL behind a round-robin proxy.

    eval "$(bash .ci/postgres.sh)"        # PostgreSQL, as CI starts it
    python bench/instances.py [--instances 2] [--matches 50] [--turns 0] [--tap-every 5]

What it does, all on 127.0.0.1 (the machinery of tests/bot/test_instances.py, without the
faults and the kill): starts the stand-in, ``--instances`` real bots (``python -m bot``) in
webhook mode on one fresh database (``PORTES_TEST_POSTGRES_URL``'s server), the round-robin
proxy in front of them and the webhook pusher; opens ``--matches`` one-point group matches the
way players do (who started the bot: they play on private boards); then the players play every
match at once, as fast as the bots answer, to its end (``--turns 0``) or for ``--turns`` turns
and then resign: each turn the racing play typed in notation in the private chat (one update),
every ``--tap-every``-th turn tapped through the keyboard. A tap's (or typed play's) latency is
from the update being sent to the board showing its result; ``taps_per_s`` counts both.
``lost`` counts turns the players saw accepted that are missing from the move log
(or there twice), ``duplicate_boards`` the live boards beyond one per chat at the end.

The last line is ``instances: n=<n> taps_per_s=<x> p95_ms=<y> lost=<n> duplicate_boards=<n>``.

Reference figures (24 matches played to their end, two runs on the loaded 2-core machine, load
average 9-12): 906 turns in 105 s, and ``instances: n=2 taps_per_s=15.5 p95_ms=2263 lost=0
duplicate_boards=0`` (945 turns in 92 s, 10.3 turns/s, p50 1.4 s: the machine is saturated).
On PostgreSQL a counted call in a group or a private chat costs two short transactions (take a
slot, then move it to when the answer came); callback answers cost none.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from standin import StandIn  # noqa: E402
from standin.cluster import (  # noqa: E402
    Cluster,
    Tally,
    open_group_match,
    percentile,
)
from standin.players import live_boards  # noqa: E402
from standin.typed_play import play_out  # noqa: E402


async def main(args: argparse.Namespace) -> int:
    admin = os.environ.get("PORTES_TEST_POSTGRES_URL")
    if not admin:
        print('PORTES_TEST_POSTGRES_URL is not set: run eval "$(bash .ci/postgres.sh)" first',
              file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp, StandIn(recompress_photos=False) as standin:
        cluster = Cluster(standin, admin, Path(tmp), n=args.instances)
        try:
            await cluster.start()
            return await run(standin, cluster, args)
        finally:
            cluster.stop()
            cluster.drop()


async def run(standin: StandIn, cluster: Cluster, args: argparse.Namespace) -> int:
    tables = []
    for i in range(args.matches):
        a, b = standin.user(f"A{i}", username=f"a{i}"), standin.user(f"B{i}", username=f"b{i}")
        tables.append((standin.group(f"Table {i}", a, b), a, b))
    t = time.perf_counter()
    gate = asyncio.Semaphore(12)

    async def opened(group, a, b) -> None:  # type: ignore[no-untyped-def]
        async with gate:
            await open_group_match(standin, group, a, b, started=True)

    await asyncio.gather(*(opened(g, a, b) for g, a, b in tables))
    print(f"opened {len(tables)} group matches in {time.perf_counter() - t:.1f} s")
    tallies = [Tally() for _ in tables]
    t = time.perf_counter()
    await asyncio.gather(*(play_out(cluster, g, [a, b], tally, tap_every=args.tap_every,
                                    turns=args.turns or 10_000)
                           for (g, a, b), tally in zip(tables, tallies, strict=True)))
    took = time.perf_counter() - t
    taps = sum(len(tally.latencies) for tally in tallies)
    latencies = [x for tally in tallies for x in tally.latencies]
    await asyncio.sleep(2.0)  # the last boards settle
    lost = sum(abs(cluster.played_turns(tally.match_id, tally.seats) - tally.finals)
               for tally in tallies)
    duplicates = sum(max(0, len(live_boards(g)) - 1) for g, _, _ in tables)
    turns = sum(t.finals for t in tallies)
    print(f"played {turns} turns ({taps} taps and typed plays, "
          f"{sum(t.typed for t in tallies)} typed) in {took:.1f} s: {turns / took:.1f} turns/s; "
          f"p50 {percentile(latencies, 0.5) * 1000:.0f} ms; "
          f"{sum(1 for t in tallies if t.ended)} of {len(tallies)} matches ended")
    print(f"instances: n={args.instances} taps_per_s={taps / took:.1f} "
          f"p95_ms={percentile(latencies, 0.95) * 1000:.0f} lost={lost} "
          f"duplicate_boards={duplicates}")
    return 0 if lost == 0 and duplicates == 0 else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--instances", type=int, default=2)
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--turns", type=int, default=0, help="0: play every match out")
    parser.add_argument("--tap-every", type=int, default=5)
    sys.exit(asyncio.run(main(parser.parse_args())))
