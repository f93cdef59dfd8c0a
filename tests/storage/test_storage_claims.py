"""Delivery claims are fenced (issue 14): every claim of a place raises its token, and a worker
whose lease ran out while another took the place over can no longer send, record, complete,
reschedule, give up or retire anything there. A checker chosen is asked of the place only
while its keyboard is still current, and done once a board drawn with it is shown."""

from __future__ import annotations

from sqlalchemy import select

from storage.db import Database
from storage.models import DeliveryChatRow, DeliveryRow
from storage.usecases import DeliveryWork, UseCases
from tests.storage.helpers import new_match

GROUP = "-100"


def place(db: Database, work_id: int) -> DeliveryRow:
    with db.sessions() as session:
        row = session.get(DeliveryRow, work_id)
        assert row is not None
        session.expunge(row)
        return row


async def taken_over(uc: UseCases) -> tuple[DeliveryWork, DeliveryWork]:
    """A group board claimed by a worker whose lease ran out at once, then by another."""
    await new_match(uc)
    [stale] = await uc.delivery.claim_deliveries("stale", chat_key=GROUP, lease=0.0)
    [fresh] = await uc.delivery.claim_deliveries("fresh", chat_key=GROUP)
    assert fresh.id == stale.id and fresh.claim > stale.claim
    return stale, fresh


async def test_a_stale_claimant_cannot_send_complete_reschedule_or_give_up(
        uc: UseCases, db: Database) -> None:
    # Given a place taken over from a worker whose lease ran out
    stale, fresh = await taken_over(uc)
    # Then the stale worker may not send, renew, complete, reschedule or give up there
    assert await uc.delivery.mark_sending(stale.id, claim=stale.claim, caption="x",
                                          markup=None) is None
    assert await uc.delivery.renew_claim(stale.id, claim=stale.claim, lease=10) is False
    assert await uc.delivery.complete_delivery(stale.id, claim=stale.claim,
                                      version=stale.version) is False
    await uc.delivery.reschedule_delivery(stale.id, claim=stale.claim, delay=60, error="late")
    await uc.delivery.give_up_delivery(stale.id, claim=stale.claim, error="late")
    row = place(db, fresh.id)
    assert row.pending and row.shown == 0 and row.attempts == 0 and row.last_error is None
    assert row.claimed_by == "fresh" and row.probes in (None, [])
    # while the new claimant's own calls go through
    assert await uc.delivery.renew_claim(fresh.id, claim=fresh.claim, lease=10) is True
    token = await uc.delivery.mark_sending(fresh.id, claim=fresh.claim, caption="board",
                                           markup=None)
    assert token is not None
    assert await uc.delivery.record_sent(fresh.id, token, claim=fresh.claim, message_id=7,
                                version=fresh.version) == ([], [], 7)
    assert await uc.delivery.complete_delivery(fresh.id, claim=fresh.claim,
                                      version=fresh.version) is False


async def test_a_board_posted_by_a_stale_claimant_is_not_recorded_but_looked_for(
        uc: UseCases, db: Database) -> None:
    # Given a worker that began its send, then lost the place while the send was slow
    await new_match(uc)
    [stale] = await uc.delivery.claim_deliveries("stale", chat_key=GROUP, lease=0.0)
    slow = await uc.delivery.mark_sending(stale.id, claim=stale.claim, caption="old", markup=None,
                                 lease=0.0)
    assert slow is not None
    [fresh] = await uc.delivery.claim_deliveries("fresh", chat_key=GROUP)
    # When the new claimant posts its board (10), then the stale send lands (11)
    token = await uc.delivery.mark_sending(fresh.id, claim=fresh.claim, caption="new", markup=None)
    assert token is not None
    recorded = await uc.delivery.record_sent(fresh.id, token, claim=fresh.claim, message_id=10,
                                    version=fresh.version)
    assert recorded is not None and recorded[0] == []
    assert await uc.delivery.record_sent(stale.id, slow, claim=stale.claim, message_id=11,
                                version=stale.version) is None
    # Then the place's only live board is the new claimant's: the stale one retires nothing
    # and gets no board recorded
    assert [b.message_id for b in await uc.board_messages(fresh.match_id)] == [10]
    # and its message is looked for right where it is (a stale worker that crashed before
    # deleting it leaves it to whoever holds the place next)
    assert await uc.delivery.complete_delivery(fresh.id, claim=fresh.claim,
                                      version=fresh.version) is True
    row = place(db, fresh.id)
    [probe] = row.probes or []
    assert probe["token"] == slow and probe["after"] == 10 and probe["caption"] == "old"
    with db.sessions() as session:
        assert session.scalar(select(DeliveryChatRow.last_message_id)) == 11
    assert row.pending and row.claimed_by is None


async def test_a_stale_claimant_gets_no_old_boards_to_retire(uc: UseCases) -> None:
    # Given a group board delivered (7), then posted again (a reminder)
    await new_match(uc)
    [first] = await uc.delivery.claim_deliveries("w", chat_key=GROUP)
    token = await uc.delivery.mark_sending(first.id, claim=first.claim, caption="b", markup=None)
    assert token is not None
    await uc.delivery.record_sent(first.id, token, claim=first.claim, message_id=7,
                         version=first.version)
    await uc.delivery.complete_delivery(first.id, claim=first.claim, version=first.version)
    assert await uc.delivery.redeliver(first.match_id, seat=None, shared=True) == [GROUP]
    # When its worker's lease runs out mid-send and another takes the place over
    [stale] = await uc.delivery.claim_deliveries("stale", chat_key=GROUP, lease=0.0)
    slow = await uc.delivery.mark_sending(stale.id, claim=stale.claim, caption="s", markup=None,
                                 lease=0.0)
    assert slow is not None
    [fresh] = await uc.delivery.claim_deliveries("fresh", chat_key=GROUP)
    assert [b.message_id for b in fresh.boards] == [7]
    token = await uc.delivery.mark_sending(fresh.id, claim=fresh.claim, caption="f", markup=None)
    assert token is not None
    recorded = await uc.delivery.record_sent(fresh.id, token, claim=fresh.claim, message_id=8,
                                    version=fresh.version)
    # Then the new claimant is told to retire the old board, the stale one nothing (and it
    # cannot renew its claim to delete anything)
    assert recorded is not None and [b.message_id for b in recorded[0]] == [7]
    assert await uc.delivery.record_sent(stale.id, slow, claim=stale.claim, message_id=9,
                                version=stale.version) is None
    assert await uc.delivery.renew_claim(stale.id, claim=stale.claim, lease=10) is False
    live = await uc.board_messages(fresh.match_id)
    assert sorted(b.message_id for b in live) == [7, 8]


