"""Revision 0013 (ratings per game) upgrades a database at 0011 in use: every rating and change
becomes Portes's, the key takes the game, and the queries read them per game."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect
from sqlalchemy.exc import IntegrityError

from storage import migrate
from storage.db import make_engine
from storage.social import leaderboard, player_stats
from tests.storage.helpers import NOW, fill_0007, sql_rows, table_columns

RATING = ("INSERT INTO ratings (player_id, game, scope, rating, experience, matches, updated_at) "
          "VALUES (7, :g, 0, 1600, 3, 1, :t)")


def keys(url: str) -> tuple[list[str], set[str]]:
    """The ratings' primary key and the indexes of both rating tables."""
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            found = inspect(conn)
            pk = found.get_pk_constraint("ratings")["constrained_columns"]
            indexes = {i["name"] or "" for t in ("ratings", "rating_changes", "matches")
                       for i in found.get_indexes(t)}
            indexes |= {u["name"] or "" for u in found.get_unique_constraints("rating_changes")}
            return pk, indexes
    finally:
        engine.dispose()


def test_revision_0013_keeps_the_ratings_as_portes_and_keys_them_by_game(
        empty_url: str) -> None:
    # Given a database at 0011 with two players, a finished match, its ratings and changes
    migrate.upgrade(empty_url, "0011")
    fill_0007(empty_url)
    for pid, scope, before, after in ((7, 0, 1500, 1517.3), (8, 0, 1500, 1482.7),
                                      (7, -100, 1500, 1517.3), (8, -100, 1500, 1482.7)):
        sql_rows(empty_url, "INSERT INTO rating_changes (match_id, player_id, scope, before, "
                 "after) VALUES (1, :p, :s, :b, :a)", p=pid, s=scope, b=before, a=after)
    assert "game" not in table_columns(empty_url, "ratings")
    # When it is upgraded: every row is Portes's, nothing is lost
    migrate.upgrade(empty_url, "0013")
    pk, indexes = keys(empty_url)
    assert sorted(pk) == ["game", "player_id", "scope"]
    assert {"ix_ratings_game_scope_rating", "ix_rating_changes_player_game",
            "uq_rating_changes_match_id_player_id_game_scope",
            "ix_matches_player0_stats", "ix_matches_player1_stats"} <= indexes
    assert "ix_ratings_scope_rating" not in indexes
    assert sorted(sql_rows(empty_url, "SELECT player_id, game, scope, rating FROM ratings")) == [
        (7, "portes", -100, 1517.3), (7, "portes", 0, 1517.3), (8, "portes", -100, 1482.7),
        (8, "portes", 0, 1482.7)]
    assert {r[0] for r in sql_rows(empty_url, "SELECT game FROM rating_changes")} == {"portes"}
    engine = make_engine(empty_url)
    try:
        with engine.connect() as conn:
            stats = player_stats(conn, 7, -100, game="portes")
            plakoto = player_stats(conn, 7, -100, game="plakoto")
            board = leaderboard(conn, -100, 8, game="portes")
    finally:
        engine.dispose()
    assert stats.rating is not None and stats.rating.rating == 1517.3
    assert stats.history == (1517.3,) and stats.people.played == 1
    assert plakoto.rating is None and plakoto.people.played == 0
    assert board.my_matches == 1
    # A second game's rating sits beside Portes's; a second Portes one is refused
    sql_rows(empty_url, RATING, g="plakoto", t=NOW)
    with pytest.raises(IntegrityError):
        sql_rows(empty_url, RATING, g="portes", t=NOW)
    # And downgraded: Portes's ratings stay, the other games' go (the old key holds one)
    migrate.downgrade(empty_url, "0011")
    assert "game" not in table_columns(empty_url, "ratings")
    assert "game" not in table_columns(empty_url, "rating_changes")
    assert sorted(sql_rows(empty_url, "SELECT player_id, scope, rating FROM ratings")) == [
        (7, -100, 1517.3), (7, 0, 1517.3), (8, -100, 1482.7), (8, 0, 1482.7)]
    assert keys(empty_url)[0] == ["player_id", "scope"]
    assert len(sql_rows(empty_url, "SELECT id FROM rating_changes")) == 4
