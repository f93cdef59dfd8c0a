"""Claims on delivery places, with a fencing token.

A delivery worker claims a place (a row of ``deliveries``) for a lease with a compare-and-swap
on ``claimed_until``, so two instances never work on one place at once. A lease can run out
while its worker is still busy (a send slower than the lease, a stalled process) and another
instance then takes the place over; every claim therefore raises the row's ``claim_token``
(revision 0012), the worker carries the token it got (:attr:`DeliveryWork.claim`), and each of
its writes compares it in the same transaction (:func:`fenced`): the stale worker is refused
and stops. It also renews its lease through :meth:`ClaimCases.renew_claim` before a Telegram
call that changes the chat (an edit, a deletion), so it never edits or retires a board once
another took the place over.

A tap that changes only a keyboard (a checker chosen, back to the list) is a request to the
same place (:meth:`ClaimCases.ask_keyboard`, revision 0018), written only while the match is
still at the version the keyboard was drawn from: the worker edits the board's keyboard like
any other change, so the edit is never dropped while a worker holds the place.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, bindparam, or_, select, update
from sqlalchemy.orm import Session

from storage.delivery.outbox import OwnClaim
from storage.models import BoardMessageRow, DeliveryChatRow, DeliveryRow, MatchRow
from storage.results import BoardMessageView
from storage.usecases.kernel import Feature, Kernel, off_loop
from storage.usecases.rows import board_view


@dataclass(frozen=True)
class KeyboardAsked:
    """Where a keyboard-only tap's choice goes (:meth:`ClaimCases.ask_keyboard`)."""

    chat_key: str
    """The chat to kick."""
    live: int | None
    """The message id of the place's newest live board (none: not posted yet)."""
    busy: bool
    """A worker holds the place or waits to retry there: the choice follows its work."""
    repost: bool
    """A new board is asked for: the choice shows on it."""


@dataclass(frozen=True)
class OnItsWay:
    """A stale tap on a board whose newer state is still to come (:meth:`ClaimCases.on_its_way`):
    its place is pending at a newer version than the tapped keyboard's."""

    played: int | None
    """The seat whose turn the coming board says was played (none: another change, a move
    within a turn)."""


@dataclass(frozen=True)
class DeliveryWork:
    """One claimed place: what it should show, and what was asked of it."""

    id: int
    match_id: int
    chat_id: int | None
    inline_message_id: str | None
    for_seat: int | None
    version: int
    repost: bool
    media: bool
    notes: tuple[dict[str, Any], ...]
    """The caption's lines about what happened (only for the version they belong to)."""
    probes: tuple[dict[str, Any], ...]
    attempts: int
    boards: tuple[BoardMessageView, ...] = ()
    """The place's live boards when claimed, oldest first (more than one: extras to retire)."""
    top: int = 0
    """The highest message id the bot got back from a send in this chat."""
    claim: int = 0
    """The fencing token of this claim: every write about the place passes it back."""
    until: datetime | None = None
    """When the claim's lease runs out (wall clock)."""
    shown: int = 0
    """The version delivered last."""
    selected: int | None = None
    """The checker chosen on the place's keyboard at :attr:`version` (none: the list)."""
    keyboard_asked: bool = False
    """The choice is not on the board yet: at least its keyboard is edited."""
    place: str = ""
    """The place's key (``chat:…``, ``inline:…``, or ``note:…``: a notice, see
    :mod:`storage.delivery.notices`)."""
    notice: dict[str, Any] | None = None
    """A notice's kind (``kind``) and, once sent, its ``message_id``."""
    edit_if_busy: bool = False
    """The new board asked for may be an edit of the live one when the group is busy
    (:attr:`storage.delivery.outbox.Where.edit_if_busy`)."""

    @property
    def choice(self) -> tuple[int | None, int]:
        """What the keyboard is drawn with (passed back when the place is completed)."""
        return self.selected, self.version

    @property
    def chat_key(self) -> str:
        return str(self.chat_id) if self.chat_id is not None else f"inline:{self.inline_message_id}"


def _work(row: DeliveryRow, boards: list[BoardMessageRow], top: int) -> DeliveryWork:
    notes = row.notes if row.notes and row.notes_version == row.version else []
    return DeliveryWork(
        boards=tuple(board_view(b) for b in boards), top=top,
        id=row.id, match_id=row.match_id, chat_id=row.chat_id,
        inline_message_id=row.inline_message_id, for_seat=row.for_seat, version=row.version,
        repost=row.repost_version is not None, media=row.media_version is not None,
        notes=tuple(notes),
        probes=tuple(row.probes or ()), attempts=row.attempts,
        claim=row.claim_token, until=row.claimed_until, shown=row.shown,
        selected=row.selected if row.selected_version == row.version else None,
        keyboard_asked=row.keyboard_asked, place=row.place,
        notice=dict(row.notes[0]) if row.place.startswith("note:") and row.notes else None,
        edit_if_busy=row.repost_version is not None and row.firm_version is None,
    )


