"""Vacations at the storage level: the yearly allowance, one at a time, and the hook a
competition uses to refuse (a cup round's deadline)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest
from sqlalchemy.orm import Session

from storage.usecases import UseCases
from storage.vacation import VACATION_GUARDS, register_vacation_guard
from tests.storage.conftest import FakeClock


@pytest.fixture
def cup_round() -> Iterator[set[int]]:
    """Players in a cup round (a stand-in for the cup's own table): the guard refuses them."""
    playing: set[int] = set()

    def guard(session: Session, player_id: int, now: datetime) -> str | None:
        return "cup_round" if player_id in playing else None

    register_vacation_guard(guard)
    register_vacation_guard(guard)  # once only
    assert VACATION_GUARDS.count(guard) == 1
    yield playing
    VACATION_GUARDS.remove(guard)


async def test_allowance_one_at_a_time_and_a_competition_refusing(
        uc: UseCases, clock: FakeClock, cup_round: set[int]) -> None:
    await uc.upsert_player(1, "Ana", can_message=True)
    assert (await uc.take_vacation(1, 0)).code == "invalid_action"
    assert (await uc.take_vacation(1, 15)).code == "invalid_action"
    cup_round.add(1)
    refused = await uc.take_vacation(1, 3)
    assert refused.code == "cup_round" and refused.days_left == 14
    cup_round.clear()
    first = await uc.take_vacation(1, 10)
    assert first.ok and first.days_left == 4
    assert (await uc.take_vacation(1, 1)).code == "on_vacation"
    clock.advance(timedelta(days=11))
    assert (await uc.take_vacation(1, 5)).code == "no_vacation_days"
    assert (await uc.take_vacation(1, 4)).ok
    status = await uc.vacation_status(1)
    assert status.days_left == 0 and status.ends_at == clock.now + timedelta(days=4)
