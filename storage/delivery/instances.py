"""What several instances of the bot share beyond the matches: who plays the computer's pending
turns (a lease per match, taken over when its holder dies) and each group's Telegram budget
(the calls made there in the last window, by any instance).

Both run on the wall clock (the kernel's ``wall``), not the use cases' clock (which tests move
to fire reminders): a lease or a rate is real time whatever the game's clock says.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from storage.models import ComputerClaimRow, MatchRow, SendBudgetRow
from storage.results import MatchStatus
from storage.usecases.kernel import Feature, off_loop


class ComputerClaimCases(Feature):
    """Leases on the computer's turns: one instance thinks and plays each."""

    @off_loop
    def claim_computer_turn(self, match_id: int, worker: str, lease: float) -> bool:
        """Take (or keep) the computer's turn in ``match_id`` for ``lease`` seconds: true when
        no live instance holds it or ``worker`` already does. An upsert with a condition, so of
        two instances asking together exactly one gets it."""
        k = self.kernel
        now = k.wall_now()
        until = now + timedelta(seconds=lease)
        table = ComputerClaimRow.__table__
        stmt = k.insert(ComputerClaimRow).values(
            match_id=match_id, claimed_by=worker[:64], claimed_until=until)
        stmt = stmt.on_conflict_do_update(
            index_elements=[ComputerClaimRow.match_id],
            set_={"claimed_by": worker[:64], "claimed_until": until},
            where=(table.c.claimed_until < now) | (table.c.claimed_by == worker[:64]),
        )
        with k.db.write_lock(), k.sessions.begin() as session:
            got = session.execute(stmt.returning(ComputerClaimRow.match_id)).first()
            return got is not None

    @off_loop
    def renew_computer_claim(self, match_id: int, worker: str, lease: float) -> bool:
        """Extend ``worker``'s lease while it thinks; false when it lost it."""
        k = self.kernel
        until = k.wall_now() + timedelta(seconds=lease)
        with k.db.write_lock(), k.sessions.begin() as session:
            done = session.execute(
                update(ComputerClaimRow)
                .where(ComputerClaimRow.match_id == match_id,
                       ComputerClaimRow.claimed_by == worker[:64])
                .values(claimed_until=until).execution_options(synchronize_session=False))
            return bool(done.rowcount == 1)  # type: ignore[attr-defined]

    @off_loop
    def release_computer_claim(self, match_id: int, worker: str) -> None:
        """The turn was played (or is not the computer's any more): let it go."""
        k = self.kernel
        with k.db.write_lock(), k.sessions.begin() as session:
            session.execute(delete(ComputerClaimRow).where(
                ComputerClaimRow.match_id == match_id,
                ComputerClaimRow.claimed_by == worker[:64]))

    @off_loop
    def unclaimed_computer_turns(self, limit: int = 100) -> list[int]:
        """Active matches where the computer must act and no live instance holds the turn
        (never claimed, or its holder's lease ran out: the instance died)."""
        now = self.kernel.wall_now()
        held = select(ComputerClaimRow.match_id).where(ComputerClaimRow.claimed_until >= now)
        with self.kernel.sessions() as session:
            return list(session.scalars(
                select(MatchRow.id)
                .where(MatchRow.status == MatchStatus.ACTIVE,
                       MatchRow.computer_level.is_not(None), MatchRow.to_act == 1,
                       MatchRow.id.not_in(held))
                .order_by(MatchRow.updated_at).limit(limit)))


def slot_wait(times: list[float], now: float, most: int, seconds: float, burst: int = 0,
              burst_seconds: float = 0.0) -> float:
    """Seconds until one more call fits both windows (0: now)."""
    wait = 0.0
    for limit, span in ((most, seconds), (burst, burst_seconds)):
        if limit <= 0 or span <= 0:
            continue
        recent = sorted(t for t in times if t > now - span)
        if len(recent) >= limit:
            wait = max(wait, recent[len(recent) - limit] + span - now)
    return max(wait, 0.0)


