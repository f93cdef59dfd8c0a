"""Delivery: the outbox of what each chat should show (deliveries) and each chat's highest
message id sent (delivery_chats).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30 20:30:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # New tables only: no batch copy of an existing one on SQLite. Active matches get their
    # rows from the first reconcile pass after start.
    op.create_table(
        "deliveries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("place", sa.String(length=160), nullable=False),
        sa.Column("chat_key", sa.String(length=160), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=True),
        sa.Column("inline_message_id", sa.String(length=128), nullable=True),
        sa.Column("for_seat", sa.SmallInteger(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("shown", sa.Integer(), nullable=False),
        sa.Column("repost_version", sa.Integer(), nullable=True),
        sa.Column("media_version", sa.Integer(), nullable=True),
        sa.Column("notify_version", sa.Integer(), nullable=True),
        sa.Column("notes", sa.JSON(), nullable=True),
        sa.Column("notes_version", sa.Integer(), nullable=True),
        sa.Column("probes", sa.JSON(), nullable=True),
        sa.Column("pending", sa.Boolean(), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("claimed_by", sa.String(length=64), nullable=True),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.String(length=200), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"],
                                name=op.f("fk_deliveries_match_id_matches"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_deliveries")),
        sa.UniqueConstraint("match_id", "place", name=op.f("uq_deliveries_match_id_place")),
    )
    op.create_index(op.f("ix_deliveries_chat_key"), "deliveries", ["chat_key"], unique=False)
    op.create_index("ix_deliveries_pending", "deliveries", ["pending", "due_at"], unique=False)
    op.create_table(
        "delivery_chats",
        sa.Column("chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("last_message_id", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("chat_id", name=op.f("pk_delivery_chats")),
    )


def downgrade() -> None:
    op.drop_table("delivery_chats")
    op.drop_index("ix_deliveries_pending", table_name="deliveries")
    op.drop_index(op.f("ix_deliveries_chat_key"), table_name="deliveries")
    op.drop_table("deliveries")
