"""Races on one match: real concurrent tasks with separate engines and sessions, held at a
barrier after both have read and before either writes. Exactly one wins."""

from __future__ import annotations

import asyncio

from storage.db import Database
from storage.results import ActionResult, MatchView, Outcome
from storage.usecases import UseCases
from tests.storage.conftest import FakeClock
from tests.storage.helpers import (
    ALICE,
    BOB,
    CAROL,
    actor_of,
    new_match,
    players,
)


async def ready_to_confirm(uc: UseCases, view: MatchView) -> MatchView:
    actor = actor_of(view, view.state.turn)
    while not view.state.can_confirm():
        result = await uc.step(view.id, actor, view.version, view.state.next_moves()[0])
        assert result.match is not None
        view = result.match
    return view


async def test_two_concurrent_confirms_one_applied_one_stale(
    uc: UseCases, racers: list[UseCases]
) -> None:
    view = await ready_to_confirm(uc, (await new_match(uc, length=3)).match)  # type: ignore[arg-type]
    actor = actor_of(view, view.state.turn)
    results: list[ActionResult] = await asyncio.gather(
        *(r.confirm(view.id, actor, view.version) for r in racers)
    )
    outcomes = sorted(r.outcome for r in results)
    assert outcomes == [Outcome.OK, Outcome.STALE]
    winner = next(r for r in results if r.ok)
    assert winner.match is not None
    after = await uc.load_match(view.id)
    assert after.match is not None and after.match.version == winner.match.version
    assert after.match.state == winner.match.state
    record = await uc.match_record(view.id)
    assert record is not None
    turns = [(t.game, t.turn) for t in record.turns]
    assert len(turns) == len(set(turns))  # nothing logged twice
    played = sum(1 for e in winner.events if e.__class__.__name__ == "TurnPlayed")
    assert len(record.turns) == played


async def test_both_players_at_once(uc: UseCases, racers: list[UseCases]) -> None:
    """The mover confirms while the opponent resigns the match with the same version."""
    view = await ready_to_confirm(uc, (await new_match(uc, length=3)).match)  # type: ignore[arg-type]
    mover, other = actor_of(view, view.state.turn), actor_of(view, 1 - view.state.turn)
    confirm, resign = await asyncio.gather(
        racers[0].confirm(view.id, mover, view.version),
        racers[1].resign_match(view.id, other, view.version),
    )
    assert sorted([confirm.outcome, resign.outcome]) == [Outcome.OK, Outcome.STALE]
    after = await uc.load_match(view.id)
    assert after.match is not None and after.match.version == view.version + 1


async def test_two_acceptors_race_for_one_challenge(uc: UseCases, racers: list[UseCases]) -> None:
    await players(uc)
    created = await uc.create_challenge(ALICE, length=1)
    assert created.challenge is not None
    cid = created.challenge.id
    results = await asyncio.gather(
        racers[0].accept_challenge(cid, BOB, mix="bob-tap"),
        racers[1].accept_challenge(cid, CAROL, mix="carol-tap"),
    )
    assert sorted(r.outcome for r in results) == [Outcome.OK, Outcome.REFUSED]
    loser = next(r for r in results if not r.ok)
    assert loser.code == "challenge_closed"
    winner = next(r for r in results if r.ok)
    loaded = await uc.load_match(created.challenge.match_id)
    assert loaded.match is not None and winner.match is not None
    assert loaded.match.mix == winner.match.mix
    assert loaded.match.seats[1] == winner.match.seats[1]


async def test_timers_fire_once_across_workers(uc: UseCases, db_url: str, clock: FakeClock) -> None:
    from datetime import timedelta

    for i in range(4):
        await new_match(uc, mix=f"m{i}")
    clock.advance(timedelta(hours=13))
    dbs = [Database.from_url(db_url) for _ in range(3)]
    try:
        workers = [UseCases(d, clock=clock) for d in dbs]
        batches = await asyncio.gather(
            *(w.fire_due_timers(worker=f"w{i}") for i, w in enumerate(workers))
        )
    finally:
        for d in dbs:
            await d.dispose()
    fired = [t.timer_id for batch in batches for t in batch]
    assert len(fired) == len(set(fired)) == 4  # one 12 h reminder per match, each once
    assert await uc.fire_due_timers() == []
