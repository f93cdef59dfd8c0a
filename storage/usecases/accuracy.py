"""The accuracy figures as use cases: which matches the background job judges next, storing a
match's figures once (and asking the match's end boards to be edited with them, through the
outbox), and reading them for the end card and /stats."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from sqlalchemy import select

from storage.accuracy import AccuracySummary, Figure, of_match, summary, to_judge
from storage.delivery.work import match_places, queue_places
from storage.models import AccuracyRow, MatchRow
from storage.results import ENDED_STATUSES, MatchStatus
from storage.usecases.kernel import Feature, off_loop


class AccuracyCases(Feature):
    """The accuracy figure of finished matches between people."""

    @off_loop
    def matches_to_judge(self, limit: int = 5) -> list[int]:
        with self.kernel.db.engine.connect() as conn:
            return to_judge(conn, limit)

    @off_loop
    def store_accuracy(self, match_id: int, figures: Sequence[tuple[int, float]],
                       evaluator: str) -> list[str]:
        """Keep a match's figures, ``(decisions, equity lost)`` for seat 0 then seat 1, once:
        a second store (another instance got there first) changes nothing. The first one
        asks the match's boards to show them (an edit of the end card, its caption only).
        Returns the chats to kick."""
        k = self.kernel
        now = k.wall_now()
        with k.db.write_lock(), k.sessions.begin() as session:
            # the match's row locked first: two instances that judged it at once store one
            # after the other, and the second finds the first's figures (PostgreSQL; SQLite's
            # writers are one at a time already). FOR NO KEY UPDATE: a delivery recorded
            # meanwhile (its foreign key's KEY SHARE on the match) is not blocked by it, which
            # with FOR UPDATE deadlocked against this transaction's own delivery upsert
            match = session.get(MatchRow, match_id, with_for_update={"key_share": True})
            if match is None or MatchStatus(match.status) not in ENDED_STATUSES:
                return []
            if session.scalar(select(AccuracyRow.match_id).where(
                    AccuracyRow.match_id == match_id).limit(1)) is not None:
                return []
            for seat, (decisions, lost) in enumerate(figures):
                session.add(AccuracyRow(
                    match_id=match_id, seat=seat,
                    player_id=(match.player0_id, match.player1_id)[seat],
                    game=match.game_type, decisions=decisions, equity_lost=lost,
                    evaluator=evaluator[:80], finished_at=match.finished_at, computed_at=now))
            session.flush()
            found = [replace(w, repost=False, media=False, only_live=True)
                     for w in match_places(k, session, match)]
            queue_places(k, session, match_id, match.version, found, now)
            return sorted({w.chat_key for w in found})

    @off_loop
    def match_accuracy(self, match_id: int) -> tuple[Figure, Figure] | None:
        with self.kernel.db.engine.connect() as conn:
            return of_match(conn, match_id)

    @off_loop
    def accuracy_summary(self, player: int, game: str,
                         other: int | None = None) -> AccuracySummary:
        with self.kernel.db.engine.connect() as conn:
            return summary(conn, player, game, other)
