"""Player settings and time per move: a player's board theme and home side (/settings), and the
time per move chosen for a match at /new (NULL: the operator's default).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01 03:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Columns with server defaults (or nullable): SQLite adds them with ALTER TABLE, no batch
    # copy; every existing player keeps the classic board with the home on the right, and
    # every existing match keeps the operator's time per move.
    op.add_column("players", sa.Column("theme", sa.String(length=16),
                                       server_default="classic", nullable=False))
    op.add_column("players", sa.Column("home_side", sa.String(length=8),
                                       server_default="right", nullable=False))
    op.add_column("matches", sa.Column("move_seconds", sa.Integer(), nullable=True))


def downgrade() -> None:
    _drop_columns("matches", "move_seconds")
    _drop_columns("players", "home_side", "theme")


def _drop_columns(table: str, *names: str) -> None:
    """SQLite 3.35+ drops a plain column in place; a batch copy of ``players`` would fail its
    drop while matches refer to players (foreign keys are on), so the copy is the fallback for
    older SQLite only. PostgreSQL drops in place too."""
    bind = op.get_bind()
    version = getattr(bind.dialect.dbapi, "sqlite_version_info", (0,))
    if bind.dialect.name != "sqlite" or version >= (3, 35):
        for name in names:
            op.drop_column(table, name)
        return
    with op.batch_alter_table(table) as batch:
        for name in names:
            batch.drop_column(name)
