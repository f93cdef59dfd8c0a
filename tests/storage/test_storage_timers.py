"""Reminders, turn timeouts and challenge expiry, as rows fired exactly once."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from storage.db import Database
from storage.models import DeliveryRow
from storage.results import ChallengeStatus, MatchStatus, TimerKind, TimerPolicy
from storage.usecases import UseCases
from tests.storage.conftest import FakeClock
from tests.storage.helpers import ALICE, BOB, CAROL, actor_of, new_match, players


async def test_reminders_then_timeout(uc: UseCases, clock: FakeClock) -> None:
    view = (await new_match(uc, length=3)).match
    assert view is not None
    waiting = view.to_act
    started = clock.now
    assert view.turn_deadline == started + timedelta(days=7)
    clock.advance(timedelta(hours=11))
    assert await uc.fire_due_timers() == []
    clock.advance(timedelta(hours=1))
    fired = await uc.fire_due_timers()
    assert [(t.kind, t.seat, t.after) for t in fired] == [
        (TimerKind.REMINDER, waiting, timedelta(hours=12))
    ]
    assert await uc.fire_due_timers() == []
    assert (fired[0].left, fired[0].last) == (timedelta(days=6, hours=12), False)
    clock.advance(timedelta(hours=12))
    assert [t.after for t in await uc.fire_due_timers()] == [timedelta(hours=24)]
    # the last warning at 90 % of the time: 16.8 hours before the loss
    clock.advance(timedelta(hours=151, minutes=12) - timedelta(hours=24))
    fired = await uc.fire_due_timers()
    assert [(t.kind, t.after, t.left, t.last) for t in fired] == [
        (TimerKind.REMINDER, timedelta(hours=151, minutes=12), timedelta(hours=16, minutes=48),
         True)]
    clock.advance(timedelta(hours=16, minutes=48))
    fired = await uc.fire_due_timers()
    assert [t.kind for t in fired] == [TimerKind.TIMEOUT]
    ended = fired[0].match
    assert ended is not None and ended.status == MatchStatus.ABANDONED
    assert ended.state.winner == 1 - waiting and ended.state.end_reason == "timeout"  # type: ignore[operator]
    assert ended.seed_hex is not None and fired[0].events
    clock.advance(timedelta(days=30))
    assert await uc.fire_due_timers() == []  # nothing is left to fire


async def test_acting_resets_the_timers(uc: UseCases, clock: FakeClock) -> None:
    view = (await new_match(uc, length=3)).match
    assert view is not None
    clock.advance(timedelta(hours=6))
    # a single tap does not reset the turn's timers
    actor = actor_of(view, view.state.turn)
    stepped = await uc.step(view.id, actor, view.version, view.state.next_moves()[0])
    assert stepped.match is not None and stepped.match.turn_deadline == view.turn_deadline
    played = await uc.play(view.id, actor, stepped.match.version, view.state.legal_plays()[0])
    assert played.match is not None
    after = played.match
    assert after.turn_deadline == clock.now + timedelta(days=7)
    clock.advance(timedelta(hours=7))  # 13 h after the start, 7 h after the play
    assert await uc.fire_due_timers() == []
    clock.advance(timedelta(hours=5))
    fired = await uc.fire_due_timers()
    assert [(t.kind, t.seat) for t in fired] == [(TimerKind.REMINDER, after.to_act)]


async def test_timer_policy_is_configurable(db: Database, clock: FakeClock) -> None:
    uc = UseCases(
        db,
        clock=clock,
        timers=TimerPolicy(
            reminders=(), turn_timeout=timedelta(hours=1), challenge_ttl=timedelta(minutes=5),
            last_warning=0,
        ),
    )
    view = (await new_match(uc)).match
    assert view is not None and view.turn_deadline == clock.now + timedelta(hours=1)
    clock.advance(timedelta(hours=1))
    assert [t.kind for t in await uc.fire_due_timers()] == [TimerKind.TIMEOUT]


async def test_challenge_expiry(uc: UseCases, clock: FakeClock) -> None:
    await players(uc)
    created = await uc.create_challenge(ALICE, length=1, chat_id=-100, group=True)
    assert created.challenge is not None
    await uc.set_challenge_card(created.challenge.id, chat_id=-100, message_id=55)
    clock.advance(timedelta(hours=24))
    assert (await uc.accept_challenge(created.challenge.id, BOB, mix="late")).code == (
        "challenge_closed"
    )
    fired = await uc.fire_due_timers()
    assert [t.kind for t in fired] == [TimerKind.CHALLENGE_EXPIRY]
    ch = fired[0].challenge
    assert ch is not None and ch.status == ChallengeStatus.EXPIRED and ch.card_message_id == 55
    loaded = await uc.load_match(created.challenge.match_id)
    assert loaded.match is not None and loaded.match.status == MatchStatus.EXPIRED
    assert loaded.match.seed_hex is not None
    assert await uc.fire_due_timers() == []


def expiry_rows(db: Database, match_id: int) -> list[tuple[str, str, bool]]:
    """The outbox rows that edit the match's challenge card to say it expired."""
    with db.sessions() as session:
        return [(r.place, r.chat_key, r.pending) for r in session.scalars(
            select(DeliveryRow).where(DeliveryRow.match_id == match_id,
                                      DeliveryRow.place.like("%:expired%")))]


