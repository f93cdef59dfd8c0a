"""Rematches: a challenge remembers the finished match it is the rematch of, at most one each.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30 20:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # batch: SQLite adds a foreign key and a unique constraint only by copying the table
    with op.batch_alter_table("challenges") as batch:
        batch.add_column(sa.Column("rematch_of", sa.Integer(), nullable=True))
        batch.create_unique_constraint(batch.f("uq_challenges_rematch_of"), ["rematch_of"])
        batch.create_foreign_key(
            batch.f("fk_challenges_rematch_of_matches"), "matches", ["rematch_of"], ["id"],
            ondelete="SET NULL",
        )


def downgrade() -> None:
    with op.batch_alter_table("challenges") as batch:
        batch.drop_constraint(batch.f("fk_challenges_rematch_of_matches"), type_="foreignkey")
        batch.drop_constraint(batch.f("uq_challenges_rematch_of"), type_="unique")
        batch.drop_column("rematch_of")
