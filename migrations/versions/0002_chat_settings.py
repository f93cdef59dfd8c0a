"""Per-chat settings: the language of a group's match cards (set with /lang in the group).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 12:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A new table only: no ALTER of an existing one, so no batch copy is needed on SQLite.
    op.create_table(
        "chat_settings",
        sa.Column("chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("language", sa.String(length=16), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("chat_id", name=op.f("pk_chat_settings")),
    )


def downgrade() -> None:
    op.drop_table("chat_settings")
