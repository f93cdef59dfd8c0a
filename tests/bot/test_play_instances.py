"""Find me an opponent with two instances of the bot on one PostgreSQL database behind a
round-robin proxy (webhook mode): eight players (sixteen in CI's ``-m full``) tap Search at
once, their updates spread over both instances (every second Search delivered twice, to
either), while each instance's periodic job pairs the waiting pool too. Every player is told
of exactly one pairing, every request is claimed once, and once the second players tap Start
nobody is in two new matches.
How long it takes is not the test's business (the waits are hang guards)."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.views.callbacks import Action
from standin import StandIn, User
from standin.cluster import Cluster
from storage.models import ChallengeRow, MatchRow
from storage.play_tables import MatchRequestRow
from tests.sampling import sample_or_full

PG = os.environ.get("PORTES_TEST_POSTGRES_URL")
pytestmark = pytest.mark.skipif(not PG, reason="needs PORTES_TEST_POSTGRES_URL (.ci/postgres.sh)")
PLAYERS = sample_or_full(4, 16)
"""Players pairing at once: two pairs in the default run, eight in CI's ``-m full``."""
HANG = 120.0
FOUND, START = "Opponent found", "▶ Start"


def found(user: User) -> list[object]:
    return [m for m in user.private.bot_messages() if FOUND in m.content]


@pytest.mark.long
@pytest.mark.parametrize("players", PLAYERS)
async def test_two_instances_pair_everyone_once(tmp_path: Path, players: int) -> None:
    assert PG is not None
    with StandIn(recompress_photos=False) as standin:
        cluster = Cluster(standin, PG, tmp_path, n=2, duplicate_every=2,
                          duplicate_actions=(f"{Action.FIND}:",))
        try:
            await cluster.start()
            await pair_and_check(standin, cluster, players)
        finally:
            cluster.stop()
            logs = cluster.log(0) + cluster.log(1)
            cluster.drop()
    assert "Traceback" not in logs, logs[max(0, logs.find("Traceback") - 600):][:5000]


async def pair_and_check(standin: StandIn, cluster: Cluster, players: int) -> None:
    users = [standin.user(f"P{i}", username=f"p{i}") for i in range(players)]
    for user in users:
        hello = user.start_bot()
        await user.private.wait_for_bot_message(after=hello, timeout=HANG)
    cards = []
    for user in users:
        cmd = user.send(user.private, "/play")
        cards.append(await user.private.wait_for_answer(cmd, timeout=HANG))
    taps = [user.tap(card, "🔎 Search") for user, card in zip(users, cards, strict=True)]
    for tap in taps:
        await tap.wait(HANG)
    await standin.wait_for(lambda: all(found(u) for u in users), timeout=HANG,
                           what="everyone told of a pairing")
    await standin.idle(quiet=2.0, timeout=HANG)
    assert [len(found(u)) for u in users] == [1] * players
    requests = cluster.query(select(MatchRequestRow.player_id, MatchRequestRow.status))
    assert sorted(pid for pid, _ in requests) == sorted(u.id for u in users)  # one each
    assert {status for _, status in requests} == {"started"}
    pairs = cluster.query(select(ChallengeRow.author_id, ChallengeRow.target_id))
    assert len(pairs) == players // 2
    assert Counter(pid for pair in pairs for pid in pair) == Counter({u.id: 1 for u in users})
    for user in users:  # the second player of each pairing starts its match
        notice = found(user)[0]
        if START in notice.button_texts:  # type: ignore[attr-defined]
            await user.tap(notice, START).wait(HANG)  # type: ignore[arg-type]

    def active() -> list[tuple[int, int]]:
        return [(a, b) for a, b, status in cluster.query(
            select(MatchRow.player0_id, MatchRow.player1_id, MatchRow.status))
            if status == "active"]

    await standin.wait_for(lambda: len(active()) == players // 2, timeout=HANG,
                           what="every match started")
    seats = Counter(pid for pair in active() for pid in pair)
    assert seats == Counter({u.id: 1 for u in users})  # nobody in two new matches
