"""What the kernel reads and writes: the match row read with Core, the prebuilt statements of the
hot path, and small pure helpers turning rows and states into views and statuses."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Row, bindparam, delete, insert, select, update

from rules.common.dice import DiceSource
from rules.game import DEFAULT_KIND
from rules.match import Event, Match, Phase
from storage.accuracy import Figure
from storage.models import Base, BoardMessageRow, MatchRow, Player
from storage.results import (
    COMPUTER,
    ActionResult,
    Actor,
    BoardMessageView,
    MatchStatus,
    MatchView,
    Outcome,
    PlayerView,
    RatingChange,
)


def stored_state(state: Match) -> dict[str, Any]:
    """The match's ``state`` and ``state_format`` columns: its JSON and that JSON's format (1
    for Portes, 2 for the other games)."""
    text = state.to_json()
    return {"state": text, "state_format": int(json.loads(text)["format"])}


Decision = Callable[[Match, int, DiceSource], tuple[Match, list[Event]]]
"""What an action does to a match: (state, acting seat, dice) -> (new state, events)."""
Step = tuple[Any, dict[str, Any] | list[dict[str, Any]]]
"""One statement of a planned write with its parameters (a list: executemany)."""

STALE_MESSAGE = "This board is out of date; here is the current one."

MAX_ID = 2**63 - 1
"""Ids are signed 64-bit integers; a larger one names nothing stored (SQLite would raise
``OverflowError`` binding it), so it is simply not found."""


def storable_id(value: int) -> bool:
    """Whether ``value`` can be the id of a stored row."""
    return -MAX_ID - 1 <= value <= MAX_ID


@dataclass(slots=True)
class MatchData:
    """A match row read with Core (no ORM identity map or instrumentation in the hot path)."""

    id: int
    status: str
    version: int
    player0_id: int
    player1_id: int | None
    computer_level: int | None
    length: int
    no_triple: bool
    score0: int
    score1: int
    winner: int | None
    end_reason: str | None
    to_act: int | None
    chat_id: int | None
    thread_id: int | None
    inline_message_id: str | None
    in_group: bool
    state: str
    state_format: int
    seed: bytes
    commitment: str
    mix: str | None
    dice_drawn: int
    turn_deadline: datetime | None
    created_at: datetime
    updated_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    move_seconds: int | None = None
    game_type: str = DEFAULT_KIND


MatchLike = MatchRow | MatchData


@dataclass
class Loaded:
    """A match as one use case read it: its row, state, players, live boards, chat language."""

    row: MatchLike
    state: Match
    players: dict[int, PlayerView]
    boards: list[BoardMessageView]
    chat_language: str | None = None
    rating_changes: tuple[RatingChange, ...] = ()
    accuracy: tuple[Figure, Figure] | None = None


@dataclass
class Plan:
    """Everything one compare-and-swap writes, computed before the write lock is taken."""

    row: MatchLike
    values: dict[str, Any]
    expect_status: str | None
    steps: list[Step]
    rating_changes: tuple[RatingChange, ...] = ()
    """Set by the write when it ended a rated match (what it did to the ratings)."""
    chat_keys: tuple[str, ...] = ()
    """The chats of the outbox rows this write upserts (each once, in order)."""


# Statements of the hot path, built once: executing a prebuilt statement skips building the
# expression and its cache key again (the compiled form comes from the engine's cache).
MATCHES = Base.metadata.tables["matches"]
PLAYERS = Base.metadata.tables["players"]
BOARDS = Base.metadata.tables["board_messages"]
TURNS = Base.metadata.tables["turns"]
TIMERS = Base.metadata.tables["timers"]
GAMES = Base.metadata.tables["games"]
CHATS = Base.metadata.tables["chat_settings"]
# The match with its chat's language (set with /lang in a group) in the same statement.
SELECT_MATCH = (
    select(MATCHES, CHATS.c.language.label("chat_language"))
    .outerjoin(CHATS, CHATS.c.chat_id == MATCHES.c.chat_id)
    .where(MATCHES.c.id == bindparam("b_id"))
)
SELECT_PLAYERS = select(PLAYERS).where(PLAYERS.c.id.in_(bindparam("b_ids", expanding=True)))
SELECT_BOARDS = (
    select(BOARDS)
    .where(BOARDS.c.match_id == bindparam("b_id"), BOARDS.c.live.is_(True))
    .order_by(BOARDS.c.id)
)
# No .values(): the SET clause is the keys of the parameters given (compiled once per set).
UPDATE_MATCH = update(MATCHES).where(
    MATCHES.c.id == bindparam("b_id"), MATCHES.c.version == bindparam("b_seen")
)
UPDATE_MATCH_IF_STATUS = UPDATE_MATCH.where(MATCHES.c.status == bindparam("b_status"))
SELECT_LAST_TYPED = select(PLAYERS.c.last_typed).where(PLAYERS.c.id == bindparam("b_id"))
UPDATE_LAST_TYPED = (
    update(PLAYERS)
    .where(PLAYERS.c.id == bindparam("b_id"),
           (PLAYERS.c.last_typed.is_(None)) | (PLAYERS.c.last_typed < bindparam("b_typed")))
    .values(last_typed=bindparam("b_typed"))
)
"""A typed play's message id becomes the player's last, unless one as new was played."""
ALREADY_PLAYED = "This play was already played."
INSERT_TURNS = insert(TURNS)
INSERT_GAME = insert(GAMES)
END_GAME = update(GAMES).where(
    GAMES.c.match_id == bindparam("b_id"), GAMES.c.number == bindparam("b_number")
)
DELETE_PENDING_TIMERS = delete(TIMERS).where(
    TIMERS.c.match_id == bindparam("b_id"), TIMERS.c.fired_at.is_(None)
)
INSERT_TIMERS = insert(TIMERS)


def player_view(player: Player | PlayerView | Row[Any] | None) -> PlayerView | None:
    if player is None or isinstance(player, PlayerView):
        return player
    return PlayerView(
        id=player.id,
        display_name=player.display_name,
        username=player.username,
        language=player.language,
        can_message=player.can_message,
        notices=player.notices,
        theme=player.theme,
        home=player.home_side,
    )


def board_view(row: BoardMessageRow | Row[Any]) -> BoardMessageView:
    return BoardMessageView(
        id=row.id,
        match_id=row.match_id,
        chat_id=row.chat_id,
        message_id=row.message_id,
        inline_message_id=row.inline_message_id,
        for_seat=row.for_seat,
        version=row.version,
        created_at=row.created_at,
    )


def to_act(status: str, state: Match) -> int | None:
    """The seat that must act now (to move, or to answer a resignation offer), if any."""
    if status != MatchStatus.ACTIVE:
        return None
    if state.phase == Phase.RESIGN_OFFERED:
        return 1 - state.turn
    if state.phase == Phase.PLAYING:
        return state.turn
    return None


def waiting_key(status: str, state: Match) -> tuple[Any, ...]:
    """Changes exactly when someone new is waited for (a new turn, an offer, an answer)."""
    return (status, state.game, state.turn_number, state.phase, to_act(status, state))


def status_after(state: Match) -> MatchStatus:
    if state.phase == Phase.CANCELLED:
        return MatchStatus.CANCELLED
    if state.phase == Phase.MATCH_OVER:
        # lost on time, or by blocking the bot (boards could not reach them): abandoned
        return (MatchStatus.ABANDONED if state.end_reason in ("timeout", "blocked")
                else MatchStatus.FINISHED)
    return MatchStatus.ACTIVE


def seat_of(row: MatchLike, actor: Actor) -> int | None:
    """The seat ``actor`` plays in this match, or ``None`` when it does not play in it."""
    if actor == COMPUTER:
        return 1 if row.computer_level is not None else None
    if actor == row.player0_id:
        return 0
    if row.player1_id is not None and actor == row.player1_id:
        return 1
    return None


def refused(code: str, message: str, match: MatchView | None = None) -> ActionResult:
    return ActionResult(Outcome.REFUSED, match=match, code=code, message=message)