def due(now: Any, worker: Any = None) -> Any:
    """Pending, due, and free to claim (or already ``worker``'s): ``now`` a time and ``worker``
    a name, or either a bound parameter."""
    free = or_(DeliveryRow.claimed_until.is_(None), DeliveryRow.claimed_until < now)
    if worker is not None:
        free = or_(free, DeliveryRow.claimed_by == (
            worker[:64] if isinstance(worker, str) else worker))
    return and_(DeliveryRow.pending.is_(True), DeliveryRow.due_at <= now, free)


def locked(session: Session, work_id: int) -> DeliveryRow | None:
    """The place's row read ``FOR UPDATE`` (see :mod:`storage.delivery.work`)."""
    return session.scalar(_FENCED, {"work_id": work_id})


def fenced(session: Session, work_id: int, claim: int) -> DeliveryRow | None:
    """The place's row read ``FOR UPDATE`` (:func:`locked`), or ``None`` when it is gone or
    claimed again since ``claim`` (its worker is stale)."""
    row = locked(session, work_id)
    if row is None or row.claim_token != claim:
        return None
    return row


# The worker's statements, built once (building one costs as much as running it): the same
# SQL as written out each time, the values bound.
_FENCED = select(DeliveryRow).where(DeliveryRow.id == bindparam("work_id")).with_for_update()
"""As ``session.get(DeliveryRow, id, with_for_update=True)``: always read (the use cases read it
first in their session)."""
_LIVE_BOARDS = {
    seat: select(BoardMessageRow).where(
        BoardMessageRow.match_id == bindparam("match_id"), BoardMessageRow.live.is_(True),
        BoardMessageRow.chat_id == bindparam("chat_id"),
        BoardMessageRow.for_seat.is_(None) if seat is None
        else BoardMessageRow.for_seat == bindparam("for_seat"))
    .order_by(BoardMessageRow.id)
    for seat in (None, 0)
}
"""The live boards of a place: a group's (no seat), or one seat's (any seat: bound)."""
_MATCH_VERSION = select(MatchRow.version).where(MatchRow.id == bindparam("match_id"))
_CHAT_PLACE = (select(DeliveryRow).where(
    DeliveryRow.match_id == bindparam("match_id"), DeliveryRow.chat_id == bindparam("chat_id"),
    DeliveryRow.place.like("chat:%")).with_for_update())
_TOPS = (select(DeliveryChatRow.chat_id, DeliveryChatRow.last_message_id)
         .where(DeliveryChatRow.chat_id.in_(bindparam("chats", expanding=True))))
_CHATS_BOARDS = (select(BoardMessageRow).where(
    BoardMessageRow.match_id.in_(bindparam("matches", expanding=True)),
    BoardMessageRow.live.is_(True), BoardMessageRow.chat_id.in_(bindparam("chats", expanding=True)))
    .order_by(BoardMessageRow.id))


def live_boards(session: Session, row: DeliveryRow) -> list[BoardMessageRow]:
    """The live boards of the row's place, oldest first."""
    statement = _LIVE_BOARDS[None if row.for_seat is None else 0]
    return list(session.scalars(statement, {"match_id": row.match_id, "chat_id": row.chat_id,
                                            "for_seat": row.for_seat}))


def _same_place(board: BoardMessageRow, row: DeliveryRow) -> bool:
    """Whether ``board`` is one of the row's place's boards (as :func:`live_boards`)."""
    return (board.match_id == row.match_id and board.chat_id == row.chat_id
            and board.for_seat == row.for_seat)


def _due_in_chat(query: Any, now: Any, worker: Any, chat_key: Any, limit: int) -> Any:
    """``query`` narrowed to the chat's due places, in the order they are claimed (reposts
    first, then by due time)."""
    return (query.where(due(now, worker), DeliveryRow.chat_key == chat_key)
            .order_by(DeliveryRow.repost_version.is_(None), DeliveryRow.due_at)
            .limit(limit))


@functools.cache
def _due_in_chat_bound(what: str, limit: int) -> Any:
    """:func:`_due_in_chat` of the rows (``what="rows"``) or their ids, built once per
    ``limit`` with ``now``, ``worker`` and ``chat_key`` bound at execution."""
    query = select(DeliveryRow) if what == "rows" else select(DeliveryRow.id)
    return _due_in_chat(query, bindparam("now", type_=DeliveryRow.due_at.type),
                        bindparam("worker"), bindparam("chat_key"), limit)


