"""Ratings per game (issue 15): ``ratings`` and ``rating_changes`` get a ``game`` column (a
match's ``game_type``: ``portes``, ``plakoto``, ``fevga``, ``nardy``, or ``tavli`` for the
rotation); the game is part of the rating's key and of the change's unique constraint. Every
rating and change stored so far was made by Portes matches (the other games came with 0011 and
were rated together with Portes until now), so existing rows become ``portes``; run
``python -m storage.cli ratings rebuild`` once after the upgrade to split the few non-Portes
matches played since 0011 into their own games.

/stats and head to head read a player's ended matches of one game from the covering indexes of
0008, which get ``game_type`` as their second column; a player's last rating changes are read
per game from ``ix_rating_changes_player_game``.

Downgrading keeps the Portes ratings only (the older key cannot hold one rating per game).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01 06:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ENDED = "status IN ('finished', 'abandoned')"
STATS_0008 = {
    "ix_matches_player0_stats": ["player0_id", "player1_id", "winner", "score0", "score1",
                                 "computer_level", "finished_at", "status"],
    "ix_matches_player1_stats": ["player1_id", "player0_id", "winner", "score0", "score1",
                                 "finished_at", "status"],
}


def _stats_indexes(with_game: bool) -> None:
    ended = sa.text(ENDED)
    for name, columns in STATS_0008.items():
        op.drop_index(name, table_name="matches")
        wanted = [columns[0], "game_type", *columns[1:]] if with_game else columns
        op.create_index(name, "matches", wanted, sqlite_where=ended, postgresql_where=ended)


def upgrade() -> None:
    # The column with a server default fills the existing rows ('portes'); the default goes
    # again below, so that every write names its game.
    for table in ("ratings", "rating_changes"):
        op.add_column(table, sa.Column("game", sa.String(length=16), server_default="portes",
                                       nullable=False))
    op.drop_index("ix_ratings_scope_rating", table_name="ratings")
    op.drop_index("ix_rating_changes_player_id", table_name="rating_changes")
    # SQLite: a copy of each table (the key changes); PostgreSQL: ALTERs in place
    with op.batch_alter_table("ratings") as batch:
        batch.alter_column("game", existing_type=sa.String(length=16), server_default=None)
        batch.drop_constraint("pk_ratings", type_="primary")
        batch.create_primary_key("pk_ratings", ["player_id", "game", "scope"])
    with op.batch_alter_table("rating_changes") as batch:
        batch.alter_column("game", existing_type=sa.String(length=16), server_default=None)
        batch.drop_constraint("uq_rating_changes_match_id_player_id_scope", type_="unique")
        batch.create_unique_constraint("uq_rating_changes_match_id_player_id_game_scope",
                                       ["match_id", "player_id", "game", "scope"])
    op.create_index("ix_ratings_game_scope_rating", "ratings", ["game", "scope", "rating"])
    op.create_index("ix_rating_changes_player_game", "rating_changes",
                    ["player_id", "game", "scope", "id"])
    _stats_indexes(with_game=True)


def downgrade() -> None:
    _stats_indexes(with_game=False)
    op.drop_index("ix_rating_changes_player_game", table_name="rating_changes")
    op.drop_index("ix_ratings_game_scope_rating", table_name="ratings")
    op.execute("DELETE FROM rating_changes WHERE game <> 'portes'")
    op.execute("DELETE FROM ratings WHERE game <> 'portes'")
    with op.batch_alter_table("rating_changes") as batch:
        batch.drop_constraint("uq_rating_changes_match_id_player_id_game_scope", type_="unique")
        batch.create_unique_constraint("uq_rating_changes_match_id_player_id_scope",
                                       ["match_id", "player_id", "scope"])
        batch.drop_column("game")
    with op.batch_alter_table("ratings") as batch:
        batch.drop_constraint("pk_ratings", type_="primary")
        batch.create_primary_key("pk_ratings", ["player_id", "scope"])
        batch.drop_column("game")
    op.create_index("ix_ratings_scope_rating", "ratings", ["scope", "rating"])
    op.create_index("ix_rating_changes_player_id", "rating_changes", ["player_id"])
