"""A competition's card once it starts reaches its group through the outbox, from notices
written in the transaction that links its first match to its pairing (it has no match before
that, and an outbox row is a match's), once per competition (the competition row is locked,
and only the first pairing linked writes them). A league's is a ``standings`` notice: its
sign-up card becomes the standings table. A cup's is a ``bracket`` notice: the delivery worker
says on the sign-up card that the bracket follows, posts the picture and keeps its message id
as the cup's card, which the ``standings`` notices edit from then on; a send of unknown
outcome (a lost answer, a crash) is probed for and its copy deleted, as for every notice
(:mod:`bot.delivery.notices`), so the picture arrives exactly once. A start by the sign-up's
end, whose tick no tap answers, is shown so too."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from storage.delivery.notices import NOTICE, notice_rows
from storage.models import CompetitionGameRow, DeliveryRow
from storage.usecases.competition_views import locked

if TYPE_CHECKING:
    from storage.usecases.kernel import Kernel

BRACKET = "bracket"
STANDINGS = "standings"
"""The competition's card redrawn in place, as the competition is when it is sent."""


def bracket_place(chat_id: int, comp_id: int) -> str:
    return f"{NOTICE}{chat_id}:{BRACKET}-{comp_id}"


def first_match_notices(session: Session, kernel: Kernel, pairing_id: int,
                        match_id: int) -> list[str]:
    """The competition's card shown as started (a league's standings, a cup's bracket), on
    ``match_id``, when its pairing is the competition's first linked to a match; the chats
    to kick."""
    comp_id = session.scalar(select(CompetitionGameRow.competition_id).where(
        CompetitionGameRow.id == pairing_id))
    row = locked(session, kernel, comp_id) if comp_id is not None else None
    if row is None:
        return []
    others = session.scalar(select(func.count()).select_from(CompetitionGameRow).where(
        CompetitionGameRow.competition_id == row.id, CompetitionGameRow.id != pairing_id,
        CompetitionGameRow.match_id.is_not(None)))
    if others:
        return []
    if row.kind != "cup":
        return notice_rows(session, kernel, match_id, [
            (row.chat_id, f"{STANDINGS}-{row.id}-{row.version}", None,
             {"kind": STANDINGS, "comp": row.id, "v": row.version})])
    return notice_rows(session, kernel, match_id, [
        (row.chat_id, f"{BRACKET}-{row.id}", None, {"kind": BRACKET, "comp": row.id})])


def bracket_pending(session: Session, chat_id: int, comp_id: int) -> bool:
    """Whether the cup's bracket is still to be posted (its card is then the sign-up's)."""
    return bool(session.scalar(select(func.count()).select_from(DeliveryRow).where(
        DeliveryRow.place == bracket_place(chat_id, comp_id),
        DeliveryRow.shown < DeliveryRow.version)))
