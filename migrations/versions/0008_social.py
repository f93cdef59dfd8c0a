"""Social: a player may hide from the leaderboards (/top hide); /stats and head to head read a
player's ended matches and their games from covering indexes.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04 12:00:00.000000
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ENDED = "status IN ('finished', 'abandoned')"


def upgrade() -> None:
    # A column with a server default: SQLite adds it with ALTER TABLE, no batch copy, and
    # every existing player is listed.
    op.add_column("players", sa.Column("hidden", sa.Boolean(), server_default=sa.false(),
                                       nullable=False))
    # /stats and head to head read a player's ended matches from these indexes alone (no row of
    # the wide matches table), and their gammons from the games' index. Partial: a match in
    # play is not in them, so its writes (every move sets status and scores) never touch them.
    ended = sa.text(ENDED)
    op.create_index("ix_matches_player0_stats", "matches", [
        "player0_id", "player1_id", "winner", "score0", "score1", "computer_level",
        "finished_at", "status"], sqlite_where=ended, postgresql_where=ended)
    op.create_index("ix_matches_player1_stats", "matches", [
        "player1_id", "player0_id", "winner", "score0", "score1", "finished_at", "status"],
        sqlite_where=ended, postgresql_where=ended)
    op.create_index("ix_games_match_kind", "games", ["match_id", "kind", "winner"])


def downgrade() -> None:
    op.drop_index("ix_games_match_kind", table_name="games")
    op.drop_index("ix_matches_player1_stats", table_name="matches")
    op.drop_index("ix_matches_player0_stats", table_name="matches")
    # SQLite 3.35+ drops a column in place; a batch copy of players would have to drop the
    # old table, which the matches' foreign keys refuse once there are matches
    bind = op.get_bind()
    if bind.dialect.name != "sqlite" or sqlite3.sqlite_version_info >= (3, 35):
        op.drop_column("players", "hidden")
        return
    with op.batch_alter_table("players") as batch:
        batch.drop_column("hidden")
