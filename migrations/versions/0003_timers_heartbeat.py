"""Heartbeats of the running instances, so time when no instance ran is not counted against a
player (pending deadlines are pushed by it at start).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30 20:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A new table only: nothing existing is altered.
    op.create_table(
        "heartbeats",
        sa.Column("instance", sa.String(length=64), nullable=False),
        sa.Column("beat_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("instance", name=op.f("pk_heartbeats")),
    )


def downgrade() -> None:
    op.drop_table("heartbeats")
