""""Find me an opponent" (``match_requests``, ``player_blocks``), the group ladders
(``ladder_players``, ``ladder_matches``, ``ladder_days``) and vacations (``vacations``): new
tables only, nothing existing is altered.

Revision ID: 0021
Revises: 0019
Create Date: 2026-12-01 23:30:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "match_requests",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("game_type", sa.String(length=16), nullable=False),
        sa.Column("length", sa.SmallInteger(), nullable=True),
        sa.Column("move_seconds", sa.Integer(), nullable=False),
        sa.Column("winner_starts", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("paired_at", TZ, nullable=True),
        sa.Column("partner_id", sa.Integer(), nullable=True),
        sa.Column("challenge_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE",
                                name=op.f("fk_match_requests_player_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_match_requests")),
    )
    op.create_index("ix_match_requests_pool", "match_requests",
                    ["status", "game_type", "move_seconds", "rating"])
    op.create_index("ix_match_requests_age", "match_requests",
                    ["status", "game_type", "move_seconds", "created_at"])
    op.create_index("ix_match_requests_player", "match_requests", ["player_id", "status"])
    op.create_table(
        "player_blocks",
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("blocked_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE",
                                name=op.f("fk_player_blocks_player_id_players")),
        sa.PrimaryKeyConstraint("player_id", "blocked_id", name=op.f("pk_player_blocks")),
    )
    op.create_index(op.f("ix_player_blocks_blocked_id"), "player_blocks", ["blocked_id"])
    op.create_table(
        "ladder_players",
        sa.Column("chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("rung", sa.Integer(), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("joined_at", TZ, nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE",
                                name=op.f("fk_ladder_players_player_id_players")),
        sa.PrimaryKeyConstraint("chat_id", "player_id", name=op.f("pk_ladder_players")),
    )
    op.create_table(
        "ladder_matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("challenge_id", sa.Integer(), nullable=False),
        sa.Column("player0_id", sa.BigInteger(), nullable=False),
        sa.Column("player1_id", sa.BigInteger(), nullable=False),
        sa.Column("settled", sa.Boolean(), nullable=False),
        sa.Column("winner_id", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE",
                                name=op.f("fk_ladder_matches_match_id_matches")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ladder_matches")),
        sa.UniqueConstraint("match_id", name=op.f("uq_ladder_matches_match_id")),
    )
    op.create_index(op.f("ix_ladder_matches_chat_id"), "ladder_matches", ["chat_id"])
    op.create_table(
        "ladder_days",
        sa.Column("chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("run_at", TZ, nullable=False),
        sa.PrimaryKeyConstraint("chat_id", "day", name=op.f("pk_ladder_days")),
    )
    op.create_table(
        "vacations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("starts_at", TZ, nullable=False),
        sa.Column("ends_at", TZ, nullable=False),
        sa.Column("days", sa.SmallInteger(), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE",
                                name=op.f("fk_vacations_player_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_vacations")),
    )
    op.create_index(op.f("ix_vacations_player_id"), "vacations", ["player_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_vacations_player_id"), table_name="vacations")
    op.drop_table("vacations")
    op.drop_table("ladder_days")
    op.drop_index(op.f("ix_ladder_matches_chat_id"), table_name="ladder_matches")
    op.drop_table("ladder_matches")
    op.drop_table("ladder_players")
    op.drop_index(op.f("ix_player_blocks_blocked_id"), table_name="player_blocks")
    op.drop_table("player_blocks")
    for name in ("ix_match_requests_player", "ix_match_requests_age", "ix_match_requests_pool"):
        op.drop_index(name, table_name="match_requests")
    op.drop_table("match_requests")
