"""Database set-up: one synchronous engine per database, used off the event loop in worker threads.

SQLite is the default (a file, ``portes.sqlite3`` in the working directory: ``DEFAULT_URL``);
``DATABASE_URL`` selects anything else. Every SQLite connection gets WAL mode, foreign keys, a
busy timeout and ``synchronous=NORMAL``.

Each database has one engine on one driver: ``sqlite+pysqlite`` (the standard library's
``sqlite3``) or ``postgresql+psycopg`` (psycopg 3). The use cases and the migrations both run on
it. The use cases run each transaction as plain synchronous SQLAlchemy in :meth:`Database.run`'s
worker threads: one hop between the event loop and a thread per use case, and the event loop is
never blocked by I/O. URLs may name any driver or none (``sqlite://``, ``sqlite+aiosqlite://``,
``postgres://``, ``postgresql://``, ``postgresql+asyncpg://``, ``postgresql+psycopg://``):
:func:`normalise_url` gives the driver we run on, so older settings keep working.
"""

from __future__ import annotations

import asyncio
import functools
import os
import threading
import urllib.parse
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, nullcontext
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

DEFAULT_URL = "sqlite:///portes.sqlite3"
BUSY_TIMEOUT_MS = 10_000
SQLITE_WORKERS = 4
"""Worker threads (and pooled connections) per SQLite database: one writer at a time anyway."""
POSTGRES_WORKERS = 10
"""Worker threads per PostgreSQL database, unless ``pool_size`` says more."""

SQLITE_DRIVERS = ("sqlite", "sqlite+pysqlite", "sqlite+aiosqlite")
POSTGRES_DRIVERS = (
    "postgresql",
    "postgresql+psycopg",
    "postgresql+psycopg2",
    "postgresql+asyncpg",
)

P = ParamSpec("P")
T = TypeVar("T")
_thread_state = threading.local()


def database_url(env: Mapping[str, str] | None = None) -> str:
    """The database URL: ``DATABASE_URL`` or the SQLite file, normalised (:func:`normalise_url`)."""
    env = os.environ if env is None else env
    return normalise_url(env.get("DATABASE_URL") or DEFAULT_URL)


def normalise_url(url: str) -> str:
    """Give a URL the driver we run on: ``sqlite+pysqlite`` or ``postgresql+psycopg``.

    Older or shorter forms (``sqlite+aiosqlite``, ``postgres://``, ``postgresql+asyncpg``...)
    name the same database, so they keep working."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    parsed = make_url(url)
    if parsed.drivername in SQLITE_DRIVERS:
        parsed = parsed.set(drivername="sqlite+pysqlite")
    elif parsed.drivername in POSTGRES_DRIVERS:
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


def _open_existing_file(
    _dialect: Any, _record: Any, cargs: list[Any], cparams: dict[str, Any]
) -> None:
    # SQLite creates a missing file on connect. A file moved or deleted under a running bot
    # would then be replaced by an empty database that pooled connections keep using after
    # the file is back ("no such table"); opened read-write only, the connect fails instead.
    if cparams.get("uri") or not cargs or cargs[0] == ":memory:":
        return
    cargs[0] = "file:" + urllib.parse.quote(os.path.abspath(cargs[0])) + "?mode=rw"
    cparams["uri"] = True


def make_engine(
    url: str | None = None, *, existing_file: bool = False, **kwargs: Any
) -> Engine:
    """The engine for ``url`` (any accepted form; default :func:`database_url`), with the
    SQLite pragmas. SQLite files get a small QueuePool whose connections may move between
    worker threads (``check_same_thread=False``; one thread uses one at a time). ``kwargs`` go
    to ``create_engine`` (e.g. ``poolclass=NullPool`` for the migrations).

    ``existing_file``: a SQLite file is opened, never created (the bot's engine, after the
    migrations made the file): a missing file is an error, not a new empty database."""
    url = normalise_url(url or database_url())
    pooled = "poolclass" not in kwargs
    if is_sqlite(url):
        connect_args = kwargs.setdefault("connect_args", {})
        connect_args.setdefault("timeout", BUSY_TIMEOUT_MS / 1000)
        connect_args.setdefault("check_same_thread", False)
        if pooled:
            kwargs.setdefault("pool_size", SQLITE_WORKERS)
    else:
        kwargs.setdefault("pool_pre_ping", True)
        if pooled:
            kwargs.setdefault("pool_size", POSTGRES_WORKERS)
    engine = create_engine(url, **kwargs)
    if is_sqlite(url):
        event.listen(engine, "connect", _sqlite_pragmas)
        if existing_file:
            event.listen(engine, "do_connect", _open_existing_file)
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


class Database:
    """The engine, its session factory (``expire_on_commit=False``) and worker threads.

    ``engine`` / ``sessions`` are what the use cases run on, inside :meth:`run`'s worker
    threads (as many as the pool has connections).

    :meth:`write_lock` (taken in worker threads) serialises this process's writers on SQLite
    (one writer at a time is all SQLite allows; queueing them here avoids SQLite's sleeping busy
    handler). Other processes are still kept out by SQLite's own lock and the busy timeout. On
    other databases it does nothing.
    """

    def __init__(self, engine: Engine, *, workers: int = 0) -> None:
        self.engine = engine
        self.sessions: sessionmaker[Session] = sessionmaker(engine, expire_on_commit=False)
        if not workers:
            pool_size = getattr(engine.pool, "size", None)
            workers = pool_size() if callable(pool_size) else SQLITE_WORKERS
        self.workers = workers
        self._executor: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    async def run(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """Run ``fn(*args, **kwargs)`` (synchronous database work) in a worker thread."""
        loop = asyncio.get_running_loop()
        if self._executor is None:  # started on first use, and again after dispose()
            self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="portes-db")
        call = functools.partial(_in_worker, loop, fn, args, kwargs)
        return await loop.run_in_executor(self._executor, call)

    def write_lock(self) -> AbstractContextManager[Any]:
        return self._lock if self.is_sqlite else nullcontext()

    @classmethod
    def from_url(
        cls, url: str | None = None, *, existing_file: bool = False, **kwargs: Any
    ) -> Database:
        """The engine for ``url`` (default :func:`database_url`); ``existing_file`` as in
        :func:`make_engine`; ``kwargs`` go to ``create_engine`` (e.g. ``pool_size``, which also
        sets the worker threads)."""
        return cls(make_engine(url, existing_file=existing_file, **kwargs))

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
        self.engine.dispose()
