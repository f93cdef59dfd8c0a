"""The use cases the bot calls: one short transaction each, no Telegram in them.

Build one :class:`UseCases` at start-up and share it::

    from storage.db import Database, current_loop
    from storage.migrate import upgrade_async
    from storage.usecases import UseCases, COMPUTER

    await upgrade_async(url)           # alembic upgrade head (url: DATABASE_URL or SQLite)
    db = Database.from_url(url)
    uc = UseCases(db)

Identities: players are Telegram user ids (``int``). The computer is :data:`COMPUTER`. A match
has seat 0 (the challenge's author) and seat 1 (the acceptor, or the computer).

Versions: every match has a ``version`` that changes on every accepted action (a single move,
an undo, a confirm, a resignation offer...). Every action takes the version the caller saw (put
it in the buttons). If it is not the match's current version, or another request wins the race,
the result is :attr:`Outcome.STALE` and nothing is written. Writes are compare-and-swap on the
version, so a match is never half-updated and no step is applied twice.

Forced plays and passes: after every action that hands over the turn (confirm, play, accepting a
challenge or a resignation), while the player to move has exactly one legal play, it is played
for them (``TurnPlayed.forced``); rolls with no legal move are passed by the rules core. The
loop stops when a real decision is needed or the match ends. The events say what happened.

Results are plain dataclasses from :mod:`storage.results`; refusals carry a stable ``code`` and
an English ``message``.

Timers (reminders, turn timeout, challenge expiry) are rows; :meth:`UseCases.fire_due_timers`
claims and fires each one exactly once, across any number of bot instances.

Threads: every public method is a coroutine, but its body (load, decide, write, commit) runs as
one synchronous SQLAlchemy transaction in the database's worker threads
(:meth:`storage.db.Database.run`): one hop between the event loop and a thread per use case,
and the event loop is never blocked. A use case whose caller is cancelled still completes (or
rolls back) as a whole in its thread.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy import Row, bindparam, delete, func, insert, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from rules.dice import DiceSource
from rules.errors import CorruptState, PortesError
from rules.fairdice import FairDice, commitment, new_seed
from rules.match import (
    FORMAT_VERSION,
    Event,
    GameEnded,
    GameStarted,
    Match,
    Phase,
    TurnPlayed,
)
from rules.position import Dice, Move, Play
from storage.db import Database, current_loop
from storage.models import (
    Base,
    BoardMessageRow,
    ChallengeRow,
    ChatSettingRow,
    GameRow,
    MatchRow,
    Player,
    TimerRow,
    TurnRow,
)
from storage.results import (
    COMPUTER,
    ENDED_STATUSES,
    ActionResult,
    Actor,
    BoardMessageView,
    ChallengeResult,
    ChallengeStatus,
    ChallengeView,
    Fairness,
    GameRecord,
    LoggedTurn,
    MatchRecord,
    MatchStatus,
    MatchSummary,
    MatchView,
    Outcome,
    Place,
    PlayerView,
    Seat,
    TimerFired,
    TimerKind,
    TimerPolicy,
)

__all__ = [
    "COMPUTER",
    "ActionResult",
    "Actor",
    "BoardMessageView",
    "ChallengeResult",
    "ChallengeView",
    "Fairness",
    "MatchRecord",
    "MatchStatus",
    "MatchSummary",
    "MatchView",
    "Outcome",
    "PlayerView",
    "TimerFired",
    "TimerKind",
    "TimerPolicy",
    "UseCases",
]

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]
Checkpoint = Callable[[str], Awaitable[None]]
Decision = Callable[[Match, int, DiceSource], tuple[Match, list[Event]]]

MAX_MIX_LENGTH = 256
TOKEN_BYTES = 9  # 12 URL-safe characters


P = ParamSpec("P")
T = TypeVar("T")


def _off_loop(
    fn: Callable[Concatenate[UseCases, P], T],
) -> Callable[Concatenate[UseCases, P], Coroutine[Any, Any, T]]:
    """Make a synchronous use case a coroutine that runs it in a database worker thread."""

    async def run(self: UseCases, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return await self.db.run(fn, self, *args, **kwargs)

    functools.update_wrapper(run, fn)
    return run


def utcnow() -> datetime:
    return datetime.now(UTC)


def _player_view(player: Player | PlayerView | Row[Any] | None) -> PlayerView | None:
    if player is None or isinstance(player, PlayerView):
        return player
    return PlayerView(
        id=player.id,
        display_name=player.display_name,
        username=player.username,
        language=player.language,
        can_message=player.can_message,
    )


def _board_view(row: BoardMessageRow | Row[Any]) -> BoardMessageView:
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


def _to_act(status: str, state: Match) -> int | None:
    if status != MatchStatus.ACTIVE:
        return None
    if state.phase == Phase.RESIGN_OFFERED:
        return 1 - state.turn
    if state.phase == Phase.PLAYING:
        return state.turn
    return None


def _waiting_key(status: str, state: Match) -> tuple[Any, ...]:
    """Changes exactly when someone new is waited for (a new turn, an offer, an answer)."""
    return (status, state.game, state.turn_number, state.phase, _to_act(status, state))


def _status_after(state: Match) -> MatchStatus:
    if state.phase == Phase.CANCELLED:
        return MatchStatus.CANCELLED
    if state.phase == Phase.MATCH_OVER:
        return MatchStatus.ABANDONED if state.end_reason == "timeout" else MatchStatus.FINISHED
    return MatchStatus.ACTIVE


def _auto_play(state: Match, dice: DiceSource) -> tuple[Match, list[Event]]:
    """Play forced plays for the players until a real decision is needed (passes are played
    by the rules core itself)."""
    events: list[Event] = []
    while state.phase == Phase.PLAYING:
        forced = state.forced_play()
        if forced is None:
            break
        state, more = state.play(state.turn, forced, dice, forced=True)
        events.extend(more)
    return state, events


def _refused(code: str, message: str, match: MatchView | None = None) -> ActionResult:
    return ActionResult(Outcome.REFUSED, match=match, code=code, message=message)


async def _awaited(awaitable: Awaitable[None]) -> None:
    await awaitable


STALE_MESSAGE = "This board is out of date; here is the current one."


@dataclass(slots=True)
class _MatchData:
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


MatchLike = MatchRow | _MatchData

# Statements of the hot path, built once: executing a prebuilt statement skips building the
# expression and its cache key again (the compiled form comes from the engine's cache).
_matches = Base.metadata.tables["matches"]
_players_t = Base.metadata.tables["players"]
_boards_t = Base.metadata.tables["board_messages"]
_turns_t = Base.metadata.tables["turns"]
_timers_t = Base.metadata.tables["timers"]
_games_t = Base.metadata.tables["games"]
_chats_t = Base.metadata.tables["chat_settings"]
# The match with its chat's language (set with /lang in a group) in the same statement.
_SELECT_MATCH = (
    select(_matches, _chats_t.c.language.label("chat_language"))
    .outerjoin(_chats_t, _chats_t.c.chat_id == _matches.c.chat_id)
    .where(_matches.c.id == bindparam("b_id"))
)
_SELECT_PLAYERS = select(_players_t).where(_players_t.c.id.in_(bindparam("b_ids", expanding=True)))
_SELECT_BOARDS = (
    select(_boards_t)
    .where(_boards_t.c.match_id == bindparam("b_id"), _boards_t.c.live.is_(True))
    .order_by(_boards_t.c.id)
)
# No .values(): the SET clause is the keys of the parameters given (compiled once per set).
_UPDATE_MATCH = update(_matches).where(
    _matches.c.id == bindparam("b_id"), _matches.c.version == bindparam("b_seen")
)
_UPDATE_MATCH_IF_STATUS = _UPDATE_MATCH.where(_matches.c.status == bindparam("b_status"))
_INSERT_TURNS = insert(_turns_t)
_INSERT_GAME = insert(_games_t)
_END_GAME = update(_games_t).where(
    _games_t.c.match_id == bindparam("b_id"), _games_t.c.number == bindparam("b_number")
)
_DELETE_PENDING_TIMERS = delete(_timers_t).where(
    _timers_t.c.match_id == bindparam("b_id"), _timers_t.c.fired_at.is_(None)
)
_INSERT_TIMERS = insert(_timers_t)


@dataclass
class _Loaded:
    row: MatchLike
    state: Match
    players: dict[int, PlayerView]
    boards: list[BoardMessageView]
    chat_language: str | None = None


@dataclass
class _Plan:
    """Everything one compare-and-swap writes, computed before the write lock is taken."""

    row: MatchLike
    values: dict[str, Any]
    expect_status: str | None
    steps: list[tuple[Any, dict[str, Any] | list[dict[str, Any]]]]


class UseCases:
    """The application's use cases over one :class:`~storage.db.Database`.

    ``clock`` returns aware UTC datetimes (tests pass a fake one); ``timers`` sets reminder,
    timeout and expiry durations; ``checkpoint`` is a test seam (a coroutine function, run on
    the event loop while the worker thread waits for it) awaited with ``"read"`` after a use case
    has read and decided, before it writes, ``"written"`` after its writes but before its commit,
    and ``"committed"`` after its commit.
    """

    def __init__(
        self,
        db: Database,
        *,
        timers: TimerPolicy | None = None,
        clock: Clock | None = None,
        checkpoint: Checkpoint | None = None,
    ) -> None:
        self.db = db
        self.sessions = db.sessions  # the async session factory (kept for callers; unused here)
        self._sessions = db.sync_sessions
        self.timers = timers or TimerPolicy()
        self.clock = clock or utcnow
        self._checkpoint = checkpoint

    def _cp(self, name: str) -> None:
        """Run the test checkpoint on the event loop and wait for it (from a worker thread)."""
        if self._checkpoint is not None:
            loop = current_loop()
            asyncio.run_coroutine_threadsafe(_awaited(self._checkpoint(name)), loop).result()

    # -- players ------------------------------------------------------------------------

    @_off_loop
    def upsert_player(
        self,
        user_id: int,
        display_name: str,
        *,
        username: str | None = None,
        language: str | None = None,
        can_message: bool | None = None,
        default_language: str | None = None,
    ) -> PlayerView:
        """Create or update a player from Telegram user data (call it on every update).

        ``can_message``: ``True`` when the user started the bot in private, ``False`` after a
        403; ``None`` leaves it as it was (new players start with ``False``). ``language``
        likewise: ``None`` (or empty) leaves the stored language as it was.
        ``default_language`` (e.g. the user's Telegram language) is stored only when the player
        has no language yet (a new player, or one stored without), never over a chosen one.
        """
        now = self.clock()
        values: dict[str, Any] = {
            "id": user_id,
            "display_name": (display_name or str(user_id))[:128],
            "username": username[:64] if username else None,
            "language": (language or default_language or "")[:16] or None,
            "can_message": bool(can_message),
            "created_at": now,
            "updated_at": now,
        }
        changes: dict[str, Any] = {
            k: values[k] for k in ("display_name", "username", "updated_at")
        }
        if can_message is not None:
            changes["can_message"] = can_message
        insert = pg_insert if self.db.engine.dialect.name == "postgresql" else sqlite_insert
        stmt = insert(Player).values(**values)
        if language:
            changes["language"] = values["language"]
        elif default_language:
            changes["language"] = func.coalesce(Player.language, stmt.excluded.language)
        stmt = stmt.on_conflict_do_update(index_elements=[Player.id], set_=changes)
        with self.db.sync_write_lock(), self._sessions.begin() as session:
            session.execute(stmt)
            player = session.get(Player, user_id, populate_existing=True)
            assert player is not None
            view = _player_view(player)
        assert view is not None
        return view

    @_off_loop
    def set_can_message(self, user_id: int, can_message: bool) -> None:
        """Record whether the bot may message this user privately (after /start or a 403)."""
        with self._sessions.begin() as session:
            session.execute(
                update(Player)
                .where(Player.id == user_id)
                .values(can_message=can_message, updated_at=self.clock())
            )

    @_off_loop
    def get_player(self, user_id: int) -> PlayerView | None:
        with self._sessions() as session:
            return _player_view(session.get(Player, user_id))

    def _ensure_player(self, session: Session, user_id: int) -> Player:
        player = session.get(Player, user_id)
        if player is None:
            now = self.clock()
            player = Player(
                id=user_id,
                display_name=str(user_id),
                can_message=False,
                created_at=now,
                updated_at=now,
            )
            session.add(player)
            session.flush()
        return player

    # -- loading ------------------------------------------------------------------------

    def _players(self, session: Session, *ids: int | None) -> dict[int, PlayerView]:
        wanted = list({i for i in ids if i is not None})
        if not wanted:
            return {}
        rows = session.connection().execute(_SELECT_PLAYERS, {"b_ids": wanted})
        return {p.id: v for p in rows if (v := _player_view(p)) is not None}

    def _boards(self, session: Session, match_id: int) -> list[BoardMessageView]:
        rows = session.connection().execute(_SELECT_BOARDS, {"b_id": match_id})
        return [_board_view(b) for b in rows]

    def _load(self, session: Session, match_id: int) -> _Loaded | ActionResult:
        found = session.connection().execute(_SELECT_MATCH, {"b_id": match_id}).first()
        if found is None:
            return ActionResult(Outcome.NOT_FOUND, code="not_found", message="No such match.")
        data = dict(found._mapping)
        chat_language = data.pop("chat_language")
        row = _MatchData(**data)
        try:
            state = Match.from_json(row.state)
        except CorruptState as exc:
            log.error("match %s: stored state unreadable: %s", match_id, exc.message)
            return ActionResult(
                Outcome.CORRUPT,
                code=exc.code,
                message=f"Match {match_id} cannot be loaded: its stored state is damaged.",
            )
        players = self._players(session, row.player0_id, row.player1_id)
        boards = self._boards(session, match_id)
        return _Loaded(row, state, players, boards, chat_language)

    def _view(
        self,
        row: MatchLike,
        state: Match,
        players: dict[int, PlayerView],
        boards: Sequence[BoardMessageView] = (),
        chat_language: str | None = None,
    ) -> MatchView:
        status = MatchStatus(row.status)
        seat1 = Seat(
            1,
            _player_view(players.get(row.player1_id)) if row.player1_id is not None else None,
            row.computer_level,
        )
        return MatchView(
            id=row.id,
            version=row.version,
            status=status,
            state=state,
            seats=(Seat(0, _player_view(players.get(row.player0_id))), seat1),
            place=Place(row.chat_id, row.thread_id, row.inline_message_id),
            commitment=row.commitment,
            seed_hex=row.seed.hex() if status in ENDED_STATUSES else None,
            mix=row.mix,
            turn_deadline=row.turn_deadline,
            created_at=row.created_at,
            updated_at=row.updated_at,
            finished_at=row.finished_at,
            board_messages=tuple(boards),
            chat_language=chat_language,
        )

    def _loaded_view(self, loaded: _Loaded) -> MatchView:
        return self._view(
            loaded.row, loaded.state, loaded.players, loaded.boards, loaded.chat_language
        )

    @staticmethod
    def _seat(row: MatchLike, actor: Actor) -> int | None:
        if actor == COMPUTER:
            return 1 if row.computer_level is not None else None
        if actor == row.player0_id:
            return 0
        if row.player1_id is not None and actor == row.player1_id:
            return 1
        return None

    # -- writing ------------------------------------------------------------------------

    def _plan(
        self,
        row: MatchLike,
        before: Match,
        after: Match,
        events: Sequence[Event],
        now: datetime,
        *,
        extra: dict[str, Any] | None = None,
        expect_status: str | None = None,
        status: MatchStatus | None = None,
    ) -> _Plan:
        """The statements of a compare-and-swap write (match version read -> version + 1)
        and of the events' log, with their parameters (no I/O); :meth:`_apply` runs them."""
        old_status = row.status
        new_status = status or _status_after(after)
        values: dict[str, Any] = {
            "status": new_status.value,
            "version": row.version + 1,
            "state": after.to_json(),
            "state_format": FORMAT_VERSION,
            "score0": after.score[0],
            "score1": after.score[1],
            "winner": after.winner,
            "end_reason": after.end_reason,
            "dice_drawn": after.dice_drawn,
            "to_act": _to_act(new_status, after),
            "updated_at": now,
        }
        if new_status in ENDED_STATUSES:
            values["finished_at"] = now
            values["turn_deadline"] = None
        renew = _waiting_key(old_status, before) != _waiting_key(new_status, after)
        waiting = _to_act(new_status, after)
        computer_waits = waiting == 1 and row.computer_level is not None
        if renew and new_status == MatchStatus.ACTIVE:
            values["turn_deadline"] = None if computer_waits else now + self.timers.turn_timeout
        values.update(extra or {})
        steps = self._event_steps(row.id, events, now)
        if renew or new_status in ENDED_STATUSES:
            steps.append((_DELETE_PENDING_TIMERS, {"b_id": row.id}))
            if new_status == MatchStatus.ACTIVE and waiting is not None and not computer_waits:
                timers: list[dict[str, Any]] = [
                    {
                        "kind": TimerKind.REMINDER.value,
                        "due_at": now + after_delta,
                        "match_id": row.id,
                        "seat": waiting,
                        "after_s": int(after_delta.total_seconds()),
                        "created_at": now,
                    }
                    for after_delta in self.timers.reminders
                ]
                timers.append(
                    {
                        "kind": TimerKind.TIMEOUT.value,
                        "due_at": now + self.timers.turn_timeout,
                        "match_id": row.id,
                        "seat": waiting,
                        "after_s": None,
                        "created_at": now,
                    }
                )
                steps.append((_INSERT_TIMERS, timers))
        return _Plan(row, values, expect_status, steps)

    @staticmethod
    def _apply(session: Session, plan: _Plan) -> bool:
        """Run a planned write: the compare-and-swap first; the rest only if it won."""
        row = plan.row
        conn = session.connection()
        params = {**plan.values, "b_id": row.id, "b_seen": row.version}
        if plan.expect_status is None:
            result = conn.execute(_UPDATE_MATCH, params)
        else:
            params["b_status"] = plan.expect_status
            result = conn.execute(_UPDATE_MATCH_IF_STATUS, params)
        if result.rowcount != 1:
            return False
        for stmt, step_params in plan.steps:
            conn.execute(stmt, step_params)
        # Mirror the new values on the row read (an ORM row is detached first: the session
        # must not flush it again).
        if isinstance(row, MatchRow) and row in session:
            session.expunge(row)
        for key, value in plan.values.items():
            setattr(row, key, value)
        return True

    @staticmethod
    def _event_steps(
        match_id: int, events: Sequence[Event], now: datetime
    ) -> list[tuple[Any, dict[str, Any] | list[dict[str, Any]]]]:
        """The statements appending the turns to the move log and keeping the games table up
        to date, in order, with as few as possible (one executemany per run of turns)."""
        steps: list[tuple[Any, dict[str, Any] | list[dict[str, Any]]]] = []
        turns: list[dict[str, Any]] = []

        def flush_turns() -> None:
            if turns:
                steps.append((_INSERT_TURNS, list(turns)))
                turns.clear()

        for event in events:
            if isinstance(event, TurnPlayed):
                turns.append(
                    {
                        "match_id": match_id,
                        "game": event.game,
                        "turn": event.turn,
                        "player": event.player,
                        "die1": event.dice.die1,
                        "die2": event.dice.die2,
                        "steps": [
                            [m.from_point, m.to_point, m.die, int(m.hit)] for m in event.moves
                        ],
                        "text": event.text,
                        "gnubg_id": event.gnubg_id,
                        "forced": event.forced,
                        "created_at": now,
                    }
                )
            elif isinstance(event, GameStarted):
                flush_turns()
                steps.append(
                    (
                        _INSERT_GAME,
                        {
                            "match_id": match_id,
                            "number": event.game,
                            "opening0": event.opening[0],
                            "opening1": event.opening[1],
                            "resigned": False,
                            "started_at": now,
                        },
                    )
                )
            elif isinstance(event, GameEnded):
                flush_turns()
                steps.append(
                    (
                        _END_GAME,
                        {
                            "b_id": match_id,
                            "b_number": event.game,
                            "winner": event.winner,
                            "kind": event.kind.value,
                            "points": event.points,
                            "resigned": event.resigned,
                            "ended_at": now,
                        },
                    )
                )
        flush_turns()
        return steps

    def _act(
        self,
        match_id: int,
        actor: Actor,
        version: int | None,
        decide: Decision,
        *,
        auto: bool = False,
    ) -> ActionResult:
        """Load, check the version and the actor, decide through the rules core, then write
        with compare-and-swap, all in one short transaction."""
        with self._sessions() as session:
            loaded = self._load(session, match_id)
            if isinstance(loaded, ActionResult):
                return loaded
            row, state = loaded.row, loaded.state
            if version is not None and row.version != version:
                return ActionResult(
                    Outcome.STALE,
                    match=self._loaded_view(loaded),
                    code="stale",
                    message=STALE_MESSAGE,
                )
            seat = self._seat(row, actor)
            if seat is None:
                return _refused(
                    "not_a_player", "You are not playing in this match.", self._loaded_view(loaded)
                )
            if row.status != MatchStatus.ACTIVE:
                code, message = (
                    ("invalid_action", "The match has not started yet.")
                    if row.status == MatchStatus.CHALLENGE
                    else ("game_over", "The match is over.")
                )
                return _refused(code, message, self._loaded_view(loaded))
            if row.mix is None:
                return ActionResult(
                    Outcome.CORRUPT,
                    code="corrupt_state",
                    message=f"Match {match_id} has no dice stream.",
                )
            dice = FairDice(row.seed, row.mix)
            try:
                new_state, events = decide(state, seat, dice)
                if auto:
                    new_state, more = _auto_play(new_state, dice)
                    events = [*events, *more]
            except PortesError as exc:
                return _refused(exc.code, exc.message, self._loaded_view(loaded))
            self._cp("read")
            plan = self._plan(row, state, new_state, events, self.clock())
            with self.db.sync_write_lock():
                written = self._apply(session, plan)
                if written:
                    self._cp("written")
                    session.commit()
                else:
                    session.rollback()
            if not written:
                return self._stale(match_id)
        self._cp("committed")
        boards = [] if row.status in ENDED_STATUSES else loaded.boards
        view = self._view(row, new_state, loaded.players, boards, loaded.chat_language)
        return ActionResult(Outcome.OK, match=view, events=tuple(events))

    def _stale(self, match_id: int) -> ActionResult:
        with self._sessions() as session:
            loaded = self._load(session, match_id)
        view = None if isinstance(loaded, ActionResult) else self._loaded_view(loaded)
        return ActionResult(Outcome.STALE, match=view, code="stale", message=STALE_MESSAGE)

    # -- challenges ---------------------------------------------------------------------

    def _challenge_view(
        self, ch: ChallengeRow, match: MatchLike, players: dict[int, PlayerView]
    ) -> ChallengeView:
        author = _player_view(players.get(ch.author_id))
        assert author is not None
        state_length, no_triple = match.length, match.no_triple
        return ChallengeView(
            id=ch.id,
            match_id=ch.match_id,
            token=ch.token,
            status=ChallengeStatus(ch.status),
            author=author,
            target=_player_view(players.get(ch.target_id)) if ch.target_id else None,
            target_username=ch.target_username,
            length=state_length,
            no_triple=no_triple,
            computer_level=match.computer_level,
            place=Place(ch.chat_id, ch.thread_id, ch.card_inline_message_id),
            commitment=match.commitment,
            expires_at=ch.expires_at,
            created_at=ch.created_at,
            card_chat_id=ch.card_chat_id,
            card_message_id=ch.card_message_id,
            card_inline_message_id=ch.card_inline_message_id,
        )

    def _challenge_players(
        self, session: Session, ch: ChallengeRow
    ) -> dict[int, PlayerView]:
        return self._players(session, ch.author_id, ch.target_id)

    def _loaded_challenge_view(self, session: Session, ch: ChallengeRow) -> ChallengeView:
        """The view of ``ch``, its match and players read in ``session``."""
        match = session.get(MatchRow, ch.match_id)
        assert match is not None
        return self._challenge_view(ch, match, self._challenge_players(session, ch))

    @_off_loop
    def create_challenge(
        self,
        author_id: int,
        *,
        length: int,
        no_triple: bool = False,
        chat_id: int | None = None,
        thread_id: int | None = None,
        target_id: int | None = None,
        target_username: str | None = None,
        inline: bool = False,
        computer_level: int | None = None,
    ) -> ChallengeResult:
        """Open a challenge (and its match, status ``challenge``) and commit to a dice seed.

        The seed is drawn from :mod:`secrets`; print ``challenge.commitment`` on the card.
        ``target_id`` / ``target_username`` restrict who may accept. ``inline``: the card is an
        inline message (record it with :meth:`set_challenge_card`). ``computer_level`` makes a
        match against the computer, which only the author may start with
        :meth:`accept_challenge` (so the mixed-in value still arrives after the commitment).
        An expiry timer is set (``TimerPolicy.challenge_ttl``). Refusals: ``invalid_action``
        (length not 1, 3, 5 or 7), ``own_challenge`` (targeting oneself).
        """
        try:
            state = Match.new(length, no_triple=no_triple)
        except PortesError as exc:
            return ChallengeResult(Outcome.REFUSED, code=exc.code, message=exc.message)
        if target_id is not None and target_id == author_id:
            return ChallengeResult(
                Outcome.REFUSED, code="own_challenge", message="You cannot challenge yourself."
            )
        if target_username:
            target_username = target_username.lstrip("@")[:64] or None
        now = self.clock()
        seed = new_seed()
        with self.db.sync_write_lock(), self._sessions.begin() as session:
            self._ensure_player(session, author_id)
            if target_id is not None:
                self._ensure_player(session, target_id)
            row = MatchRow(
                status=MatchStatus.CHALLENGE.value,
                version=1,
                player0_id=author_id,
                player1_id=None,
                computer_level=computer_level,
                length=length,
                no_triple=no_triple,
                score0=0,
                score1=0,
                chat_id=chat_id,
                thread_id=thread_id,
                state=state.to_json(),
                state_format=FORMAT_VERSION,
                seed=seed,
                commitment=commitment(seed),
                dice_drawn=0,
                created_at=now,
                updated_at=now,
            )
            session.add(row)
            session.flush()
            ch = ChallengeRow(
                match_id=row.id,
                token=secrets.token_urlsafe(TOKEN_BYTES),
                status=ChallengeStatus.OPEN.value,
                author_id=author_id,
                target_id=target_id,
                target_username=target_username,
                chat_id=chat_id,
                thread_id=thread_id,
                inline=inline,
                expires_at=now + self.timers.challenge_ttl,
                created_at=now,
            )
            session.add(ch)
            session.add(
                TimerRow(
                    kind=TimerKind.CHALLENGE_EXPIRY.value,
                    due_at=ch.expires_at,
                    match_id=row.id,
                    created_at=now,
                )
            )
            session.flush()
            view = self._challenge_view(ch, row, self._challenge_players(session, ch))
        return ChallengeResult(Outcome.OK, challenge=view)

    @_off_loop
    def set_challenge_card(
        self,
        challenge_id: int,
        *,
        chat_id: int | None = None,
        message_id: int | None = None,
        inline_message_id: str | None = None,
    ) -> ChallengeResult:
        """Remember the message showing the challenge card, to edit it when it is accepted,
        cancelled or expires."""
        with self._sessions.begin() as session:
            ch = session.get(ChallengeRow, challenge_id)
            if ch is None:
                return ChallengeResult(Outcome.NOT_FOUND, code="not_found")
            if chat_id is not None:
                ch.card_chat_id = chat_id
            if message_id is not None:
                ch.card_message_id = message_id
            if inline_message_id is not None:
                ch.card_inline_message_id = inline_message_id
            session.flush()
            view = self._loaded_challenge_view(session, ch)
        return ChallengeResult(Outcome.OK, challenge=view)

    @_off_loop
    def get_challenge(
        self, challenge_id: int | None = None, *, token: str | None = None
    ) -> ChallengeView | None:
        """A challenge by id or by its deep-link token."""
        with self._sessions() as session:
            if challenge_id is not None:
                ch = session.get(ChallengeRow, challenge_id)
            elif token is not None:
                ch = session.scalar(select(ChallengeRow).where(ChallengeRow.token == token))
            else:
                raise ValueError("give a challenge id or a token")
            if ch is None:
                return None
            return self._loaded_challenge_view(session, ch)

    @_off_loop
    def accept_challenge(
        self,
        challenge_id: int,
        acceptor_id: int,
        *,
        mix: str,
        chat_id: int | None = None,
        inline_message_id: str | None = None,
    ) -> ActionResult:
        """Accept an open challenge: the match becomes active and the opening roll is played.

        ``mix`` is a value the server cannot choose that arrives after the commitment (the
        accepting tap's callback query id); it is mixed into every die. ``chat_id`` /
        ``inline_message_id`` complete the match's place when the challenge had none (inline).
        Exactly one of several racing acceptors wins; the others get ``challenge_closed``.
        Refusals: ``own_challenge`` (the author accepting a human challenge), ``not_for_you``
        (targeted at someone else; a computer challenge by anyone but the author),
        ``challenge_closed`` (accepted, cancelled or expired). On success ``result.match`` is
        the active match, ``result.events`` the opening roll (and any forced plays).
        """
        if not mix or len(mix) > MAX_MIX_LENGTH:
            raise ValueError(f"mix must be 1-{MAX_MIX_LENGTH} characters")
        closed = _refused("challenge_closed", "This challenge is no longer open.")
        with self._sessions() as session:
            ch = session.get(ChallengeRow, challenge_id)
            if ch is None:
                return ActionResult(
                    Outcome.NOT_FOUND, code="not_found", message="No such challenge."
                )
            now = self.clock()
            if ch.status != ChallengeStatus.OPEN or ch.expires_at <= now:
                return closed
            row = session.get(MatchRow, ch.match_id)
            assert row is not None
            if row.computer_level is not None:
                if acceptor_id != ch.author_id:
                    return _refused("not_for_you", "This match against the computer is not yours.")
            else:
                if acceptor_id == ch.author_id:
                    return _refused("own_challenge", "You cannot accept your own challenge.")
                if ch.target_id is not None and ch.target_id != acceptor_id:
                    return _refused("not_for_you", "This challenge is for another player.")
                if ch.target_username is not None:
                    acceptor = session.get(Player, acceptor_id)
                    name = (acceptor.username or "") if acceptor else ""
                    if name.lower() != ch.target_username.lower():
                        return _refused("not_for_you", "This challenge is for another player.")
            try:
                state = Match.from_json(row.state)
            except CorruptState as exc:
                return ActionResult(Outcome.CORRUPT, code=exc.code, message=exc.message)
            dice = FairDice(row.seed, mix)
            new_state, events = state.start(dice)
            new_state, more = _auto_play(new_state, dice)
            events = [*events, *more]
            self._cp("read")
            extra: dict[str, Any] = {"mix": mix, "started_at": now}
            if row.computer_level is None:
                extra["player1_id"] = acceptor_id
            if row.chat_id is None and chat_id is not None:
                extra["chat_id"] = chat_id
            if inline_message_id is not None or ch.card_inline_message_id is not None:
                extra["inline_message_id"] = inline_message_id or ch.card_inline_message_id
            with self.db.sync_write_lock():
                if row.computer_level is None:
                    self._ensure_player(session, acceptor_id)
                claimed = session.execute(
                    update(ChallengeRow)
                    .where(ChallengeRow.id == ch.id, ChallengeRow.status == ChallengeStatus.OPEN)
                    .values(status=ChallengeStatus.ACCEPTED.value)
                    .execution_options(synchronize_session=False)
                )
                ok = claimed.rowcount == 1 and self._apply(  # type: ignore[attr-defined]
                    session,
                    self._plan(
                        row,
                        state,
                        new_state,
                        events,
                        now,
                        extra=extra,
                        expect_status=MatchStatus.CHALLENGE.value,
                    ),
                )
                if ok:
                    session.commit()
                else:
                    session.rollback()
            if not ok:
                return closed
            ch.status = ChallengeStatus.ACCEPTED.value
            with self._sessions() as fresh:
                players = self._players(fresh, row.player0_id, row.player1_id, ch.target_id)
                cview = self._challenge_view(ch, row, players)
                chat_language = (
                    None
                    if row.chat_id is None
                    else fresh.scalar(
                        select(ChatSettingRow.language).where(
                            ChatSettingRow.chat_id == row.chat_id
                        )
                    )
                )
        self._cp("committed")
        view = self._view(row, new_state, players, chat_language=chat_language)
        return ActionResult(Outcome.OK, match=view, events=tuple(events), challenge=cview)

    @_off_loop
    def cancel_challenge(self, challenge_id: int, author_id: int) -> ChallengeResult:
        """The author withdraws an open challenge (its match becomes ``cancelled``).
        Refusals: ``not_author``, ``challenge_closed``."""
        with self._sessions() as session:
            ch = session.get(ChallengeRow, challenge_id)
            if ch is None:
                return ChallengeResult(Outcome.NOT_FOUND, code="not_found")
            if ch.author_id != author_id:
                return ChallengeResult(
                    Outcome.REFUSED,
                    code="not_author",
                    message="Only the author can withdraw a challenge.",
                )
            if ch.status != ChallengeStatus.OPEN:
                return ChallengeResult(
                    Outcome.REFUSED,
                    code="challenge_closed",
                    message="This challenge is no longer open.",
                )
            view = self._close_challenge(session, ch, ChallengeStatus.CANCELLED)
            if view is None:
                session.rollback()
                return ChallengeResult(
                    Outcome.REFUSED,
                    code="challenge_closed",
                    message="This challenge is no longer open.",
                )
            session.commit()
        return ChallengeResult(Outcome.OK, challenge=view)

    def _close_challenge(
        self, session: Session, ch: ChallengeRow, status: ChallengeStatus
    ) -> ChallengeView | None:
        """Mark an open challenge and its match cancelled / expired (compare-and-swap)."""
        now = self.clock()
        claimed = session.execute(
            update(ChallengeRow)
            .where(ChallengeRow.id == ch.id, ChallengeRow.status == ChallengeStatus.OPEN)
            .values(status=status.value)
            .execution_options(synchronize_session=False)
        )
        if claimed.rowcount != 1:  # type: ignore[attr-defined]
            return None
        match_status = (
            MatchStatus.CANCELLED if status == ChallengeStatus.CANCELLED else MatchStatus.EXPIRED
        )
        session.execute(
            update(MatchRow)
            .where(MatchRow.id == ch.match_id, MatchRow.status == MatchStatus.CHALLENGE)
            .values(
                status=match_status.value,
                version=MatchRow.version + 1,
                end_reason=match_status.value,
                finished_at=now,
                updated_at=now,
            )
            .execution_options(synchronize_session=False)
        )
        session.execute(
            delete(TimerRow).where(TimerRow.match_id == ch.match_id, TimerRow.fired_at.is_(None))
        )
        row = session.get(MatchRow, ch.match_id, populate_existing=True)
        assert row is not None
        ch.status = status.value
        view = self._challenge_view(ch, row, self._challenge_players(session, ch))
        return view

    # -- playing a turn -----------------------------------------------------------------

    @_off_loop
    def step(self, match_id: int, actor: Actor, version: int, move: Move) -> ActionResult:
        """Add one single move to the turn being entered (one tap). Choose ``move`` from
        ``match.state.next_moves()``. Nothing is sent to the opponent until :meth:`confirm`."""
        return self._act(
            match_id, actor, version, lambda m, seat, _d: (m.step(seat, move), [])
        )

    @_off_loop
    def steps(
        self, match_id: int, actor: Actor, version: int, moves: Sequence[Move]
    ) -> ActionResult:
        """Add several single moves to the turn at once (one tap that moves a checker with
        both dice, e.g. 24/13 with 6-5), in order, as one accepted step: one transaction, one
        version bump. All or nothing: if any move is refused, nothing is written and the
        result is REFUSED (the refusal of the first move that failed). :meth:`undo` still takes
        back one single move at a time."""
        chosen = tuple(moves)
        if not chosen:
            raise ValueError("steps needs at least one move")

        def decide(m: Match, seat: int, _d: DiceSource) -> tuple[Match, list[Event]]:
            for move in chosen:
                m = m.step(seat, move)
            return m, []

        return self._act(match_id, actor, version, decide)

    @_off_loop
    def undo(self, match_id: int, actor: Actor, version: int) -> ActionResult:
        """Take back the last single move chosen this turn."""
        return self._act(match_id, actor, version, lambda m, seat, _d: (m.undo(seat), []))

    @_off_loop
    def reset_turn(self, match_id: int, actor: Actor, version: int) -> ActionResult:
        """Take back every single move chosen this turn."""
        return self._act(
            match_id, actor, version, lambda m, seat, _d: (m.reset_turn(seat), [])
        )

    @_off_loop
    def confirm(self, match_id: int, actor: Actor, version: int) -> ActionResult:
        """End the turn with the moves chosen (they must make a whole legal play). The
        opponent's dice are rolled; forced plays and passes follow automatically."""
        return self._act(
            match_id, actor, version, lambda m, seat, d: m.confirm(seat, d), auto=True
        )

    @_off_loop
    def play(
        self, match_id: int, actor: Actor, version: int, play: Play | str
    ) -> ActionResult:
        """Play a whole turn at once: a :class:`~rules.position.Play` from
        ``match.state.legal_plays()`` (the computer) or move text such as ``"24/18 13/11"``
        (a player typing). Any moves chosen tap by tap are replaced."""

        def decide(m: Match, seat: int, d: DiceSource) -> tuple[Match, list[Event]]:
            if m.chosen:
                m = m.reset_turn(seat)
            return m.play(seat, play, d)

        return self._act(match_id, actor, version, decide, auto=True)

    # -- resigning and cancelling --------------------------------------------------------

    @_off_loop
    def offer_resignation(
        self, match_id: int, actor: Actor, version: int, points: int
    ) -> ActionResult:
        """On their turn, a player offers to resign the game for 1, 2 or 3 points."""
        return self._act(
            match_id, actor, version, lambda m, seat, _d: m.offer_resignation(seat, points)
        )

    @_off_loop
    def answer_resignation(
        self, match_id: int, actor: Actor, version: int, *, accept: bool
    ) -> ActionResult:
        """The opponent accepts (the game ends; the next game starts or the match ends) or
        declines (play goes on) a resignation offer."""

        def decide(m: Match, seat: int, d: DiceSource) -> tuple[Match, list[Event]]:
            if accept:
                return m.accept_resignation(seat, d)
            return m.decline_resignation(seat)

        return self._act(match_id, actor, version, decide, auto=accept)

    @_off_loop
    def resign_match(
        self, match_id: int, actor: Actor, version: int | None = None
    ) -> ActionResult:
        """A player gives up the whole match at any time; the opponent wins it.
        ``version=None`` skips the version check (a typed command rather than a button)."""
        return self._act(match_id, actor, version, lambda m, seat, _d: m.resign_match(seat))

    @_off_loop
    def cancel_match(
        self, match_id: int, actor: Actor, version: int | None = None
    ) -> ActionResult:
        """Either player cancels a match nobody has moved in yet (no result)."""
        return self._act(match_id, actor, version, lambda m, seat, _d: m.cancel(seat))

    # -- reading ------------------------------------------------------------------------

    @_off_loop
    def load_match(self, match_id: int) -> ActionResult:
        """Everything needed to draw the match: OK with ``result.match``, NOT_FOUND, or CORRUPT
        (a stored state that cannot be read: a clear error for that match only)."""
        with self._sessions() as session:
            loaded = self._load(session, match_id)
        if isinstance(loaded, ActionResult):
            return loaded
        return ActionResult(Outcome.OK, match=self._loaded_view(loaded))

    def _summaries(
        self, session: Session, rows: Sequence[MatchRow], seat_of: Callable[[MatchRow], int]
    ) -> list[MatchSummary]:
        ids = {r.player0_id for r in rows} | {r.player1_id for r in rows if r.player1_id}
        players = self._players(session, *ids)
        out = []
        for r in rows:
            seat = seat_of(r)
            other_id = r.player1_id if seat == 0 else r.player0_id
            out.append(
                MatchSummary(
                    id=r.id,
                    version=r.version,
                    status=MatchStatus(r.status),
                    length=r.length,
                    no_triple=r.no_triple,
                    score=(r.score0, r.score1),
                    my_seat=seat,
                    opponent=_player_view(players.get(other_id)) if other_id else None,
                    computer_level=r.computer_level,
                    my_turn=r.to_act == seat,
                    place=Place(r.chat_id, r.thread_id, r.inline_message_id),
                    turn_deadline=r.turn_deadline,
                    updated_at=r.updated_at,
                )
            )
        return out

    @_off_loop
    def list_active_matches(self, user_id: int) -> list[MatchSummary]:
        """The player's active matches (open challenges are not included), those waiting for
        this player first, then the most recently updated."""
        with self._sessions() as session:
            rows = list(
                session.scalars(
                    select(MatchRow)
                    .where(
                        MatchRow.status == MatchStatus.ACTIVE,
                        or_(MatchRow.player0_id == user_id, MatchRow.player1_id == user_id),
                    )
                    .order_by(MatchRow.updated_at.desc(), MatchRow.id.desc())
                )
            )
            out = self._summaries(
                session, rows, lambda r: 0 if r.player0_id == user_id else 1
            )
        out.sort(key=lambda s: not s.my_turn)
        return out

    @_off_loop
    def pending_computer_turns(self) -> list[MatchSummary]:
        """Active matches where the computer must act (for a worker to resume after restart).
        ``my_seat`` is the computer's seat."""
        with self._sessions() as session:
            rows = list(
                session.scalars(
                    select(MatchRow)
                    .where(
                        MatchRow.status == MatchStatus.ACTIVE,
                        MatchRow.computer_level.is_not(None),
                        MatchRow.to_act == 1,
                    )
                    .order_by(MatchRow.updated_at)
                )
            )
            return self._summaries(session, rows, lambda _r: 1)

    @_off_loop
    def match_record(self, match_id: int) -> MatchRecord | None:
        """The match with its games and its full move log (for .mat export and replay).
        ``None`` when there is no such match or its state cannot be read."""
        with self._sessions() as session:
            loaded = self._load(session, match_id)
            if isinstance(loaded, ActionResult):
                return None
            games = session.scalars(
                select(GameRow).where(GameRow.match_id == match_id).order_by(GameRow.number)
            )
            turns = session.scalars(
                select(TurnRow)
                .where(TurnRow.match_id == match_id)
                .order_by(TurnRow.game, TurnRow.turn)
            )
            return MatchRecord(
                match=self._loaded_view(loaded),
                games=tuple(
                    GameRecord(
                        number=g.number,
                        opening=(g.opening0, g.opening1)
                        if g.opening0 is not None and g.opening1 is not None
                        else None,
                        winner=g.winner,
                        kind=g.kind,
                        points=g.points,
                        resigned=g.resigned,
                        started_at=g.started_at,
                        ended_at=g.ended_at,
                    )
                    for g in games
                ),
                turns=tuple(
                    LoggedTurn(
                        game=t.game,
                        turn=t.turn,
                        player=t.player,
                        dice=Dice(t.die1, t.die2),
                        moves=tuple(Move(a, b, c, bool(h)) for a, b, c, h in t.steps),
                        text=t.text,
                        gnubg_id=t.gnubg_id,
                        forced=t.forced,
                        at=t.created_at,
                    )
                    for t in turns
                ),
            )

    @_off_loop
    def fairness(self, match_id: int) -> Fairness | None:
        """The dice commitment, and once the match has ended (finished, abandoned, expired or
        cancelled) the seed and every die drawn, with a command to verify them."""
        with self._sessions() as session:
            row = session.get(MatchRow, match_id)
            if row is None:
                return None
            ended = MatchStatus(row.status) in ENDED_STATUSES
            dice: tuple[int, ...] | None = None
            if ended:
                dice = tuple(FairDice(row.seed, row.mix).dice(row.dice_drawn)) if row.mix else ()
            return Fairness(
                match_id=row.id,
                commitment=row.commitment,
                mix=row.mix,
                dice_drawn=row.dice_drawn,
                seed_hex=row.seed.hex() if ended else None,
                dice=dice,
            )

    # -- board messages -----------------------------------------------------------------

    @_off_loop
    def record_board_message(
        self,
        match_id: int,
        *,
        version: int,
        chat_id: int | None = None,
        message_id: int | None = None,
        inline_message_id: str | None = None,
        for_seat: int | None = None,
    ) -> list[BoardMessageView]:
        """Remember a board message just sent (``for_seat`` None: the shared board in a group or
        inline; 0/1: that player's private board). Earlier live boards for the same audience
        are superseded and returned, so the bot can delete them (or edit them to a stub)."""
        if inline_message_id is None and (chat_id is None or message_id is None):
            raise ValueError("a board message needs chat_id and message_id, or inline_message_id")
        with self._sessions.begin() as session:
            same_seat = (
                BoardMessageRow.for_seat.is_(None)
                if for_seat is None
                else BoardMessageRow.for_seat == for_seat
            )
            old = list(
                session.scalars(
                    select(BoardMessageRow).where(
                        BoardMessageRow.match_id == match_id,
                        BoardMessageRow.live.is_(True),
                        same_seat,
                    )
                )
            )
            superseded = []
            for board in old:
                if (board.chat_id, board.message_id, board.inline_message_id) == (
                    chat_id,
                    message_id,
                    inline_message_id,
                ):
                    board.version = version  # the same message, edited
                    continue
                board.live = False
                superseded.append(_board_view(board))
            if not any(
                (b.chat_id, b.message_id, b.inline_message_id)
                == (chat_id, message_id, inline_message_id)
                for b in old
            ):
                session.add(
                    BoardMessageRow(
                        match_id=match_id,
                        chat_id=chat_id,
                        message_id=message_id,
                        inline_message_id=inline_message_id,
                        for_seat=for_seat,
                        version=version,
                        live=True,
                        created_at=self.clock(),
                    )
                )
        return superseded

    @_off_loop
    def board_messages(self, match_id: int) -> list[BoardMessageView]:
        """The live (not superseded) boards of a match."""
        with self._sessions() as session:
            return self._boards(session, match_id)

    @_off_loop
    def forget_board_message(self, board_message_id: int) -> None:
        """Drop a board the bot deleted or can no longer edit."""
        with self._sessions.begin() as session:
            session.execute(
                update(BoardMessageRow)
                .where(BoardMessageRow.id == board_message_id)
                .values(live=False)
            )

    @_off_loop
    def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> int:
        """Follow a group's migration to a supergroup (matches, challenges, boards and the
        chat's settings); returns how many rows changed."""
        changed = 0
        with self._sessions.begin() as session:
            for model, column in (
                (MatchRow, MatchRow.chat_id),
                (ChallengeRow, ChallengeRow.chat_id),
                (ChallengeRow, ChallengeRow.card_chat_id),
                (BoardMessageRow, BoardMessageRow.chat_id),
            ):
                result = session.execute(
                    update(model)
                    .where(column == old_chat_id)
                    .values({column.key: new_chat_id})
                    .execution_options(synchronize_session=False)
                )
                changed += result.rowcount  # type: ignore[attr-defined]
            # The settings move too, unless the new chat already has its own (set there after
            # the upgrade): then the old ones are dropped.
            if session.get(ChatSettingRow, new_chat_id) is None:
                result = session.execute(
                    update(ChatSettingRow)
                    .where(ChatSettingRow.chat_id == old_chat_id)
                    .values(chat_id=new_chat_id)
                    .execution_options(synchronize_session=False)
                )
            else:
                result = session.execute(
                    delete(ChatSettingRow)
                    .where(ChatSettingRow.chat_id == old_chat_id)
                    .execution_options(synchronize_session=False)
                )
            changed += int(result.rowcount)  # type: ignore[attr-defined]
        return changed

    # -- chats --------------------------------------------------------------------------

    @_off_loop
    def set_chat_language(self, chat_id: int, language: str | None) -> None:
        """Set the language of a group's match cards (``/lang`` in the group); ``None`` clears
        it (the match creator's language is used again)."""
        now = self.clock()
        values: dict[str, Any] = {
            "chat_id": chat_id,
            "language": language[:16] if language else None,
            "updated_at": now,
        }
        insert = pg_insert if self.db.engine.dialect.name == "postgresql" else sqlite_insert
        stmt = insert(ChatSettingRow).values(**values)
        stmt = stmt.on_conflict_do_update(
            index_elements=[ChatSettingRow.chat_id],
            set_={"language": values["language"], "updated_at": now},
        )
        with self.db.sync_write_lock(), self._sessions.begin() as session:
            session.execute(stmt)

    @_off_loop
    def get_chat_language(self, chat_id: int) -> str | None:
        """The language set for a group with ``/lang``, or ``None`` when none was set."""
        with self._sessions() as session:
            language: str | None = session.scalar(
                select(ChatSettingRow.language).where(ChatSettingRow.chat_id == chat_id)
            )
            return language

    @_off_loop
    def active_matches_in_chat(self, chat_id: int) -> list[MatchView]:
        """The active matches played in a chat (e.g. to tell their players when the bot is
        removed from the group), oldest first, with their players and live boards. A match
        whose stored state cannot be read is left out (and logged)."""
        with self._sessions() as session:
            ids = list(
                session.scalars(
                    select(MatchRow.id)
                    .where(MatchRow.chat_id == chat_id, MatchRow.status == MatchStatus.ACTIVE)
                    .order_by(MatchRow.id)
                )
            )
            out = []
            for match_id in ids:
                loaded = self._load(session, match_id)
                if isinstance(loaded, ActionResult):
                    continue  # _load has logged a corrupt state
                out.append(self._loaded_view(loaded))
            return out

    # -- timers -------------------------------------------------------------------------

    @_off_loop
    def fire_due_timers(self, *, worker: str = "", limit: int = 50) -> list[TimerFired]:
        """Claim and fire the timers that are due, each exactly once across all workers, each
        in its own transaction: reminders (notify ``seat``), timeouts (the player to act loses
        the match: status ``abandoned``), challenge expiries (status ``expired``). Call it
        every minute or so from each instance (e.g. the job queue)."""
        now = self.clock()
        with self._sessions() as session:
            due = list(
                session.scalars(
                    select(TimerRow.id)
                    .where(TimerRow.fired_at.is_(None), TimerRow.due_at <= now)
                    .order_by(TimerRow.due_at, TimerRow.id)
                    .limit(limit)
                )
            )
        fired = []
        for timer_id in due:
            try:
                result = self._fire(timer_id, worker or "worker", now)
            except Exception:  # one bad timer must not stop the others
                log.exception("timer %s failed", timer_id)
                continue
            if result is not None:
                fired.append(result)
        return fired

    def _fire(self, timer_id: int, worker: str, now: datetime) -> TimerFired | None:
        with self.db.sync_write_lock(), self._sessions() as session:
            # The claim is the transaction's first statement: a write, so on SQLite it takes
            # the write lock at once, and on PostgreSQL it locks the row. Exactly one worker
            # sees rowcount 1; the effect commits (or rolls back) together with the claim.
            claimed = session.execute(
                update(TimerRow)
                .where(TimerRow.id == timer_id, TimerRow.fired_at.is_(None))
                .values(fired_at=now, fired_by=worker[:64])
                .execution_options(synchronize_session=False)
            )
            if claimed.rowcount != 1:  # type: ignore[attr-defined]
                session.rollback()
                return None
            timer = session.get(TimerRow, timer_id)
            assert timer is not None
            kind = TimerKind(timer.kind)
            if kind == TimerKind.CHALLENGE_EXPIRY:
                ch = session.scalar(
                    select(ChallengeRow).where(ChallengeRow.match_id == timer.match_id)
                )
                cview = None
                if ch is not None and ch.status == ChallengeStatus.OPEN:
                    cview = self._close_challenge(session, ch, ChallengeStatus.EXPIRED)
                session.commit()
                if cview is None:
                    return None
                return TimerFired(timer_id, kind, None, None, None, challenge=cview)
            loaded = self._load(session, timer.match_id)
            if isinstance(loaded, ActionResult):
                session.commit()  # fired once, not retried in a loop
                return TimerFired(
                    timer_id,
                    kind,
                    timer.seat,
                    None,
                    None,
                    outcome=loaded.outcome,
                    message=loaded.message,
                )
            row, state = loaded.row, loaded.state
            if _to_act(row.status, state) != timer.seat:
                session.commit()  # obsolete (should have been replaced): nothing to do
                return None
            if kind == TimerKind.REMINDER:
                session.commit()
                after = timedelta(seconds=timer.after_s) if timer.after_s is not None else None
                return TimerFired(timer_id, kind, timer.seat, after, self._loaded_view(loaded))
            assert timer.seat is not None
            new_state, events = state.resign_match(timer.seat, reason="timeout")
            if not self._apply(session, self._plan(row, state, new_state, events, now)):
                session.rollback()  # the player acted meanwhile
                return None
            session.commit()
        view = self._view(row, new_state, loaded.players, chat_language=loaded.chat_language)
        return TimerFired(timer_id, kind, timer.seat, None, view, events=tuple(events))

    @_off_loop
    def next_timer_due(self) -> datetime | None:
        """When the next unfired timer is due (for scheduling the next wake-up)."""
        with self._sessions() as session:
            due: datetime | None = session.scalar(
                select(func.min(TimerRow.due_at)).where(TimerRow.fired_at.is_(None))
            )
            return due
