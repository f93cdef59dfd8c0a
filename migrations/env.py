"""Alembic environment: the database's one synchronous engine, batch mode on SQLite, our models.

Configured in code by :mod:`storage.migrate` (no ``alembic.ini`` needed), on the same engine and
driver the use cases run on (:func:`storage.db.make_engine`).
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection
from sqlalchemy.pool import NullPool

from storage.db import make_engine
from storage.models import Base

config = context.config
target_metadata = Base.metadata


def _configure(**kwargs: object) -> None:
    context.configure(
        target_metadata=target_metadata,
        compare_type=True,
        **kwargs,  # type: ignore[arg-type]
    )


def run_migrations_offline() -> None:
    url = config.get_main_option("sqlalchemy.url")
    _configure(
        url=url,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
        render_as_batch=bool(url and url.startswith("sqlite")),
    )
    with context.begin_transaction():
        context.run_migrations()


def do_run_migrations(connection: Connection) -> None:
    _configure(connection=connection, render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    url = config.get_main_option("sqlalchemy.url")
    assert url, "storage.migrate sets sqlalchemy.url"
    engine = make_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            do_run_migrations(connection)
            connection.commit()
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
