"""What the delivery worker records of a notice (see :mod:`storage.delivery.notices`)."""

from __future__ import annotations

from typing import Any

from storage.delivery.notices import MOVED, notice_rows, reach_of
from storage.models import DeliveryChatRow, DeliveryRow, MatchRow
from storage.results import MatchStatus
from storage.usecases.kernel import Feature, off_loop

Sent = tuple[list[dict[str, Any]], int]
"""What :meth:`NoticeCases.record_notice_sent` returns: the unknown sends to look for, and
the chat's newest message id (the notice's own)."""


class NoticeCases(Feature):
    """What the delivery worker records of a notice."""

    @off_loop
    def record_notice_sent(self, work_id: int, token: str, *, claim: int,
                           message_id: int) -> Sent | None:
        """A notice was sent: it is delivered (a crash from here on never sends it again),
        its message id is kept (never probed as an orphan), its send is no longer of unknown
        outcome, and the chat's highest message id moves up. ``None`` when the claim was
        taken over meanwhile: the worker deletes the message it sent (the place's claimant
        sends its own), whose unknown-outcome note then points at it exactly."""
        k = self.kernel
        now = k.wall_now()
        with k.db.write_lock(), k.sessions.begin() as session:
            row = session.get(DeliveryRow, work_id, with_for_update=True)
            if row is None or row.chat_id is None:
                return None
            mark = session.get(DeliveryChatRow, row.chat_id)
            if mark is None:
                session.add(DeliveryChatRow(chat_id=row.chat_id, last_message_id=message_id,
                                            updated_at=now))
            elif mark.last_message_id < message_id:
                mark.last_message_id, mark.updated_at = message_id, now
            if row.claim_token != claim:
                row.probes = [{**p, "after": message_id - 1, "tries": 0, "at": now.isoformat()}
                              if p.get("token") == token else p for p in (row.probes or [])]
                return None
            row.probes = [p for p in (row.probes or []) if p.get("token") != token]
            row.shown = max(row.shown, row.version)
            row.notes = [{**(row.notes or [{}])[0], "message_id": message_id}]
            row.updated_at = now
            return list(row.probes), message_id

    @off_loop
    def stranded_told(self, match_id: int) -> list[str]:
        """The group of a match moved out of it was asked to start the bot: each player who
        started it is now told the match goes on in private (once). Returns the chats to
        kick; none when the match is not active any more."""
        k = self.kernel
        with k.db.write_lock(), k.sessions.begin() as session:
            row = session.get(MatchRow, match_id)
            if row is None or row.status != MatchStatus.ACTIVE:
                return []
            reached, _unreached = reach_of(session, row)
            return notice_rows(session, k, match_id,
                               [(pid, MOVED, seat, {}) for seat, pid in reached])
