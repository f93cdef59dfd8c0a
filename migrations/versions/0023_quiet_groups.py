"""``chat_settings.quiet``: a group whose admins quieted the bot (``/quiet on``): its boards
come silently, and the end of a match reveals the dice seed in the players' private chats
instead of in the group.

Revision ID: 0023
Revises: 0019
Create Date: 2026-12-01 23:10:00.000000
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # with a server default: SQLite adds it with ALTER TABLE, no batch copy
    op.add_column("chat_settings", sa.Column("quiet", sa.Boolean(), server_default=sa.false(),
                                             nullable=False))


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "sqlite" or sqlite3.sqlite_version_info >= (3, 35):
        op.drop_column("chat_settings", "quiet")
        return
    with op.batch_alter_table("chat_settings") as batch:
        batch.drop_column("quiet")
