"""A group's ladder through the use cases: opened once with a game and a length the registry
offers (a rotation included), joined only once opened, its matches played as chosen, and
each day's pairings and each settled result writing the card's outbox row; a result settled
once however many settle it at once."""

from __future__ import annotations

import asyncio

from sqlalchemy import select

from storage.models import DeliveryRow
from storage.usecases import UseCases
from tests.storage.conftest import FakeClock

GROUP = -700
P = [4001, 4002, 4003]


async def test_opening_a_ladder_and_its_matches(uc: UseCases, clock: FakeClock) -> None:
    for i, pid in enumerate(P):
        await uc.upsert_player(pid, f"P{i + 1}")
    assert (await uc.join_ladder(GROUP, P[1])).code == "no_ladder"
    assert (await uc.open_ladder(GROUP, P[0], "tavli", 1)).code == "bad_setting"  # from 3 on
    assert (await uc.open_ladder(GROUP, P[0], "chess", 3)).code == "bad_setting"
    assert (await uc.open_ladder(GROUP, P[0], "portes", 2)).code == "bad_setting"
    assert await uc.ladder_settings(GROUP) is None
    assert (await uc.open_ladder(GROUP, P[0], "tavli", 7)).ok
    assert (await uc.open_ladder(GROUP, P[1], "portes", 3)).code == "ladder_exists"
    settings = await uc.ladder_settings(GROUP)
    assert settings is not None and (settings.game_type, settings.length) == ("tavli", 7)
    assert settings.opened_by == P[0] and settings.last_day is None
    assert [e.player_id for e in await uc.ladder(GROUP)] == [P[0]]  # the opener is on it
    assert (await uc.join_ladder(GROUP, P[1])).ok
    day = await uc.run_ladder_day(GROUP, seed=1)
    assert day is not None and len(day.challenges) == 1
    [challenge] = day.challenges
    assert (challenge.game_type, challenge.length) == ("tavli", 7)
    assert (await uc.ladder_settings(GROUP)).last_day == day.day  # type: ignore[union-attr]
    with uc.kernel.sessions() as session:
        places = set(session.scalars(select(DeliveryRow.place)))
    assert f"note:{GROUP}:ladder:{day.day}" in places
    started = await uc.accept_challenge(challenge.id, challenge.target.id, mix="m")  # type: ignore[union-attr]
    assert started.ok and started.match is not None
    assert (await uc.resign_match(started.match.id, challenge.author.id)).ok
    # two instances settle at once: the match once, the card redrawn with the result
    both = await asyncio.gather(uc.settle_ladders(), uc.settle_ladders())
    assert sorted(both) == [[], [str(GROUP)]]
    assert await uc.settle_ladders() == []
    with uc.kernel.sessions() as session:
        places = set(session.scalars(select(DeliveryRow.place)))
    assert f"note:{GROUP}:ladder:m{started.match.id}" in places
    rungs = {e.player_id: e.rung for e in await uc.ladder(GROUP)}
    assert rungs[challenge.target.id] == 2 and rungs[challenge.author.id] == 1  # type: ignore[union-attr]