async def a_group_challenge(uc: UseCases) -> tuple[int, int]:
    """An open challenge in group -100: its id and its match's."""
    await players(uc)
    created = await uc.create_challenge(ALICE, length=1, chat_id=-100, group=True)
    assert created.challenge is not None
    return created.challenge.id, created.challenge.match_id


async def test_a_challenge_expired_before_its_card_was_known_has_its_card_edited(
    uc: UseCases, db: Database, clock: FakeClock
) -> None:
    # Given a challenge whose card is on its way (sent, its message id not stored yet)
    challenge_id, match_id = await a_group_challenge(uc)
    # When it expires meanwhile: there is no card to edit yet
    clock.advance(timedelta(hours=24))
    fired = await uc.fire_due_timers()
    assert [(t.kind, t.chat_keys) for t in fired] == [(TimerKind.CHALLENGE_EXPIRY, ())]
    assert expiry_rows(db, match_id) == []
    # Then the card, once known, is edited to say so (an outbox row for its chat)
    shown = await uc.set_challenge_card(challenge_id, chat_id=-100, message_id=55)
    assert shown.chat_keys == ("-100",)
    assert expiry_rows(db, match_id) == [("note:-100:expired:55", "-100", True)]
    # and only once: the card stored again writes nothing more
    again = await uc.set_challenge_card(challenge_id, chat_id=-100, message_id=55)
    assert again.chat_keys == ()
    assert len(expiry_rows(db, match_id)) == 1


async def test_a_card_known_before_the_expiry_is_edited_by_the_expiry_alone(
    uc: UseCases, db: Database, clock: FakeClock
) -> None:
    challenge_id, match_id = await a_group_challenge(uc)
    shown = await uc.set_challenge_card(challenge_id, chat_id=-100, message_id=55)
    assert shown.chat_keys == ()
    clock.advance(timedelta(hours=24))
    assert [t.chat_keys for t in await uc.fire_due_timers()] == [("-100",)]
    assert expiry_rows(db, match_id) == [("note:-100:expired:55", "-100", True)]


async def test_accepted_challenge_does_not_expire(uc: UseCases, clock: FakeClock) -> None:
    view = (await new_match(uc)).match
    assert view is not None
    clock.advance(timedelta(hours=25))
    kinds = [t.kind for t in await uc.fire_due_timers()]
    assert TimerKind.CHALLENGE_EXPIRY not in kinds


async def test_downtime_is_not_counted_against_the_player(
    uc: UseCases, db: Database, clock: FakeClock
) -> None:
    # Given a match whose mover was waited for 11 h while an instance ran, and an open challenge
    view = (await new_match(uc, length=3)).match
    assert view is not None
    challenge = await uc.create_challenge(CAROL, length=1, chat_id=-100, group=True)
    assert challenge.challenge is not None
    await uc.resume("a", longer_than=timedelta(minutes=1))
    clock.advance(timedelta(hours=11))
    await uc.beat("a")
    # When no instance runs for 8 days (both reminders, the timeout and the expiry fall due)
    clock.advance(timedelta(days=8))
    # Then the instance starting pushes every pending deadline by the downtime, once
    assert await uc.resume("b", longer_than=timedelta(minutes=1)) == timedelta(days=8)
    assert await uc.resume("c", longer_than=timedelta(minutes=1)) is None
    down = timedelta(days=8)
    assert await uc.fire_due_timers() == []
    loaded = await uc.load_match(view.id)
    assert loaded.match is not None and loaded.match.turn_deadline == view.turn_deadline + down  # type: ignore[operator]
    assert (await uc.get_challenge(token=challenge.challenge.token)).status == (  # type: ignore[union-attr]
        ChallengeStatus.OPEN)
    # And the player gets the hour left before the first reminder, and the days before timeout
    clock.advance(timedelta(hours=1))
    fired = await uc.fire_due_timers()
    assert [(t.kind, t.after) for t in fired] == [(TimerKind.REMINDER, timedelta(hours=12))]
    clock.advance(timedelta(hours=12))
    kinds = {t.kind for t in await uc.fire_due_timers()}
    assert kinds == {TimerKind.REMINDER, TimerKind.CHALLENGE_EXPIRY}
    clock.advance(timedelta(days=6))
    assert [(t.kind, t.last) for t in await uc.fire_due_timers()] == [
        (TimerKind.REMINDER, True), (TimerKind.TIMEOUT, False)]


