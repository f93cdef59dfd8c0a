"""Heartbeats and downtime: time when no instance of the bot ran is not counted against a player.

Every running instance beats (:meth:`HeartbeatCases.beat`) each timer poll. At start an
instance calls :meth:`HeartbeatCases.resume` first: when the newest beat of any instance is
older than the threshold, nobody was running, and every pending deadline (reminders, turn
timeouts, challenge expiries, the shown turn deadline, open challenges' expiry) moves later by
the whole gap, in one transaction. The gap is claimed with a compare-and-swap on the
"any instance" row, so with several instances starting together it is pushed once.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from storage.models import ANY_INSTANCE, ChallengeRow, HeartbeatRow, MatchRow, TimerRow
from storage.results import ChallengeStatus, MatchStatus
from storage.usecases.kernel import Feature, log, off_loop


class HeartbeatCases(Feature):
    """Signs of life of the running instances, and pushing deadlines past downtime."""

    @off_loop
    def beat(self, instance: str) -> None:
        """This instance is running (call it every timer poll)."""
        k = self.kernel
        now = k.clock()
        with k.db.write_lock(), k.sessions.begin() as session:
            self._upsert(session, instance, now)
            self._upsert(session, ANY_INSTANCE, now)

    @off_loop
    def resume(self, instance: str, *, longer_than: timedelta) -> timedelta | None:
        """At start: when no instance beat for more than ``longer_than``, push every pending
        deadline by the time since the last beat, once across all instances, and return that
        downtime; else ``None``. Either way this instance's beat is recorded."""
        k = self.kernel
        now = k.clock()
        with k.db.write_lock(), k.sessions() as session:
            # A write first: on SQLite it takes the write lock at once, so what follows
            # reads what the other instances committed.
            self._upsert(session, instance, now)
            last = session.scalar(
                select(HeartbeatRow.beat_at).where(HeartbeatRow.instance == ANY_INSTANCE)
            )
            if last is None:  # the very first start: nothing was ever pending
                self._upsert(session, ANY_INSTANCE, now)
                session.commit()
                return None
            gap = now - last
            if gap <= longer_than:
                session.commit()
                return None
            claimed = session.execute(
                update(HeartbeatRow)
                .where(HeartbeatRow.instance == ANY_INSTANCE, HeartbeatRow.beat_at == last)
                .values(beat_at=now)
                .execution_options(synchronize_session=False)
            )
            if claimed.rowcount != 1:  # type: ignore[attr-defined]
                session.commit()  # another instance pushed this gap already
                return None
            pushed = push_deadlines(session, gap)
            session.commit()
        log.warning("no instance ran for %s: %d pending deadlines pushed by it", gap, pushed)
        return gap

    def _upsert(self, session: Session, instance: str, now: datetime) -> None:
        stmt = self.kernel.insert(HeartbeatRow).values(instance=instance[:64], beat_at=now)
        session.execute(stmt.on_conflict_do_update(
            index_elements=[HeartbeatRow.instance], set_={"beat_at": now}))


def push_deadlines(session: Session, gap: timedelta) -> int:
    """Move every pending deadline later by ``gap``; returns how many timers moved. Only
    deadlines still pending count: a timer already fired, or a match already over, stays.
    The new times are computed here, not in SQL: SQLite has no interval arithmetic."""
    moved = 0
    for model, column, pending in (
        (TimerRow, TimerRow.due_at, TimerRow.fired_at.is_(None)),
        (MatchRow, MatchRow.turn_deadline,
         (MatchRow.status == MatchStatus.ACTIVE) & MatchRow.turn_deadline.is_not(None)),
        (ChallengeRow, ChallengeRow.expires_at, ChallengeRow.status == ChallengeStatus.OPEN),
    ):
        rows = [(i, at) for i, at in session.execute(select(model.id, column).where(pending))
                if at is not None]
        if rows:
            # an ORM bulk UPDATE by primary key: one executemany
            session.execute(update(model), [{"id": i, column.key: at + gap} for i, at in rows])
        if model is TimerRow:
            moved = len(rows)
    return moved
