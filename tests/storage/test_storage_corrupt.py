"""A malformed or truncated stored state gives a clear error for that match only."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import update

from storage.db import Database
from storage.models import MatchRow
from storage.results import MatchStatus, MatchSummary, Outcome
from storage.usecases import UseCases
from tests.storage.conftest import FakeClock
from tests.storage.helpers import ALICE, BOB, CAROL, actor_of, new_match


@pytest.mark.parametrize(
    "damage",
    [
        lambda s: s[: len(s) // 2],  # truncated
        lambda s: "not json at all",
        lambda s: s.replace('"format":1', '"format":99'),  # unknown format
        lambda s: s.replace('"board":[', '"board":[7,'),  # malformed board
        lambda s: "[]",
    ],
    ids=["truncated", "garbage", "format", "board", "not-object"],
)
async def test_corrupt_state(uc: UseCases, db: Database, clock: FakeClock, damage) -> None:  # type: ignore[no-untyped-def]
    broken = (await new_match(uc, mix="a")).match
    healthy = (await new_match(uc, mix="b")).match
    assert broken is not None and healthy is not None
    with db.sessions.begin() as session:
        session.execute(
            update(MatchRow)
            .where(MatchRow.id == broken.id)
            .values(state=damage(broken.state.to_json()))
        )
    loaded = await uc.load_match(broken.id)
    assert loaded.outcome == Outcome.CORRUPT and loaded.code == "corrupt_state"
    assert loaded.message and str(broken.id) in loaded.message
    actor = actor_of(broken, broken.state.turn)
    acted = await uc.play(broken.id, actor, broken.version, "24/18")
    assert acted.outcome == Outcome.CORRUPT
    # Other matches and listings are unaffected.
    assert {s.id for s in await uc.list_active_matches(ALICE)} == {broken.id, healthy.id}
    assert [m.id for m in await uc.active_matches_in_chat(-100)] == [healthy.id]
    assert (await uc.load_match(healthy.id)).ok
    # Its timers fire once and report it; they are not retried in a loop.
    clock.advance(timedelta(days=8))
    fired = await uc.fire_due_timers()
    about_broken = [t for t in fired if t.match is None]
    assert about_broken and all(t.outcome == Outcome.CORRUPT for t in about_broken)
    assert [t for t in await uc.fire_due_timers() if t.match is None] == []
    assert (await uc.load_match(healthy.id)).match.status.value == "abandoned"  # type: ignore[union-attr]
    assert BOB


async def break_state(db: Database, match_id: int) -> None:
    with db.sessions.begin() as session:
        session.execute(update(MatchRow).where(MatchRow.id == match_id).values(state="garbage"))


async def test_an_unreadable_match_is_listed_as_such_and_either_player_closes_it(
    uc: UseCases, db: Database, clock: FakeClock
) -> None:
    # Given a match whose stored state cannot be read, and a healthy one
    broken = (await new_match(uc, mix="a")).match
    healthy = (await new_match(uc, mix="b")).match
    assert broken is not None and healthy is not None
    await break_state(db, broken.id)
    # Then the players' lists show it as unreadable, never as "your move"
    for user in (ALICE, BOB):
        listed = {s.id: s for s in await uc.list_active_matches(user)}
        assert not listed[broken.id].readable and not listed[broken.id].my_turn
        assert listed[healthy.id].readable
    # And a readable match, or someone who does not play, cannot be closed this way
    assert (await uc.close_unreadable(healthy.id, ALICE)).code == "readable"  # type: ignore[union-attr]
    assert (await uc.close_unreadable(broken.id, CAROL)).code == "not_a_player"  # type: ignore[union-attr]
    # When Bob (not the one to move, nor the author) closes it
    closed = await uc.close_unreadable(broken.id, BOB, broken.version)
    assert isinstance(closed, MatchSummary)
    assert closed.status == MatchStatus.CANCELLED and closed.opponent is not None
    assert closed.opponent.id == ALICE
    # Then it has ended for nobody: not active, not reviewable, not counted; its timers are gone
    assert [s.id for s in await uc.list_active_matches(ALICE)] == [healthy.id]
    assert broken.id not in {s.id for s in await uc.finished_matches(ALICE)}
    with db.sessions() as session:
        row = session.get(MatchRow, broken.id)
        assert row is not None and row.winner is None and row.end_reason == "unreadable"
    clock.advance(timedelta(days=8))
    assert all(t.match is not None for t in await uc.fire_due_timers())
    # And closing it again changes nothing
    assert (await uc.close_unreadable(broken.id, ALICE)).code == "game_over"  # type: ignore[union-attr]
