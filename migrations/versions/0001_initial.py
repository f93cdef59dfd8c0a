"""Initial schema: players, matches, games, turns (move log), challenges, boards, timers.

Revision ID: 0001
Revises:
Create Date: 2026-11-29 11:18:04.002780
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


# One function because Alembic generated it: the whole initial schema, table by table, in order.
def upgrade() -> None:

    op.create_table(
        "players",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("display_name", sa.String(length=128), nullable=False),
        sa.Column("username", sa.String(length=64), nullable=True),
        sa.Column("language", sa.String(length=16), nullable=True),
        sa.Column("can_message", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
    )
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_players_username"), ["username"], unique=False)

    op.create_table(
        "matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("player0_id", sa.BigInteger(), nullable=False),
        sa.Column("player1_id", sa.BigInteger(), nullable=True),
        sa.Column("computer_level", sa.SmallInteger(), nullable=True),
        sa.Column("length", sa.SmallInteger(), nullable=False),
        sa.Column("no_triple", sa.Boolean(), nullable=False),
        sa.Column("score0", sa.SmallInteger(), nullable=False),
        sa.Column("score1", sa.SmallInteger(), nullable=False),
        sa.Column("winner", sa.SmallInteger(), nullable=True),
        sa.Column("end_reason", sa.String(length=16), nullable=True),
        sa.Column("to_act", sa.SmallInteger(), nullable=True),
        sa.Column("chat_id", sa.BigInteger(), nullable=True),
        sa.Column("thread_id", sa.BigInteger(), nullable=True),
        sa.Column("inline_message_id", sa.String(length=128), nullable=True),
        sa.Column("state", sa.Text(), nullable=False),
        sa.Column("state_format", sa.SmallInteger(), nullable=False),
        sa.Column("seed", sa.LargeBinary(length=32), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("mix", sa.String(length=256), nullable=True),
        sa.Column("dice_drawn", sa.Integer(), nullable=False),
        sa.Column("turn_deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "status IN ('challenge', 'active', 'finished', 'abandoned', 'expired', 'cancelled')",
            name=op.f("ck_matches_status"),
        ),
        sa.CheckConstraint(
            "computer_level IS NULL OR player1_id IS NULL",
            name=op.f("ck_matches_computer_has_no_user"),
        ),
        sa.CheckConstraint("length IN (1, 3, 5, 7)", name=op.f("ck_matches_length")),
        sa.CheckConstraint("version >= 1", name=op.f("ck_matches_version")),
        sa.ForeignKeyConstraint(
            ["player0_id"],
            ["players.id"],
            name=op.f("fk_matches_player0_id_players"),
            ondelete="RESTRICT",
        ),
        sa.ForeignKeyConstraint(
            ["player1_id"],
            ["players.id"],
            name=op.f("fk_matches_player1_id_players"),
            ondelete="RESTRICT",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_matches")),
    )
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_matches_chat_id"), ["chat_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_matches_player0_id"), ["player0_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_matches_player1_id"), ["player1_id"], unique=False)
        batch_op.create_index("ix_matches_status_updated", ["status", "updated_at"], unique=False)

    op.create_table(
        "board_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=True),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("inline_message_id", sa.String(length=128), nullable=True),
        sa.Column("for_seat", sa.SmallInteger(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("live", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "(chat_id IS NOT NULL AND message_id IS NOT NULL) OR inline_message_id IS NOT NULL",
            name=op.f("ck_board_messages_has_address"),
        ),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_board_messages_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_board_messages")),
    )
    with op.batch_alter_table("board_messages", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_board_messages_match_id"), ["match_id"], unique=False)

    op.create_table(
        "challenges",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(length=16), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("author_id", sa.BigInteger(), nullable=False),
        sa.Column("target_id", sa.BigInteger(), nullable=True),
        sa.Column("target_username", sa.String(length=64), nullable=True),
        sa.Column("chat_id", sa.BigInteger(), nullable=True),
        sa.Column("thread_id", sa.BigInteger(), nullable=True),
        sa.Column("inline", sa.Boolean(), nullable=False),
        sa.Column("card_chat_id", sa.BigInteger(), nullable=True),
        sa.Column("card_message_id", sa.BigInteger(), nullable=True),
        sa.Column("card_inline_message_id", sa.String(length=128), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "status IN ('open', 'accepted', 'cancelled', 'expired')",
            name=op.f("ck_challenges_status"),
        ),
        sa.ForeignKeyConstraint(
            ["author_id"],
            ["players.id"],
            name=op.f("fk_challenges_author_id_players"),
            ondelete="RESTRICT",
        ),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_challenges_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["target_id"],
            ["players.id"],
            name=op.f("fk_challenges_target_id_players"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_challenges")),
        sa.UniqueConstraint("match_id", name=op.f("uq_challenges_match_id")),
        sa.UniqueConstraint("token", name=op.f("uq_challenges_token")),
    )
    with op.batch_alter_table("challenges", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_challenges_author_id"), ["author_id"], unique=False)

    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.SmallInteger(), nullable=False),
        sa.Column("opening0", sa.SmallInteger(), nullable=True),
        sa.Column("opening1", sa.SmallInteger(), nullable=True),
        sa.Column("winner", sa.SmallInteger(), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=True),
        sa.Column("points", sa.SmallInteger(), nullable=True),
        sa.Column("resigned", sa.Boolean(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_games_match_id_matches"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
        sa.UniqueConstraint("match_id", "number", name=op.f("uq_games_match_id_number")),
    )
    op.create_table(
        "timers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=24), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=True),
        sa.Column("after_s", sa.Integer(), nullable=True),
        sa.Column("fired_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("fired_by", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "kind IN ('reminder', 'timeout', 'challenge_expiry')", name=op.f("ck_timers_kind")
        ),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_timers_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_timers")),
    )
    with op.batch_alter_table("timers", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_timers_match_id"), ["match_id"], unique=False)
        batch_op.create_index("ix_timers_pending", ["fired_at", "due_at"], unique=False)

    op.create_table(
        "turns",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.SmallInteger(), nullable=False),
        sa.Column("turn", sa.SmallInteger(), nullable=False),
        sa.Column("player", sa.SmallInteger(), nullable=False),
        sa.Column("die1", sa.SmallInteger(), nullable=False),
        sa.Column("die2", sa.SmallInteger(), nullable=False),
        sa.Column("steps", sa.JSON(), nullable=False),
        sa.Column("text", sa.String(length=96), nullable=False),
        sa.Column("gnubg_id", sa.String(length=40), nullable=False),
        sa.Column("forced", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_turns_match_id_matches"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_turns")),
        sa.UniqueConstraint("match_id", "game", "turn", name=op.f("uq_turns_match_id_game_turn")),
    )


def downgrade() -> None:

    op.drop_table("turns")
    with op.batch_alter_table("timers", schema=None) as batch_op:
        batch_op.drop_index("ix_timers_pending")
        batch_op.drop_index(batch_op.f("ix_timers_match_id"))

    op.drop_table("timers")
    op.drop_table("games")
    with op.batch_alter_table("challenges", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_challenges_author_id"))

    op.drop_table("challenges")
    with op.batch_alter_table("board_messages", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_board_messages_match_id"))

    op.drop_table("board_messages")
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_index("ix_matches_status_updated")
        batch_op.drop_index(batch_op.f("ix_matches_player1_id"))
        batch_op.drop_index(batch_op.f("ix_matches_player0_id"))
        batch_op.drop_index(batch_op.f("ix_matches_chat_id"))

    op.drop_table("matches")
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_players_username"))

    op.drop_table("players")
