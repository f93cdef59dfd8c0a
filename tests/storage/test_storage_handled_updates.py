"""Commands handled once: a claim per update id, shared by every instance (a lease while the
command runs, then a mark that it was handled), on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from sqlalchemy import select, update

from storage.models import HandledUpdateRow
from storage.usecases import UseCases
from storage.usecases.updates import Claim


def expire(uc: UseCases, update_id: int, ago: timedelta = timedelta(seconds=1)) -> None:
    """The claim's lease ran out ``ago`` (its holder died without renewing it)."""
    with uc.kernel.sessions.begin() as session:
        session.execute(update(HandledUpdateRow).where(HandledUpdateRow.update_id == update_id)
                        .values(claimed_until=datetime.now(UTC) - ago))


async def test_an_update_is_claimed_by_one_instance_and_handled_once(uc: UseCases) -> None:
    # two instances ask together for a new update: exactly one gets it
    got = await asyncio.gather(*(uc.claim_update(7001, w, 30.0) for w in ("a", "b", "a", "b")))
    mine = [holder for state, holder in got if state == Claim.MINE]
    assert len(mine) == 1
    holder, other = mine[0], "b" if mine[0] == "a" else "a"
    assert {state for state, _ in got} == {Claim.MINE, Claim.BUSY}
    # while it runs, a copy (on the other instance or on its own) is told who holds it
    assert await uc.claim_update(7001, other, 30.0) == (Claim.BUSY, holder)
    assert await uc.claim_update(7001, holder, 30.0) == (Claim.BUSY, holder)
    assert await uc.renew_update_claim(7001, holder, 30.0)
    assert not await uc.renew_update_claim(7001, other, 30.0)
    # once handled, every copy is told so, even after the lease would have run out
    await uc.mark_update_handled(7001)
    assert (await uc.claim_update(7001, other, 30.0))[0] == Claim.DONE
    await uc.db.run(expire, uc, 7001)
    assert (await uc.claim_update(7001, other, 30.0))[0] == Claim.DONE
    assert not await uc.renew_update_claim(7001, holder, 30.0)
    # another update is another claim, with an id beyond 32 bits
    assert (await uc.claim_update(2**40 + 3, other, 30.0))[0] == Claim.MINE


async def test_a_claim_whose_holder_died_is_taken_over(uc: UseCases) -> None:
    # Given an instance holding an update, dead before it handled it
    assert (await uc.claim_update(8001, "dead", 30.0))[0] == Claim.MINE
    # then another is told to wait while the lease runs
    assert await uc.claim_update(8001, "alive", 30.0) == (Claim.BUSY, "dead")
    # When the lease runs out, the other takes it: the command is not lost
    await uc.db.run(expire, uc, 8001)
    assert (await uc.claim_update(8001, "alive", 30.0))[0] == Claim.MINE
    assert not await uc.renew_update_claim(8001, "dead", 30.0)
    # And one known to be dead (a process of this host that is gone) is taken over at once
    assert (await uc.claim_update(8002, "dead", 30.0))[0] == Claim.MINE
    assert (await uc.claim_update(8002, "alive", 30.0, taking_from="someone else"))[0] == \
        Claim.BUSY
    assert (await uc.claim_update(8002, "alive", 30.0, taking_from="dead"))[0] == Claim.MINE
    # but a handled one never is
    await uc.mark_update_handled(8002)
    assert (await uc.claim_update(8002, "third", 30.0, taking_from="alive"))[0] == Claim.DONE


async def test_old_updates_are_pruned(uc: UseCases) -> None:
    for update_id in (9001, 9002, 9003):
        assert (await uc.claim_update(update_id, "a", 30.0))[0] == Claim.MINE
        await uc.mark_update_handled(update_id)
    await uc.db.run(expire, uc, 9001, timedelta(days=3))
    await uc.db.run(expire, uc, 9002, timedelta(hours=20))
    assert await uc.prune_handled_updates() == 1

    def kept() -> list[int]:
        with uc.kernel.sessions() as session:
            return sorted(session.scalars(select(HandledUpdateRow.update_id)))

    assert await uc.db.run(kept) == [9002, 9003]
    # a day later Telegram no longer sends 9002 again: it goes too
    assert await uc.prune_handled_updates(timedelta(hours=12)) == 1
    assert await uc.db.run(kept) == [9003]
