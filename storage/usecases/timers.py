"""Timers: reminders, the turn timeout and challenge expiry are rows; each is claimed and fired
exactly once, across any number of bot instances."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from storage.delivery.notices import expiry_notice
from storage.models import ChallengeRow, TimerRow
from storage.results import ActionResult, ChallengeStatus, TimerFired, TimerKind
from storage.usecases.challenges import close_challenge
from storage.usecases.kernel import Feature, log, off_loop
from storage.usecases.rows import to_act
from storage.vacation import postponed


class TimerCases(Feature):
    """Firing due timers and telling when the next one is due."""

    @off_loop
    def fire_due_timers(self, *, worker: str = "", limit: int = 50) -> list[TimerFired]:
        """Claim and fire the timers that are due, each exactly once across all workers, each
        in its own transaction: reminders (notify ``seat``), timeouts (the player to act loses
        the match: status ``abandoned``), challenge expiries (status ``expired``). Call it
        every minute or so from each instance (e.g. the job queue)."""
        now = self.kernel.clock()
        with self.kernel.sessions() as session:
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
        k = self.kernel
        with k.db.write_lock(), k.sessions() as session:
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
            if TimerKind(timer.kind) == TimerKind.CHALLENGE_EXPIRY:
                return self._expire_challenge(session, timer)
            return self._fire_on_match(session, timer, now)

    def _expire_challenge(self, session: Session, timer: TimerRow) -> TimerFired | None:
        ch = session.scalar(select(ChallengeRow).where(ChallengeRow.match_id == timer.match_id))
        cview = None
        if ch is not None and ch.status == ChallengeStatus.OPEN:
            cview = close_challenge(self.kernel, session, ch, ChallengeStatus.EXPIRED)
        if cview is None:
            session.commit()
            return None
        # its card says so: an outbox row, in the same transaction
        keys = expiry_notice(self.kernel, session, cview)
        session.commit()
        return TimerFired(timer.id, TimerKind.CHALLENGE_EXPIRY, None, None, None,
                          challenge=cview, chat_keys=keys)

    def _fire_on_match(
        self, session: Session, timer: TimerRow, now: datetime
    ) -> TimerFired | None:
        """A reminder (nothing written but the claim) or a timeout (the waited-for player
        resigns the match) of the seat still waited for; obsolete timers do nothing."""
        k = self.kernel
        kind = TimerKind(timer.kind)
        loaded = k.load(session, timer.match_id)
        if isinstance(loaded, ActionResult):
            session.commit()  # fired once, not retried in a loop
            return TimerFired(
                timer.id,
                kind,
                timer.seat,
                None,
                None,
                outcome=loaded.outcome,
                message=loaded.message,
            )
        row, state = loaded.row, loaded.state
        if to_act(row.status, state) != timer.seat:
            session.commit()  # obsolete (should have been replaced): nothing to do
            return None
        if postponed(session, timer, row, now):  # the player is on vacation
            session.commit()
            return None
        if kind == TimerKind.REMINDER:
            session.commit()
            after = timedelta(seconds=timer.after_s) if timer.after_s is not None else None
            left = row.turn_deadline - now if row.turn_deadline is not None else None
            last = after is not None and after == k.timers.for_match(row.move_seconds).warning
            return TimerFired(timer.id, kind, timer.seat, after, k.loaded_view(loaded),
                              left=left, last=last)
        assert timer.seat is not None
        new_state, events = state.resign_match(timer.seat, reason="timeout")
        plan = k.plan(row, state, new_state, events, now, players=loaded.players)
        if not k.apply(session, plan):
            session.rollback()  # the player acted meanwhile
            return None
        session.commit()
        view = k.view(row, new_state, loaded.players, chat_language=loaded.chat_language,
                      rating_changes=plan.rating_changes)
        return TimerFired(timer.id, kind, timer.seat, None, view, events=tuple(events))

