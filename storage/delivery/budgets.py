"""Each group's Telegram budget shared by every instance of the bot: the calls made there in
the last window, by any instance (see :class:`bot.delivery.limiter.ChatLimiter`).

It runs on the wall clock (the kernel's ``wall``), not the use cases' clock (which tests move
to fire reminders): a rate is real time whatever the game's clock says.
"""

from __future__ import annotations

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from storage.models import SendBudgetRow
from storage.usecases.kernel import Feature, off_loop


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
