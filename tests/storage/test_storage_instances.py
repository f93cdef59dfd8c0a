"""What several instances share: leases on the computer's turns, and a group's budget."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select

from storage.db import Database
from storage.usecases import UseCases
from tests.clocks import Wall
from tests.storage.conftest import FakeClock
from tests.storage.helpers import ALICE, players


@pytest.fixture
def wall() -> Wall:
    return Wall()


@pytest.fixture
def uc(db: Database, clock: FakeClock, wall: Wall) -> UseCases:
    """The use cases with the wall clock of the leases and budgets in the test's hands."""
    return UseCases(db, clock=clock, wall=wall)


async def computer_to_act(uc: UseCases) -> int:
    """A one-point match against the computer, left with the computer to act."""
    await players(uc)
    for attempt in range(40):
        created = await uc.create_challenge(ALICE, length=1, computer_level=1)
        assert created.challenge is not None
        res = await uc.accept_challenge(created.challenge.id, ALICE, mix=f"lease-{attempt}")
        assert res.match is not None
        if res.match.computer_to_act:
            return res.match.id
        await uc.resign_match(res.match.id, ALICE)
    raise AssertionError("the computer never had the first turn")


async def test_one_instance_holds_a_computer_turn_until_its_lease_runs_out(
        uc: UseCases, wall: Wall) -> None:
    match_id = await computer_to_act(uc)
    assert await uc.unclaimed_computer_turns() == [match_id]
    # two instances ask together: exactly one gets it
    got = await asyncio.gather(*(uc.claim_computer_turn(match_id, w, 30.0)
                                 for w in ("a", "b", "a", "b")))
    assert sorted(got) == [False, False, True, True]
    holder = "a" if got[0] else "b"
    other = "b" if holder == "a" else "a"
    assert await uc.unclaimed_computer_turns() == []
    assert await uc.renew_computer_claim(match_id, holder, 30.0)
    assert not await uc.renew_computer_claim(match_id, other, 30.0)
    # the holder dies: while its lease holds nobody takes the turn; once it ran out the turn
    # is free, and another instance takes it
    wall.advance(29.0)
    assert await uc.unclaimed_computer_turns() == []
    assert not await uc.claim_computer_turn(match_id, other, 30.0)
    wall.advance(2.0)
    assert await uc.unclaimed_computer_turns() == [match_id]
    assert await uc.claim_computer_turn(match_id, other, 30.0)
    assert not await uc.renew_computer_claim(match_id, holder, 30.0)
    await uc.release_computer_claim(match_id, other)
    assert await uc.unclaimed_computer_turns() == [match_id]


async def test_a_group_budget_is_shared(uc: UseCases, wall: Wall) -> None:
    chat = -4242
    took = [wait for wait, _ in await asyncio.gather(
        *(uc.delivery.take_send_slot(chat, 5, 2.0) for _ in range(8)))]
    assert sorted(took)[:5] == [0.0] * 5
    assert all(0 < wait <= 2.0 for wait in sorted(took)[5:])
    assert 0 < await uc.delivery.send_slot_wait(chat, 5, 2.0) <= 2.0
    assert await uc.delivery.send_slot_wait(-1, 5, 2.0) == 0.0  # another group is not touched
    wall.advance(2.05)
    assert await uc.delivery.send_slot_wait(chat, 5, 2.0) == 0.0
    assert (await uc.delivery.take_send_slot(chat, 5, 2.0))[0] == 0.0
    # a call answered later counts from its answer
    other = -4343
    wait, at = await uc.delivery.take_send_slot(other, 1, 2.0)
    taken = await uc.db.run(lambda: _times(uc, other))
    assert wait == 0.0 and taken == [at] == [wall()]
    await uc.delivery.restamp_send_slot(other, taken[0], taken[0] + 10)
    assert await uc.delivery.send_slot_wait(other, 1, 2.0) > 10


def _times(uc: UseCases, chat: int) -> list[float]:
    from storage.models import SendBudgetRow

    with uc.kernel.sessions() as session:
        row = session.get(SendBudgetRow, chat)
        assert row is not None
        return list(row.times)


async def test_a_groups_second_is_shared_too(uc: UseCases) -> None:
    """Beside the minute's budget, the group's burst: 3 calls in any 3 s, whoever makes them."""
    chat = -1002
    got = [await uc.delivery.take_send_slot(chat, 20, 60.0, 3, 3.0) for _ in range(4)]
    assert [wait == 0 for wait, _ in got] == [True, True, True, False]
    assert 0 < got[3][0] <= 3.0
    assert 0 < await uc.delivery.send_slot_wait(chat, 20, 60.0, 3, 3.0) <= 3.0
    assert await uc.delivery.send_slot_wait(chat, 20, 60.0) == 0.0  # the minute alone has room


async def test_quiet_chats_budgets_are_pruned_and_busy_ones_kept(uc: UseCases,
                                                                  wall: Wall) -> None:
    """A row per chat the bot wrote to: rows with no call in the last hour go, the others stay
    with their calls, and a pruned chat counts again from nothing."""
    from storage.models import SendBudgetRow

    old, busy = -7001, -7002
    await uc.delivery.take_send_slot(old, 20, 60.0)
    wall.advance(2 * 3600)
    await uc.delivery.take_send_slot(busy, 20, 60.0)
    assert await uc.delivery.prune_send_budgets() == 1

    def rows() -> set[int]:
        with uc.kernel.sessions() as session:
            return set(session.scalars(select(SendBudgetRow.chat_id)))

    assert await uc.db.run(rows) == {busy}
    assert len(await uc.db.run(lambda: _times(uc, busy))) == 1
    assert (await uc.delivery.take_send_slot(old, 1, 60.0))[0] == 0.0
    assert await uc.db.run(rows) == {old, busy}