class SendBudgetCases(Feature):
    """A group's calls to Telegram in its last window, shared by every instance."""

    @off_loop
    def take_send_slot(self, chat_id: int, most: int, seconds: float, burst: int = 0,
                       burst_seconds: float = 0.0) -> tuple[float, float]:
        """Count one call in ``chat_id`` now if fewer than ``most`` were made in the last
        ``seconds`` (and, with ``burst``, fewer than ``burst`` in the last ``burst_seconds``:
        the chat's second, which Telegram counts per token too): ``(0, the time counted)``;
        else count nothing: ``(the seconds until one fits, 0)``.
        One short transaction with the chat's row locked (``SELECT ... FOR UPDATE``; SQLite
        locks the whole file for a write), so two instances never both take the last slot."""
        k = self.kernel
        with k.db.write_lock(), k.sessions.begin() as session:
            times = self._locked(session, chat_id)
            now = k.wall()
            recent = [t for t in times if t > now - max(seconds, burst_seconds)]
            wait = slot_wait(recent, now, most, seconds, burst, burst_seconds)
            if wait > 0:
                if recent != times:
                    self._save(session, chat_id, recent)
                return max(wait, 0.001), 0.0
            self._save(session, chat_id, [*recent, now])
            return 0.0, now

    @off_loop
    def send_slot_wait(self, chat_id: int, most: int, seconds: float, burst: int = 0,
                       burst_seconds: float = 0.0) -> float:
        """Seconds until one more call fits in ``chat_id`` (0: now), without taking it."""
        with self.kernel.sessions() as session:
            times = session.scalar(
                select(SendBudgetRow.times).where(SendBudgetRow.chat_id == chat_id)) or []
        return slot_wait([float(t) for t in times], self.kernel.wall(), most, seconds, burst,
                         burst_seconds)

    @off_loop
    def restamp_send_slot(self, chat_id: int, taken: float, answered: float) -> None:
        """Move a counted call from when it was sent to when its answer came (Telegram counted
        it in between: the later time keeps the count on the safe side)."""
        k = self.kernel
        with k.db.write_lock(), k.sessions.begin() as session:
            times = self._locked(session, chat_id)
            if taken in times:
                times[times.index(taken)] = answered
                self._save(session, chat_id, times)

    @off_loop
    def prune_send_budgets(self, *, idle: float = 3600.0) -> int:
        """Drop the rows of chats with no call in the last ``idle`` seconds (one row per chat
        the bot ever wrote to would pile up). Each row is re-read locked before it goes, so a
        call counted meanwhile by another instance keeps it; a chat written to again gets a
        new row."""
        k = self.kernel
        cutoff = k.wall() - idle
        with k.sessions() as session:
            found = session.execute(select(SendBudgetRow.chat_id, SendBudgetRow.times)).all()
        quiet = [chat_id for chat_id, times in found if max(times or [0.0]) < cutoff]
        for start in range(0, len(quiet), 200):
            with k.db.write_lock(), k.sessions.begin() as session:
                for chat_id in quiet[start:start + 200]:
                    times = session.scalar(select(SendBudgetRow.times).where(
                        SendBudgetRow.chat_id == chat_id).with_for_update())
                    if times is not None and max(times or [0.0]) < cutoff:
                        session.execute(delete(SendBudgetRow)
                                        .where(SendBudgetRow.chat_id == chat_id))
        return len(quiet)

    def _locked(self, session: Session, chat_id: int) -> list[float]:
        """The chat's row, created when missing, locked until the transaction ends."""
        insert = self.kernel.insert(SendBudgetRow).values(chat_id=chat_id, times=[])
        session.execute(insert.on_conflict_do_nothing(index_elements=[SendBudgetRow.chat_id]))
        times = session.scalar(select(SendBudgetRow.times)
                               .where(SendBudgetRow.chat_id == chat_id).with_for_update())
        return [float(t) for t in times or []]

    @staticmethod
    def _save(session: Session, chat_id: int, times: list[float]) -> None:
        session.execute(update(SendBudgetRow).where(SendBudgetRow.chat_id == chat_id)
                        .values(times=times).execution_options(synchronize_session=False))
