"""Throw-away PostgreSQL databases next to an administrator's URL, for the tests and the
benches that run the bot on PostgreSQL (``PORTES_TEST_POSTGRES_URL``)."""

from __future__ import annotations

import re
import uuid
from typing import Any

from sqlalchemy import make_url, text

from storage.db import make_engine, normalise_url
from storage.migrate import upgrade
from storage.schema import script_head

TEMPLATE_LOCK = 0x706F7274  # "port": the advisory lock the template is made and copied under


def create_database(admin_url: str, prefix: str = "portes_t", *, migrated: bool = False) -> str:
    """Create a fresh PostgreSQL database next to ``admin_url``'s; return its URL (any form
    of ``admin_url`` is accepted, e.g. ``postgresql+asyncpg://``; the URL returned is the
    normalised one). ``migrated``: at the newest revision already, a copy of a template
    migrated once per revision (instances started on it read their revision and migrate
    nothing, the way a restart finds its database; starting on a new database, where the
    instances migrate it themselves, is the default)."""
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    engine = make_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            if not migrated:
                conn.execute(text(f'CREATE DATABASE "{name}"'))
            else:
                # one session at a time makes or copies the template: PostgreSQL copies a
                # database nobody else is connected to
                conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": TEMPLATE_LOCK})
                try:
                    template = _template(admin_url, conn)
                    conn.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{template}"'))
                finally:
                    conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": TEMPLATE_LOCK})
    finally:
        engine.dispose()
    return _url(admin_url, name)


def _url(admin_url: str, name: str) -> str:
    return make_url(normalise_url(admin_url)).set(database=name).render_as_string(
        hide_password=False)


def _template(admin_url: str, conn: Any) -> str:
    """The template at the scripts' newest revision (made here if missing; one per revision,
    so a template left by an older checkout is never used)."""
    head = re.sub(r"[^0-9A-Za-z]", "_", script_head() or "unknown")
    name = f"portes_template_{head}"
    made = conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :n AND NOT datallowconn"),
                        {"n": name}).first()
    if made is None:  # missing, or left half made by a killed run: made again
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
        upgrade(_url(admin_url, name))
        # nobody connects to it any more (a copy needs that), and it is known to be whole
        conn.execute(text(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS false'))
    return name


def drop_database(admin_url: str, url: str) -> None:
    name = make_url(url).database
    engine = make_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        engine.dispose()
