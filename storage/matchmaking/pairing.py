"""Finding a waiting partner for one request and claiming the pair, inside one transaction.

The claim: the request's own row and the partner's are locked ``FOR UPDATE SKIP LOCKED`` on
PostgreSQL (a row another instance is pairing is skipped, never waited for, so two instances
never deadlock and never take the same row), both players' rows ``FOR NO KEY UPDATE SKIP
LOCKED`` (a player is in at most one pairing being made at any moment), then each request goes
from ``waiting`` to ``paired`` with a conditional update that must change exactly one row. On
SQLite the database's writes are serialised (``Database.write_lock``) and the conditional
updates alone decide.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, exists, func, or_, select, update
from sqlalchemy.orm import Session

from storage.matchmaking.policy import PlayPolicy
from storage.models import Player
from storage.play_tables import MatchRequestRow, PlayerBlockRow

WAITING, PAIRED, STARTED, CANCELLED = "waiting", "paired", "started", "cancelled"
PER_LEVEL = 4
"""Candidates read per window level (the closest ratings first)."""


def _pool(req: MatchRequestRow) -> list[Any]:
    """The conditions every partner of ``req`` meets: waiting, same game and time per move,
    a compatible length, another player, and no block either way."""
    r = MatchRequestRow
    blocked = exists().where(or_(
        and_(PlayerBlockRow.player_id == req.player_id, PlayerBlockRow.blocked_id == r.player_id),
        and_(PlayerBlockRow.player_id == r.player_id, PlayerBlockRow.blocked_id == req.player_id),
    ))
    length = [] if req.length is None else [or_(r.length.is_(None), r.length == req.length)]
    return [r.status == WAITING, r.game_type == req.game_type,
            r.move_seconds == req.move_seconds, r.player_id != req.player_id, *length,
            ~blocked]


def _near(req: MatchRequestRow, window: float | None, older_than: datetime | None,
          skip_locked: bool) -> Any:
    r = MatchRequestRow
    where = _pool(req)
    if window is not None:
        where.append(r.rating.between(req.rating - window, req.rating + window))
    if older_than is not None:
        where.append(r.created_at <= older_than)
    stmt = (select(r).where(*where)
            .order_by(func.abs(r.rating - req.rating), r.created_at, r.id).limit(PER_LEVEL))
    return stmt.with_for_update(skip_locked=True) if skip_locked else stmt


def find_partner(session: Session, req: MatchRequestRow, now: datetime, policy: PlayPolicy,
                 *, skip_locked: bool) -> MatchRequestRow | None:
    """The best partner for ``req`` now: among the waiting requests whose rating difference
    is within the window of whichever of the two has waited longer, the closest rating, then
    the oldest. One indexed query for ``req``'s own window, and one per wider level of the
    window for the requests that have waited long enough to have it."""
    own = policy.window(now - req.created_at)
    queries = [_near(req, own, None, skip_locked)]
    if own is not None:
        for waited, window in policy.levels():
            if window is None or window > own:
                queries.append(_near(req, window, now - waited, skip_locked))
    found: dict[int, MatchRequestRow] = {}
    for stmt in queries:
        for row in session.scalars(stmt):
            found.setdefault(row.id, row)
    if not found:
        return None
    return min(found.values(), key=lambda c: (abs(c.rating - req.rating), c.created_at, c.id))


def lock_players(session: Session, ids: tuple[int, int], skip_locked: bool) -> bool:
    """Both players locked for this pairing (PostgreSQL: skipped when another pairing holds
    one of them); ``False``: try later."""
    stmt = select(Player.id).where(Player.id.in_(ids)).order_by(Player.id)
    if skip_locked:
        stmt = stmt.with_for_update(key_share=True, skip_locked=True)
    return len(list(session.scalars(stmt))) == 2


def claim(session: Session, req: MatchRequestRow, partner: MatchRequestRow,
          now: datetime) -> bool:
    """Both requests from ``waiting`` to ``paired``, each the other's partner; ``False``
    when either was taken meanwhile (the caller rolls back)."""
    for mine, other in ((req, partner), (partner, req)):
        done = session.execute(
            update(MatchRequestRow)
            .where(MatchRequestRow.id == mine.id, MatchRequestRow.status == WAITING)
            .values(status=PAIRED, paired_at=now, partner_id=other.id)
            .execution_options(synchronize_session=False))
        if done.rowcount != 1:  # type: ignore[attr-defined]
            return False
    return True


def stuck(now: datetime, policy: PlayPolicy) -> Any:
    """The pairings whose challenge was never made (their instance died): waiting again."""
    return (update(MatchRequestRow)
            .where(MatchRequestRow.status == PAIRED, MatchRequestRow.challenge_id.is_(None),
                   MatchRequestRow.paired_at < now - policy.stuck_after)
            .values(status=WAITING, paired_at=None, partner_id=None)
            .execution_options(synchronize_session=False))


def waited(now: datetime, req: MatchRequestRow) -> timedelta:
    return now - req.created_at
