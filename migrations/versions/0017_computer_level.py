"""The computer's level a player chose (issue 27): ``players.computer_level`` (1 easy, 2 medium,
3 strong) is written when they tap a level on the /new card, before the card is drawn again; a
length tapped meanwhile on the card as it was (its redraw waits for the chat's budget, about
a second or two) starts the match at the level chosen, not at the one the old card showed. Their
next card shows it ticked. Existing players have chosen none.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-01 09:00:00.000000
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # nullable, no default: SQLite adds it with ALTER TABLE, no batch copy
    op.add_column("players", sa.Column("computer_level", sa.SmallInteger(), nullable=True))


def downgrade() -> None:
    # as in 0014: SQLite 3.35+ drops a column in place (a batch copy of players would have to
    # drop a table the matches' foreign keys point at)
    bind = op.get_bind()
    if bind.dialect.name != "sqlite" or sqlite3.sqlite_version_info >= (3, 35):
        op.drop_column("players", "computer_level")
        return
    with op.batch_alter_table("players") as batch:
        batch.drop_column("computer_level")
