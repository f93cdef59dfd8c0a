"""The chat's highest message id the bot got back (``delivery_chats``): two instances posting
at once in a chat new to both both record it, neither fails on the other's row, and the mark
only rises."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest
from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from storage.db import make_engine
from storage.delivery.work import _raise_top
from storage.models import DeliveryChatRow

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
CHAT = -4000001


def test_two_first_posts_at_once_in_a_chat_both_record_it(db_url: str) -> None:
    if not db_url.startswith("postgresql"):
        pytest.skip("SQLite serialises its writers: the race is PostgreSQL's")
    engine = make_engine(db_url)
    first, second = Session(engine), Session(engine)
    errors: list[BaseException] = []
    try:
        first.begin()
        _raise_top(first, pg_insert, CHAT, 5, NOW)  # inserted, not committed yet

        def other() -> None:
            try:
                with second.begin():  # waits on the first's row, then yields to it
                    _raise_top(second, pg_insert, CHAT, 7, NOW)
            except BaseException as exc:
                errors.append(exc)

        thread = threading.Thread(target=other)
        thread.start()
        thread.join(0.5)
        assert thread.is_alive()  # blocked on the first's insert
        first.commit()
        thread.join(10)
        assert errors == []
        with Session(engine) as check:
            marks = check.execute(select(DeliveryChatRow.last_message_id)).scalars().all()
        assert marks == [7]
        with Session(engine) as session, session.begin():  # a lower id leaves it alone
            _raise_top(session, pg_insert, CHAT, 6, NOW)
        with Session(engine) as check:
            assert check.execute(select(DeliveryChatRow.last_message_id)).scalar_one() == 7
    finally:
        first.close()
        second.close()
        engine.dispose()
