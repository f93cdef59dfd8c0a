"""Database set-up: an async engine (``sqlite+aiosqlite`` or ``postgresql+asyncpg``).

SQLite is the default (a file, ``portes.sqlite3`` in the working directory); ``DATABASE_URL``
selects anything else. Every SQLite connection gets WAL mode, foreign keys and a busy timeout.
The event loop is never blocked by I/O: aiosqlite and asyncpg run it off the loop.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping
from contextlib import AbstractAsyncContextManager
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

DEFAULT_URL = "sqlite+aiosqlite:///portes.sqlite3"
BUSY_TIMEOUT_MS = 10_000


def database_url(env: Mapping[str, str] | None = None) -> str:
    """The database URL: ``DATABASE_URL`` (normalised to an async driver) or the SQLite file."""
    env = os.environ if env is None else env
    return normalise_url(env.get("DATABASE_URL") or DEFAULT_URL)


def normalise_url(url: str) -> str:
    """Give plain ``sqlite:`` / ``postgres(ql):`` URLs their async driver."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    parsed = make_url(url)
    if parsed.drivername in ("sqlite", "sqlite+pysqlite"):
        parsed = parsed.set(drivername="sqlite+aiosqlite")
    elif parsed.drivername in ("postgresql", "postgresql+psycopg2", "postgresql+psycopg"):
        parsed = parsed.set(drivername="postgresql+asyncpg")
    return parsed.render_as_string(hide_password=False)


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA synchronous=NORMAL")
    finally:
        cursor.close()


def make_engine(url: str | None = None, **kwargs: Any) -> AsyncEngine:
    """An async engine for ``url`` (default :func:`database_url`), with SQLite pragmas."""
    url = normalise_url(url) if url else database_url()
    if is_sqlite(url):
        kwargs.setdefault("connect_args", {}).setdefault("timeout", BUSY_TIMEOUT_MS / 1000)
    else:
        kwargs.setdefault("pool_pre_ping", True)
    engine = create_async_engine(url, **kwargs)
    if is_sqlite(url):
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine


class _NoLock:
    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, *exc: object) -> None:
        return None


class Database:
    """An engine and its session factory (``expire_on_commit=False``).

    :meth:`write_lock` serialises this process's writers on SQLite (one writer at a time is
    all SQLite allows; queueing them in the event loop avoids SQLite's sleeping busy handler).
    Other processes are still kept out by SQLite's own lock and the busy timeout. On other
    databases it does nothing.
    """

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.sessions: async_sessionmaker[AsyncSession] = async_sessionmaker(
            engine, expire_on_commit=False
        )
        self._lock: asyncio.Lock | None = None

    def write_lock(self) -> AbstractAsyncContextManager[None]:
        if not self.is_sqlite:
            return _NoLock()
        if self._lock is None:
            self._lock = asyncio.Lock()
        return self._lock

    @classmethod
    def from_url(cls, url: str | None = None, **kwargs: Any) -> Database:
        return cls(make_engine(url, **kwargs))

    @property
    def url(self) -> str:
        return self.engine.url.render_as_string(hide_password=False)

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    async def dispose(self) -> None:
        await self.engine.dispose()
