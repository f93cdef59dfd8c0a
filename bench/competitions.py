"""Competitions benchmark: a pairing among 10,000 waiting, the standings of a 12-player league
and a 64-player cup's picture.

``pair_ms``: the 95th percentile of pairing a new "find me an opponent" request against a
pool of 10,000 waiting (:mod:`bench.matchmaking`'s measurement, its own database; that script
also prints the claim alone and an ordinary challenge as a baseline). Target ≤ 50 ms.

``standings_ms``: the 95th percentile of reading a finished 12-player double league (12
entrants with their reliability figures, 132 pairings with their matches) from a migrated
SQLite database through the use case the standings card is drawn from
(``UseCases.get_competition``), and ordering it with its tie-breaks (``CompetitionView.table``).
``bracket_ms``: the 95th percentile of drawing a 64-player cup's bracket picture
(``rendering.bracket.render_bracket``, JPEG bytes), half its games decided. Targets: standings
≤ 50 ms, bracket ≤ 100 ms. Prints exactly one line (the figures are fields of one list, so
another measurement of the competitions is one more field):

    competitions: pair_ms=<p> standings_ms=<x> bracket_ms=<y>

Usage: python bench/competitions.py [--repeat 41] [--waiting 10000] [--pairs 200]

Reference figure (the project's 2-core machine, load average about 2):
``competitions: pair_ms=17.0 standings_ms=9.4 bracket_ms=38.2``, every target met.

Earlier figures (the same machine shared by eight helpers, load average about
18, so both vary by a factor of 2-3 from run to run): ``competitions: standings_ms=45.3
bracket_ms=125.3`` and ``standings_ms=25.2 bracket_ms=163.6`` (JPEG, 4:2:0);
``bracket_ms=326.3`` as a PNG in the same hour, 1.8 s as an optimised PNG. Of a picture's
time about 40 % is the JPEG encoder on its 1440x1834 pixels and 30 % the 133 names set in
DejaVu Sans (one profile at load 14: 123 ms in all). The standings' time is the thread hop
and the five queries of ``get_competition`` (12 entrants with their reliability figures,
132 pairings); the tie-breaks themselves take well under a millisecond.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import text

from bench._stats import percentile
from bench.matchmaking import run as pairing_run
from rendering.bracket import Entry, render_bracket
from rules.competition import Bracket
from storage import migrate
from storage.db import Database
from storage.usecases import UseCases

GROUP = -1001


async def league(url: str) -> tuple[UseCases, int]:
    """A 12-player double league, every pairing decided (written directly: this is the
    reading's benchmark, not the playing's)."""
    uc = UseCases(Database.from_url(url))
    players = list(range(5001, 5013))
    for pid in players:
        await uc.upsert_player(pid, f"Player {pid}")
    made = await uc.create_competition(players[0], GROUP, kind="league", double=True)
    assert made.competition is not None
    cid = made.competition.id
    for pid in players[1:]:
        await uc.join_competition(cid, pid)
    started = await uc.start_competition(cid, players[0])
    assert started.competition is not None and len(started.competition.pairings) == 132
    rng = random.Random(24)
    with uc.db.engine.begin() as conn:
        for p in started.competition.pairings:
            conn.execute(text("UPDATE competition_games SET winner_id = :w, points = :pt, "
                              "reason = 'score', decided_at = CURRENT_TIMESTAMP WHERE id = :id"),
                         {"w": rng.choice((p.player0, p.player1)), "pt": rng.choice((1, 1, 2)),
                          "id": p.id})
    return uc, cid


async def standings_ms(url: str, repeat: int) -> float:
    uc, cid = await league(url)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        view = await uc.get_competition(cid)
        assert view is not None
        table = view.table()
        times.append((time.perf_counter() - start) * 1000)
        assert len(table) == 12
    await uc.db.dispose()
    return percentile(times, 0.95)


def bracket_ms(repeat: int) -> float:
    bracket = Bracket.seeded(list(range(64)))
    for g in bracket.rounds[0]:
        assert g.a is not None
        bracket = bracket.decide(0, g.slot, g.a)
    for g in bracket.rounds[1][:8]:
        assert g.a is not None
        bracket = bracket.decide(1, g.slot, g.a)

    def entry(a: int | None, b: int | None, winner: int | None) -> Entry:
        won = None if winner is None else (0 if winner == a else 1)
        return Entry(None if a is None else f"Παίκτης {a:02d}",
                     None if b is None else f"Player {b:02d}", won)

    rounds = [[entry(g.a, g.b, g.winner) for g in r] for r in bracket.rounds]
    headings = ["1/32", "1/16", "1/8", "1/4", "1/2", "Final"]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        png = render_bracket("Κύπελλο · Cup", headings, rounds, footer="64 players")
        times.append((time.perf_counter() - start) * 1000)
        assert png.startswith(b"\xff\xd8")
    return percentile(times, 0.95)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=41)
    parser.add_argument("--waiting", type=int, default=10_000)
    parser.add_argument("--pairs", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        pool = f"sqlite:///{Path(tmp) / 'pairing.sqlite3'}"
        migrate.upgrade(pool)
        pair, _, _ = asyncio.run(pairing_run(pool, args.waiting, args.pairs))
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        migrate.upgrade(url)
        fields = [("pair_ms", pair),
                  ("standings_ms", asyncio.run(standings_ms(url, args.repeat))),
                  ("bracket_ms", bracket_ms(args.repeat))]
    print("competitions: " + " ".join(f"{name}={value:.1f}" for name, value in fields))


if __name__ == "__main__":
    main()
