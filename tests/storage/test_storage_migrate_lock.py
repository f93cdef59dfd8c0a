"""Instances that start together migrate together: under the migration lock exactly one
upgrades, the others wait and find the database at head."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import text

from standin.databases import create_database, drop_database
from storage import migrate
from storage.db import make_engine
from tests.storage.conftest import postgres_admin_url

N = 4


@pytest.fixture(params=["sqlite", "postgresql"])
def fresh_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
        return
    admin = postgres_admin_url()
    assert admin is not None
    url = create_database(admin, prefix="portes_lock")
    yield url
    drop_database(admin, url)


def test_concurrent_upgrades_all_succeed_and_reach_head_once(fresh_url: str) -> None:
    errors: list[BaseException] = []
    start = threading.Barrier(N)

    def upgrade() -> None:
        start.wait()
        try:
            migrate.upgrade(fresh_url)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=upgrade) for _ in range(N)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    head = ScriptDirectory.from_config(migrate.alembic_config(fresh_url)).get_current_head()
    engine = make_engine(fresh_url)
    try:
        with engine.connect() as conn:
            versions = conn.execute(text("SELECT version_num FROM alembic_version")).all()
            tables = conn.execute(text(
                "SELECT count(*) FROM players")).scalar_one()
    finally:
        engine.dispose()
    assert versions == [(head,)]
    assert tables == 0


def test_the_lock_is_exclusive(fresh_url: str) -> None:
    """While one process holds the lock, another waits for it."""
    entered = threading.Event()
    with migrate.migration_lock(fresh_url):
        thread = threading.Thread(target=lambda: _enter(fresh_url, entered))
        thread.start()
        assert not entered.wait(1.0)
    assert entered.wait(10.0)
    thread.join()


def _enter(url: str, entered: threading.Event) -> None:
    with migrate.migration_lock(url):
        entered.set()
