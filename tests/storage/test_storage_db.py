"""Engine set-up: SQLite pragmas, URL handling, UTC times."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy import text

from storage.db import DEFAULT_URL, Database, database_url, normalise_url
from storage.usecases import UseCases


def test_urls() -> None:
    assert database_url({}) == DEFAULT_URL
    assert database_url({"DATABASE_URL": "sqlite:////var/lib/portes.db"}) == (
        "sqlite+aiosqlite:////var/lib/portes.db"
    )
    assert normalise_url("postgres://u:p%40ss@h:5432/d") == "postgresql+asyncpg://u:p%40ss@h:5432/d"
    assert normalise_url("postgresql://h/d") == "postgresql+asyncpg://h/d"
    assert normalise_url("postgresql+asyncpg://h/d") == "postgresql+asyncpg://h/d"


async def test_sqlite_pragmas(db: Database) -> None:
    if not db.is_sqlite:
        pytest.skip("SQLite only")
    async with db.engine.connect() as conn:
        assert (await conn.execute(text("PRAGMA journal_mode"))).scalar() == "wal"
        assert (await conn.execute(text("PRAGMA foreign_keys"))).scalar() == 1
        assert (await conn.execute(text("PRAGMA busy_timeout"))).scalar() >= 5000


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
