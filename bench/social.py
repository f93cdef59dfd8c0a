"""Social benchmark: the database time of /top and /stats, and of the ratings rebuild.

Builds a migrated SQLite database with 10,000 players and 100,000 ended matches (bulk inserts:
lengths 1/3/5/7, about a quarter of them in 200 groups, one in twenty against the computer, some
resigned or lost on time, every game with its kind, match rows with a stored state of realistic
size; players' activity skewed like a real community's, so some have played thousands; 70 % of
the matches Portes, the rest Plakoto, Fevga, tavli and Long Nardy, each rated apart), rates
them with ``python -m storage.ratings rebuild``'s function, then times the queries the commands
run, on the busiest player and on a typical one (the slower counts). Prints exactly:

    social: top_ms=<x> stats_ms=<y> rebuild_s=<z>

``top_ms``: the slower of a group's and the global leaderboard, with the caller's own place;
``stats_ms``: the slower of ``/stats`` in a group and a head to head (each the median of
``--repeat`` runs), each with the game the command shows when none is named (the caller's last
game: one query more), timed in Portes, the game with the most matches, and in Plakoto.
Targets: top ≤ 50 ms, stats ≤ 50 ms, rebuild ≤ 60 s.

Usage: python bench/social.py [--players 10000] [--matches 100000] [--repeat 21] [--keep FILE]

Reference figures (per game, the project's loaded 2-core machine, load average about 8):
``social: top_ms=15.8 stats_ms=33.7 rebuild_s=7.7``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import Connection, Engine

from storage import migrate
from storage.db import make_engine
from storage.social import head_to_head, last_game, leaderboard, player_stats
from storage.usecases.rating_write import rebuild

GROUPS = 200
START = datetime(2025, 1, 1, tzinfo=UTC).replace(tzinfo=None)
STATE = '{"format": 1, "length": 5, "score": [5, 3], "position": "' + "x" * 360 + '"}'
KINDS = (("single", 1), ("single", 1), ("single", 1), ("gammon", 2), ("backgammon", 3))
GAMES = ("portes", "plakoto", "fevga", "tavli", "nardy")
GAME_WEIGHTS = (70, 10, 10, 6, 4)


def _players(n: int) -> list[tuple[Any, ...]]:
    return [(1_000 + i, f"Player {i}", f"player{i}", "el" if i % 3 else "en", True, True,
             False, START, START) for i in range(n)]


def _games(match_id: int, length: int, winner: int, rng: random.Random,
           at: datetime) -> tuple[list[tuple[Any, ...]], tuple[int, int]]:
    """The games of one match played to the end: each won by either side, single, gammon or
    backgammon, until the winner has ``length`` points."""
    score = [0, 0]
    rows = []
    number = 0
    while max(score) < length:
        number += 1
        side = winner if rng.random() < 0.6 or score[1 - winner] + 1 >= length else 1 - winner
        kind, points = rng.choice(KINDS)
        if score[side] + points >= length and side != winner:
            side = winner
        score[side] = min(length, score[side] + points)
        rows.append((match_id, number, 3, 5, side, kind, points, False, at, at))
    return rows, (score[0], score[1])


def build(engine: Engine, players: int, matches: int, seed: int = 7) -> None:
    """Fill the database: players, then matches with their games, in bulk."""
    rng = random.Random(seed)
    weights = [1.0 / (i + 1) ** 0.8 for i in range(players)]  # a few very active players
    ids = [1_000 + i for i in range(players)]
    groups = [-1_000_000_000_000 - g for g in range(GROUPS)]
    match_rows: list[tuple[Any, ...]] = []
    game_rows: list[tuple[Any, ...]] = []
    chosen = rng.choices(ids, weights, k=matches * 2)
    for i in range(matches):
        match_id = i + 1
        a, b = chosen[2 * i], chosen[2 * i + 1]
        if a == b:
            b = ids[(ids.index(a) + 1 + rng.randrange(players - 1)) % players]
        computer = rng.random() < 0.05
        length = rng.choice((1, 3, 3, 5, 5, 7))
        winner = rng.randrange(2)
        at = START + timedelta(minutes=5 * i)
        games, score = _games(match_id, length, winner, rng, at)
        resigned = rng.random() < 0.1
        status = "abandoned" if rng.random() < 0.03 else "finished"
        match_rows.append((
            match_id, status, 100, a, None if computer else b, 2 if computer else None, length,
            False, score[0], score[1], winner,
            "timeout" if status == "abandoned" else ("resigned" if resigned else "score"),
            None, None if computer or rng.random() < 0.75 else rng.choice(groups),
            STATE, 1, bytes(32), "0" * 64, "b0", 40, at - timedelta(hours=1), at,
            at - timedelta(hours=1), at, rng.choices(GAMES, GAME_WEIGHTS)[0]))
        game_rows.extend(games)
    with engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO players (id, display_name, username, language, can_message, notices, "
            "hidden, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            _players(players))
        conn.exec_driver_sql(
            "INSERT INTO matches (id, status, version, player0_id, player1_id, computer_level, "
            "length, no_triple, score0, score1, winner, end_reason, to_act, chat_id, state, "
            "state_format, seed, commitment, mix, dice_drawn, created_at, updated_at, "
            "started_at, finished_at, game_type) VALUES "
            "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            match_rows)
        conn.exec_driver_sql(
            "INSERT INTO games (match_id, number, opening0, opening1, winner, kind, points, "
            "resigned, started_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", game_rows)


def timed(conn: Connection, query: Callable[[Connection], object], repeat: int) -> float:
    """The median milliseconds of ``repeat`` runs of ``query`` (after one warm-up run)."""
    query(conn)
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        query(conn)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def busiest(conn: Connection) -> tuple[int, int, int, int]:
    """The most active player, the group they played most in, their most frequent opponent,
    and a typical (median) player."""
    rows = conn.exec_driver_sql(
        "SELECT p, count(*) AS n FROM (SELECT player0_id AS p FROM matches UNION ALL "
        "SELECT player1_id FROM matches WHERE player1_id IS NOT NULL) GROUP BY p ORDER BY n DESC"
    ).all()
    top, typical = rows[0][0], rows[len(rows) // 2][0]
    group = conn.exec_driver_sql(
        "SELECT chat_id FROM matches WHERE chat_id IS NOT NULL AND (player0_id = ? OR "
        "player1_id = ?) GROUP BY chat_id ORDER BY count(*) DESC LIMIT 1", (top, top)).scalar()
    rival = conn.exec_driver_sql(
        "SELECT CASE WHEN player0_id = ? THEN player1_id ELSE player0_id END AS o FROM matches "
        "WHERE (player0_id = ? OR player1_id = ?) AND player1_id IS NOT NULL "
        "GROUP BY o ORDER BY count(*) DESC LIMIT 1", (top, top, top)).scalar()
    return top, int(group), int(rival), typical


def measure(engine: Engine, repeat: int) -> tuple[float, float, float]:
    started = time.perf_counter()
    with engine.begin() as conn:
        rebuild(conn)
    rebuild_s = time.perf_counter() - started
    with engine.connect() as conn:
        top, group, rival, typical = busiest(conn)
        tops = [timed(conn, lambda c, s=scope, m=me, g=game: (
                    last_game(c, m), leaderboard(c, s, m, game=g)), repeat)
                for scope in (0, group) for me in (top, typical) for game in GAMES[:2]]
        stats = [timed(conn, lambda c, m=me, g=game: (
                     last_game(c, m), player_stats(c, m, group, game=g)), repeat)
                 for me in (top, typical) for game in GAMES[:2]]
        stats += [timed(conn, lambda c, g=game: (
                      last_game(c, top, rival), head_to_head(c, top, rival, game=g)), repeat)
                  for game in GAMES[:2]]
    print(f"busiest player {top}, group {group}: top {[f'{t:.1f}' for t in tops]} ms, "
          f"stats and head to head {[f'{t:.1f}' for t in stats]} ms", file=sys.stderr)
    return max(tops), max(stats), rebuild_s


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=21)
    parser.add_argument("--keep", help="build the database in this file and keep it")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(args.keep) if args.keep else Path(tmp) / "social.sqlite3"
        path.unlink(missing_ok=True)
        url = f"sqlite:///{path}"
        migrate.upgrade(url)
        engine = make_engine(url)
        try:
            started = time.perf_counter()
            build(engine, args.players, args.matches)
            print(f"built in {time.perf_counter() - started:.1f} s", file=sys.stderr)
            top_ms, stats_ms, rebuild_s = measure(engine, args.repeat)
        finally:
            engine.dispose()
    print(f"social: top_ms={top_ms:.1f} stats_ms={stats_ms:.1f} rebuild_s={rebuild_s:.1f}",
          flush=True)


if __name__ == "__main__":
    main()
