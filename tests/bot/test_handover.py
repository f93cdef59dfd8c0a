"""An update in the hands of an instance that is killed is handled by another, once.

The webhook answers Telegram only after the update was handled, so an instance killed with an
update in hand has not acknowledged it: the proxy answers 502, Telegram (the pusher) delivers it
again, the other instance handles it. Two ways to die: before the update's step was committed
(the step then happens on the survivor) and right after (the survivor must not apply it again).
Both on PostgreSQL, two ``python -m bot`` instances behind the round-robin proxy.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import select, text

from standin import Chat, Message, StandIn, User
from standin.cluster import (
    Cluster,
    Seen,
    Tally,
    open_computer_match,
    open_group_match,
    take_turn,
    until,
)
from standin.players import board_version, live_board
from standin.typed_play import over, racing_play
from storage.models import MatchRow

PG = os.environ.get("PORTES_TEST_POSTGRES_URL")
pytestmark = pytest.mark.skipif(not PG, reason="needs PORTES_TEST_POSTGRES_URL (.ci/postgres.sh)")


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[tuple[StandIn, Cluster, Chat, User, User]]:
    assert PG is not None
    with StandIn(recompress_photos=False) as standin:
        cluster = Cluster(standin, PG, tmp_path, n=2)
        try:
            await cluster.start()
            a, b = standin.user("Anna", username="anna"), standin.user("Babis", username="babis")
            group = standin.group("Kafeneio", a, b)
            await open_group_match(standin, group, a, b)
            yield standin, cluster, group, a, b
        finally:
            cluster.stop()
            cluster.drop()


def turns_in_log(cluster: Cluster, match_id: int) -> int:
    rows = cluster.query(text("SELECT count(*) FROM turns WHERE match_id = :m AND NOT forced "
                              "AND steps::text <> '[]'").bindparams(m=match_id))
    return int(rows[0][0])


@pytest.mark.long
async def test_a_tap_held_by_a_killed_instance_before_its_commit_is_played_once_by_the_other(
        table: tuple[StandIn, Cluster, Chat, User, User]) -> None:
    _standin, cluster, group, a, b = table
    tally = Tally()
    assert await take_turn(group, [a, b], tally)  # a turn through whichever instance
    match_id = tally.match_id
    before = turns_in_log(cluster, match_id)
    board = await until(lambda: (x := live_board(group)) is not None and board_version(x) > 0
                        and x, timeout=30)
    version = board_version(board)
    # the match's row is locked: the instance handling the next tap waits at its commit
    locked, release = threading.Event(), threading.Event()

    def hold() -> None:
        assert cluster.url
        from storage.db import make_engine
        engine = make_engine(cluster.url)
        with engine.connect() as conn, conn.begin():
            conn.execute(select(MatchRow.id).where(MatchRow.id == match_id).with_for_update())
            locked.set()
            release.wait(30)
        engine.dispose()

    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    assert await asyncio.to_thread(locked.wait, 10)
    proxy = cluster.proxy
    assert proxy is not None
    mover = next(u for u in (a, b) if board.mentions(u))
    playing = asyncio.ensure_future(take_turn(group, [mover], tally, timeout=60))
    busy = await until(lambda: next((i for i, port in enumerate(cluster.ports)
                                     if proxy.in_flight(port)), None) is not None, timeout=15)
    assert busy, "the tap never reached an instance"
    held = next(i for i, port in enumerate(cluster.ports) if proxy.in_flight(port))
    cluster.kill(held)  # with the tap in hand, before its commit
    release.set()
    assert await playing  # the tap is delivered again, to the survivor, and played there
    assert tally.retapped == 0  # by the redelivery, not by the player tapping again
    assert cluster.pusher is not None and cluster.pusher.redelivered >= 1
    assert turns_in_log(cluster, match_id) == before + 1
    assert proxy.counts.get(("dropped", cluster.ports[held]), 0) >= 1
    survivor = cluster.procs[1 - held]
    assert survivor.poll() is None
    (now,) = cluster.query(select(MatchRow.version).where(MatchRow.id == match_id))
    assert now[0] > version
    assert not over(group)


@pytest.mark.long
async def test_a_step_committed_by_an_instance_killed_before_it_answered_is_not_doubled(
        tmp_path: Path) -> None:
    assert PG is not None
    with StandIn(recompress_photos=False) as standin:
        # instance 0 dies right after its first commit of a match's step, before answering
        cluster = Cluster(standin, PG, tmp_path, n=2,
                          each={0: {"PORTES_TEST_CRASH_AT": "committed"}})
        try:
            await cluster.start()
            a, b = standin.user("Anna", username="anna"), standin.user("Babis", username="babis")
            group = standin.group("Kafeneio", a, b)
            await open_group_match(standin, group, a, b)
            tally = Tally()
            for _ in range(6):
                assert await take_turn(group, [a, b], tally)
            assert cluster.procs[0].poll() == 70, "instance 0 never committed a step"
            assert cluster.pusher is not None and cluster.pusher.redelivered >= 1
            # every turn the players saw accepted is in the move log once
            assert cluster.played_turns(tally.match_id, (0, 1)) == tally.finals == 6
            # the group converges to one live board (a board is posted before the one it
            # replaces loses its buttons; the dead instance's claims run out first)
            assert await until(lambda: sum(1 for m in group.bot_messages()
                                           if m.photo_bytes is not None and m.has_keyboard) == 1,
                               timeout=20), [m.content for m in group.bot_messages()]
        finally:
            cluster.stop()
            cluster.drop()


@pytest.mark.long
async def test_a_typed_play_committed_by_an_instance_killed_before_it_answered_is_not_doubled(
        tmp_path: Path) -> None:
    assert PG is not None
    with StandIn(recompress_photos=False) as standin:
        # instance 0 dies right after it committed a typed play, before answering: Telegram
        # delivers that message again, to instance 1, while the computer is to move or after
        cluster = Cluster(standin, PG, tmp_path, n=2, each={0: {"PORTES_TEST_CRASH_AT": "typed"}})
        try:
            await cluster.start()
            anna = standin.user("Anna", username="anna")
            await open_computer_match(standin, anna)
            await standin.wait_for(lambda: live_board(anna.private), timeout=60)
            ((match_id,),) = cluster.query(select(MatchRow.id))
            first: Message | None = None
            typed = 0
            while typed < 8 and (typed < 3 or cluster.procs[0].poll() is None):
                seen = await anna_to_move(cluster, anna, match_id)
                sent = anna.send(anna.private, racing_play(seen.state))
                first = first or sent
                typed += 1
                assert await until(lambda v=seen.version: cluster.match(match_id).version > v,
                                   timeout=30), f"typed play {typed} was not played"
            assert cluster.procs[0].poll() == 70, "instance 0 never committed a typed play"
            assert cluster.pusher is not None and cluster.pusher.redelivered >= 1
            await anna_to_move(cluster, anna, match_id)
            await standin.idle(quiet=1.0, timeout=30)
            # each typed play is in the move log once, and the bot said nothing to the copy
            assert cluster.played_turns(match_id, (0,)) == typed
            assert first is not None
            assert [m.text for m in anna.private.bot_messages()
                    if m.message_id > first.message_id and m.photo_bytes is None] == []
        finally:
            cluster.stop()
            cluster.drop()


async def anna_to_move(cluster: Cluster, anna: User, match_id: int) -> Seen:
    """Wait until Anna (seat 0) is to move and her private board shows that turn."""
    def ready() -> bool:
        board = live_board(anna.private)
        if board is None:
            return False
        seen = cluster.match(match_id)
        return seen.to_act == 0 and seen.version == board_version(board)

    assert await until(ready, timeout=60, step=0.1), "Anna never got her turn"
    return cluster.match(match_id)
