"""What an operator's probes ask of the database: is it reachable, is its schema at the
newest migration, how much delivery work waits, how many matches are being played.

Read-only and cheap (a few indexed counts), run in :meth:`storage.db.Database.run`'s worker
threads like every use case. Telegram is never asked here: a Telegram outage must not take
every instance out of a load balancer's rotation.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from sqlalchemy import func, select, text
from sqlalchemy.engine import make_url

from storage.db import Database
from storage.models import DeliveryRow, MatchRow
from storage.results import MatchStatus

_head: str | None = None


def head_revision() -> str:
    """The newest migration's revision id: told at start by whoever ran the migrations
    (:func:`know_head`), else read from the migration scripts, once."""
    global _head
    if _head is None:
        from storage.schema import script_head

        _head = script_head()
        if not _head:  # a script the quick reading does not understand: Alembic's own
            from storage.migrate import head

            _head = head()
    return _head


def know_head(revision: str) -> None:
    global _head
    if revision:
        _head = revision


@dataclass(frozen=True)
class Readiness:
    ready: bool
    reason: str
    """``ok``, or what is wrong, for the operator (shown by ``/readyz``)."""


def _sqlite_file(db: Database) -> str | None:
    url = make_url(db.url)
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    return url.database


def _readiness(db: Database, head: str) -> Readiness:
    path = _sqlite_file(db)
    if path is not None and not os.path.exists(path):
        # pooled connections would still answer from the deleted file's inode
        return Readiness(False, f"the database file {path} is missing")
    try:
        with db.engine.connect() as conn:
            found = conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    except Exception as exc:
        return Readiness(False, f"database unreachable: {type(exc).__name__}")
    current = ",".join(sorted(found))
    if current != head:
        return Readiness(False, f"migrations not at head (database {current or 'empty'}, "
                                f"code {head})")
    return Readiness(True, "ok")


async def readiness(db: Database) -> Readiness:
    """Whether this instance can serve: the database answers and is at the newest revision."""
    return await db.run(_readiness, db, head_revision())


@dataclass(frozen=True)
class Gauges:
    delivery_backlog: int
    """Places whose board is behind the database (outbox rows pending)."""
    active_matches: int


def _gauges(db: Database) -> Gauges:
    with db.sessions() as session:
        backlog = session.scalar(
            select(func.count()).select_from(DeliveryRow).where(DeliveryRow.pending.is_(True)))
        active = session.scalar(
            select(func.count()).select_from(MatchRow)
            .where(MatchRow.status == MatchStatus.ACTIVE.value))
    return Gauges(delivery_backlog=int(backlog or 0), active_matches=int(active or 0))


async def gauges(db: Database) -> Gauges:
    return await db.run(_gauges, db)
