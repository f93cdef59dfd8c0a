"""Rematch: only of a match played to its end, by one of its players, and once per match,
however many taps race for it."""

from __future__ import annotations

import asyncio

from storage.results import ChallengeResult, Outcome
from storage.usecases import UseCases
from tests.storage.helpers import ALICE, BOB, CAROL, new_match


def rematch(uc: UseCases, match_id: int, author: int) -> asyncio.Future[ChallengeResult]:
    return asyncio.ensure_future(uc.create_challenge(
        author, length=1, chat_id=-100, group=True, target_id=ALICE if author == BOB else BOB,
        rematch_of=match_id))


async def test_no_rematch_of_an_active_match(uc: UseCases) -> None:
    started = await new_match(uc)
    assert started.match is not None
    refused = await rematch(uc, started.match.id, BOB)
    assert refused.outcome == Outcome.REFUSED and refused.code == "not_finished"
    refused = await rematch(uc, started.match.id, CAROL)
    assert refused.code == "not_a_player"
    refused = await rematch(uc, 10**30, BOB)
    assert refused.code == "not_a_player"


async def test_one_rematch_however_many_taps(uc: UseCases) -> None:
    started = await new_match(uc)
    assert started.match is not None
    match_id = started.match.id
    ended = await uc.resign_match(match_id, ALICE, None)
    assert ended.ok
    # ten taps, by both players, at once
    results = await asyncio.gather(*(rematch(uc, match_id, who)
                                      for who in (ALICE, BOB) * 5))
    opened = [r for r in results if r.ok]
    assert len(opened) == 1, [r.code for r in results]
    first = opened[0].challenge
    assert first is not None
    for r in results:
        if not r.ok:
            assert r.code == "rematch_exists"
            assert r.challenge is not None and r.challenge.id == first.id
    # and again later, one after the other
    for who in (ALICE, BOB, ALICE):
        again = await rematch(uc, match_id, who)
        assert again.code == "rematch_exists" and again.challenge is not None
        assert again.challenge.id == first.id
