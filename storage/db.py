"""Database set-up: a synchronous engine used off the event loop, in worker threads.

SQLite is the default (a file, ``portes.sqlite3`` in the working directory); ``DATABASE_URL``
selects anything else. Every SQLite connection gets WAL mode, foreign keys, a busy timeout and
``synchronous=NORMAL``.

The use cases run each transaction as plain synchronous SQLAlchemy (``sqlite+pysqlite``,
``postgresql+psycopg``) in :meth:`Database.run`'s worker threads: one hop between the event
loop and a thread per use case, instead of one (or several) per statement with an async
driver. The event loop is never blocked by I/O. URLs may name either kind of driver
(``sqlite+aiosqlite``, ``postgresql+asyncpg``, ``postgresql+psycopg``, plain ``postgres://``):
:func:`normalise_url` gives the async form (``Database.engine``, kept for callers that want an
``AsyncEngine``) and :func:`sync_url` the synchronous form the use cases run on.
"""

from __future__ import annotations

import asyncio
import copy
import functools
import os
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager, AbstractContextManager, nullcontext
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import Session, sessionmaker

DEFAULT_URL = "sqlite+aiosqlite:///portes.sqlite3"
BUSY_TIMEOUT_MS = 10_000
SQLITE_WORKERS = 4
"""Worker threads (and pooled connections) per SQLite database: one writer at a time anyway."""
POSTGRES_WORKERS = 10
"""Worker threads per PostgreSQL database, unless ``pool_size`` says more."""

P = ParamSpec("P")
T = TypeVar("T")
_thread_state = threading.local()


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


def sync_url(url: str) -> str:
    """The synchronous form of a URL: ``sqlite+pysqlite`` or ``postgresql+psycopg`` (psycopg 3)."""
    parsed = make_url(normalise_url(url))
    if parsed.drivername == "sqlite+aiosqlite":
        parsed = parsed.set(drivername="sqlite+pysqlite")
    elif parsed.drivername == "postgresql+asyncpg":
        parsed = parsed.set(drivername="postgresql+psycopg")
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


def make_sync_engine(url: str | None = None, **kwargs: Any) -> Engine:
    """A synchronous engine for ``url`` (any accepted form; default :func:`database_url`),
    with the SQLite pragmas. SQLite files get a small QueuePool whose connections may move
    between worker threads (``check_same_thread=False``; one thread uses one at a time)."""
    url = sync_url(url or database_url())
    if is_sqlite(url):
        connect_args = kwargs.setdefault("connect_args", {})
        connect_args.setdefault("timeout", BUSY_TIMEOUT_MS / 1000)
        connect_args.setdefault("check_same_thread", False)
        kwargs.setdefault("pool_size", SQLITE_WORKERS)
    else:
        kwargs.setdefault("pool_pre_ping", True)
        kwargs.setdefault("pool_size", POSTGRES_WORKERS)
    engine = create_engine(url, **kwargs)
    if is_sqlite(url):
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def current_loop() -> asyncio.AbstractEventLoop:
    """In a :meth:`Database.run` worker: the event loop that is waiting for this call."""
    loop: asyncio.AbstractEventLoop | None = getattr(_thread_state, "loop", None)
    if loop is None:
        raise RuntimeError("not inside Database.run")
    return loop


def _in_worker(
    loop: asyncio.AbstractEventLoop, fn: Callable[..., T], args: Any, kwargs: Any
) -> T:
    _thread_state.loop = loop
    try:
        return fn(*args, **kwargs)
    finally:
        _thread_state.loop = None


class _NoLock:
    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, *exc: object) -> None:
        return None


class Database:
    """Engines, session factories (``expire_on_commit=False``) and worker threads.

    ``sync_engine`` / ``sync_sessions`` are what the use cases run on, inside :meth:`run`'s
    worker threads (as many as the pool has connections). ``engine`` / ``sessions`` are the
    async equivalents on the same database, for callers that want them.

    :meth:`sync_write_lock` (in worker threads) and :meth:`write_lock` (in the event loop)
    serialise this process's writers on SQLite (one writer at a time is all SQLite allows;
    queueing them here avoids SQLite's sleeping busy handler). Other processes are still kept
    out by SQLite's own lock and the busy timeout. On other databases they do nothing.
    """

    def __init__(
        self, engine: AsyncEngine, sync_engine: Engine | None = None, *, workers: int = 0
    ) -> None:
        self.engine = engine
        self.sessions: async_sessionmaker[AsyncSession] = async_sessionmaker(
            engine, expire_on_commit=False
        )
        if sync_engine is None:
            url = engine.url.render_as_string(hide_password=False)
            sync_engine = make_sync_engine(url)
        self.sync_engine = sync_engine
        self.sync_sessions: sessionmaker[Session] = sessionmaker(
            sync_engine, expire_on_commit=False
        )
        if not workers:
            pool_size = getattr(sync_engine.pool, "size", None)
            workers = pool_size() if callable(pool_size) else SQLITE_WORKERS
        self.workers = workers
        self._executor: ThreadPoolExecutor | None = None
        self._lock: asyncio.Lock | None = None
        self._sync_lock = threading.Lock()

    async def run(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """Run ``fn(*args, **kwargs)`` (synchronous database work) in a worker thread."""
        loop = asyncio.get_running_loop()
        if self._executor is None:  # started on first use, and again after dispose()
            self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="portes-db")
        call = functools.partial(_in_worker, loop, fn, args, kwargs)
        return await loop.run_in_executor(self._executor, call)

    def sync_write_lock(self) -> AbstractContextManager[Any]:
        return self._sync_lock if self.is_sqlite else nullcontext()

    def write_lock(self) -> AbstractAsyncContextManager[None]:
        if not self.is_sqlite:
            return _NoLock()
        if self._lock is None:
            self._lock = asyncio.Lock()
        return self._lock

    @classmethod
    def from_url(cls, url: str | None = None, **kwargs: Any) -> Database:
        """Engines for ``url`` (default :func:`database_url`); ``kwargs`` go to both
        ``create_engine`` calls (e.g. ``pool_size``, which also sets the worker threads)."""
        url = url or database_url()
        return cls(make_engine(url, **copy.deepcopy(kwargs)), make_sync_engine(url, **kwargs))

    @property
    def url(self) -> str:
        return self.engine.url.render_as_string(hide_password=False)

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    async def dispose(self) -> None:
        """Wait for running use cases, stop the worker threads, close every connection."""
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True)
        self.sync_engine.dispose()
        await self.engine.dispose()
