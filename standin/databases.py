"""Throw-away PostgreSQL databases next to an administrator's URL, for the tests and the
benches that run the bot on PostgreSQL (``PORTES_TEST_POSTGRES_URL``)."""

from __future__ import annotations

import uuid

from sqlalchemy import make_url, text

from storage.db import make_engine, normalise_url


def create_database(admin_url: str, prefix: str = "portes_t") -> str:
    """Create a fresh PostgreSQL database next to ``admin_url``'s; return its URL (any form
    of ``admin_url`` is accepted, e.g. ``postgresql+asyncpg://``; the URL returned is the
    normalised one)."""
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    engine = make_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        engine.dispose()
    url = make_url(normalise_url(admin_url)).set(database=name)
    return url.render_as_string(hide_password=False)


def drop_database(admin_url: str, url: str) -> None:
    name = make_url(url).database
    engine = make_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        engine.dispose()
