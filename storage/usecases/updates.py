"""Commands handled once, by update id, across instances and restarts.

Telegram delivers an update again when it got no answer (the webhook answers once an update was
handled, so an instance killed meanwhile leaves it unanswered), to any instance. A tap carries
the match version and a typed play its message id; a command carries neither, so its handling
is claimed by its update id (``handled_updates``):

- the instance handling a command holds a claim with a lease, renewed while it runs, and marks
  the update handled once the command was answered;
- a copy of an update marked handled changes nothing;
- a copy arriving while another instance holds the claim waits: the holder marks it handled
  (then the copy changes nothing), or dies and its lease runs out (then the copy takes it over
  and the command is handled). The mark comes after the answer, never before it, so an instance
  dying in between does not lose the command; at worst one dying after answering, before the
  mark, has it answered twice.

Leases run on the wall clock, as the computer's (:mod:`storage.delivery.instances`).
"""

from __future__ import annotations

from datetime import timedelta
from enum import StrEnum

from sqlalchemy import delete, select, update

from storage.models import HandledUpdateRow
from storage.usecases.kernel import Feature, off_loop, utcnow

KEEP = timedelta(days=2)
"""How long an update stays marked handled: Telegram gives up redelivering after a day."""


class Claim(StrEnum):
    MINE = "mine"
    """This instance holds it now: handle the command, then mark it handled."""
    DONE = "done"
    """Handled already (by any instance): nothing to do."""
    BUSY = "busy"
    """Another holder's lease runs: ask again later."""


class UpdateClaimCases(Feature):
    """Claims on commands' updates: each command handled once."""

    @off_loop
    def claim_update(self, update_id: int, worker: str, lease: float, *,
                     taking_from: str | None = None) -> tuple[Claim, str]:
        """Claim ``update_id`` for ``worker`` for ``lease`` seconds: ``MINE`` when nobody
        had it, or its holder's lease ran out (or the holder is ``taking_from``, a worker known
        to be dead), ``DONE`` when it was handled, else ``BUSY``; with the holder's name. An
        upsert with a condition, so of two instances asking together exactly one gets it."""
        k = self.kernel
        now = utcnow()
        until = now + timedelta(seconds=lease)
        table = HandledUpdateRow.__table__
        free = table.c.claimed_until < now
        if taking_from is not None:
            free = free | (table.c.claimed_by == taking_from[:64])
        stmt = k.insert(HandledUpdateRow).values(
            update_id=update_id, claimed_by=worker[:64], claimed_until=until, done=False)
        stmt = stmt.on_conflict_do_update(
            index_elements=[HandledUpdateRow.update_id],
            set_={"claimed_by": worker[:64], "claimed_until": until},
            where=~table.c.done & free,
        )
        with k.db.write_lock(), k.sessions.begin() as session:
            if session.execute(stmt.returning(HandledUpdateRow.update_id)).first() is not None:
                return Claim.MINE, worker[:64]
            done, holder = session.execute(
                select(HandledUpdateRow.done, HandledUpdateRow.claimed_by)
                .where(HandledUpdateRow.update_id == update_id)).one()
            return (Claim.DONE if done else Claim.BUSY), holder

    @off_loop
    def renew_update_claim(self, update_id: int, worker: str, lease: float) -> bool:
        """Extend ``worker``'s claim while the command runs; false when it lost it."""
        k = self.kernel
        with k.db.write_lock(), k.sessions.begin() as session:
            renewed = session.execute(
                update(HandledUpdateRow)
                .where(HandledUpdateRow.update_id == update_id,
                       HandledUpdateRow.claimed_by == worker[:64], ~HandledUpdateRow.done)
                .values(claimed_until=utcnow() + timedelta(seconds=lease))
                .execution_options(synchronize_session=False))
            return bool(renewed.rowcount == 1)  # type: ignore[attr-defined]

    @off_loop
    def mark_update_handled(self, update_id: int) -> None:
        """The command was answered: copies of its update change nothing from now on."""
        k = self.kernel
        with k.db.write_lock(), k.sessions.begin() as session:
            session.execute(
                update(HandledUpdateRow).where(HandledUpdateRow.update_id == update_id)
                .values(done=True, claimed_until=utcnow())
                .execution_options(synchronize_session=False))

    @off_loop
    def prune_handled_updates(self, keep: timedelta = KEEP) -> int:
        """Forget the updates handled (or claimed) more than ``keep`` ago."""
        k = self.kernel
        with k.db.write_lock(), k.sessions.begin() as session:
            gone = session.execute(
                delete(HandledUpdateRow).where(HandledUpdateRow.claimed_until < utcnow() - keep)
                .execution_options(synchronize_session=False))
            return int(gone.rowcount)  # type: ignore[attr-defined]
