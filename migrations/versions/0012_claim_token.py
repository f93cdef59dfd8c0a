"""A fencing token on delivery claims (issue 14): ``deliveries.claim_token`` goes up by one with
every claim of the place (a worker's claim, the claim an action writes for the worker of the
process that committed it, a keyboard edit's short claim, a dead worker's claims released).
Each write of the worker compares it with the token it got: a worker whose lease ran out while
another instance took the place over is refused, and cannot complete, reschedule, record or
retire anything there any more.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01 06:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A server default: SQLite adds the column with ALTER TABLE, no batch copy; every existing
    # claim starts at 0 (the next claim makes it 1).
    op.add_column("deliveries", sa.Column("claim_token", sa.Integer(), server_default="0",
                                          nullable=False))


def downgrade() -> None:
    bind = op.get_bind()
    version = getattr(bind.dialect.dbapi, "sqlite_version_info", (0,))
    if bind.dialect.name != "sqlite" or version >= (3, 35):
        op.drop_column("deliveries", "claim_token")
        return
    with op.batch_alter_table("deliveries") as batch:
        batch.drop_column("claim_token")
