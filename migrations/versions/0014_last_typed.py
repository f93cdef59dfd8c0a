"""Typed plays played once: ``players.last_typed`` holds the Telegram message id of the last
play a player typed that was played. The webhook answers Telegram only once an update was
handled, so the update of an instance killed after its commit is delivered again; a typed play
carries no match version, and its copy is refused by this id instead (message ids in one
private chat only grow). Existing players start with none.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-01 07:00:00.000000
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # nullable, no default: SQLite adds it with ALTER TABLE, no batch copy
    op.add_column("players", sa.Column("last_typed", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    # SQLite 3.35+ drops a column in place; a batch copy of players (older SQLite) would have
    # to drop the old table, which the matches' foreign keys refuse once there are matches
    bind = op.get_bind()
    if bind.dialect.name != "sqlite" or sqlite3.sqlite_version_info >= (3, 35):
        op.drop_column("players", "last_typed")
        return
    with op.batch_alter_table("players") as batch:
        batch.drop_column("last_typed")
