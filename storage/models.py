"""SQLAlchemy 2 typed models. Repositories and use cases turn rows into :mod:`storage.results`.

The constraint naming convention gives every constraint a stable name, which Alembic's batch
mode needs to alter SQLite tables. Times are stored in UTC and read back as aware datetimes.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    SmallInteger,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    false,
    text,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from rules.game import DEFAULT_KIND

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UTCDateTime(TypeDecorator[datetime]):
    """An aware UTC datetime on every backend (SQLite stores naive UTC text)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        value = value.astimezone(UTC)
        if dialect.name == "sqlite":
            return value.replace(tzinfo=None)
        return value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        assert isinstance(value, datetime)
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


MATCH_STATUSES = ("challenge", "active", "finished", "abandoned", "expired", "cancelled")
CHALLENGE_STATUSES = ("open", "accepted", "cancelled", "expired")
TIMER_KINDS = ("reminder", "timeout", "challenge_expiry")


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


ENDED_MATCH = "status IN ('finished', 'abandoned')"
"""The matches ``/stats`` counts (with a winner), and the condition of its partial indexes."""


class Player(Base):
    __tablename__ = "players"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    """The Telegram user id."""
    display_name: Mapped[str] = mapped_column(String(128))
    username: Mapped[str | None] = mapped_column(String(64), index=True)
    language: Mapped[str | None] = mapped_column(String(16))
    can_message: Mapped[bool] = mapped_column(Boolean, default=False)
    notices: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    """Whether their boards and reminders notify (``/notices``); off: they come silently."""
    theme: Mapped[str] = mapped_column(String(16), default="classic", server_default="classic")
    """The board theme of their private boards (``/settings``): a ``rendering.THEMES`` name."""
    home_side: Mapped[str] = mapped_column(String(8), default="right", server_default="right")
    """Where their home board is drawn on their private boards: ``right`` or ``left``."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    hidden: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Left out of every leaderboard (``/top hide``, revision 0008). A deleted player's
    stand-in row (a negative id, see :mod:`storage.social`) is hidden too."""
    last_typed: Mapped[int | None] = mapped_column(BigInteger)
    """The Telegram message id of the last play they typed that was played (revision 0014).
    The webhook answers Telegram only once an update was handled, so an update held by an
    instance killed after its commit is delivered again; a typed play carries no version, so
    its copy would be played a second time when their turn comes round again. Message ids in
    one private chat only grow, and typed plays are taken only there: a typed play whose id
    is not above this one was already played (:meth:`storage.usecases.kernel.Kernel.act`)."""
    computer_level: Mapped[int | None] = mapped_column(SmallInteger)
    """The computer's level they chose last on a /new card (1 easy, 2 medium, 3 strong; revision
    0016): stored with the tap, before the card is drawn again, so a length tapped on the card
    as it was before (its redraw waits for the chat's budget) starts a match at this level, and
    their next card shows it ticked. ``None``: never chosen."""


