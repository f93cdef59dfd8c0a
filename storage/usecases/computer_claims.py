"""Who plays the computer's pending turns when several instances of the bot run: a lease per
match, taken over when its holder dies. Not delivery: the computer's player claims its turns
here, the delivery worker its places in :mod:`storage.delivery.claims`.

The leases run on the wall clock (the kernel's ``wall``), not the use cases' clock (which tests
move to fire reminders): a lease is real time whatever the game's clock says.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import delete, select, update

from storage.models import ComputerClaimRow, MatchRow
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
