"""The transaction kernel every feature's use cases share.

One use case is one short transaction in a database worker thread: :meth:`Kernel.load` reads the
match (with its players, live boards and chat language), the feature decides through the rules
core, :meth:`Kernel.plan` computes every statement of the write (no I/O), and
:meth:`Kernel.apply` runs them behind a compare-and-swap on the match's version. :meth:`Kernel.act`
is that whole pattern for an action by a player on an active match.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from rules.common.errors import CorruptState, PortesError
from rules.common.fairdice import FairDice, new_seed
from rules.match import Event, Match
from storage.accuracy import Figure, of_match
from storage.db import Database, current_loop
from storage.delivery.notices import notice_step
from storage.delivery.outbox import OwnClaim, outbox_step
from storage.models import MatchRow, Player
from storage.results import (
    ENDED_STATUSES,
    ActionResult,
    Actor,
    BoardMessageView,
    ChallengeLimits,
    MatchStatus,
    MatchView,
    Outcome,
    Place,
    PlayerView,
    RatingChange,
    Seat,
    TimerPolicy,
)
from storage.usecases.eventlog import event_steps, waiting_timers
from storage.usecases.rating_write import RATED_STATUSES, is_rated, rate_match, rating_changes
from storage.usecases.rows import (
    ALREADY_PLAYED,
    DELETE_PENDING_TIMERS,
    SELECT_BOARDS,
    SELECT_LAST_TYPED,
    SELECT_MATCH,
    SELECT_PLAYERS,
    STALE_MESSAGE,
    UPDATE_LAST_TYPED,
    UPDATE_MATCH,
    UPDATE_MATCH_IF_STATUS,
    Decision,
    Loaded,
    MatchData,
    MatchLike,
    Plan,
    board_view,
    player_view,
    refused,
    seat_of,
    status_after,
    storable_id,
    stored_state,
    to_act,
    waiting_key,
)

log = logging.getLogger("storage.usecases")

Clock = Callable[[], datetime]
Checkpoint = Callable[[str], Awaitable[None]]
Seeds = Callable[[], bytes]

P = ParamSpec("P")
T = TypeVar("T")
F = TypeVar("F", bound="Feature")


def utcnow() -> datetime:
    return datetime.now(UTC)


class Unchanged(Exception):
    """Raised by a decision whose action changes nothing in the match (see :meth:`Kernel.act`),
    such as a tap that only chooses a checker on the keyboard."""


Guard = Callable[[Session, Loaded], "ActionResult | None"]
"""A caller's own checks of the match as :meth:`Kernel.act` read it: a refusal, or ``None``."""


class Feature:
    """Base of the feature classes composed into :class:`~storage.usecases.UseCases`: they
    share one kernel."""

    kernel: Kernel


