"""Finished matches of a player, most recent first (for reviewing them later). Read-only.

The query is the use case :meth:`storage.usecases.UseCases.finished_matches`; this function
keeps the older call ``finished_matches(uc, user_id)`` working."""

from __future__ import annotations

from storage.results import MatchSummary
from storage.usecases import UseCases
from storage.usecases.reading import REVIEWABLE

__all__ = ["REVIEWABLE", "finished_matches"]


async def finished_matches(uc: UseCases, user_id: int, limit: int = 10) -> list[MatchSummary]:
    """The player's finished (or abandoned) matches, the most recently ended first."""
    return await uc.finished_matches(user_id, limit)
