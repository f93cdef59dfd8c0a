"""The outbox notices of matchmaking, the ladders and vacations: rows of ``deliveries`` like
a match's end notices (:mod:`storage.delivery.notices`), each about one match, written in
the transaction of the action that causes it and sent by the delivery worker. Their places
carry a tag (``note:<chat>:<kind>:<tag>``: a vacation's id, a ladder day) so a second
vacation in the same match, or the next day's ladder card, is a notice of its own."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from storage.delivery.notices import NOTICE
from storage.delivery.outbox import Where, outbox_row
from storage.models import DeliveryRow, MatchRow

if TYPE_CHECKING:
    from storage.usecases.kernel import Kernel

VACATION, LADDER = "vacation", "ladder"


def tagged_notices(session: Session, kernel: Kernel, match_id: int,
                   notices: list[tuple[int, str, str, int | None, dict[str, Any]]]) -> list[str]:
    """Write each ``(chat id, kind, tag, reader's seat or none for a group, what else it
    says)`` about ``match_id`` once; the chats to kick."""
    if not notices:
        return []
    now = kernel.wall_now()
    version = session.scalar(select(MatchRow.version).where(MatchRow.id == match_id)) or 0
    claimant = kernel.own_claim.at(now)
    rows = [outbox_row(Where(f"{NOTICE}{chat_id}:{kind}:{tag}", str(chat_id), chat_id, None,
                             seat, repost=False, media=False),
                       match_id, version, now, [{"k": "notice", "kind": kind, **args}], claimant)
            for chat_id, kind, tag, seat, args in notices]
    stmt = kernel.insert(DeliveryRow).on_conflict_do_nothing(
        index_elements=[DeliveryRow.match_id, DeliveryRow.place])
    session.connection().execute(stmt, rows)
    return sorted({str(chat_id) for chat_id, *_ in notices})
