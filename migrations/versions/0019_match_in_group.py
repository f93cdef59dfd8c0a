"""``matches.in_group``: the match is played in a group (its shared board there), stored with
the match instead of read off the sign of its chat id, so that storage knows no Telegram id
conventions. The bot says so when it opens the challenge; existing matches get it once here
from their chat id (a group's is negative), and a match moved to private chats loses it.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-01 20:30:00.000000
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # with a server default: SQLite adds it with ALTER TABLE, no batch copy
    op.add_column("matches", sa.Column("in_group", sa.Boolean(), server_default=sa.false(),
                                       nullable=False))
    op.execute("UPDATE matches SET in_group = (chat_id IS NOT NULL AND chat_id < 0)")


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "sqlite" or sqlite3.sqlite_version_info >= (3, 35):
        op.drop_column("matches", "in_group")
        return
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("in_group")
