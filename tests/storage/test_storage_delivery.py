"""The outbox and the delivery worker's use cases: what each place should show is written with
the action, claims are exclusive across instances, reconciling queues only what differs."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import delete

from storage.db import Database
from storage.models import DeliveryRow
from storage.results import MatchView
from storage.usecases import UseCases
from tests.storage.helpers import ALICE, BOB, new_match, players, posted

GROUP = "-100"


async def test_an_action_writes_what_its_group_should_show(uc: UseCases) -> None:
    # Given a match just accepted in a group
    accepted = await new_match(uc)
    assert accepted.match is not None
    # Then its group board is due: a new message (neither player started the bot: the mover
    # plays on the group's board, mentioned in a new message) and a new image
    [work] = await uc.delivery.claim_deliveries("w", chat_key=GROUP)
    assert work.version == accepted.match.version
    assert work.repost and work.media
    assert work.chat_id == -100 and work.for_seat is None
    # When it is delivered, nothing is left to do
    token = await uc.delivery.mark_sending(work.id, claim=work.claim, caption="board", markup=None)
    older, probes, _top = await uc.delivery.record_sent(work.id, token, claim=work.claim,
                                                        message_id=7,
                                               version=work.version)
    assert older == [] and probes == []
    assert await uc.delivery.complete_delivery(work.id, claim=work.claim,
                                               version=work.version) is False
    assert await uc.delivery.claim_deliveries("w", chat_key=GROUP) == []
    assert await uc.delivery.reconcile_deliveries() == []


async def test_a_player_who_started_the_bot_plays_a_group_match_on_a_private_board(
        uc: UseCases) -> None:
    # Given both players started the bot, and a match accepted in a group
    await players(uc)
    for who in (ALICE, BOB):
        await uc.set_can_message(who, True)
    accepted = await new_match(uc)
    mv = accepted.match
    assert mv is not None and mv.to_act is not None
    mover = mv.seats[mv.to_act].player
    assert mover is not None
    # Then the group's board is due as an image, and the mover gets a new private board
    [group] = await uc.delivery.claim_deliveries("w", chat_key=GROUP)
    assert group.media and not group.repost
    [private] = await uc.delivery.claim_deliveries("w", chat_key=str(mover.id))
    assert private.repost and private.for_seat == mv.to_act
    for work in (group, private):
        await uc.delivery.complete_delivery(work.id, claim=work.claim, version=work.version)
    # When the mover takes a step inside the turn
    seat = mv.to_act
    step = next(iter(mv.state.legal_plays()[0].moves))
    res = await uc.steps(mv.id, mover.id, mv.version, (step,))
    assert res.ok, res
    # Then only the mover's private board changes, its picture too (it shows the move): the
    # group's budget is not spent on taps
    assert await uc.delivery.claim_deliveries("w", chat_key=GROUP) == []
    [tap] = await uc.delivery.claim_deliveries("w", chat_key=str(mover.id))
    assert not tap.repost and tap.media and tap.for_seat == seat


async def test_requests_coalesce_until_delivered(uc: UseCases) -> None:
    # Given a match whose first board is claimed but not yet delivered
    accepted = await new_match(uc)
    mv = accepted.match
    assert mv is not None
    [work] = await uc.delivery.claim_deliveries("w", chat_key=GROUP)
    # When the worker delivers an older version than the row now asks for
    await uc.delivery.mark_sending(work.id, claim=work.claim, caption="board", markup=None)
    loaded = (await uc.load_match(mv.id)).match
    assert loaded is not None
    left = await uc.delivery.complete_delivery(work.id, claim=work.claim, version=work.version - 1)
    # Then the new message is still asked for
    assert left is True
    [again] = await uc.delivery.claim_deliveries("w2", chat_key=GROUP)
    assert again.repost and again.version == work.version


async def test_a_place_is_claimed_by_one_instance_only(uc: UseCases, db_url: str) -> None:
    # Given a board due in a group, and three instances on the same database
    await new_match(uc)
    dbs = [Database.from_url(db_url) for _ in range(3)]
    try:
        workers = [UseCases(d) for d in dbs]
        # When they all claim at once
        claims = await asyncio.gather(*(
            w.delivery.claim_deliveries(f"w{i}", chat_key=GROUP) for i, w in enumerate(workers)))
        # Then exactly one gets it; the others get it only after the lease ran out
        assert sorted(len(c) for c in claims) == [0, 0, 1]
        for w in workers:
            assert await w.delivery.claim_deliveries("late", chat_key=GROUP) == []
    finally:
        for d in dbs:
            await d.dispose()


async def test_an_expired_claim_is_taken_over(uc: UseCases) -> None:
    # Given a claim whose worker died (its lease is over at once)
    await new_match(uc)
    [work] = await uc.delivery.claim_deliveries("dead", chat_key=GROUP, lease=0.0)
    # Then another worker takes the place over
    [again] = await uc.delivery.claim_deliveries("alive", chat_key=GROUP)
    assert again.id == work.id and again.repost


async def test_reconcile_queues_a_place_whose_board_is_missing(uc: UseCases) -> None:
    # Given a delivered board that was then lost (forgotten: a user deleted it)
    accepted = await new_match(uc)
    assert accepted.match is not None
    [work] = await uc.delivery.claim_deliveries("w", chat_key=GROUP)
    token = await uc.delivery.mark_sending(work.id, claim=work.claim, caption="board", markup=None)
    await uc.delivery.record_sent(work.id, token, claim=work.claim, message_id=7,
                                  version=work.version)
    await uc.delivery.complete_delivery(work.id, claim=work.claim, version=work.version)
    [board] = await uc.board_messages(accepted.match.id)
    await uc.forget_board_message(board.id)
    # When reconciling, then the group gets a new board
    assert await uc.delivery.reconcile_deliveries() == [GROUP]
    [again] = await uc.delivery.claim_deliveries("w", chat_key=GROUP)
    assert again.repost


async def test_a_migrated_group_gets_its_board_in_the_new_chat(uc: UseCases) -> None:
    await new_match(uc)
    await uc.migrate_chat(-100, -1009)
    assert await uc.delivery.claim_deliveries("w", chat_key=GROUP) == []
    [work] = await uc.delivery.claim_deliveries("w", chat_key="-1009")
    assert work.chat_id == -1009 and work.repost


async def test_a_board_from_before_the_outbox_is_taken_as_delivered(uc: UseCases) -> None:
    # Given an active match whose board is live but has no outbox row (from before the outbox)
    accepted = await new_match(uc)
    mv = accepted.match
    assert mv is not None
    await posted(uc, GROUP, 5)
    with uc.db.sessions.begin() as session:
        session.execute(delete(DeliveryRow))
    # When reconciling, then nothing is posted again
    assert await uc.delivery.reconcile_deliveries() == []
    assert await uc.delivery.claim_deliveries("w", chat_key=GROUP) == []


async def test_the_claims_of_a_dead_worker_are_released(uc: UseCases) -> None:
    await new_match(uc)
    [work] = await uc.delivery.claim_deliveries("host:1:1", chat_key=GROUP)
    assert await uc.delivery.claimants() == ["host:1:1"]
    assert await uc.delivery.release_claims("host:1:1") == 1
    [again] = await uc.delivery.claim_deliveries("host:2:1", chat_key=GROUP)
    assert again.id == work.id


async def test_an_action_committed_here_is_written_claimed_by_this_worker(
        uc: UseCases) -> None:
    # Given this process's worker delivers its own actions
    uc.delivery.deliver_own_actions("here", lease=30.0)
    accepted = await new_match(uc)
    assert accepted.match is not None
    # Then another instance's worker cannot take the board the accept asked for
    assert await uc.delivery.claim_deliveries("there", chat_key=GROUP) == []
    assert await uc.delivery.due_chats() == []
    # and this worker gets it without claiming it again
    [work] = await uc.delivery.claim_deliveries("here", chat_key=GROUP)
    assert work.repost and work.version == accepted.match.version
    # When another worker holds a place, a new action leaves it theirs
    await uc.delivery.complete_delivery(work.id, claim=work.claim,
                                        version=work.version - 1)  # still pending
    uc.delivery.deliver_own_actions("elsewhere", lease=30.0)
    [theirs] = await uc.delivery.claim_deliveries("there", chat_key=GROUP)
    mv = accepted.match
    seat = mv.to_act
    assert seat is not None
    player = mv.seats[seat].player
    assert player is not None
    res = await uc.resign_match(mv.id, player.id)
    assert res.ok, res
    # (the end's new place, the seed revealed in the group, is the new worker's)
    assert [w.place for w in await uc.delivery.claim_deliveries("elsewhere", chat_key=GROUP)] == [
        "note:-100:reveal"]
    assert theirs.id == work.id


async def first_board_delivered(uc: UseCases) -> tuple[MatchView, list[dict[str, Any]]]:
    """A group match whose first board was delivered: the match, and the lines its caption
    said (the dice line)."""
    accepted = await new_match(uc)
    mv = accepted.match
    assert mv is not None
    [work] = await uc.delivery.claim_deliveries("w", chat_key=GROUP)
    said = list(work.notes)
    assert said
    await uc.delivery.complete_delivery(work.id, claim=work.claim, version=work.version,
                                        notes=work.notes)
    return mv, said


async def test_a_reminder_while_the_one_before_is_on_its_way_is_posted_too(
        uc: UseCases) -> None:
    # Given a group match whose board is being posted again with a reminder (claimed, sent)
    mv, said = await first_board_delivered(uc)
    remind = {"k": "remind", "seat": mv.to_act, "waited_s": 1800}
    await uc.delivery.redeliver(mv.id, seat=None, shared=True, notes=[remind])
    [first] = await uc.delivery.claim_deliveries("w", chat_key=GROUP)
    assert list(first.notes) == [*said, remind]
    # When the last warning asks for it again at the same version before that one is done
    last = {**remind, "waited_s": 3240, "last": True}
    await uc.delivery.redeliver(mv.id, seat=None, shared=True, notes=[last])
    # Then completing the first leaves work: the board goes again, with the last warning
    assert await uc.delivery.complete_delivery(first.id, claim=first.claim,
                                               version=first.version, notes=first.notes)
    [again] = await uc.delivery.claim_deliveries("w", chat_key=GROUP)
    assert again.repost and list(again.notes) == [*said, last]
    assert not await uc.delivery.complete_delivery(again.id, claim=again.claim,
                                                   version=again.version, notes=again.notes)
    assert await uc.delivery.claim_deliveries("w", chat_key=GROUP) == []


async def test_a_reminder_while_the_board_before_is_being_posted_is_posted_too(
        uc: UseCases) -> None:
    # Given a group match whose board is being posted with a reminder (claimed, being sent)
    accepted = await new_match(uc)
    mv = accepted.match
    assert mv is not None
    [work] = await uc.delivery.claim_deliveries("w", chat_key=GROUP)
    said = list(work.notes)
    await uc.delivery.complete_delivery(work.id, claim=work.claim, version=work.version,
                                        notes=work.notes)
    remind = {"k": "remind", "seat": mv.to_act, "waited_s": 1800}
    await uc.delivery.redeliver(mv.id, seat=None, shared=True, notes=[remind])
    [first] = await uc.delivery.claim_deliveries("w", chat_key=GROUP)
    token = await uc.delivery.mark_sending(first.id, claim=first.claim, caption="reminded",
                                           markup=None)
    assert token is not None
    # When the last warning asks for the board again at the same version while it is sent
    last = {**remind, "waited_s": 3240, "last": True}
    await uc.delivery.redeliver(mv.id, seat=None, shared=True, notes=[last])
    # Then the post recorded and completed leaves work: a new board, with the last warning
    assert await uc.delivery.record_sent(first.id, token, claim=first.claim, message_id=9,
                                         version=first.version, notes=first.notes)
    assert await uc.delivery.complete_delivery(first.id, claim=first.claim,
                                               version=first.version, notes=first.notes)
    [again] = await uc.delivery.claim_deliveries("w", chat_key=GROUP)
    assert again.repost and list(again.notes) == [*said, last]
    assert [b.message_id for b in again.boards] == [9]


async def test_a_board_posted_again_keeps_what_it_said_and_adds_the_reminder(
        uc: UseCases) -> None:
    # Given a group match whose first board was delivered with its notes (the dice line)
    mv, said = await first_board_delivered(uc)
    # When a reminder posts it again with its note
    remind = {"k": "remind", "seat": mv.to_act, "waited_s": 43200}
    assert await uc.delivery.redeliver(mv.id, seat=None, shared=True, notes=[remind]) == [GROUP]
    # Then it is a new message saying the same, then the reminder
    [again] = await uc.delivery.claim_deliveries("w", chat_key=GROUP)
    assert again.repost and list(again.notes) == [*said, remind]
    await uc.delivery.complete_delivery(again.id, claim=again.claim, version=again.version)
    # and a later reminder replaces it (never two), while /games brings it back without one
    later = {**remind, "waited_s": 86400}
    await uc.delivery.redeliver(mv.id, seat=None, shared=True, notes=[later])
    [third] = await uc.delivery.claim_deliveries("w", chat_key=GROUP)
    assert list(third.notes) == [*said, later]
    await uc.delivery.complete_delivery(third.id, claim=third.claim, version=third.version)
    await uc.delivery.redeliver(mv.id, seat=None, shared=True)
    [fourth] = await uc.delivery.claim_deliveries("w", chat_key=GROUP)
    assert list(fourth.notes) == said
