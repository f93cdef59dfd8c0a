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

from sqlalchemy import and_, exists, or_, select, update
from sqlalchemy.orm import Session

from storage.matchmaking.policy import PlayPolicy
from storage.models import Player
from storage.play_tables import MatchRequestRow, PlayerBlockRow

WAITING, PAIRED, STARTED, CANCELLED = "waiting", "paired", "started", "cancelled"
PER_LEVEL = 4
"""Candidates read per side and per wider level of the window (the closest ratings first)."""
NEAREST = 16
"""The closest ratings read on each side first (most pairings are found among them)."""


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
          skip_locked: bool, limit: int = PER_LEVEL) -> list[Any]:
    """The nearest candidates above and below ``req``'s rating (two scans of the pool index
    outwards from it, each stopping after :data:`PER_LEVEL` rows), within ``window`` and, for
    a wider level of the window, made before ``older_than``."""
    r = MatchRequestRow
    where = _pool(req)
    if older_than is not None:
        where.append(r.created_at <= older_than)
    up = [r.rating >= req.rating]
    down = [r.rating < req.rating]
    if window is not None:
        up.append(r.rating <= req.rating + window)
        down.append(r.rating >= req.rating - window)
    found = []
    for side, order in ((up, r.rating.asc()), (down, r.rating.desc())):
        stmt = select(r).where(*where, *side).order_by(order).limit(limit)
        found.append(stmt.with_for_update(skip_locked=True) if skip_locked else stmt)
    return found


def _fits(req: MatchRequestRow, c: MatchRequestRow, own: float | None, now: datetime,
          policy: PlayPolicy) -> bool:
    """Whether ``c``'s rating is within the window of whichever of the two waited longer."""
    theirs = policy.window(now - c.created_at)
    if own is None or theirs is None:
        return True
    return abs(c.rating - req.rating) <= max(own, theirs)


def find_partner(session: Session, req: MatchRequestRow, now: datetime, policy: PlayPolicy,
                 *, skip_locked: bool) -> MatchRequestRow | None:
    """The best partner for ``req`` now: among the waiting requests whose rating difference
    is within the window of whichever of the two has waited longer, the closest rating, then
    the oldest. First the :data:`NEAREST` closest ratings on each side (two short index
    scans outwards from ``req``'s rating); only when none of them fits, two scans per wider
    level of the window, for the requests that have waited long enough to have it."""
    own = policy.window(now - req.created_at)
    found: dict[int, MatchRequestRow] = {}
    for stmt in _near(req, None, None, skip_locked, NEAREST):
        for row in session.scalars(stmt):
            if _fits(req, row, own, now, policy):
                found.setdefault(row.id, row)
    if not found and own is not None:
        queries: list[Any] = []
        for waited, window in policy.levels():
            if window is None or window > own:
                queries += _near(req, window, now - waited, skip_locked)
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


class LostClaim(RuntimeError):
    """The request being paired was taken meanwhile (it is locked or serialised, so this is
    a bug): the whole transaction rolls back."""


def claim(session: Session, req: MatchRequestRow, partner: MatchRequestRow,
          now: datetime) -> bool:
    """Both requests from ``waiting`` to ``paired``, each the other's partner: the partner
    first, so that ``False`` (it was taken meanwhile) has written nothing; ``req`` itself is
    the caller's (locked, or just made)."""
    for mine, other in ((partner, req), (req, partner)):
        done = session.execute(
            update(MatchRequestRow)
            .where(MatchRequestRow.id == mine.id, MatchRequestRow.status == WAITING)
            .values(status=PAIRED, paired_at=now, partner_id=other.id)
            .execution_options(synchronize_session=False))
        if done.rowcount != 1:  # type: ignore[attr-defined]
            if mine is partner:
                return False
            raise LostClaim(f"request {req.id} was taken while it was being paired")
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