def _due_params(now: datetime, worker: str, chat_key: str) -> dict[str, Any]:
    return {"now": now, "worker": worker[:64], "chat_key": chat_key}


@dataclass(frozen=True)
class Claimed:
    """What one claim of a chat's places got (:meth:`ClaimCases.claim_chat`)."""

    works: list[DeliveryWork]
    more: bool
    """More of the chat's places were due than were claimed."""


class ClaimCases(Feature):
    """Claiming places, renewing and releasing the claims, fenced by a token."""

    @off_loop
    def claim_deliveries(self, worker: str, *, chat_key: str, lease: float = 10.0,
                         limit: int = 20) -> list[DeliveryWork]:
        """Claim the due places of one chat for ``lease`` seconds: a compare-and-swap on
        ``claimed_until``, so exactly one worker of any instance gets each; each claim raises
        the place's fencing token."""
        return self._claim(worker, chat_key, lease, limit).works

    @off_loop
    def claim_chat(self, worker: str, *, chat_key: str, lease: float = 10.0,
                   limit: int = 20) -> Claimed:
        """:meth:`claim_deliveries`, and whether more places of the chat were due than
        ``limit`` (the worker claims again only then, or when kicked meanwhile)."""
        return self._claim(worker, chat_key, lease, limit)

    def _claim(self, worker: str, chat_key: str, lease: float, limit: int) -> Claimed:
        k = self.kernel
        now = self.kernel.wall_now()
        until = now + timedelta(seconds=lease)
        mine = self._already_mine(worker, chat_key, now, limit)
        if mine is not None:
            return mine
        with k.db.write_lock(), k.sessions.begin() as session:
            ids = list(session.scalars(_due_in_chat_bound("ids", limit + 1),
                                       _due_params(now, worker, chat_key)))
            more = len(ids) > limit
            claimed = []
            for row_id in ids[:limit]:
                won = session.execute(
                    update(DeliveryRow).where(DeliveryRow.id == row_id, due(now, worker))
                    .values(claimed_by=worker[:64], claimed_until=until,
                            claim_token=DeliveryRow.claim_token + 1)
                    .execution_options(synchronize_session=False))
                if won.rowcount == 1:  # type: ignore[attr-defined]
                    claimed.append(row_id)
            if not claimed:
                return Claimed([], more)
            rows = list(session.scalars(select(DeliveryRow).where(DeliveryRow.id.in_(claimed))))
            return Claimed(self._claimed(session, rows), more)

    def _already_mine(self, worker: str, chat_key: str, now: datetime,
                      limit: int) -> Claimed | None:
        """The chat's due places when every one of them was written already claimed by this
        worker (an action committed in this process, see :meth:`deliver_own_actions`): no
        claim to write. An empty claim when none is due. ``None`` when some must be claimed."""
        with self.kernel.sessions() as session:
            rows = list(session.scalars(_due_in_chat_bound("rows", limit + 1),
                                        _due_params(now, worker, chat_key)))
            more, rows = len(rows) > limit, rows[:limit]
            if any(r.claimed_by != worker[:64] for r in rows):
                return None
            return Claimed(self._claimed(session, rows) if rows else [], more)

    def deliver_own_actions(self, worker: str, lease: float) -> None:
        """Write the outbox rows of every action committed in this process already claimed
        by ``worker`` for ``lease`` seconds (it is kicked right after the commit): it then
        delivers them without a claim of its own. A row another worker holds stays theirs;
        taking one over raises its fencing token (see :func:`storage.delivery.outbox.upsert`)."""
        self.kernel.own_claim = OwnClaim(worker[:64], lease)

    def _claimed(self, session: Session, rows: list[DeliveryRow]) -> list[DeliveryWork]:
        """The work of claimed rows: each with its place's live boards and its chat's newest
        message id (one query each for all the rows)."""
        chats = {r.chat_id for r in rows if r.chat_id is not None}
        if not chats:
            return [_work(r, [], 0) for r in rows]
        tops: dict[int, int] = {chat: top for chat, top in session.execute(
            _TOPS, {"chats": list(chats)})}
        boards = list(session.scalars(
            _CHATS_BOARDS, {"matches": list({r.match_id for r in rows}), "chats": list(chats)}))
        return [_work(r, [b for b in boards if _same_place(b, r)], tops.get(r.chat_id, 0))
                if r.chat_id is not None else _work(r, [], 0) for r in rows]

    @off_loop
    def renew_claim(self, work_id: int, *, claim: int, lease: float) -> bool:
        """Before a call that changes the chat: the claim is still this worker's (compare
        the token) and lasts ``lease`` seconds more. ``False``: another took the place over."""
        with self.kernel.db.write_lock(), self.kernel.sessions.begin() as session:
            row = fenced(session, work_id, claim)
            if row is None:
                return False
            row.claimed_until = self.kernel.wall_now() + timedelta(seconds=lease)
            return True

    @off_loop
    def claimants(self) -> list[str]:
        """The workers holding claims now (to find those of a process that died)."""
        now = self.kernel.wall_now()
        with self.kernel.sessions() as session:
            return list(session.scalars(select(DeliveryRow.claimed_by).where(
                DeliveryRow.claimed_until >= now, DeliveryRow.claimed_by.is_not(None))
                .distinct()))

    @off_loop
    def release_claims(self, worker: str) -> int:
        """Release the claims of a worker known to be dead, or stopping (its places are due
        again); the token goes up, so it is fenced off should it still run."""
        with self.kernel.db.write_lock(), self.kernel.sessions.begin() as session:
            result = session.execute(
                update(DeliveryRow).where(DeliveryRow.claimed_by == worker)
                .values(claimed_by=None, claimed_until=None,
                        claim_token=DeliveryRow.claim_token + 1)
                .execution_options(synchronize_session=False))
            return int(result.rowcount)  # type: ignore[attr-defined]

    @off_loop
    def on_its_way(self, match_id: int, *, version: int, chat_id: int,
                   message_id: int) -> OnItsWay | None:
        """A tap at ``version`` refused as stale, on message ``message_id`` of ``chat_id``:
        whether that message is still the live board of its place and the place still waits
        to show a newer version (its worker not there yet, or retrying). Read only: the
        answer to such a tap costs the chat nothing. ``None``: the board was brought up to
        date (or replaced) since, or it is not a live board of the match."""
        with self.kernel.sessions() as session:
            board = session.scalar(select(BoardMessageRow).where(
                BoardMessageRow.match_id == match_id, BoardMessageRow.live.is_(True),
                BoardMessageRow.chat_id == chat_id, BoardMessageRow.message_id == message_id)
                .limit(1))
            if board is None:
                return None
            row = session.scalar(select(DeliveryRow).where(
                DeliveryRow.match_id == match_id, DeliveryRow.chat_id == chat_id,
                DeliveryRow.place.like("chat:%")).limit(1))
            if row is None or not row.pending or row.version <= version \
                    or row.for_seat != board.for_seat:
                return None
            notes = row.notes if row.notes and row.notes_version == row.version else []
            played = next((int(n["player"]) for n in notes
                           if isinstance(n, dict) and n.get("k") == "turn"), None)
            return OnItsWay(played)

    @off_loop
    def ask_keyboard(self, match_id: int, *, version: int, chat_id: int,
                     selected: int | None) -> KeyboardAsked | None:
        """A tap that changes only the keyboard (a checker chosen, back to the list) on a
        board in ``chat_id``: see :func:`ask_keyboard`."""
        return ask_keyboard(self.kernel, match_id, version=version, chat_id=chat_id,
                            selected=selected)


