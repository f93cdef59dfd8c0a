"""The delivery worker's statements are built once with their values bound (a claim, the fenced
read, a place's live boards): each must be the very statement written out with the values in
it, on every dialect, and select the same rows."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite

from storage.db import Database
from storage.delivery import claims
from storage.models import BoardMessageRow, DeliveryRow
from storage.usecases import UseCases
from tests.storage.helpers import new_match

NOW = datetime(2026, 12, 2, 3, 0, tzinfo=UTC)
DIALECTS = (sqlite.dialect(), postgresql.dialect())


def sql(statement: Any, dialect: Any) -> str:
    return str(statement.compile(dialect=dialect, compile_kwargs={"literal_binds": True}))


@pytest.mark.parametrize("limit", [2, 21])
@pytest.mark.parametrize("what", ["rows", "ids"])
def test_the_bound_claim_query_is_the_written_one(what: str, limit: int) -> None:
    written = claims._due_in_chat(
        select(DeliveryRow) if what == "rows" else select(DeliveryRow.id),
        NOW, "host:1:2", "-100", limit)
    bound = claims._due_in_chat_bound(what, limit).params(
        claims._due_params(NOW, "host:1:2", "-100"))
    for dialect in DIALECTS:
        assert sql(bound, dialect) == sql(written, dialect)


def test_a_long_worker_name_is_cut_as_in_the_written_query() -> None:
    worker = "w" * 80
    written = claims._due_in_chat(select(DeliveryRow.id), NOW, worker, "-100", 2)
    bound = claims._due_in_chat_bound("ids", 2).params(claims._due_params(NOW, worker, "-100"))
    assert sql(bound, DIALECTS[1]) == sql(written, DIALECTS[1])


@pytest.mark.parametrize("seat", [None, 1])
def test_the_bound_live_boards_query_is_the_written_one(seat: int | None) -> None:
    same_seat = (BoardMessageRow.for_seat.is_(None) if seat is None
                 else BoardMessageRow.for_seat == seat)
    written = select(BoardMessageRow).where(
        BoardMessageRow.match_id == 7, BoardMessageRow.live.is_(True),
        BoardMessageRow.chat_id == -100, same_seat).order_by(BoardMessageRow.id)
    bound = claims._LIVE_BOARDS[None if seat is None else 0].params(
        match_id=7, chat_id=-100, for_seat=seat)
    for dialect in DIALECTS:
        assert sql(bound, dialect) == sql(written, dialect)


async def test_the_bound_queries_read_what_the_written_ones_read(
        uc: UseCases, db: Database) -> None:
    # Given a group match's place, claimed by a worker, and its board posted
    await new_match(uc)
    [work] = await uc.delivery.claim_deliveries("w1", chat_key="-100")
    token = await uc.delivery.mark_sending(work.id, claim=work.claim, caption="", markup=None)
    assert token is not None
    await uc.delivery.record_sent(work.id, token, claim=work.claim, message_id=5,
                                  version=work.version)
    now = datetime.now(UTC) + timedelta(seconds=1)
    with db.sessions() as session:
        row = session.get(DeliveryRow, work.id)
        assert row is not None
        # Then the fenced read, the live boards and the claim query find what the written
        # statements find, for the claimant and for another worker
        assert claims.locked(session, work.id) is session.get(DeliveryRow, work.id)
        written_boards = session.scalars(select(BoardMessageRow).where(
            BoardMessageRow.match_id == row.match_id, BoardMessageRow.live.is_(True),
            BoardMessageRow.chat_id == row.chat_id, BoardMessageRow.for_seat.is_(None))
            .order_by(BoardMessageRow.id)).all()
        assert [b.id for b in claims.live_boards(session, row)] == [b.id for b in written_boards]
        assert written_boards
        for worker in ("w1", "w2"):
            written = session.scalars(claims._due_in_chat(
                select(DeliveryRow.id), now, worker, "-100", 21)).all()
            bound = session.scalars(claims._due_in_chat_bound("ids", 21),
                                    claims._due_params(now, worker, "-100")).all()
            assert bound == written