def off_loop(
    fn: Callable[Concatenate[F, P], T],
) -> Callable[Concatenate[F, P], Coroutine[Any, Any, T]]:
    """Make a synchronous use case a coroutine that runs it in a database worker thread."""

    async def run(self: F, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return await self.kernel.db.run(fn, self, *args, **kwargs)

    functools.update_wrapper(run, fn)
    return run


async def _awaited(awaitable: Awaitable[None]) -> None:
    await awaitable


class Kernel:
    """Loading, planning and compare-and-swap writing of matches, over one database.

    ``seeds`` draws each new match's secret dice seed (default
    :func:`rules.common.fairdice.new_seed`); only code passes another (tests replaying a match
    exactly).
    ``wall`` is the wall clock of delivery (its claims' leases, back-offs and the outbox's due
    times) and of what several instances share (the computer's leases, the groups' Telegram
    budgets); seconds since the epoch, default :func:`time.time`: real time whatever ``clock``
    says; a test passes one it moves.
    """

    def __init__(
        self,
        db: Database,
        *,
        timers: TimerPolicy | None = None,
        limits: ChallengeLimits | None = None,
        clock: Clock | None = None,
        checkpoint: Checkpoint | None = None,
        seeds: Seeds | None = None,
        wall: Callable[[], float] | None = None,
    ) -> None:
        self.db = db
        self.sessions = db.sessions
        self.timers = timers or TimerPolicy()
        self.limits = limits or ChallengeLimits()
        self.clock = clock or utcnow
        self.seeds = seeds or new_seed
        self.wall = wall or time.time
        self._checkpoint = checkpoint
        self.own_claim = OwnClaim()
        """This process's delivery worker, if it delivers its own actions at once."""

    def wall_now(self) -> datetime:
        """:attr:`wall` as an aware UTC datetime."""
        return datetime.fromtimestamp(self.wall(), UTC)

    def checkpoint(self, name: str) -> None:
        """Run the test checkpoint on the event loop and wait for it (from a worker thread)."""
        if self._checkpoint is not None:
            loop = current_loop()
            asyncio.run_coroutine_threadsafe(_awaited(self._checkpoint(name)), loop).result()

    @property
    def insert(self) -> Callable[..., Any]:
        """This dialect's ``insert`` (with ``on_conflict_do_update``)."""
        return pg_insert if self.db.engine.dialect.name == "postgresql" else sqlite_insert

    # -- reading ------------------------------------------------------------------------

    def ensure_player(self, session: Session, user_id: int) -> Player:
        """The player with this id, created with its id as its name when unknown."""
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

    def players(self, session: Session, *ids: int | None) -> dict[int, PlayerView]:
        wanted = list({i for i in ids if i is not None})
        if not wanted:
            return {}
        rows = session.connection().execute(SELECT_PLAYERS, {"b_ids": wanted})
        return {p.id: v for p in rows if (v := player_view(p)) is not None}

    def boards(self, session: Session, match_id: int) -> list[BoardMessageView]:
        rows = session.connection().execute(SELECT_BOARDS, {"b_id": match_id})
        return [board_view(b) for b in rows]

    def load(self, session: Session, match_id: int) -> Loaded | ActionResult:
        """The match, or NOT_FOUND, or CORRUPT (logged) when its stored state cannot be read."""
        if not storable_id(match_id):
            return ActionResult(Outcome.NOT_FOUND, code="not_found", message="No such match.")
        found = session.connection().execute(SELECT_MATCH, {"b_id": match_id}).first()
        if found is None:
            return ActionResult(Outcome.NOT_FOUND, code="not_found", message="No such match.")
        data = dict(found._mapping)
        chat_language = data.pop("chat_language")
        row = MatchData(**data)
        try:
            state = Match.from_json(row.state)
        except CorruptState as exc:
            log.error("match %s: stored state unreadable: %s", match_id, exc.message)
            return ActionResult(
                Outcome.CORRUPT,
                code=exc.code,
                message=f"Match {match_id} cannot be loaded: its stored state is damaged.",
            )
        players = self.players(session, row.player0_id, row.player1_id)
        boards = self.boards(session, match_id)
        ended = row.winner is not None
        changes = rating_changes(session.connection(), match_id) if ended else ()
        judged = of_match(session.connection(), match_id) if ended else None
        return Loaded(row, state, players, boards, chat_language, changes, judged)

    def view(
        self,
        row: MatchLike,
        state: Match,
        players: dict[int, PlayerView],
        boards: Sequence[BoardMessageView] = (),
        chat_language: str | None = None,
        rating_changes: Sequence[RatingChange] = (),
        accuracy: tuple[Figure, Figure] | None = None,
    ) -> MatchView:
        status = MatchStatus(row.status)
        seat1 = Seat(
            1,
            player_view(players.get(row.player1_id)) if row.player1_id is not None else None,
            row.computer_level,
        )
        return MatchView(
            id=row.id,
            version=row.version,
            status=status,
            state=state,
            seats=(Seat(0, player_view(players.get(row.player0_id))), seat1),
            place=Place(row.chat_id, row.thread_id, row.inline_message_id, row.in_group),
            commitment=row.commitment,
            seed_hex=row.seed.hex() if status in ENDED_STATUSES else None,
            mix=row.mix,
            turn_deadline=row.turn_deadline,
            created_at=row.created_at,
            updated_at=row.updated_at,
            finished_at=row.finished_at,
            board_messages=tuple(boards),
            chat_language=chat_language,
            rating_changes=tuple(rating_changes),
            move_seconds=row.move_seconds,
            accuracy=accuracy,
        )

    def loaded_view(self, loaded: Loaded) -> MatchView:
        return self.view(
            loaded.row, loaded.state, loaded.players, loaded.boards, loaded.chat_language,
            loaded.rating_changes, loaded.accuracy,
        )

    # -- writing ------------------------------------------------------------------------

    def plan(
        self,
        row: MatchLike,
        before: Match,
        after: Match,
        events: Sequence[Event],
        now: datetime,
        *,
        players: Mapping[int, PlayerView],
        extra: dict[str, Any] | None = None,
        expect_status: str | None = None,
        status: MatchStatus | None = None,
    ) -> Plan:
        """The statements of a compare-and-swap write (match version read -> version + 1), of
        the events' log, of the timers and of the outbox, with their parameters (no I/O);
        :meth:`apply` runs them. ``players``: the match's players as read (who started the bot
        decides where a group match's turns are played, see :mod:`storage.delivery.outbox`)."""
        new_status = status or status_after(after)
        waiting = to_act(new_status, after)
        values: dict[str, Any] = {
            "status": new_status.value,
            "version": row.version + 1,
            **stored_state(after),
            "score0": after.score[0],
            "score1": after.score[1],
            "winner": after.winner,
            "end_reason": after.end_reason,
            "dice_drawn": after.dice_drawn,
            "to_act": waiting,
            "updated_at": now,
        }
        if new_status in ENDED_STATUSES:
            values["finished_at"] = now
            values["turn_deadline"] = None
        renew = waiting_key(row.status, before) != waiting_key(new_status, after)
        computer_waits = waiting == 1 and row.computer_level is not None
        policy = self.timers.for_match(row.move_seconds)
        if renew and new_status == MatchStatus.ACTIVE:
            values["turn_deadline"] = None if computer_waits else now + policy.turn_timeout
        values.update(extra or {})
        steps = event_steps(row.id, events, now)
        if renew or new_status in ENDED_STATUSES:
            steps.append((DELETE_PENDING_TIMERS, {"b_id": row.id}))
            if new_status == MatchStatus.ACTIVE and waiting is not None and not computer_waits:
                steps.append(waiting_timers(policy, row.id, waiting, now))
        wall = self.wall_now()
        delivery = outbox_step(self.insert, self.db.engine.dialect.name,
                               self._after(row, values, players), events, wall,
                               self.own_claim.at(wall),
                               moved=before.chosen != after.chosen)
        keys: tuple[str, ...] = ()
        if delivery is not None:
            steps.append(delivery)
            keys = tuple(dict.fromkeys(r["chat_key"] for r in delivery[1]))
        notices = notice_step(self.insert, self.db.engine.dialect.name, row.status,
                              {**self._after(row, values, players),
                               "end_reason": values["end_reason"],
                               "game_type": values.get("game_type", row.game_type)},
                              players, wall, self.own_claim.at(wall))
        if notices is not None:  # the chats of the end's notices are kicked with the boards'
            steps.append(notices)
            keys = tuple(dict.fromkeys((*keys, *(r["chat_key"] for r in notices[1]))))
        return Plan(row, values, expect_status, steps, chat_keys=keys)

    @staticmethod
    def _after(row: MatchLike, values: dict[str, Any],
               players: Mapping[int, PlayerView]) -> dict[str, Any]:
        """What the outbox needs of the match row as the write leaves it."""
        keys = ("chat_id", "inline_message_id", "in_group", "player0_id", "player1_id")
        after = {key: values.get(key, getattr(row, key)) for key in keys}

        def started(player_id: int | None) -> bool:
            found = players.get(player_id) if player_id is not None else None
            return found is not None and found.can_message

        after.update(id=row.id, status=values["status"], version=values["version"],
                     to_act=values["to_act"],
                     private=(started(after["player0_id"]), started(after["player1_id"])))
        return after

    @staticmethod
    def apply(session: Session, plan: Plan) -> bool:
        """Run a planned write: the compare-and-swap first; the rest only if it won."""
        row = plan.row
        conn = session.connection()
        params = {**plan.values, "b_id": row.id, "b_seen": row.version}
        if plan.expect_status is None:
            result = conn.execute(UPDATE_MATCH, params)
        else:
            params["b_status"] = plan.expect_status
            result = conn.execute(UPDATE_MATCH_IF_STATUS, params)
        if result.rowcount != 1:
            return False
        for stmt, step_params in plan.steps:
            conn.execute(stmt, step_params)
        plan.rating_changes = Kernel._rate(session, plan)
        # Mirror the new values on the row read (an ORM row is detached first: the session
        # must not flush it again).
        if isinstance(row, MatchRow) and row in session:
            session.expunge(row)
        for key, value in plan.values.items():
            setattr(row, key, value)
        return True

    @staticmethod
    def _rate(session: Session, plan: Plan) -> tuple[RatingChange, ...]:
        """A match this write ends with a winner between two people: the ratings, in the
        same transaction (:mod:`storage.usecases.rating_write`)."""
        row, values = plan.row, plan.values
        if values["status"] not in RATED_STATUSES or row.status == values["status"]:
            return ()
        keys = ("id", "player0_id", "player1_id", "computer_level", "chat_id", "in_group",
                "length", "game_type")
        match = {key: values.get(key, getattr(row, key)) for key in keys}
        match.update(status=values["status"], winner=values["winner"])
        if not is_rated(match):
            return ()
        rate_match(session.connection(), match, values["updated_at"])
        return rating_changes(session.connection(), row.id)

    # -- an action on an active match ---------------------------------------------------

    def act(
        self,
        match_id: int,
        actor: Actor,
        version: int | None,
        decide: Decision,
        *,
        auto: bool = False,
        typed: int | None = None,
        guard: Guard | None = None,
    ) -> ActionResult:
        """Load, check the version and the actor, decide through the rules core, then write
        with compare-and-swap, all in one short transaction. ``auto``: forced plays follow.
        ``guard``: the caller's own checks of the match as read, before those (a refusal, or
        ``None``). ``decide`` raises :class:`Unchanged` for an action that changes nothing in
        the match (OK, nothing written, the match as read).
        ``typed``: the message id of the play a person typed (in their private chat, where ids
        only grow); one not above their ``last_typed`` was already played (a copy Telegram
        delivered again) and is refused with ``already_played``; once played, it becomes their
        ``last_typed`` in the same transaction (a conditional update: the one read of it when
        the play is admitted)."""
        typing = (actor, typed) if typed is not None and isinstance(actor, int) else None
        with self.sessions() as session:
            loaded = self.load(session, match_id)
            if isinstance(loaded, ActionResult):
                return loaded
            admitted = (guard and guard(session, loaded)) or self._admit(loaded, actor, version)
            if isinstance(admitted, ActionResult):
                return self._unless_played(session, typing, admitted)
            seat, dice = admitted
            row, state = loaded.row, loaded.state
            try:
                new_state, events = decide(state, seat, dice)
                if auto:
                    new_state, more = new_state.play_forced(dice)
                    events = [*events, *more]
            except Unchanged:
                return ActionResult(Outcome.OK, match=self.loaded_view(loaded))
            except PortesError as exc:
                return self._unless_played(
                    session, typing, refused(exc.code, exc.message, self.loaded_view(loaded)))
            self.checkpoint("read")
            plan = self.plan(row, state, new_state, events, self.clock(),
                             players=loaded.players)
            failed = self._write(session, plan, typing)
        if failed is not None:
            return self.stale(match_id, typing)
        self.checkpoint("committed")
        boards = [] if row.status in ENDED_STATUSES else loaded.boards
        view = self.view(row, new_state, loaded.players, boards, loaded.chat_language,
                         plan.rating_changes)
        return ActionResult(Outcome.OK, match=view, events=tuple(events),
                            chat_keys=plan.chat_keys)

    def _admit(
        self, loaded: Loaded, actor: Actor, version: int | None
    ) -> tuple[int, FairDice] | ActionResult:
        """The actor's seat and the match's dice, or why the action cannot be taken."""
        row = loaded.row
        if version is not None and row.version != version:
            return ActionResult(
                Outcome.STALE,
                match=self.loaded_view(loaded),
                code="stale",
                message=STALE_MESSAGE,
            )
        seat = seat_of(row, actor)
        if seat is None:
            return refused(
                "not_a_player", "You are not playing in this match.", self.loaded_view(loaded)
            )
        if row.status != MatchStatus.ACTIVE:
            code, message = (
                ("invalid_action", "The match has not started yet.")
                if row.status == MatchStatus.CHALLENGE
                else ("game_over", "The match is over.")
            )
            return refused(code, message, self.loaded_view(loaded))
        if row.mix is None:
            return ActionResult(
                Outcome.CORRUPT,
                code="corrupt_state",
                message=f"Match {row.id} has no dice stream.",
            )
        return seat, FairDice(row.seed, row.mix)

    def _write(self, session: Session, plan: Plan,
               typing: tuple[int, int] | None = None) -> str | None:
        """Apply and commit under the write lock; roll back when another writer won
        (``"stale"``) or the typed play was played meanwhile, in another match
        (``"already_played"``). ``None``: committed."""
        with self.db.write_lock():
            failed = None if self.apply(session, plan) else "stale"
            if failed is None and typing is not None:
                params = {"b_id": typing[0], "b_typed": typing[1]}
                if session.connection().execute(UPDATE_LAST_TYPED, params).rowcount != 1:
                    failed = "already_played"
            if failed is None:
                self.checkpoint("written")
                session.commit()
            else:
                session.rollback()
        return failed

    def _unless_played(self, session: Session, typing: tuple[int, int] | None,
                       result: ActionResult) -> ActionResult:
        """A refusal, or ``already_played`` when the typed play refused was already played
        (a copy: its original moved the match on). An admitted typed play is not read first:
        the write's conditional update of ``last_typed`` refuses a copy (:meth:`_write`)."""
        if typing is not None and self._typed_before(session, *typing):
            return self.already_played(result.match)
        return result

    @staticmethod
    def _typed_before(session: Session, player_id: int, typed: int) -> bool:
        """Whether the player's typed play ``typed`` (a message id) was already played."""
        last = session.connection().execute(SELECT_LAST_TYPED, {"b_id": player_id}).scalar()
        return last is not None and typed <= last

    @staticmethod
    def already_played(view: MatchView | None) -> ActionResult:
        return ActionResult(Outcome.STALE, match=view, code="already_played",
                            message=ALREADY_PLAYED)

    def stale(self, match_id: int, typing: tuple[int, int] | None = None) -> ActionResult:
        """STALE with the match as it is now (another request won the race); ``already_played``
        when that request played this same typed play."""
        with self.sessions() as session:
            loaded = self.load(session, match_id)
            played = typing is not None and self._typed_before(session, *typing)
        view = None if isinstance(loaded, ActionResult) else self.loaded_view(loaded)
        if played:
            return self.already_played(view)
        return ActionResult(Outcome.STALE, match=view, code="stale", message=STALE_MESSAGE)