def ask_keyboard(k: Kernel, match_id: int, *, version: int, chat_id: int,
                 selected: int | None) -> KeyboardAsked | None:
    """A tap that changes only the keyboard (a checker chosen, back to the list) on a board in
    ``chat_id``: while the match is still at ``version`` (what the keyboard is drawn from),
    the place there is asked to show ``selected`` and is due at once (unless it waits to retry
    a failure), claimed for this process's worker when nobody holds it. ``None``: the match
    moved on, or shows no board in that chat."""
    now = k.wall_now()
    with k.db.write_lock(), k.sessions.begin() as session:
        if session.scalar(_MATCH_VERSION, {"match_id": match_id}) != version:
            return None  # gone, or moved on
        # one place of a match per chat: the group's board there, or one player's
        row = session.scalar(_CHAT_PLACE, {"match_id": match_id, "chat_id": chat_id})
        if row is None:
            return None
        held = row.claimed_until is not None and row.claimed_until >= now
        retrying = row.pending and row.attempts > 0
        row.selected, row.selected_version, row.keyboard_asked = selected, version, True
        # a place an action did not touch (a step edits the mover's board only) catches up
        row.version = max(row.version, version)
        row.pending = True
        if not retrying:
            row.due_at = now
        row.updated_at = now
        own = k.own_claim.at(now)
        if not held and own is not None:  # as an action's rows: see outbox.upsert
            row.claimed_by, row.claimed_until = own
            row.claim_token += 1
        boards = live_boards(session, row)
        return KeyboardAsked(row.chat_key, boards[-1].message_id if boards else None,
                             busy=held or retrying, repost=row.repost_version is not None)
