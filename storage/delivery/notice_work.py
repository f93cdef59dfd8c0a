"""What the delivery worker records of a notice (see :mod:`storage.delivery.notices`)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from storage.delivery.notices import MOVED, NOTICE, SEED, notice_rows, reach_of
from storage.models import DeliveryChatRow, DeliveryRow, MatchRow
from storage.results import ENDED_STATUSES, MatchStatus
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

    @off_loop
    def ask_full_reveal(self, match_id: int, reader: int) -> list[str] | None:
        """``reader`` asks for the whole seed reveal of an ended match (the button under the
        group's short reveal): a notice to their private chat, written once (a second ask
        while it is on its way, or after it was sent, writes nothing). Returns the chats to
        kick; ``None`` when there is no such ended match."""
        k = self.kernel
        with k.db.write_lock(), k.sessions.begin() as session:
            row = session.get(MatchRow, match_id)
            if row is None or MatchStatus(row.status) not in ENDED_STATUSES:
                return None
            place = f"{NOTICE}{reader}:{SEED}"
            if session.scalar(select(DeliveryRow.id).where(
                    DeliveryRow.match_id == match_id, DeliveryRow.place == place)) is not None:
                return []
            seats = (row.player0_id, row.player1_id)
            seat = seats.index(reader) if reader in seats else None
            return notice_rows(session, k, match_id, [(reader, SEED, seat, {})])

    @off_loop
    def reveal_privately(self, match_id: int) -> list[str]:
        """The seed of a match in a quiet group is revealed to each of its players who
        started the bot, in private (once). Returns the chats to kick."""
        k = self.kernel
        with k.db.write_lock(), k.sessions.begin() as session:
            row = session.get(MatchRow, match_id)
            if row is None:
                return []
            reached, _unreached = reach_of(session, row)
            return notice_rows(session, k, match_id,
                               [(pid, SEED, seat, {}) for seat, pid in reached])
