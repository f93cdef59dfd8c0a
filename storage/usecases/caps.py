"""How many open challenges one player may have (``ChallengeLimits``), checked inside the
transaction that opens a challenge (see ``ChallengeCases.create_challenge``)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from storage.models import ChallengeRow, Player
from storage.results import ChallengeLimits, ChallengeResult, ChallengeStatus, Outcome


def open_challenges(session: Session, author_id: int, now: datetime) -> int:
    """How many open challenges ``author_id`` has now (anywhere)."""
    return session.scalar(select(func.count()).select_from(ChallengeRow).where(
        ChallengeRow.author_id == author_id,
        ChallengeRow.status == ChallengeStatus.OPEN.value,
        ChallengeRow.expires_at > now)) or 0


def over_cap(session: Session, limits: ChallengeLimits, author_id: int, chat_id: int | None,
             now: datetime) -> ChallengeResult | None:
    """The refusal when the author already has as many open challenges as allowed.
    The author's row is locked first (PostgreSQL; SQLite's writes are serialised already),
    so two concurrent requests of one author count one after the other. ``FOR NO KEY UPDATE``,
    not ``FOR UPDATE``: another transaction's challenge naming this player as its target takes
    a key-share lock on the row for its foreign key, and must not wait for this one (two
    players tapping Rematch at once would deadlock)."""
    session.execute(
        select(Player.id).where(Player.id == author_id).with_for_update(key_share=True))
    open_ = select(func.count()).select_from(ChallengeRow).where(
        ChallengeRow.author_id == author_id,
        ChallengeRow.status == ChallengeStatus.OPEN.value,
        ChallengeRow.expires_at > now,
    )
    if limits.overall and (session.scalar(open_) or 0) >= limits.overall:
        return ChallengeResult(
            Outcome.REFUSED, code="too_many_challenges",
            message=f"You already have {limits.overall} open challenges.")
    if chat_id is not None and limits.per_chat and (session.scalar(
            open_.where(ChallengeRow.chat_id == chat_id)) or 0) >= limits.per_chat:
        return ChallengeResult(
            Outcome.REFUSED, code="too_many_challenges_here",
            message=f"You already have {limits.per_chat} open challenges in this chat.")
    return None
