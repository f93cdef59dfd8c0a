"""Caps on open challenges per author: per group and overall, counted inside the transaction
that opens the challenge, so concurrent requests cannot race past them."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from storage.db import Database
from storage.results import ChallengeLimits, Outcome
from storage.usecases import UseCases
from tests.storage.conftest import FakeClock
from tests.storage.helpers import ALICE, BOB, players

GROUP, OTHER_GROUP = -100, -200


async def test_per_chat_cap_refuses_and_counts_only_open_challenges(
    db: Database, clock: FakeClock
) -> None:
    uc = UseCases(db, clock=clock, limits=ChallengeLimits(per_chat=2, overall=10))
    await players(uc)
    first = await uc.create_challenge(ALICE, length=1, chat_id=GROUP, group=True)
    second = await uc.create_challenge(ALICE, length=3, chat_id=GROUP, group=True)
    assert first.ok and second.ok
    third = await uc.create_challenge(ALICE, length=5, chat_id=GROUP, group=True)
    assert third.outcome == Outcome.REFUSED and third.code == "too_many_challenges_here"
    assert third.challenge is None
    # elsewhere, and for someone else, the group's cap does not apply
    assert (await uc.create_challenge(ALICE, length=5, chat_id=OTHER_GROUP, group=True)).ok
    assert (await uc.create_challenge(BOB, length=5, chat_id=GROUP, group=True)).ok
    # a challenge accepted or withdrawn is no longer open: room again
    assert first.challenge is not None and second.challenge is not None
    assert (await uc.accept_challenge(first.challenge.id, BOB, mix="x")).ok
    assert (await uc.create_challenge(ALICE, length=7, chat_id=GROUP, group=True)).ok
    assert not (await uc.create_challenge(ALICE, length=7, chat_id=GROUP, group=True)).ok
    assert (await uc.cancel_challenge(second.challenge.id, ALICE)).ok
    assert (await uc.create_challenge(ALICE, length=7, chat_id=GROUP, group=True)).ok


async def test_overall_cap_counts_every_kind_and_expired_ones_free_room(
    db: Database, clock: FakeClock
) -> None:
    uc = UseCases(db, clock=clock, limits=ChallengeLimits(per_chat=0, overall=3))
    await players(uc)
    assert (await uc.create_challenge(ALICE, length=1, chat_id=GROUP, group=True)).ok
    assert (await uc.create_challenge(ALICE, length=1)).ok  # a private link
    assert (await uc.create_challenge(ALICE, length=1, inline=True)).ok
    over = await uc.create_challenge(ALICE, length=1, computer_level=1)
    assert over.outcome == Outcome.REFUSED and over.code == "too_many_challenges"
    clock.advance(timedelta(hours=25))  # past the challenges' time to live
    assert (await uc.create_challenge(ALICE, length=1, computer_level=1)).ok


async def test_zero_lifts_the_caps(db: Database, clock: FakeClock) -> None:
    uc = UseCases(db, clock=clock, limits=ChallengeLimits(per_chat=0, overall=0))
    await players(uc)
    for _ in range(12):
        assert (await uc.create_challenge(ALICE, length=1, chat_id=GROUP, group=True)).ok


async def test_concurrent_requests_cannot_race_past_the_cap(
    db_url: str, clock: FakeClock
) -> None:
    async def linger(name: str) -> None:
        # widen the window between counting and inserting, so the requests overlap there
        if name == "read":
            await asyncio.sleep(0.2)

    # PostgreSQL: four engines, as four instances would have. SQLite serves one process (its
    # writers queue on the Database's write lock), so the racers share one Database there.
    one = Database.from_url(db_url)
    dbs = [one] * 4 if one.is_sqlite else [one, *(Database.from_url(db_url) for _ in range(3))]
    try:
        racers = [UseCases(d, clock=clock, checkpoint=linger,
                           limits=ChallengeLimits(per_chat=1, overall=10)) for d in dbs]
        await players(racers[0])
        results = await asyncio.gather(*(
            r.create_challenge(ALICE, length=1, chat_id=GROUP, group=True) for r in racers))
    finally:
        for d in set(dbs):
            await d.dispose()
    assert sorted(r.ok for r in results) == [False, False, False, True]
    assert {r.code for r in results if not r.ok} == {"too_many_challenges_here"}
