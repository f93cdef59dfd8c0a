"""``match_accuracy``: each player's accuracy figure over a finished match between people (the
decisions with a choice, the equity lost on them, the evaluator that judged them), computed in
the background once the match is over. Older matches get theirs as the job reaches them.

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-01 23:40:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "match_accuracy",
        sa.Column("match_id", sa.Integer(),
                  sa.ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("decisions", sa.Integer(), nullable=False),
        sa.Column("equity_lost", sa.Float(), nullable=False),
        sa.Column("evaluator", sa.String(80), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("computed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("match_id", "seat"),
    )
    op.create_index("ix_match_accuracy_player_game", "match_accuracy",
                    ["player_id", "game", "finished_at"])


def downgrade() -> None:
    op.drop_index("ix_match_accuracy_player_game", table_name="match_accuracy")
    op.drop_table("match_accuracy")
