"""A play typed in the private chat is played once: its message id orders a player's typed
plays, so a copy Telegram delivers again (the webhook answers only once an update was handled)
is refused with ``already_played`` and changes nothing, whoever's turn it is by then."""

from __future__ import annotations

import asyncio

from rules.portes.notation import format_play
from storage.results import MatchView, Outcome
from storage.usecases import UseCases
from tests.storage.helpers import ALICE, BOB, CAROL, actor_of, new_match


def typed_text(view: MatchView) -> str:
    """A legal play of the player to move, in notation, as a person types it."""
    state = view.state
    assert state.dice is not None
    return format_play(state.position, state.dice, state.legal_plays()[0].moves)


async def until_turn_of(uc: UseCases, view: MatchView, seat: int) -> MatchView:
    """The other player plays (untyped, as the keyboard does) until ``seat`` is to move."""
    while view.to_act != seat:
        assert view.to_act is not None
        mover = actor_of(view, view.to_act)
        done = await uc.play(view.id, mover, view.version, view.state.legal_plays()[0])
        assert done.outcome == Outcome.OK and done.match is not None, done
        view = done.match
    return view


async def test_a_typed_play_delivered_again_is_not_played_twice(uc: UseCases) -> None:
    # Given a match whose player to move types a play (message 100)
    start = (await new_match(uc, length=5)).match
    assert start is not None and start.to_act is not None
    seat = start.to_act
    mover = actor_of(start, seat)
    assert isinstance(mover, int)
    first = await uc.play(start.id, mover, start.version, typed_text(start), typed=100)
    assert first.outcome == Outcome.OK and first.match is not None
    assert await uc.last_typed(mover) == 100
    # When a copy of message 100 comes while the opponent is to move
    copy = await uc.play(start.id, mover, first.match.version, typed_text(start), typed=100)
    # Then it is refused as already played (not "not your turn"), and nothing changes
    assert copy.outcome == Outcome.STALE and copy.code == "already_played"
    assert copy.match is not None and copy.match.version == first.match.version
    # When the turn comes round to them again and the copy (or an older one) comes
    again = await until_turn_of(uc, first.match, seat)
    for old in (100, 99):
        copy = await uc.play(again.id, mover, again.version, typed_text(again), typed=old)
        # Then it is refused too, and the match is as it was
        assert copy.outcome == Outcome.STALE and copy.code == "already_played", copy
        now = (await uc.load_match(again.id)).match
        assert now is not None and now.version == again.version
        assert now.state.to_json() == again.state.to_json()
    assert await uc.last_typed(mover) == 100
    # And a newer typed play is played
    newer = await uc.play(again.id, mover, again.version, typed_text(again), typed=101)
    assert newer.outcome == Outcome.OK and newer.match is not None
    assert newer.match.version > again.version
    assert await uc.last_typed(mover) == 101


async def test_a_refused_typed_play_is_not_recorded(uc: UseCases) -> None:
    # Given a match: the player NOT to move types a play (message 50): refused by the rules
    start = (await new_match(uc, length=5)).match
    assert start is not None and start.to_act is not None
    other = actor_of(start, 1 - start.to_act)
    mover = actor_of(start, start.to_act)
    assert isinstance(other, int) and isinstance(mover, int)
    assert {other, mover} == {ALICE, BOB}
    refused = await uc.play(start.id, other, start.version, typed_text(start), typed=50)
    assert refused.outcome == Outcome.REFUSED
    assert await uc.last_typed(other) is None
    # Nor is a typed play with an unreadable text, and the same message id still counts later
    bad = await uc.play(start.id, mover, start.version, "24/1 1/0", typed=51)
    assert bad.outcome == Outcome.REFUSED
    assert await uc.last_typed(mover) is None
    good = await uc.play(start.id, mover, start.version, typed_text(start), typed=51)
    assert good.outcome == Outcome.OK
    assert await uc.last_typed(mover) == 51


async def alice_to_move_in_two(uc: UseCases) -> tuple[MatchView, MatchView]:
    """Alice against Bob and against Carol, Alice to move in both."""
    first = (await new_match(uc, length=5)).match
    created = await uc.create_challenge(ALICE, length=5, chat_id=-101, group=True)
    assert created.ok and created.challenge is not None
    accepted = await uc.accept_challenge(created.challenge.id, CAROL, mix="cbq-77")
    assert accepted.ok and accepted.match is not None and first is not None
    views = []
    for view in (first, accepted.match):
        views.append(await until_turn_of(uc, view, view.seat_of(ALICE)))  # type: ignore[arg-type]
    return views[0], views[1]


async def test_one_typed_message_racing_into_two_matches_is_played_once(
        uc: UseCases, racers: list[UseCases]) -> None:
    # Given Alice to move in two matches
    m1, m2 = await alice_to_move_in_two(uc)
    # When the same typed message (id 100) reaches both at once (both read no last_typed yet)
    results = await asyncio.gather(
        racers[0].play(m1.id, ALICE, m1.version, typed_text(m1), typed=100),
        racers[1].play(m2.id, ALICE, m2.version, typed_text(m2), typed=100))
    # Then one is played; the other is refused as already played and its match is unchanged
    assert sorted((r.outcome, r.code) for r in results) == [
        (Outcome.OK, None), (Outcome.STALE, "already_played")], results
    unchanged = m2 if results[0].outcome == Outcome.OK else m1
    now = (await uc.load_match(unchanged.id)).match
    assert now is not None and now.version == unchanged.version
    assert await uc.last_typed(ALICE) == 100


async def test_two_copies_racing_into_one_match_are_played_once(
        uc: UseCases, racers: list[UseCases]) -> None:
    # Given Alice to move
    m1, _ = await alice_to_move_in_two(uc)
    # When two copies of her typed message reach the match at once
    results = await asyncio.gather(
        *(r.play(m1.id, ALICE, m1.version, typed_text(m1), typed=100) for r in racers))
    # Then one is played, the other is told it was already played (not "out of date")
    assert sorted((r.outcome, r.code) for r in results) == [
        (Outcome.OK, None), (Outcome.STALE, "already_played")], results
    now = (await uc.load_match(m1.id)).match
    assert now is not None and now.version > m1.version
