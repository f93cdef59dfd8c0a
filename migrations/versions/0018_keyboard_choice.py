"""A checker chosen is a request to the outbox: ``deliveries.selected`` (the point whose
destinations the place's keyboard offers, none: the list of checkers), ``selected_version``
(the match version that choice was made at: at any other version it means nothing) and
``keyboard_asked`` (the choice is not on the place's board yet). A tap that changes only the
keyboard writes them, and the delivery worker edits the board, with the retries, the claims
and the fencing every board has: the tap is never answered while its keyboard edit is dropped
(the place held by a worker, a board posted anew meanwhile, a restart). Existing places start
with no choice.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-01 08:00:00.000000
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = ("selected", "selected_version", "keyboard_asked")


def upgrade() -> None:
    # nullable or with a server default: SQLite adds them with ALTER TABLE, no batch copy
    op.add_column("deliveries", sa.Column("selected", sa.SmallInteger(), nullable=True))
    op.add_column("deliveries", sa.Column("selected_version", sa.Integer(), nullable=True))
    op.add_column("deliveries", sa.Column("keyboard_asked", sa.Boolean(),
                                          server_default=sa.false(), nullable=False))


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "sqlite" or sqlite3.sqlite_version_info >= (3, 35):
        for name in reversed(COLUMNS):
            op.drop_column("deliveries", name)
        return
    with op.batch_alter_table("deliveries") as batch:
        for name in reversed(COLUMNS):
            batch.drop_column(name)
