"""Run the Alembic migrations from code (works after ``pip install``: no ``alembic.ini``).

The migrations run on the same synchronous engine and driver as the use cases
(:func:`storage.db.make_engine`). At start the bot runs ``await upgrade_async(url)`` (the
synchronous :func:`upgrade` in a worker thread, so the event loop is not blocked). For the
command line::

    python -m storage.migrate [upgrade|downgrade|current|revision] [REV] [--url URL] [-m MSG]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

import migrations
from storage.db import database_url, is_sqlite, make_engine, normalise_url

log = logging.getLogger("storage.migrate")
SCRIPT_LOCATION = str(Path(next(iter(migrations.__path__))).resolve())
MIGRATION_LOCK = 0x706F72746573  # "portes": the advisory lock key every instance agrees on
"""Instances that start together take this PostgreSQL advisory lock around the upgrade: one
migrates, the others wait, then find the database at head and do nothing."""


def alembic_config(url: str | None = None) -> Config:
    """An Alembic config for ``url`` (default :func:`storage.db.database_url`)."""
    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    # '%' must be doubled for ConfigParser interpolation (URL-encoded passwords).
    rendered = normalise_url(url or database_url())
    config.set_main_option("sqlalchemy.url", rendered.replace("%", "%%"))
    return config


@contextmanager
def migration_lock(url: str | None = None) -> Iterator[None]:
    """Held by one process at a time per database: PostgreSQL's session advisory lock
    ``MIGRATION_LOCK`` on a connection of its own (released when it closes, even if the process
    dies); for a SQLite file an exclusive ``flock`` on ``<file>.migrate.lock`` beside it (the
    same guarantee on one machine, which is all a SQLite file can be shared by)."""
    url = normalise_url(url or database_url())
    if is_sqlite(url):
        database = make_url(url).database
        if sys.platform == "win32" or not database or database == ":memory:":
            yield
            return
        import fcntl

        with open(f"{database}.migrate.lock", "a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)
        return
    engine = make_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
            conn.commit()
            try:
                yield
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
                conn.commit()
    finally:
        engine.dispose()


def upgrade(url: str | None = None, revision: str = "head") -> None:
    """``alembic upgrade head`` on ``url`` (default: ``DATABASE_URL`` or the SQLite file),
    under :func:`migration_lock`: several instances may start (and upgrade) together."""
    with migration_lock(url):
        command.upgrade(alembic_config(url), revision)


def downgrade(url: str | None = None, revision: str = "base") -> None:
    """``alembic downgrade base`` (or to ``revision``)."""
    command.downgrade(alembic_config(url), revision)


async def upgrade_async(url: str | None = None, revision: str = "head") -> None:
    """:func:`upgrade` run in a worker thread, for use inside the bot's event loop."""
    await asyncio.to_thread(upgrade, url, revision)


def head() -> str:
    """The newest revision of the migration scripts (several heads joined by commas)."""
    from alembic.script import ScriptDirectory

    return ",".join(sorted(ScriptDirectory(SCRIPT_LOCATION).get_heads()))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m storage.migrate")
    parser.add_argument(
        "action", choices=["upgrade", "downgrade", "current", "history", "revision"]
    )
    parser.add_argument("revision", nargs="?")
    parser.add_argument("--url", help="database URL (default: DATABASE_URL or the SQLite file)")
    parser.add_argument("-m", "--message", default="change")
    parser.add_argument("--say-head", action="store_true",
                        help="after the action, print the head revision as 'head: REV'")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    config = alembic_config(args.url)
    if args.action == "upgrade":
        upgrade(args.url, args.revision or "head")
    elif args.action == "downgrade":
        command.downgrade(config, args.revision or "-1")
    elif args.action == "current":
        command.current(config, verbose=True)
    elif args.action == "history":
        command.history(config)
    else:
        command.revision(config, message=args.message, autogenerate=True)
    if args.say_head:
        print(f"head: {head()}")


if __name__ == "__main__":
    main()
