"""Notices as outbox rows (issue 22): the end of a match writes, in the ending action's
transaction, the seed's reveal where the match was played and the review to each player who
started the bot; nothing else writes them again; a notice sent is recorded once, fenced."""

from __future__ import annotations

from sqlalchemy import select

from storage.db import Database
from storage.models import DeliveryRow
from storage.usecases import UseCases
from tests.storage.helpers import ALICE, BOB, new_match


def notices(db: Database) -> list[tuple[str, str, int | None]]:
    with db.sessions() as session:
        rows = session.scalars(select(DeliveryRow).where(DeliveryRow.place.like("note:%"))
                               .order_by(DeliveryRow.place))
        return [(r.place, r.chat_key, r.for_seat) for r in rows]


async def test_the_end_of_a_match_writes_its_notices_once(uc: UseCases, db: Database) -> None:
    # Given a group match in which Bob started the bot, Alice did not
    accepted = await new_match(uc)
    mv = accepted.match
    assert mv is not None
    await uc.set_can_message(BOB, True)
    assert notices(db) == []  # nothing to say while it is played
    # When Alice resigns it
    assert (await uc.resign_match(mv.id, ALICE)).ok
    # Then the seed is revealed in the group, and Bob, who can be written to, gets the review
    bob = 1 if mv.seats[1].player and mv.seats[1].player.id == BOB else 0
    assert notices(db) == [("note:-100:reveal", "-100", None),
                           (f"note:{BOB}:review", str(BOB), bob)]
    # and a notice is recorded as sent once, by the claim that holds it
    works = [w for w in await uc.delivery.claim_deliveries("w", chat_key="-100") if w.notice]
    [reveal] = works
    token = await uc.delivery.mark_sending(reveal.id, claim=reveal.claim, caption="seed",
                                           markup=None)
    assert token is not None
    assert await uc.delivery.record_notice_sent(reveal.id, token, claim=reveal.claim + 1,
                                       message_id=9) is None
    assert await uc.delivery.record_notice_sent(reveal.id, token, claim=reveal.claim,
                                       message_id=9) == ([], 9)
    assert await uc.delivery.complete_delivery(reveal.id, claim=reveal.claim,
                                      version=reveal.version) is False
    assert [w for w in await uc.delivery.claim_deliveries("w", chat_key="-100") if w.notice] == []
