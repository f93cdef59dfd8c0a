"""``deliveries.firm_version``: a new board asked for that must be a new message whatever the
group's budget (a ``/games``, a reminder, the match's end). A turn's new board in a group whose
both players play on its board leaves it unset: when the group's minute is half spent the
delivery worker edits the live board instead (one call where a new board and the old one's
deletion are two), so a busy group does not keep the next mover waiting.

A request written before this revision has it unset, which the worker reads as "may be an
edit" only for the shared board of such a match, and only while the group is busy.

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-03 13:10:00.000000
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0025"
down_revision: str | None = "0024"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("deliveries", sa.Column("firm_version", sa.Integer(), nullable=True))


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "sqlite" or sqlite3.sqlite_version_info >= (3, 35):
        op.drop_column("deliveries", "firm_version")
        return
    with op.batch_alter_table("deliveries") as batch:
        batch.drop_column("firm_version")