async def test_a_short_restart_or_a_running_instance_pushes_nothing(
    uc: UseCases, clock: FakeClock
) -> None:
    view = (await new_match(uc, length=3)).match
    assert view is not None
    hour = timedelta(hours=1)
    await uc.resume("a", longer_than=hour)
    clock.advance(timedelta(minutes=50))
    assert await uc.resume("b", longer_than=hour) is None
    # instance b beats while instance a is down: time passes for the players
    for _ in range(48):
        clock.advance(timedelta(minutes=30))
        await uc.beat("b")
    assert await uc.resume("a", longer_than=hour) is None
    assert [t.kind for t in await uc.fire_due_timers()] == [TimerKind.REMINDER, TimerKind.REMINDER]


async def test_a_chosen_time_per_move_sets_the_deadline_and_a_reminder_at_half(
        uc: UseCases, clock: FakeClock) -> None:
    # Given a match whose author chose 1 day per move at /new
    view = (await new_match(uc, length=3, move_seconds=24 * 3600)).match
    assert view is not None and view.move_seconds == 24 * 3600
    waiting, started = view.to_act, clock.now
    # Then the deadline is a day away and the one reminder comes at half of it
    assert view.turn_deadline == started + timedelta(days=1)
    clock.advance(timedelta(hours=12) - timedelta(minutes=1))
    assert await uc.fire_due_timers() == []
    clock.advance(timedelta(minutes=1))
    fired = await uc.fire_due_timers()
    assert [(t.kind, t.seat, t.after) for t in fired] == [
        (TimerKind.REMINDER, waiting, timedelta(hours=12))]
    # and the last warning at 90 % of it, 2.4 hours before the loss
    clock.advance(timedelta(hours=9, minutes=35))
    assert await uc.fire_due_timers() == []
    clock.advance(timedelta(minutes=1))
    fired = await uc.fire_due_timers()
    assert [(t.kind, t.left, t.last) for t in fired] == [
        (TimerKind.REMINDER, timedelta(hours=2, minutes=24), True)]
    clock.advance(timedelta(hours=2, minutes=23))
    assert await uc.fire_due_timers() == []
    clock.advance(timedelta(minutes=1))
    fired = await uc.fire_due_timers()
    assert [t.kind for t in fired] == [TimerKind.TIMEOUT]
    assert fired[0].match is not None and fired[0].match.status == MatchStatus.ABANDONED


def test_the_timer_policy_of_a_chosen_time() -> None:
    default = TimerPolicy()
    assert default.for_match(None) is default
    assert default.for_match(7 * 24 * 3600) is default  # the default's own reminders
    hour = default.for_match(3600)
    assert (hour.reminders, hour.turn_timeout) == ((timedelta(minutes=30),), timedelta(hours=1))
    three = default.for_match(3 * 24 * 3600)
    assert three.reminders == (timedelta(hours=12), timedelta(hours=24), timedelta(hours=36))
    assert three.challenge_ttl == default.challenge_ttl
    # every turn ends with a last warning at 90 % of its time, unless a reminder comes as late
    assert hour.schedule() == (timedelta(minutes=30), timedelta(minutes=54))
    assert default.schedule()[-1] == timedelta(days=6, hours=7, minutes=12)
    late = TimerPolicy(reminders=(timedelta(hours=1),), turn_timeout=timedelta(minutes=65))
    assert late.warning is None and late.schedule() == (timedelta(hours=1),)
    assert TimerPolicy(last_warning=0).schedule() == default.reminders
