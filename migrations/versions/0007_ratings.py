"""Ratings: one FIBS rating per player globally (scope 0) and per group (scope = the chat id),
and each rated match's change, written in the transaction that ends the match.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03 12:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("scope", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("experience", sa.Integer(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE",
                                name=op.f("fk_ratings_player_id_players")),
        sa.PrimaryKeyConstraint("player_id", "scope", name=op.f("pk_ratings")),
    )
    op.create_index("ix_ratings_scope_rating", "ratings", ["scope", "rating"])
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("scope", sa.BigInteger(), nullable=False),
        sa.Column("before", sa.Float(), nullable=False),
        sa.Column("after", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE",
                                name=op.f("fk_rating_changes_match_id_matches")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_changes")),
        sa.UniqueConstraint("match_id", "player_id", "scope",
                            name=op.f("uq_rating_changes_match_id_player_id_scope")),
    )
    op.create_index(op.f("ix_rating_changes_player_id"), "rating_changes", ["player_id"])


def downgrade() -> None:
    op.drop_table("rating_changes")
    op.drop_table("ratings")
