"""The tables of "find me an opponent", the group ladders and vacations (revision 0021), on the
same declarative base as :mod:`storage.models` (kept apart to keep that module small; the use
cases import it, so the metadata always holds them)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    SmallInteger,
    String,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from storage.models import Base, UTCDateTime

REQUEST_STATUSES = ("waiting", "paired", "started", "cancelled")


class MatchRequestRow(Base):
    """One player waiting for an opponent (``/play``): the game, the length (``None``: any),
    the time per move, and the player's global rating in that game when they asked. A pairing
    claims two waiting rows with one conditional update (``status`` ``waiting`` to
    ``paired``); the challenge made for them is recorded next (``challenge_id``, ``started``)."""

    __tablename__ = "match_requests"
    __table_args__ = (
        # the candidates of a pairing: same game and time, by rating, or by age
        Index("ix_match_requests_pool", "status", "game_type", "move_seconds", "rating"),
        Index("ix_match_requests_age", "status", "game_type", "move_seconds", "created_at"),
        Index("ix_match_requests_player", "player_id", "status"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("players.id", ondelete="CASCADE"))
    status: Mapped[str] = mapped_column(String(16))
    game_type: Mapped[str] = mapped_column(String(16))
    length: Mapped[int | None] = mapped_column(SmallInteger)
    move_seconds: Mapped[int] = mapped_column(Integer)
    winner_starts: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    rating: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    paired_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    partner_id: Mapped[int | None] = mapped_column(Integer)
    """The other request of the pairing."""
    challenge_id: Mapped[int | None] = mapped_column(Integer)
    """The challenge made for the pairing (its match is an ordinary match)."""


class PlayerBlockRow(Base):
    """``player_id`` never wants to be paired with ``blocked_id`` again (either way round)."""

    __tablename__ = "player_blocks"

    player_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    blocked_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class LadderPlayerRow(Base):
    """A player on a group's ladder: their rung (1 the bottom; a win moves one up, a loss one
    down, never below 1). ``active`` false: left (their rung is kept should they come back)."""

    __tablename__ = "ladder_players"

    chat_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    player_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    rung: Mapped[int] = mapped_column(Integer, default=1)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    losses: Mapped[int] = mapped_column(Integer, default=0)
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime)


class LadderRow(Base):
    """A group's ladder as it was opened (revision 0024): what its matches play (a match kind
    of :mod:`rules.game`, a rotation included, and a length), who opened it, and its card in
    the group, edited in place through the outbox (``card_message_id``; none yet: the next
    redraw posts one)."""

    __tablename__ = "ladders"

    chat_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    game_type: Mapped[str] = mapped_column(String(16))
    length: Mapped[int] = mapped_column(SmallInteger)
    opened_by: Mapped[int | None] = mapped_column(BigInteger)
    opened_at: Mapped[datetime] = mapped_column(UTCDateTime)
    card_message_id: Mapped[int | None] = mapped_column(BigInteger)


class LadderMatchRow(Base):
    """A ladder pairing of one day: its challenge (then match), settled once it ended."""

    __tablename__ = "ladder_matches"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chat_id: Mapped[int] = mapped_column(BigInteger, index=True)
    day: Mapped[str] = mapped_column(String(10))
    match_id: Mapped[int] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), unique=True)
    challenge_id: Mapped[int] = mapped_column(Integer)
    player0_id: Mapped[int] = mapped_column(BigInteger)
    player1_id: Mapped[int] = mapped_column(BigInteger)
    settled: Mapped[bool] = mapped_column(Boolean, default=False)
    winner_id: Mapped[int | None] = mapped_column(BigInteger)


class LadderDayRow(Base):
    """A group's ladder was paired on this day (UTC): the primary key makes the daily run
    happen once, whichever instance gets there first."""

    __tablename__ = "ladder_days"

    chat_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    run_at: Mapped[datetime] = mapped_column(UTCDateTime)


class VacationRow(Base):
    """A vacation: the player's clocks in their ordinary matches stand still from
    ``starts_at`` to ``ends_at``."""

    __tablename__ = "vacations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("players.id", ondelete="CASCADE"), index=True)
    starts_at: Mapped[datetime] = mapped_column(UTCDateTime)
    ends_at: Mapped[datetime] = mapped_column(UTCDateTime)
    days: Mapped[int] = mapped_column(SmallInteger)
