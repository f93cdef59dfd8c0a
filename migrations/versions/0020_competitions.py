"""Competitions: a group's league (a round robin) and cup (a knockout), their sign-ups and
pairings. Each pairing's match is an ordinary ``matches`` row; ``competition_games.match_id``
links it (unique: a pairing gets one match however often its creation is retried).

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-01 23:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "competitions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("thread_id", sa.BigInteger(), nullable=True),
        sa.Column("organiser_id", sa.BigInteger(), nullable=False),
        sa.Column("game_type", sa.String(16), nullable=False),
        sa.Column("length", sa.SmallInteger(), nullable=False),
        sa.Column("move_seconds", sa.Integer(), nullable=True),
        sa.Column("double", sa.Boolean(), nullable=False),
        sa.Column("gammons", sa.Boolean(), nullable=False),
        sa.Column("round_seconds", sa.Integer(), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("round", sa.SmallInteger(), nullable=False),
        sa.Column("card_message_id", sa.BigInteger(), nullable=True),
        sa.Column("winner_id", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("kind IN ('league', 'cup')", name=op.f("ck_competitions_kind")),
        sa.CheckConstraint("status IN ('signup', 'running', 'finished', 'cancelled')",
                           name=op.f("ck_competitions_status")),
        sa.CheckConstraint("length IN (1, 3, 5, 7)", name=op.f("ck_competitions_length")),
        sa.ForeignKeyConstraint(["organiser_id"], ["players.id"], ondelete="RESTRICT",
                                name=op.f("fk_competitions_organiser_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_competitions")),
    )
    op.create_index("ix_competitions_chat_status", "competitions", ["chat_id", "status"])
    op.create_index("ix_competitions_status_due", "competitions", ["status", "due_at"])
    op.create_table(
        "competition_entries",
        sa.Column("competition_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seed", sa.SmallInteger(), nullable=True),
        sa.Column("left_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["competition_id"], ["competitions.id"], ondelete="CASCADE",
                                name=op.f("fk_competition_entries_competition_id_competitions")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE",
                                name=op.f("fk_competition_entries_player_id_players")),
        sa.PrimaryKeyConstraint("competition_id", "player_id",
                                name=op.f("pk_competition_entries")),
    )
    op.create_index("ix_competition_entries_player", "competition_entries", ["player_id"])
    op.create_table(
        "competition_games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("competition_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.SmallInteger(), nullable=False),
        sa.Column("slot", sa.SmallInteger(), nullable=False),
        sa.Column("player0_id", sa.BigInteger(), nullable=True),
        sa.Column("player1_id", sa.BigInteger(), nullable=True),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column("winner_id", sa.BigInteger(), nullable=True),
        sa.Column("points", sa.SmallInteger(), nullable=False),
        sa.Column("reason", sa.String(16), nullable=True),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["competition_id"], ["competitions.id"], ondelete="CASCADE",
                                name=op.f("fk_competition_games_competition_id_competitions")),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="SET NULL",
                                name=op.f("fk_competition_games_match_id_matches")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_competition_games")),
        sa.UniqueConstraint("competition_id", "round", "slot",
                            name=op.f("uq_competition_games_competition_id_round_slot")),
        sa.UniqueConstraint("match_id", name=op.f("uq_competition_games_match_id")),
    )
    op.create_index("ix_competition_games_open", "competition_games",
                    ["competition_id", "decided_at"])


def downgrade() -> None:
    op.drop_index("ix_competition_games_open", table_name="competition_games")
    op.drop_table("competition_games")
    op.drop_index("ix_competition_entries_player", table_name="competition_entries")
    op.drop_table("competition_entries")
    op.drop_index("ix_competitions_status_due", table_name="competitions")
    op.drop_index("ix_competitions_chat_status", table_name="competitions")
    op.drop_table("competitions")
