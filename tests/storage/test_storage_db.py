"""Engine set-up: SQLite pragmas, URL handling, UTC times."""

from __future__ import annotations

import asyncio
import threading
from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy import text

from storage.db import DEFAULT_URL, Database, database_url, normalise_url, sync_url
from storage.usecases import UseCases
from tests.storage.helpers import actor_of, new_match


def test_urls() -> None:
    assert database_url({}) == DEFAULT_URL
    assert database_url({"DATABASE_URL": "sqlite:////var/lib/portes.db"}) == (
        "sqlite+aiosqlite:////var/lib/portes.db"
    )
    assert normalise_url("postgres://u:p%40ss@h:5432/d") == "postgresql+asyncpg://u:p%40ss@h:5432/d"
    assert normalise_url("postgresql://h/d") == "postgresql+asyncpg://h/d"
    assert normalise_url("postgresql+asyncpg://h/d") == "postgresql+asyncpg://h/d"


def test_sync_urls() -> None:
    """Users keep writing async or plain URLs; the use cases run on the synchronous drivers."""
    assert sync_url(DEFAULT_URL) == "sqlite+pysqlite:///portes.sqlite3"
    assert sync_url("sqlite:////var/lib/portes.db") == "sqlite+pysqlite:////var/lib/portes.db"
    assert sync_url("postgresql+asyncpg://u:p%40ss@h/d") == "postgresql+psycopg://u:p%40ss@h/d"
    assert sync_url("postgres://h/d") == "postgresql+psycopg://h/d"
    assert sync_url("postgresql+psycopg://h/d") == "postgresql+psycopg://h/d"
    assert sync_url("postgresql+psycopg2://h/d") == "postgresql+psycopg://h/d"


async def test_sqlite_pragmas(db: Database) -> None:
    if not db.is_sqlite:
        pytest.skip("SQLite only")
    async with db.engine.connect() as conn:
        assert (await conn.execute(text("PRAGMA journal_mode"))).scalar() == "wal"
        assert (await conn.execute(text("PRAGMA foreign_keys"))).scalar() == 1
        assert (await conn.execute(text("PRAGMA busy_timeout"))).scalar() >= 5000

    def pragmas() -> tuple[object, ...]:
        with db.sync_engine.connect() as conn:
            return tuple(
                conn.execute(text(f"PRAGMA {name}")).scalar()
                for name in ("journal_mode", "foreign_keys", "busy_timeout", "synchronous")
            )

    # The engine the use cases run on, in a worker thread (1 = NORMAL).
    assert await db.run(pragmas) == ("wal", 1, 10_000, 1)


async def test_use_cases_run_off_the_event_loop(db: Database) -> None:
    """A use case's transaction runs in a worker thread while the loop goes on; its checkpoint
    (a coroutine) runs on the loop thread in the middle of the transaction."""
    seen: dict[str, int] = {}
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    async def checkpoint(name: str) -> None:
        seen[name] = threading.get_ident()
        if name == "read":
            before = ticks
            await asyncio.sleep(0.05)  # the use case's thread waits; the loop does not
            assert ticks > before

    view = (await new_match(UseCases(db))).match
    assert view is not None
    uc = UseCases(db, checkpoint=checkpoint)
    task = asyncio.create_task(ticker())
    try:
        seat = view.to_act
        assert seat is not None
        play = view.state.legal_plays()[0]
        result = await uc.play(view.id, actor_of(view, seat), view.version, play)
    finally:
        task.cancel()
    assert result.ok
    assert set(seen) == {"read", "written", "committed"}
    assert set(seen.values()) == {threading.get_ident()}
    assert db.workers >= 1


async def test_times_come_back_aware_utc(db: Database) -> None:
    athens = timezone(timedelta(hours=2))
    now = datetime(2026, 3, 25, 14, 30, 15, 123456, tzinfo=athens)
    uc = UseCases(db, clock=lambda: now)
    player = await uc.upsert_player(1, "A")
    assert player.id == 1
    created = await uc.create_challenge(1, length=1)
    assert created.challenge is not None
    loaded = await uc.get_challenge(created.challenge.id)
    assert loaded is not None
    assert loaded.created_at == now and loaded.created_at.tzinfo is not None
    assert loaded.created_at.utcoffset() == timedelta(0)
    assert loaded.expires_at == now.astimezone(UTC) + timedelta(hours=24)


def test_core_match_row_has_every_column() -> None:
    """The hot path reads matches with Core into ``MatchData``: it must follow the model."""
    from dataclasses import fields

    from storage.models import MatchRow
    from storage.usecases.rows import MatchData

    assert [f.name for f in fields(MatchData)] == [c.name for c in MatchRow.__table__.columns]
