"""Fixtures for the storage tests: real databases, parametrised by URL.

Every test taking ``db`` runs on SQLite (a fresh file copied from a migrated template) and on
PostgreSQL when ``PORTES_TEST_POSTGRES_URL`` is set (``eval "$(.ci/postgres.sh)"`` starts one).
Without it the PostgreSQL leg is skipped loudly; with ``CI=true`` it fails instead.
"""

from __future__ import annotations

import os
import shutil
import warnings
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import text

from standin.databases import create_database, drop_database
from storage import migrate
from storage.db import Database, make_engine
from storage.usecases import UseCases
from tests.storage.helpers import barrier_checkpoint

PG_ENV = "PORTES_TEST_POSTGRES_URL"
BACKENDS = ("sqlite", "postgresql")
_pg_skipped: list[str] = []


def postgres_admin_url() -> str | None:
    """The configured PostgreSQL URL, or skip (fail under CI) when there is none."""
    url = os.environ.get(PG_ENV)
    if url:
        return url
    message = f'PostgreSQL leg SKIPPED: {PG_ENV} is not set (run: eval "$(.ci/postgres.sh)")'
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true but {PG_ENV} is not set: PostgreSQL is required in CI")
    _pg_skipped.append(message)
    pytest.skip(message)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _pg_skipped:
        terminalreporter.write_sep("!", "PostgreSQL NOT TESTED", red=True, bold=True)
        terminalreporter.write_line(
            f"The PostgreSQL leg of the storage tests was skipped: {PG_ENV} is not "
            'set. Run `eval "$(.ci/postgres.sh)"` first.',
            red=True,
        )


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "portes.sqlite3"
    migrate.upgrade(f"sqlite:///{path}")
    return path


@pytest.fixture(scope="session")
def pg_session_url() -> Iterator[str]:
    """A PostgreSQL database at head for the worker's session: a copy of the template migrated
    once per revision, not a migration per worker (six workers, six Alembic runs)."""
    admin = postgres_admin_url()
    assert admin is not None
    url = create_database(admin, migrated=True)
    yield url
    drop_database(admin, url)


class FakeClock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 25, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> None:
        self.now += delta


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def sqlite_copy(template: Path, tmp_path: Path) -> str:
    path = tmp_path / "portes.sqlite3"
    shutil.copy(template, path)
    return f"sqlite:///{path}"


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return sqlite_copy(request.getfixturevalue("sqlite_template"), tmp_path)
    url: str = request.getfixturevalue("pg_session_url")
    empty(url)
    return url


# every table the migrations made, read from the database (the models' metadata misses those
# declared elsewhere, the ladders', whose rows then leaked between tests), children first
TABLES = text("""
    WITH RECURSIVE refs(child, parent) AS (
        SELECT conrelid::regclass::text, confrelid::regclass::text FROM pg_constraint
        WHERE contype = 'f' AND conrelid <> confrelid),
    depth(name, d) AS (
        SELECT tablename::text, 0 FROM pg_tables
        WHERE schemaname = current_schema() AND tablename <> 'alembic_version'
        UNION ALL
        SELECT refs.parent, depth.d + 1 FROM depth JOIN refs ON refs.child = depth.name
        WHERE depth.d < 30)
    SELECT name FROM depth GROUP BY name ORDER BY max(d), name""")
SEQUENCES = text("SELECT sequencename FROM pg_sequences WHERE schemaname = current_schema()")


def empty(url: str) -> None:
    """Every table emptied and every id counting from 1 again: DELETE, not TRUNCATE, which
    gives each of some hundred tables, indexes and sequences a new file (three times the
    server's CPU, measured, for the handful of rows a test leaves)."""
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            for name in [str(n).strip('"') for n in conn.execute(TABLES).scalars()]:
                conn.execute(text(f'DELETE FROM "{name}"'))
            for sequence in conn.execute(SEQUENCES).scalars().all():
                conn.execute(text(f'ALTER SEQUENCE "{sequence}" RESTART'))
    finally:
        engine.dispose()


@pytest.fixture
async def db(db_url: str) -> AsyncIterator[Database]:
    database = Database.from_url(db_url)
    yield database
    await database.dispose()


@pytest.fixture
def uc(db: Database, clock: FakeClock) -> UseCases:
    return UseCases(db, clock=clock)


@pytest.fixture(autouse=True)
def _no_resource_warnings() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("default")
        yield


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database, SQLite and PostgreSQL: the migration tests build it up themselves."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'empty.sqlite3'}"
        return
    admin = postgres_admin_url()
    assert admin is not None
    url = create_database(admin, "portes_mig")
    yield url
    drop_database(admin, url)


@pytest.fixture
async def racers(db_url: str, clock: FakeClock) -> AsyncIterator[list[UseCases]]:
    checkpoint = barrier_checkpoint(2)
    dbs = [Database.from_url(db_url) for _ in range(2)]
    yield [UseCases(d, clock=clock, checkpoint=checkpoint) for d in dbs]
    for d in dbs:
        await d.dispose()
