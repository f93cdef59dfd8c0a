"""Commands handled once: ``handled_updates`` holds the update id of each command being handled
(claimed by an instance, with a lease) or handled. Telegram delivers an update again when it got
no answer (the webhook answers once an update was handled, so an instance killed meanwhile
leaves it unanswered); a tap or a typed play is refused by its match version or message id, a
command by this row.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-01 08:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A new table only: nothing existing is altered.
    op.create_table(
        "handled_updates",
        sa.Column("update_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("claimed_by", sa.String(length=64), nullable=False),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("done", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("update_id", name=op.f("pk_handled_updates")),
    )


def downgrade() -> None:
    op.drop_table("handled_updates")
