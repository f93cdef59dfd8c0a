"""Several instances: the computer's turns claimed with a lease (taken over when an instance
dies), and the groups' Telegram budgets shared in the database.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01 03:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # New tables only: nothing existing is altered.
    op.create_table(
        "computer_claims",
        sa.Column("match_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("claimed_by", sa.String(length=64), nullable=False),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE",
                                name=op.f("fk_computer_claims_match_id_matches")),
        sa.PrimaryKeyConstraint("match_id", name=op.f("pk_computer_claims")),
    )
    op.create_table(
        "send_budgets",
        sa.Column("chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("times", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("chat_id", name=op.f("pk_send_budgets")),
    )


def downgrade() -> None:
    op.drop_table("send_budgets")
    op.drop_table("computer_claims")
