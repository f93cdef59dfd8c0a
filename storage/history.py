"""Finished matches of a player, most recent first (for reviewing them later). Read-only."""

from __future__ import annotations

from sqlalchemy import or_, select

from storage.models import MatchRow
from storage.results import MatchStatus, MatchSummary
from storage.usecases import UseCases

REVIEWABLE = (MatchStatus.FINISHED.value, MatchStatus.ABANDONED.value)


async def finished_matches(uc: UseCases, user_id: int, limit: int = 10) -> list[MatchSummary]:
    """The player's finished (or abandoned) matches, the most recently ended first."""
    return await uc.db.run(_finished_matches, uc, user_id, limit)


def _finished_matches(uc: UseCases, user_id: int, limit: int) -> list[MatchSummary]:
    with uc.db.sync_sessions() as session:
        rows = list(
            session.scalars(
                select(MatchRow)
                .where(
                    MatchRow.status.in_(REVIEWABLE),
                    or_(MatchRow.player0_id == user_id, MatchRow.player1_id == user_id),
                )
                .order_by(MatchRow.finished_at.desc(), MatchRow.id.desc())
                .limit(limit)
            )
        )
        return uc._summaries(session, rows, lambda r: 0 if r.player0_id == user_id else 1)
