"""Rating a match as it ends: read, compute and write the players' ratings inside the very
transaction that ends the match (called by :meth:`storage.usecases.kernel.Kernel.apply`).

Rated: a match between two people that ended with a winner, by score, resignation or timeout
(status ``finished`` or ``abandoned``). Not rated: computer matches, cancelled or expired ones.
Scopes: 0 (global) and, for a group match, the group's chat id (negative). Each game has its
own ratings (``game``: the match's ``game_type``; a tavli match, the rotation, rates as the game
``tavli``), so a player has one rating per game and scope.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, text

from rules.game import DEFAULT_KIND
from storage.ratings import Standing, deleted_player, rate
from storage.results import RatingChange

RATED_STATUSES = ("finished", "abandoned")
GLOBAL = 0

_SELECT = ("SELECT rating, experience, matches FROM ratings WHERE player_id = :p AND game = :g "
           "AND scope = :s")
_UPSERT = text(
    "INSERT INTO ratings (player_id, game, scope, rating, experience, matches, updated_at) "
    "VALUES (:p, :g, :s, :r, :e, :m, :t) ON CONFLICT (player_id, game, scope) DO UPDATE SET "
    "rating = excluded.rating, experience = excluded.experience, matches = excluded.matches, "
    "updated_at = excluded.updated_at"
)
_CHANGE = text(
    "INSERT INTO rating_changes (match_id, player_id, game, scope, before, after) "
    "VALUES (:id, :p, :g, :s, :b, :a)"
)


def is_rated(match: Mapping[str, Any]) -> bool:
    """Whether this match (as a mapping of its columns) counts for ratings."""
    return (match["status"] in RATED_STATUSES and match["winner"] in (0, 1)
            and match["player1_id"] is not None and match["computer_level"] is None
            and match["player0_id"] != match["player1_id"])


def scopes(match: Mapping[str, Any]) -> tuple[int, ...]:
    """Global, and the group's for a match played in a group."""
    chat_id = match["chat_id"]
    return (GLOBAL, chat_id) if match["in_group"] and chat_id is not None else (GLOBAL,)


def game_of(match: Mapping[str, Any]) -> str:
    """The game a match rates in: its ``game_type`` (older callers' matches are Portes)."""
    return str(match.get("game_type") or DEFAULT_KIND)


def _standing(conn: Connection, player: int, game: str, scope: int) -> Standing:
    lock = " FOR UPDATE" if conn.dialect.name == "postgresql" else ""
    found = conn.execute(text(_SELECT + lock), {"p": player, "g": game, "s": scope}).first()
    return Standing() if found is None else Standing(found[0], found[1], found[2])


def rate_match(conn: Connection, match: Mapping[str, Any], now: datetime) -> None:
    """Update both players' ratings in the match's game, in every scope of this ended match,
    and log the changes.
    The caller has checked :func:`is_rated`. Player rows are locked in id order (no
    deadlock between two matches of the same two players ending at once)."""
    winner_id = match["player0_id"] if match["winner"] == 0 else match["player1_id"]
    loser_id = match["player1_id"] if match["winner"] == 0 else match["player0_id"]
    game = game_of(match)
    for scope in scopes(match):
        first, second = sorted((winner_id, loser_id))
        read = {first: _standing(conn, first, game, scope),
                second: _standing(conn, second, game, scope)}
        won, lost = rate(read[winner_id], read[loser_id], match["length"])
        for player, before, after in ((winner_id, read[winner_id], won),
                                      (loser_id, read[loser_id], lost)):
            conn.execute(_UPSERT, {"p": player, "g": game, "s": scope, "r": after.rating,
                                   "e": after.experience, "m": after.matches, "t": now})
            conn.execute(_CHANGE, {"id": match["id"], "p": player, "g": game, "s": scope,
                                   "b": before.rating, "a": after.rating})


_RATED_MATCHES = text(
    "SELECT id, status, winner, player0_id, player1_id, computer_level, chat_id, in_group, "
    "length, "
    "finished_at, game_type FROM matches WHERE status IN ('finished', 'abandoned') "
    "AND winner IS NOT NULL AND player1_id IS NOT NULL AND computer_level IS NULL "
    "ORDER BY finished_at, id"
)


def rebuild(conn: Connection) -> int:
    """Recompute every rating from the rated matches in the order they ended (the same
    arithmetic, in the same order, as the live updates; each game apart) and rewrite both
    tables. Returns the number of matches rated."""
    table: dict[tuple[int, str, int], Standing] = {}
    updated: dict[tuple[int, str, int], datetime] = {}
    changes: list[dict[str, Any]] = []
    count = 0
    for found in conn.execute(_RATED_MATCHES).mappings():
        match = dict(found)
        if not is_rated(match):
            continue
        count += 1
        w = match["player0_id"] if match["winner"] == 0 else match["player1_id"]
        lo = match["player1_id"] if match["winner"] == 0 else match["player0_id"]
        game = game_of(match)
        for scope in scopes(match):
            before_w = table.get((w, game, scope), Standing())
            before_l = table.get((lo, game, scope), Standing())
            won, lost = rate(before_w, before_l, match["length"])
            for player, before, after in ((w, before_w, won), (lo, before_l, lost)):
                table[(player, game, scope)] = after
                updated[(player, game, scope)] = match["finished_at"]
                changes.append({"id": match["id"], "p": player, "g": game, "s": scope,
                                "b": before.rating, "a": after.rating})
    conn.execute(text("DELETE FROM rating_changes"))
    conn.execute(text("DELETE FROM ratings"))
    # a deleted player's matches still count for their opponents, but nothing is kept of them
    table = {key: st for key, st in table.items() if not deleted_player(key[0])}
    changes = [c for c in changes if not deleted_player(c["p"])]
    if table:
        conn.execute(_UPSERT, [
            {"p": p, "g": g, "s": s, "r": st.rating, "e": st.experience, "m": st.matches,
             "t": updated[(p, g, s)]} for (p, g, s), st in table.items()
        ])
    if changes:
        conn.execute(_CHANGE, changes)
    return count


_CHANGES = text("SELECT player_id, scope, before, after FROM rating_changes WHERE match_id = :id "
                "ORDER BY scope, player_id")


def rating_changes(conn: Connection, match_id: int) -> tuple[RatingChange, ...]:
    """What this match did to its players' ratings (empty when it was not rated)."""
    return tuple(RatingChange(r[0], r[1], r[2], r[3])
                 for r in conn.execute(_CHANGES, {"id": match_id}))
