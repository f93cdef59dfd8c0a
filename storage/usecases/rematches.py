"""Rematches: who may open one, and when (see ``ChallengeCases.create_challenge``'s
``rematch_of``). The unique ``challenges.rematch_of`` column makes "at most one per match" hold
even when taps race on several instances; this check gives the clear answer first."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from storage.models import ChallengeRow, MatchRow
from storage.ratings import deleted_player
from storage.results import MatchStatus
from storage.usecases.rows import storable_id

REMATCHABLE = (MatchStatus.FINISHED.value, MatchStatus.ABANDONED.value)
"""Matches played to an end (by score, resignation or timeout); not cancelled or expired ones."""


@dataclass(frozen=True)
class RematchRefused:
    code: str
    message: str
    existing: ChallengeRow | None = None
    """The rematch already opened, for ``rematch_exists``."""


def rematch_refusal(session: Session, match_id: int, author_id: int) -> RematchRefused | None:
    """Why ``author_id`` cannot open a rematch of ``match_id``, or ``None`` when they can."""
    old = session.get(MatchRow, match_id) if storable_id(match_id) else None
    if old is None or author_id not in (old.player0_id, old.player1_id):
        return RematchRefused("not_a_player", "You are not playing in this match.")
    if old.status not in REMATCHABLE:
        return RematchRefused("not_finished", "Rematch is for finished matches.")
    if any(seat is not None and deleted_player(seat) for seat in (old.player0_id, old.player1_id)):
        return RematchRefused("opponent_deleted",
                              "Your opponent deleted their data: no rematch with them.")
    existing = session.scalar(select(ChallengeRow).where(ChallengeRow.rematch_of == match_id))
    if existing is not None:
        return RematchRefused(
            "rematch_exists", "A rematch of this match has already been offered.", existing
        )
    return None
