"""``ladders``: a group's ladder as it was opened: the match kind its matches play (any game
of the registry, a rotation included), their length, who opened it, and its card in the group
(edited in place through the outbox). The ladders already played (players on them) get a row
with what they played until now: Portes, to 3 points.

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-02 03:40:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None
TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "ladders",
        sa.Column("chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("game_type", sa.String(16), nullable=False),
        sa.Column("length", sa.SmallInteger(), nullable=False),
        sa.Column("opened_by", sa.BigInteger(), nullable=True),
        sa.Column("opened_at", TZ, nullable=False),
        sa.Column("card_message_id", sa.BigInteger(), nullable=True),
        sa.PrimaryKeyConstraint("chat_id", name=op.f("pk_ladders")),
    )
    op.execute(
        "INSERT INTO ladders (chat_id, game_type, length, opened_at)"
        " SELECT chat_id, 'portes', 3, MIN(joined_at) FROM ladder_players GROUP BY chat_id")


def downgrade() -> None:
    op.drop_table("ladders")
