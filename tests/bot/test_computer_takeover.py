"""The computer's turn of an instance that died is played by another, once: the dead
instance's claim on the turn holds until its lease runs out, then a survivor takes it over.
The lease runs on a wall clock the test moves (``UseCases(wall=...)``)."""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Any

from sqlalchemy import select

from bot.settings import Timeouts
from standin import StandIn
from standin.players import board_version, live_board
from storage.db import Database
from storage.models import TurnRow
from storage.usecases import UseCases
from tests.clocks import Wall

LEASE = 3.0


async def computer_to_act(uc: UseCases, alice_id: int) -> Any:
    await uc.upsert_player(alice_id, "Alice", username="alice", can_message=True)
    for attempt in range(40):
        created = await uc.create_challenge(alice_id, length=1, computer_level=1)
        assert created.challenge is not None
        res = await uc.accept_challenge(created.challenge.id, alice_id, mix=f"takeover-{attempt}")
        assert res.match is not None
        if res.match.computer_to_act:
            return res.match
        await uc.resign_match(res.match.id, alice_id)
    raise AssertionError("the computer never had the first turn")


def players_in_turn_order(db: Database, match_id: int) -> list[int]:
    with db.sessions() as session:
        return list(session.scalars(select(TurnRow.player).where(TurnRow.match_id == match_id)
                                    .order_by(TurnRow.game, TurnRow.turn)))


async def test_a_dead_instances_computer_turn_is_played_once_by_a_survivor(
        standin: StandIn, make_bot: Any, db_url: str) -> None:
    alice = standin.user("Alice", username="alice")
    alice.start_bot()
    wall = Wall()  # the leases' clock: it moves when the test says
    db = Database.from_url(db_url)
    uc = UseCases(db, wall=wall)
    match = await computer_to_act(uc, alice.id)
    # an instance claimed the computer's turn, began to think, and died (no renewal comes)
    assert await uc.claim_computer_turn(match.id, "gone-host:4242:computer:1", LEASE)
    # the survivor runs on the same database
    bot = await make_bot(wall=wall,
                         timeouts=replace(Timeouts(timer_poll=0.2), computer_lease=LEASE))
    side = bot.app.bot_data["portes"].computer
    # while the lease holds, nobody plays it: not at start, not when the survivor looks again
    await standin.idle(quiet=0.5)
    assert await side.take_over() == 0
    assert (await bot.uc.load_match(match.id)).match.version == match.version  # type: ignore[union-attr]
    # once it has run out, the survivor plays the turn, and Alice sees it
    wall.advance(LEASE + 0.1)
    after = await standin.wait_for(
        lambda: (mv := bot.app.bot_data["portes"].views.get(match.id)) is not None
        and mv.version > match.version and mv, timeout=30,
        what="the survivor to play the dead instance's turn")
    await standin.wait_for(
        lambda: (b := live_board(alice.private)) is not None and board_version(b) >= after.version
        and b, timeout=10, what="Alice's board after the computer's turn")
    # played exactly once: the log alternates (a turn played twice would show the computer
    # twice in a row; Alice's forced turns are played for her, so the computer may go on)
    await standin.idle(quiet=LEASE)  # a second player would have had time to act again
    order = await db.run(players_in_turn_order, db, match.id)
    assert order[0] == 1 and all(a != b for a, b in itertools.pairwise(order)), order
    assert await bot.uc.unclaimed_computer_turns() == []
    await db.dispose()
