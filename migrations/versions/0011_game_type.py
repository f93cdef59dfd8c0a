"""The game a match plays (issue 15): ``matches.game_type`` is ``portes``, ``plakoto``,
``fevga``, ``nardy`` or ``tavli`` (the three in turn). Every existing match is Portes.

A drawn Plakoto (both mothers pinned) is a ``games`` row with ``kind`` ``draw``, no winner and
0 points; its game is played again as the next number, so no column is needed for it.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01 04:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A server default: SQLite adds the column with ALTER TABLE, no batch copy, and every
    # existing match reads as Portes.
    op.add_column("matches", sa.Column("game_type", sa.String(length=16),
                                       server_default="portes", nullable=False))


def downgrade() -> None:
    bind = op.get_bind()
    version = getattr(bind.dialect.dbapi, "sqlite_version_info", (0,))
    if bind.dialect.name != "sqlite" or version >= (3, 35):
        op.drop_column("matches", "game_type")
        return
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("game_type")
