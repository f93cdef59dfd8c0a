"""Find me an opponent, at the storage level on both databases: pairing in range, the window
widening with the fake clock, cancelling, blocking, the caps; and two instances (two engines on
one PostgreSQL database) pairing the same pool at once, each pairing claimed exactly once."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from sqlalchemy import select

from storage.db import Database
from storage.matchmaking.policy import PlayPolicy
from storage.models import ChallengeRow, RatingRow
from storage.play_tables import MatchRequestRow
from storage.usecases import UseCases
from tests.storage.conftest import FakeClock

DAY = 24 * 3600


async def players(uc: UseCases, *ids: int) -> None:
    for i in ids:
        await uc.upsert_player(i, f"P{i}", can_message=True)


async def rate(uc: UseCases, player: int, rating: float, game: str = "portes") -> None:
    with uc.kernel.sessions.begin() as s:
        s.merge(RatingRow(player_id=player, game=game, scope=0, rating=rating, experience=10,
                          matches=1, updated_at=uc.now()))


async def test_two_in_range_are_paired_at_once_a_far_one_waits_then_widens(
        uc: UseCases, clock: FakeClock) -> None:
    await players(uc, 1, 2, 3)
    await rate(uc, 3, 1800.0)
    first = await uc.request_opponent(1, game_type="portes", length=None, move_seconds=DAY)
    assert first.ok and first.waiting is not None and first.waiting.others == 0
    second = await uc.request_opponent(2, game_type="portes", length=3, move_seconds=DAY)
    assert second.pairing is not None
    p = second.pairing
    assert (p.author_id, p.acceptor_id) == (1, 2) and p.challenge.length == 3
    assert p.challenge.target is not None and p.challenge.target.id == 2
    far = await uc.request_opponent(3, game_type="portes", length=None, move_seconds=DAY)
    assert far.waiting is not None
    await players(uc, 4)
    fourth = await uc.request_opponent(4, game_type="portes", length=None, move_seconds=DAY)
    assert fourth.pairing is None and fourth.waiting is not None
    assert fourth.waiting.others == 1  # player 3 waits too, 300 points away
    assert await uc.pair_waiting() == []
    clock.advance(timedelta(minutes=10))  # window 200: not yet
    assert await uc.pair_waiting() == []
    clock.advance(timedelta(minutes=10))  # window 300 = 100 + 2 * 100: in range
    made = await uc.pair_waiting()
    assert [(m.author_id, m.acceptor_id) for m in made] == [(3, 4)]
    assert await uc.waiting_for(3) == [] and await uc.waiting_for(4) == []


async def test_cancel_cap_twice_and_out_of_range(uc: UseCases) -> None:
    await players(uc, 1, 2)
    ok = await uc.request_opponent(1, game_type="plakoto", length=5, move_seconds=DAY)
    assert ok.ok
    again = await uc.request_opponent(1, game_type="plakoto", length=5, move_seconds=DAY)
    assert again.code == "already_waiting"
    assert (await uc.request_opponent(1, game_type="fevga", length=4, move_seconds=DAY)
            ).code == "invalid_action"
    assert (await uc.request_opponent(1, game_type="chess", length=None, move_seconds=DAY)
            ).code == "invalid_action"
    assert (await uc.request_opponent(1, game_type="fevga", length=None, move_seconds=0)
            ).code == "invalid_action"
    for game in ("fevga", "tavli"):
        assert (await uc.request_opponent(1, game_type=game, length=None, move_seconds=DAY)).ok
    assert (await uc.request_opponent(1, game_type="nardy", length=None, move_seconds=DAY)
            ).code == "too_many_requests"
    assert await uc.cancel_requests(1) == 3
    assert await uc.cancel_requests(1) == 0
    late = await uc.request_opponent(2, game_type="plakoto", length=5, move_seconds=DAY)
    assert late.pairing is None  # the cancelled request is nobody's partner


async def test_a_blocked_pair_is_never_paired(uc: UseCases, clock: FakeClock) -> None:
    await players(uc, 1, 2, 3)
    assert await uc.block_player(2, 1)
    assert not await uc.block_player(2, 1) and not await uc.block_player(2, 2)
    await uc.request_opponent(1, game_type="portes", length=None, move_seconds=DAY)
    blocked = await uc.request_opponent(2, game_type="portes", length=None, move_seconds=DAY)
    assert blocked.pairing is None
    clock.advance(timedelta(hours=3))  # anyone by now, but not them
    assert await uc.pair_waiting() == []
    third = await uc.request_opponent(3, game_type="portes", length=None, move_seconds=DAY)
    assert third.pairing is not None and third.pairing.author_id == 1
    assert await uc.blocked_players(2) == [(1, "P1")]


async def test_two_instances_pair_each_request_once(db_url: str, clock: FakeClock) -> None:
    """Two engines on one database (on PostgreSQL: two instances' pools) pair 40 waiting
    players at once from both sides: every pairing claimed once, nobody in two matches."""
    dbs = [Database.from_url(db_url), Database.from_url(db_url)]
    try:
        ucs = [UseCases(d, clock=clock, play=PlayPolicy(base=1000.0)) for d in dbs]
        ids = list(range(1, 41))
        await players(ucs[0], *ids)
        for pid in ids:  # all wait (their windows are wide, but nobody runs the pairing yet)
            await ucs[0]._enqueue(pid, "portes", None, DAY, False)  # no pairing yet
        made = await asyncio.gather(ucs[0].pair_waiting(), ucs[1].pair_waiting(),
                                    ucs[0].pair_waiting(), ucs[1].pair_waiting())
        pairs = [p for batch in made for p in batch]
        # a request another pass held locked is skipped, not waited for: the next tick of the
        # pairing job (on any instance) takes it
        for _ in range(20):
            more = await ucs[1].pair_waiting()
            if not more:
                break
            pairs += more
        seen = [pid for p in pairs for pid in (p.author_id, p.acceptor_id)]
        assert sorted(seen) == ids  # each player in exactly one pairing
        with dbs[0].sessions() as s:
            targets = list(s.execute(select(ChallengeRow.author_id, ChallengeRow.target_id)))
            statuses = set(s.scalars(select(MatchRequestRow.status)))
        assert len(targets) == 20 and statuses == {"started"}
        assert sorted(x for t in targets for x in t) == ids
    finally:
        for d in dbs:
            await d.dispose()
