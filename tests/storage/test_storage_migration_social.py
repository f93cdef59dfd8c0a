"""Revision 0008 (players.hidden, the /stats indexes) upgrades a database at 0007 in use."""

from __future__ import annotations

from sqlalchemy import inspect

from storage import migrate
from storage.db import make_engine
from storage.social import leaderboard, player_stats
from tests.storage.helpers import fill_0007, sql_rows


def shape(url: str) -> tuple[set[str], set[str], set[str]]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            found = inspect(conn)
            return ({c["name"] for c in found.get_columns("players")},
                    {i["name"] or "" for i in found.get_indexes("matches")},
                    {i["name"] or "" for i in found.get_indexes("games")})
    finally:
        engine.dispose()




def test_revision_0008_keeps_players_matches_and_ratings(empty_url: str) -> None:
    # Given a database at 0007 with players, a finished match and its ratings
    migrate.upgrade(empty_url, "0007")
    assert "hidden" not in shape(empty_url)[0]
    fill_0007(empty_url)
    # When it is upgraded: every player is listed, the indexes are there, nothing is lost
    migrate.upgrade(empty_url, "0008")
    columns, match_indexes, game_indexes = shape(empty_url)
    assert "hidden" in columns
    assert {"ix_matches_player0_stats", "ix_matches_player1_stats"} <= match_indexes
    assert "ix_games_match_kind" in game_indexes
    assert [(i, bool(h)) for i, h in sql_rows(empty_url, "SELECT id, hidden FROM players "
                                                    "ORDER BY id")] == [(7, False), (8, False)]
    migrate.upgrade(empty_url)  # today's queries read the newest schema (per game since 0013)
    engine = make_engine(empty_url)
    try:
        with engine.connect() as conn:
            stats = player_stats(conn, 7, -100)
            board = leaderboard(conn, -100, 8)
    finally:
        engine.dispose()
    assert (stats.people.played, stats.people.won, stats.people.points_for,
            stats.people.points_against, stats.people.gammons_won) == (1, 1, 3, 1, 1)
    assert stats.rating is not None and stats.rating.rating == 1517.3
    assert board.top == () and board.my_matches == 1  # one rated match: not listed yet
    # And downgraded again, only the column and the indexes go
    sql_rows(empty_url, "UPDATE players SET hidden = true WHERE id = 8")
    migrate.downgrade(empty_url, "0007")
    columns, match_indexes, game_indexes = shape(empty_url)
    assert "hidden" not in columns and "ix_matches_player0_stats" not in match_indexes
    assert "ix_games_match_kind" not in game_indexes
    assert sql_rows(empty_url, "SELECT id, display_name, username FROM players ORDER BY id") == [
        (7, "Alice", "alice"), (8, "Bob", "bob")]
    assert sql_rows(empty_url, "SELECT count(*) FROM ratings") == [(4,)]
    assert sql_rows(empty_url, "SELECT count(*) FROM games WHERE match_id = 1") == [(3,)]