class MatchRow(Base):
    __tablename__ = "matches"
    __table_args__ = (
        CheckConstraint(_in("status", MATCH_STATUSES), name="status"),
        CheckConstraint("length IN (1, 3, 5, 7)", name="length"),
        CheckConstraint("version >= 1", name="version"),
        CheckConstraint(
            "computer_level IS NULL OR player1_id IS NULL", name="computer_has_no_user"
        ),
        Index("ix_matches_status_updated", "status", "updated_at"),
        # /stats and head to head (revision 0008; the game since 0013): a player's ended
        # matches of one game, read from the index alone; partial, so the writes of a match in
        # play never touch them
        Index("ix_matches_player0_stats", "player0_id", "game_type", "player1_id", "winner",
              "score0", "score1", "computer_level", "finished_at", "status",
              sqlite_where=text(ENDED_MATCH), postgresql_where=text(ENDED_MATCH)),
        Index("ix_matches_player1_stats", "player1_id", "game_type", "player0_id", "winner",
              "score0", "score1", "finished_at", "status",
              sqlite_where=text(ENDED_MATCH), postgresql_where=text(ENDED_MATCH)),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    status: Mapped[str] = mapped_column(String(16))
    version: Mapped[int] = mapped_column(Integer)
    """Bumped by every accepted action; every write compares and swaps it."""
    player0_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("players.id", ondelete="RESTRICT"), index=True
    )
    player1_id: Mapped[int | None] = mapped_column(
        BigInteger, ForeignKey("players.id", ondelete="RESTRICT"), index=True
    )
    computer_level: Mapped[int | None] = mapped_column(SmallInteger)
    """Not NULL: seat 1 is the computer at this level."""
    length: Mapped[int] = mapped_column(SmallInteger)
    no_triple: Mapped[bool] = mapped_column(Boolean, default=False)
    score0: Mapped[int] = mapped_column(SmallInteger, default=0)
    score1: Mapped[int] = mapped_column(SmallInteger, default=0)
    winner: Mapped[int | None] = mapped_column(SmallInteger)
    end_reason: Mapped[str | None] = mapped_column(String(16))
    to_act: Mapped[int | None] = mapped_column(SmallInteger)
    """The seat that must act now (denormalised from the state for listings)."""
    chat_id: Mapped[int | None] = mapped_column(BigInteger, index=True)
    thread_id: Mapped[int | None] = mapped_column(BigInteger)
    inline_message_id: Mapped[str | None] = mapped_column(String(128))
    in_group: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Played in a group (``chat_id`` is the group's, its shared board there): the bot says so
    when it opens the challenge (revision 0019); storage reads no kind off a chat's id."""
    state: Mapped[str] = mapped_column(Text)
    """The rules core's ``Match.to_json()``."""
    state_format: Mapped[int] = mapped_column(SmallInteger)
    seed: Mapped[bytes] = mapped_column(LargeBinary(32))
    """The secret dice seed; never shown before the match has ended."""
    commitment: Mapped[str] = mapped_column(String(64))
    mix: Mapped[str | None] = mapped_column(String(256))
    dice_drawn: Mapped[int] = mapped_column(Integer, default=0)
    turn_deadline: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    move_seconds: Mapped[int | None] = mapped_column(Integer)
    """The time per move chosen at ``/new``; NULL: the operator's default."""
    game_type: Mapped[str] = mapped_column(String(16), server_default=DEFAULT_KIND)
    """What the match plays: ``portes``, ``plakoto``, ``fevga``, ``nardy`` or ``tavli``."""


class GameRow(Base):
    __tablename__ = "games"
    __table_args__ = (
        UniqueConstraint("match_id", "number"),
        Index("ix_games_match_kind", "match_id", "kind", "winner"),  # /stats (revision 0008)
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(SmallInteger)
    opening0: Mapped[int | None] = mapped_column(SmallInteger)
    opening1: Mapped[int | None] = mapped_column(SmallInteger)
    winner: Mapped[int | None] = mapped_column(SmallInteger)
    kind: Mapped[str | None] = mapped_column(String(16))
    points: Mapped[int | None] = mapped_column(SmallInteger)
    resigned: Mapped[bool] = mapped_column(Boolean, default=False)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class TurnRow(Base):
    """The move log: one row per turn played (passes and forced plays included)."""

    __tablename__ = "turns"
    __table_args__ = (UniqueConstraint("match_id", "game", "turn"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    game: Mapped[int] = mapped_column(SmallInteger)
    turn: Mapped[int] = mapped_column(SmallInteger)
    player: Mapped[int] = mapped_column(SmallInteger)
    die1: Mapped[int] = mapped_column(SmallInteger)
    die2: Mapped[int] = mapped_column(SmallInteger)
    steps: Mapped[list[list[int]]] = mapped_column(JSON)
    """The single moves: ``[[from, to, die, hit], ...]`` (25 = bar, 0 = off)."""
    text: Mapped[str] = mapped_column(String(96))
    gnubg_id: Mapped[str] = mapped_column(String(40))
    forced: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class ChallengeRow(Base):
    __tablename__ = "challenges"
    __table_args__ = (CheckConstraint(_in("status", CHALLENGE_STATUSES), name="status"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), unique=True
    )
    token: Mapped[str] = mapped_column(String(16), unique=True)
    status: Mapped[str] = mapped_column(String(16))
    author_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("players.id", ondelete="RESTRICT"), index=True
    )
    target_id: Mapped[int | None] = mapped_column(
        BigInteger, ForeignKey("players.id", ondelete="SET NULL")
    )
    target_username: Mapped[str | None] = mapped_column(String(64))
    chat_id: Mapped[int | None] = mapped_column(BigInteger)
    thread_id: Mapped[int | None] = mapped_column(BigInteger)
    inline: Mapped[bool] = mapped_column(Boolean, default=False)
    card_chat_id: Mapped[int | None] = mapped_column(BigInteger)
    card_message_id: Mapped[int | None] = mapped_column(BigInteger)
    card_inline_message_id: Mapped[str | None] = mapped_column(String(128))
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    rematch_of: Mapped[int | None] = mapped_column(
        ForeignKey("matches.id", ondelete="SET NULL"), unique=True
    )
    """The finished match this challenge is the rematch of: unique, so however many times and
    however fast Rematch is tapped, a match has at most one rematch."""


class BoardMessageRow(Base):
    __tablename__ = "board_messages"
    __table_args__ = (
        CheckConstraint(
            "(chat_id IS NOT NULL AND message_id IS NOT NULL) OR inline_message_id IS NOT NULL",
            name="has_address",
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), index=True
    )
    chat_id: Mapped[int | None] = mapped_column(BigInteger)
    message_id: Mapped[int | None] = mapped_column(BigInteger)
    inline_message_id: Mapped[str | None] = mapped_column(String(128))
    for_seat: Mapped[int | None] = mapped_column(SmallInteger)
    version: Mapped[int] = mapped_column(Integer)
    live: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class TimerRow(Base):
    """A reminder, timeout or challenge expiry; fired at most once (``fired_at`` set)."""

    __tablename__ = "timers"
    __table_args__ = (
        CheckConstraint(_in("kind", TIMER_KINDS), name="kind"),
        Index("ix_timers_pending", "fired_at", "due_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(24))
    due_at: Mapped[datetime] = mapped_column(UTCDateTime)
    match_id: Mapped[int] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), index=True
    )
    seat: Mapped[int | None] = mapped_column(SmallInteger)
    after_s: Mapped[int | None] = mapped_column(Integer)
    """For reminders: seconds since the turn started."""
    fired_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    fired_by: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class ChatSettingRow(Base):
    """Settings of a group chat (revision 0002): the language of its match cards, set with
    ``/lang`` in the group, and whether its admins quieted it. Follows the chat when a group
    becomes a supergroup."""

    __tablename__ = "chat_settings"

    chat_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    """The Telegram chat id."""
    language: Mapped[str | None] = mapped_column(String(16))
    """``None``: not set (the match creator's language is used)."""
    quiet: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Quieted by its admins (``/quiet on``, revision 0023): the group's boards come silently,
    and a match's seed is revealed in its players' private chats, not in the group."""
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class HeartbeatRow(Base):
    """Signs of life (revision 0003): each running instance writes its row every timer poll.
    The row named :data:`ANY_INSTANCE` holds the newest beat of any instance, so a gap in it is
    time when no instance ran; the instance that claims the gap (compare-and-swap on that row)
    pushes every pending deadline by it, once."""

    __tablename__ = "heartbeats"

    instance: Mapped[str] = mapped_column(String(64), primary_key=True)
    beat_at: Mapped[datetime] = mapped_column(UTCDateTime)


ANY_INSTANCE = "*"
"""The heartbeat row of "some instance was running" (no instance takes this name)."""


class DeliveryRow(Base):
    """What one place should show of one match (revision 0005): the outbox the delivery worker
    drains. A place is a chat and an audience (the group's shared board, or one player's
    private board) or an inline message. Written in the same transaction as every accepted
    action; a newer action on the same place raises ``version`` and keeps the older requests
    (``*_version``), so taps made while a chat waits collapse into one call."""

    __tablename__ = "deliveries"
    __table_args__ = (
        UniqueConstraint("match_id", "place"),
        Index("ix_deliveries_pending", "pending", "due_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    place: Mapped[str] = mapped_column(String(160))
    """``chat:<chat id>:<seat or g>`` or ``inline:<inline message id>``."""
    chat_key: Mapped[str] = mapped_column(String(160), index=True)
    """The unit the worker serialises on: the chat id, or the inline place itself."""
    chat_id: Mapped[int | None] = mapped_column(BigInteger)
    inline_message_id: Mapped[str | None] = mapped_column(String(128))
    for_seat: Mapped[int | None] = mapped_column(SmallInteger)
    version: Mapped[int] = mapped_column(Integer)
    """The match version this place should show."""
    shown: Mapped[int] = mapped_column(Integer, default=0)
    """The match version delivered last."""
    repost_version: Mapped[int | None] = mapped_column(Integer)
    """Set: a new message is wanted (someone must act: a new message notifies)."""
    firm_version: Mapped[int | None] = mapped_column(Integer)
    """Set: that new message is wanted whatever the group's budget (revision 0025): a
    ``/games``, a reminder, the match's end. Unset while ``repost_version`` is set: a turn's
    new board that a busy group gets as an edit of the live one
    (:attr:`storage.delivery.outbox.Where.edit_if_busy`)."""
    media_version: Mapped[int | None] = mapped_column(Integer)
    """Set: the image changed (a turn ended), not only the caption and keyboard."""
    notify_version: Mapped[int | None] = mapped_column(Integer)
    """Set: the player to act in a group match gets a private notice."""
    notes: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    """What happened in the last turn-changing action (lines for the caption)."""
    notes_version: Mapped[int | None] = mapped_column(Integer)
    probes: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    """Sends whose outcome is unknown (a lost response, a crash): where to look for the
    orphan board and the exact caption and keyboard it carries."""
    pending: Mapped[bool] = mapped_column(Boolean, default=True)
    due_at: Mapped[datetime] = mapped_column(UTCDateTime)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    claimed_by: Mapped[str | None] = mapped_column(String(64))
    claimed_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    claim_token: Mapped[int] = mapped_column(Integer, server_default="0", default=0)
    """The fencing token (revision 0012): one more with every claim; the worker's writes
    compare it with the one it got, so a worker whose lease ran out is refused."""
    last_error: Mapped[str | None] = mapped_column(String(200))
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    selected: Mapped[int | None] = mapped_column(SmallInteger)
    """The checker whose destinations the keyboard offers (revision 0018); none: the list."""
    selected_version: Mapped[int | None] = mapped_column(Integer)
    """The match version :attr:`selected` was chosen at (at any other it means nothing)."""
    keyboard_asked: Mapped[bool] = mapped_column(Boolean, server_default=false(), default=False)
    """The choice is not on the place's board yet: the worker edits its keyboard."""


class DeliveryChatRow(Base):
    """Per chat (revision 0005): the highest message id the bot got back from a send there,
    the lower end of the gap where an orphan board can lie."""

    __tablename__ = "delivery_chats"

    chat_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    last_message_id: Mapped[int] = mapped_column(BigInteger, default=0)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class RatingRow(Base):
    """A player's FIBS rating in one game and one scope (revision 0007; the game since 0013):
    ``scope`` 0 is the global rating, a negative one the group chat's; ``game`` a match's
    ``game_type`` (``tavli``: the rotation, rated as a game of its own). Written in the
    transaction that ends a rated match."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_game_scope_rating", "game", "scope", "rating"),)

    player_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    scope: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    rating: Mapped[float] = mapped_column(Float)
    experience: Mapped[int] = mapped_column(Integer)
    """The sum of the lengths of the rated matches played (FIBS's experience), in this game."""
    matches: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class RatingChangeRow(Base):
    """What one rated match did to one player's rating in one game and scope (revision 0007;
    the game since 0013)."""

    __tablename__ = "rating_changes"
    __table_args__ = (
        UniqueConstraint("match_id", "player_id", "game", "scope"),
        # /stats: a player's last changes in one game and scope, newest first
        Index("ix_rating_changes_player_game", "player_id", "game", "scope", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(BigInteger)
    game: Mapped[str] = mapped_column(String(16))
    scope: Mapped[int] = mapped_column(BigInteger)
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)


class ComputerClaimRow(Base):
    """Who is playing the computer's pending turn in a match (revision 0010): a lease, renewed
    while the engine thinks. Another instance takes the turn over once the lease ran out (its
    holder died), so each pending computer turn is played by exactly one live instance."""

    __tablename__ = "computer_claims"

    match_id: Mapped[int] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    claimed_by: Mapped[str] = mapped_column(String(64))
    claimed_until: Mapped[datetime] = mapped_column(UTCDateTime)


class SendBudgetRow(Base):
    """A group's calls to Telegram in its last window, shared by every instance of the bot
    (revision 0010): Telegram's 20 calls a minute belong to the token, not to an instance. An
    instance takes a slot in one short transaction with this row locked."""

    __tablename__ = "send_budgets"

    chat_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    times: Mapped[list[float]] = mapped_column(JSON)
    """The calls' times (seconds since the epoch, wall clock), oldest first."""


class HandledUpdateRow(Base):
    """A command's update, claimed by the instance handling it, then marked handled (revision
    0015): Telegram delivers an update again when it got no answer, to any instance, and a
    command carries no version to refuse its copy by. The claim is a lease, renewed while the
    command runs: a copy waits for it, and takes it over once it ran out (its holder died before
    answering, so the command is not lost). Rows are pruned a while after Telegram stops
    redelivering (a day)."""

    __tablename__ = "handled_updates"

    update_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    claimed_by: Mapped[str] = mapped_column(String(64))
    claimed_until: Mapped[datetime] = mapped_column(UTCDateTime)
    """Until when the claim holds; once handled, when it was."""
    done: Mapped[bool] = mapped_column(Boolean, default=False)


COMPETITION_KINDS = ("league", "cup")
COMPETITION_STATUSES = ("signup", "running", "finished", "cancelled")


class CompetitionRow(Base):
    """A group's league or cup (revision 0020): its settings, its sign-up and its card. The
    pairings and results are :class:`CompetitionGameRow`; the logic is
    :mod:`rules.competition`'s."""

    __tablename__ = "competitions"
    __table_args__ = (
        CheckConstraint(_in("kind", COMPETITION_KINDS), name="kind"),
        CheckConstraint(_in("status", COMPETITION_STATUSES), name="status"),
        CheckConstraint("length IN (1, 3, 5, 7)", name="length"),
        Index("ix_competitions_chat_status", "chat_id", "status"),
        Index("ix_competitions_status_due", "status", "due_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    status: Mapped[str] = mapped_column(String(12))
    version: Mapped[int] = mapped_column(Integer, default=1)
    """Bumped by every change (a sign-up, the start, a result): the card's buttons carry it."""
    chat_id: Mapped[int] = mapped_column(BigInteger)
    """The group it belongs to (its matches are played there, rated in its scope too)."""
    thread_id: Mapped[int | None] = mapped_column(BigInteger)
    organiser_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("players.id", ondelete="RESTRICT"))
    game_type: Mapped[str] = mapped_column(String(16))
    length: Mapped[int] = mapped_column(SmallInteger)
    move_seconds: Mapped[int | None] = mapped_column(Integer)
    double: Mapped[bool] = mapped_column(Boolean, default=False)
    """A league played twice round, seats swapped."""
    gammons: Mapped[bool] = mapped_column(Boolean, default=False)
    """A league scoring the points of the deciding game (1, 2, 3) instead of 1 per win."""
    round_seconds: Mapped[int] = mapped_column(Integer)
    """A cup's round deadline; a league's whole deadline."""
    due_at: Mapped[datetime] = mapped_column(UTCDateTime)
    """The next deadline: the sign-up's end, then the round's (a cup) or the league's end."""
    round: Mapped[int] = mapped_column(SmallInteger, default=0)
    """A cup's round in play (0-based)."""
    card_message_id: Mapped[int | None] = mapped_column(BigInteger)
    """The card in the group: the sign-up card, then the standings or the bracket."""
    winner_id: Mapped[int | None] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class CompetitionEntryRow(Base):
    """A player signed up to a competition (revision 0020); ``left_at``: they left the group
    or blocked the bot, and forfeit what remains."""

    __tablename__ = "competition_entries"
    __table_args__ = (Index("ix_competition_entries_player", "player_id"),)

    competition_id: Mapped[int] = mapped_column(
        ForeignKey("competitions.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("players.id", ondelete="CASCADE"), primary_key=True,
        autoincrement=False)
    seq: Mapped[int] = mapped_column(Integer)
    """The sign-up order (the last tie-break)."""
    seed: Mapped[int | None] = mapped_column(SmallInteger)
    """A cup's seed (1 the best rated), set at the start."""
    left_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime)


class CompetitionGameRow(Base):
    """One pairing of a competition (revision 0020): its match once created (an ordinary
    match), and its result once recorded. A cup's bye has no second player and no match."""

    __tablename__ = "competition_games"
    __table_args__ = (
        UniqueConstraint("competition_id", "round", "slot"),
        Index("ix_competition_games_open", "competition_id", "decided_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    competition_id: Mapped[int] = mapped_column(
        ForeignKey("competitions.id", ondelete="CASCADE"))
    round: Mapped[int] = mapped_column(SmallInteger)
    slot: Mapped[int] = mapped_column(SmallInteger)
    player0_id: Mapped[int | None] = mapped_column(BigInteger)
    player1_id: Mapped[int | None] = mapped_column(BigInteger)
    match_id: Mapped[int | None] = mapped_column(
        ForeignKey("matches.id", ondelete="SET NULL"), unique=True)
    winner_id: Mapped[int | None] = mapped_column(BigInteger)
    points: Mapped[int] = mapped_column(SmallInteger, default=1)
    """How the deciding game ended (1 single, 2 gammon, 3 backgammon)."""
    reason: Mapped[str | None] = mapped_column(String(16))
    """How it was decided: the match's end reason, ``bye``, ``left`` (a forfeit), ``deadline``
    (the round's deadline passed: the player to move loses), ``void`` (nobody: the league
    ended first)."""
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
class AccuracyRow(Base):
    """One player's accuracy figure over one finished match between people (revision 0022):
    the decisions they had (turns with a choice) and the equity they lost on them, in points,
    by the evaluator named. Written once, in the background, by whichever instance computes it
    first (:class:`storage.usecases.accuracy.AccuracyCases`)."""

    __tablename__ = "match_accuracy"
    __table_args__ = (
        # /stats: a player's last figures in one game, newest first
        Index("ix_match_accuracy_player_game", "player_id", "game", "finished_at"),
    )

    match_id: Mapped[int] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True, autoincrement=False)
    seat: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    player_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    game: Mapped[str] = mapped_column(String(16))
    decisions: Mapped[int] = mapped_column(Integer)
    equity_lost: Mapped[float] = mapped_column(Float)
    evaluator: Mapped[str] = mapped_column(String(80))
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    computed_at: Mapped[datetime] = mapped_column(UTCDateTime)
