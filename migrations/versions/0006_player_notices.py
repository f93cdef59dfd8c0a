"""Private notices: a player may turn them off (/notices); their boards and reminders then
come silently (still posted: the board is where they play).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02 12:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A column with a server default: SQLite adds it with ALTER TABLE, no batch copy, and
    # every existing player gets notices on.
    op.add_column("players", sa.Column("notices", sa.Boolean(), server_default=sa.true(),
                                       nullable=False))


def downgrade() -> None:
    # batch: older SQLite drops a column only by copying the table
    with op.batch_alter_table("players") as batch:
        batch.drop_column("notices")