async def test_an_action_taking_a_lapsed_claim_fences_its_worker(uc: UseCases) -> None:
    # Given a group board whose worker's lease ran out
    accepted = await new_match(uc)
    mv = accepted.match
    assert mv is not None and mv.to_act is not None
    [stale] = await uc.delivery.claim_deliveries("stale", chat_key=GROUP, lease=0.0)
    # When a step committed by another process writes the place claimed by its worker
    uc.delivery.deliver_own_actions("here", lease=30.0)
    player = mv.seats[mv.to_act].player
    assert player is not None
    first, second = mv.state.legal_plays()[0].moves[:2]
    res = await uc.steps(mv.id, player.id, mv.version, (first,))
    assert res.ok and res.match is not None, res
    # Then the old worker is fenced off, and the new one holds the place without a claim
    assert await uc.delivery.complete_delivery(stale.id, claim=stale.claim,
                                      version=stale.version) is False
    [mine] = await uc.delivery.claim_deliveries("here", chat_key=GROUP)
    assert mine.claim > stale.claim and mine.version == res.match.version
    # and a further step of the same process leaves its worker's token as it was (its
    # delivery in progress goes on, and finds the newer version still to show)
    again = await uc.steps(mv.id, player.id, res.match.version, (second,))
    assert again.ok, again
    assert await uc.delivery.complete_delivery(mine.id, claim=mine.claim,
                                               version=mine.version) is True


async def test_releasing_a_dead_workers_claims_fences_it(uc: UseCases) -> None:
    await new_match(uc)
    [work] = await uc.delivery.claim_deliveries("host:1:1", chat_key=GROUP)
    assert await uc.delivery.release_claims("host:1:1") == 1
    assert await uc.delivery.renew_claim(work.id, claim=work.claim, lease=10) is False


async def test_a_checker_chosen_is_asked_of_the_place_and_done_once_its_board_shows_it(
        uc: UseCases, db: Database) -> None:
    # Given a group board delivered as message 7, and the worker of this process
    accepted = await new_match(uc)
    mv = accepted.match
    assert mv is not None
    uc.delivery.deliver_own_actions("mine", 10.0)
    [work] = await uc.delivery.claim_deliveries("w", chat_key=GROUP)
    # While another worker holds the place, a checker chosen is asked all the same: it
    # follows that worker's work (the place is not taken from it)
    asked = await uc.delivery.ask_keyboard(mv.id, version=mv.version, chat_id=-100, selected=13)
    assert asked is not None and asked.busy and asked.live is None and asked.repost
    assert place(db, work.id).claimed_by == "w"
    token = await uc.delivery.mark_sending(work.id, claim=work.claim, caption="b", markup=None)
    assert token is not None
    await uc.delivery.record_sent(work.id, token, claim=work.claim, message_id=7,
                                  version=mv.version)
    # that worker drew its board before the choice: the choice is still to show
    assert await uc.delivery.complete_delivery(work.id, claim=work.claim, version=mv.version,
                                      drawn=(None, mv.version)) is True
    [again] = await uc.delivery.claim_deliveries("w", chat_key=GROUP)
    assert (again.selected, again.keyboard_asked, again.boards[-1].message_id) == (13, True, 7)
    assert await uc.delivery.complete_delivery(again.id, claim=again.claim, version=mv.version,
                                      drawn=again.choice) is False
    assert place(db, again.id).keyboard_asked is False
    # Then a keyboard drawn from another version, or in a chat without a board, is refused
    assert await uc.delivery.ask_keyboard(mv.id, version=mv.version - 1, chat_id=-100,
                                 selected=8) is None
    assert await uc.delivery.ask_keyboard(mv.id, version=mv.version, chat_id=-5, selected=8) is None
    # and back to the list on the free place claims it for this process's worker
    back = await uc.delivery.ask_keyboard(mv.id, version=mv.version, chat_id=-100, selected=None)
    assert back is not None and not back.busy and back.live == 7 and not back.repost
    row = place(db, again.id)
    assert (row.claimed_by, row.selected, row.keyboard_asked) == ("mine", None, True)
    [mine] = await uc.delivery.claim_deliveries("mine", chat_key=GROUP)
    assert mine.claim == row.claim_token and mine.selected is None
    # When an action commits meanwhile, the choice means nothing any more: the place shows
    # the new version and is done with it
    player = mv.seats[mv.to_act or 0].player
    assert player is not None
    assert (await uc.resign_match(mv.id, player.id)).ok
    [after] = [w for w in await uc.delivery.claim_deliveries("mine", chat_key=GROUP)
               if w.notice is None]  # the board's place; beside it, the seed revealed
    assert after.version > mv.version and after.selected is None
    await uc.delivery.complete_delivery(after.id, claim=after.claim, version=after.version,
                               drawn=after.choice)
    assert place(db, after.id).keyboard_asked is False
