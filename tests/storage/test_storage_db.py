"""Engine set-up: SQLite pragmas, URL handling, UTC times."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
import threading
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlalchemy import text

from storage.db import DEFAULT_URL, Database, database_url, normalise_url
from storage.usecases import UseCases
from tests.storage.helpers import actor_of, new_match


def test_urls() -> None:
    assert DEFAULT_URL == "sqlite:///portes.sqlite3"
    assert database_url({}) == "sqlite+pysqlite:///portes.sqlite3"
    assert database_url({"DATABASE_URL": "sqlite:////var/lib/portes.db"}) == (
        "sqlite+pysqlite:////var/lib/portes.db"
    )


@pytest.mark.parametrize(
    ("given", "normalised"),
    [
        ("sqlite:///portes.sqlite3", "sqlite+pysqlite:///portes.sqlite3"),
        ("sqlite+aiosqlite:////var/lib/portes.db", "sqlite+pysqlite:////var/lib/portes.db"),
        ("sqlite+pysqlite:///p.db", "sqlite+pysqlite:///p.db"),
        ("sqlite://", "sqlite+pysqlite://"),
        ("postgres://u:p%40ss@h:5432/d", "postgresql+psycopg://u:p%40ss@h:5432/d"),
        ("postgresql://h/d", "postgresql+psycopg://h/d"),
        ("postgresql+asyncpg://u:p%40ss@h/d", "postgresql+psycopg://u:p%40ss@h/d"),
        ("postgresql+psycopg://h/d", "postgresql+psycopg://h/d"),
        ("postgresql+psycopg2://h/d", "postgresql+psycopg://h/d"),
    ],
)
def test_every_url_form_names_the_one_driver(given: str, normalised: str) -> None:
    """Older settings (async drivers, no driver, ``postgres://``) keep working: each database
    has one driver, the synchronous one, for the use cases and the migrations alike."""
    assert normalise_url(given) == normalised
    assert database_url({"DATABASE_URL": given}) == normalised


def test_older_urls_open_and_migrate_without_async_drivers(tmp_path: Path) -> None:
    """An old ``sqlite+aiosqlite`` URL migrates and runs a use case on the standard library's
    sqlite3: no async driver is ever imported."""
    script = textwrap.dedent(
        """
        import asyncio, sys
        from storage.db import Database
        from storage.migrate import upgrade
        from storage.usecases import UseCases

        url = sys.argv[1]
        upgrade(url)

        async def main():
            db = Database.from_url(url)
            player = await UseCases(db).upsert_player(1, "A")
            await db.dispose()
            print(db.engine.driver, player.id)

        asyncio.run(main())
        print(sorted(m for m in ("aiosqlite", "asyncpg") if m in sys.modules))
        """
    )
    url = f"sqlite+aiosqlite:///{tmp_path / 'old.sqlite3'}"
    out = subprocess.run(
        [sys.executable, "-c", script, url], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    assert out[:2] == ["pysqlite 1", "[]"]


async def test_sqlite_pragmas(db: Database) -> None:
    if not db.is_sqlite:
        pytest.skip("SQLite only")

    def pragmas() -> tuple[object, ...]:
        with db.engine.connect() as conn:
            return tuple(
                conn.execute(text(f"PRAGMA {name}")).scalar()
                for name in ("journal_mode", "foreign_keys", "busy_timeout", "synchronous")
            )

    # The engine the use cases run on, in a worker thread (1 = NORMAL).
    assert await db.run(pragmas) == ("wal", 1, 10_000, 1)


def test_the_bots_engine_never_makes_an_empty_file_in_place_of_a_missing_one(
        tmp_path: Path) -> None:
    path = tmp_path / "portes sqlite #1.db"  # a space and a '#': the path is quoted in the URI
    Database.from_url(f"sqlite:///{path}").engine.connect().close()  # what the migrations do
    db = Database.from_url(f"sqlite:///{path}", existing_file=True)
    with db.engine.begin() as conn:
        conn.execute(text("CREATE TABLE matches (id INTEGER PRIMARY KEY)"))
    assert {p.name for p in tmp_path.iterdir()} >= {path.name}

    moved = path.rename(tmp_path / "elsewhere.db")
    first = db.engine.connect()  # the pool's connection, opened before, still answers
    with pytest.raises(Exception, match="unable to open database file"):
        db.engine.connect()  # a second one (the pool grows) fails: no new empty database
    assert not path.exists()
    first.close()
    moved.rename(path)
    conns = [db.engine.connect() for _ in range(3)]  # new connections reach the real file
    for conn in conns:
        assert conn.execute(text("SELECT count(*) FROM matches")).scalar() == 0
        conn.close()
    db.engine.dispose()


def test_one_engine_per_database(db: Database) -> None:
    assert db.engine.driver in ("pysqlite", "psycopg")
    assert db.url == normalise_url(db.url)


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
