"""The use cases on real databases: challenges, turns, versions, forced plays, resigning."""

from __future__ import annotations

from datetime import timedelta

from rules.match import GameStarted, MatchEnded, Phase, TurnPlayed
from storage.results import COMPUTER, ChallengeStatus, MatchStatus, Outcome
from storage.usecases import UseCases
from tests.storage.conftest import FakeClock
from tests.storage.helpers import ALICE, BOB, CAROL, actor_of, new_match, players, posted


async def test_upsert_player_creates_then_updates(uc: UseCases) -> None:
    created = await uc.upsert_player(ALICE, "Alice", username="alice", language="el")
    assert (created.display_name, created.username, created.can_message) == (
        "Alice",
        "alice",
        False,
    )
    updated = await uc.upsert_player(ALICE, "Αλίκη", username="alice2", can_message=True)
    assert (updated.display_name, updated.username, updated.can_message) == (
        "Αλίκη",
        "alice2",
        True,
    )
    again = await uc.upsert_player(ALICE, "Αλίκη")  # can_message=None leaves it as it was
    assert again.can_message is True
    await uc.set_can_message(ALICE, False)
    player = await uc.get_player(ALICE)
    assert player is not None and player.can_message is False


async def test_notices_are_on_until_turned_off(uc: UseCases) -> None:
    created = await uc.upsert_player(ALICE, "Alice")
    assert created.notices is True
    off = await uc.set_notices(ALICE, False)
    assert off is not None and off.notices is False
    # kept through the updates every message makes, and read with the match
    await uc.upsert_player(ALICE, "Alice B", can_message=True)
    assert (await uc.get_player(ALICE)).notices is False  # type: ignore[union-attr]
    mv = (await new_match(uc)).match
    assert mv is not None and mv.seats[0].player is not None
    assert mv.seats[0].player.notices is False and mv.seats[1].player.notices is True  # type: ignore[union-attr]
    on = await uc.set_notices(ALICE, True)
    assert on is not None and on.notices is True
    assert await uc.set_notices(999, False) is None  # nobody


async def test_upsert_player_without_a_language_keeps_the_stored_one(uc: UseCases) -> None:
    # Given a player who chose Greek, and one who never had a language
    await uc.upsert_player(ALICE, "Alice", language="el")
    fresh = await uc.upsert_player(BOB, "Bob")
    assert fresh.language is None
    # When they are seen again with no language (None or empty)
    again = await uc.upsert_player(ALICE, "Αλίκη", username="alice")
    empty = await uc.upsert_player(ALICE, "Αλίκη", language="")
    # Then the stored language is kept, while the other fields are updated
    assert (again.language, again.display_name, again.username) == ("el", "Αλίκη", "alice")
    assert empty.language == "el"
    stored = await uc.get_player(ALICE)
    assert stored is not None and stored.language == "el"
    # And a language given replaces it
    changed = await uc.upsert_player(ALICE, "Αλίκη", language="en")
    assert changed.language == "en"


async def test_upsert_player_default_language_fills_only_a_missing_one(uc: UseCases) -> None:
    # A new player takes the default (their Telegram language)
    new = await uc.upsert_player(ALICE, "Alice", default_language="el")
    assert new.language == "el"
    # A player with a language keeps it; the default does not overwrite
    kept = await uc.upsert_player(ALICE, "Alice", default_language="en")
    assert kept.language == "el"
    # A player stored without a language gets the default
    await uc.upsert_player(BOB, "Bob")
    filled = await uc.upsert_player(BOB, "Bob", default_language="en")
    assert filled.language == "en"
    # An explicit language wins over the default
    chosen = await uc.upsert_player(ALICE, "Alice", language="en", default_language="el")
    assert chosen.language == "en"


async def test_challenge_shows_commitment_and_hides_seed(uc: UseCases, clock: FakeClock) -> None:
    await players(uc)
    result = await uc.create_challenge(ALICE, length=5, no_triple=True, chat_id=-100, group=True,
                                       thread_id=7)
    assert result.ok and result.challenge is not None
    ch = result.challenge
    assert len(ch.commitment) == 64 and len(ch.token) == 12
    assert (ch.length, ch.no_triple, ch.place.chat_id, ch.place.thread_id) == (5, True, -100, 7)
    assert ch.expires_at == clock.now + timedelta(hours=24)
    assert (await uc.get_challenge(token=ch.token)) == ch
    fair = await uc.fairness(ch.match_id)
    assert fair is not None and fair.seed_hex is None and fair.dice is None
    loaded = await uc.load_match(ch.match_id)
    assert loaded.match is not None and loaded.match.status == MatchStatus.CHALLENGE
    assert loaded.match.seed_hex is None


async def test_bad_length_is_refused(uc: UseCases) -> None:
    result = await uc.create_challenge(ALICE, length=4)
    assert result.outcome == Outcome.REFUSED and result.code == "invalid_action"


async def test_accept_starts_the_match_with_the_opening_roll(uc: UseCases) -> None:
    accepted = await new_match(uc, length=3)
    view = accepted.match
    assert view is not None and view.status == MatchStatus.ACTIVE
    assert view.seats[0].player is not None and view.seats[0].player.id == ALICE
    assert view.seats[1].player is not None and view.seats[1].player.id == BOB
    assert view.mix == "cbq-4242" and view.state.phase == Phase.PLAYING
    assert isinstance(accepted.events[0], GameStarted)
    assert accepted.challenge is not None and accepted.challenge.status == ChallengeStatus.ACCEPTED
    assert view.version == 2 and view.turn_deadline is not None


async def test_who_may_accept(uc: UseCases) -> None:
    await players(uc)
    own = await uc.create_challenge(ALICE, length=1)
    assert own.challenge is not None
    refused = await uc.accept_challenge(own.challenge.id, ALICE, mix="x")
    assert refused.code == "own_challenge"
    targeted = await uc.create_challenge(ALICE, length=1, target_id=BOB)
    assert targeted.challenge is not None
    assert (await uc.accept_challenge(targeted.challenge.id, CAROL, mix="x")).code == "not_for_you"
    assert (await uc.accept_challenge(targeted.challenge.id, BOB, mix="x")).ok
    assert (await uc.accept_challenge(targeted.challenge.id, CAROL, mix="y")).code == (
        "challenge_closed"
    )
    by_name = await uc.create_challenge(ALICE, length=1, target_username="@Carol")
    assert by_name.challenge is not None
    assert (await uc.accept_challenge(by_name.challenge.id, BOB, mix="x")).code == "not_for_you"
    assert (await uc.accept_challenge(by_name.challenge.id, CAROL, mix="x")).ok
    assert (await uc.accept_challenge(999, BOB, mix="x")).outcome == Outcome.NOT_FOUND


async def test_cancel_challenge_by_author_only(uc: UseCases) -> None:
    await players(uc)
    created = await uc.create_challenge(ALICE, length=1)
    assert created.challenge is not None
    cid = created.challenge.id
    assert (await uc.cancel_challenge(cid, BOB)).code == "not_author"
    cancelled = await uc.cancel_challenge(cid, ALICE)
    assert cancelled.ok and cancelled.challenge is not None
    assert cancelled.challenge.status == ChallengeStatus.CANCELLED
    assert (await uc.cancel_challenge(cid, ALICE)).code == "challenge_closed"
    assert (await uc.accept_challenge(cid, BOB, mix="x")).code == "challenge_closed"
    fair = await uc.fairness(created.challenge.match_id)
    assert fair is not None and fair.seed_hex is not None  # ended: the seed is revealed
    loaded = await uc.load_match(created.challenge.match_id)
    assert loaded.match is not None and loaded.match.status == MatchStatus.CANCELLED


async def test_step_undo_confirm_bump_the_version(uc: UseCases) -> None:
    view = (await new_match(uc)).match
    assert view is not None
    seat = view.state.turn
    actor = actor_of(view, seat)
    move = view.state.next_moves()[0]
    stepped = await uc.step(view.id, actor, view.version, move)
    assert stepped.ok and stepped.match is not None
    assert stepped.match.version == view.version + 1 and stepped.match.state.chosen == (move,)
    # The same tap again (old version): stale, nothing written.
    again = await uc.step(view.id, actor, view.version, move)
    assert again.outcome == Outcome.STALE and again.match is not None
    assert again.match.version == view.version + 1
    undone = await uc.undo(view.id, actor, stepped.match.version)
    assert undone.ok and undone.match is not None and undone.match.state.chosen == ()
    current = undone.match
    while not current.state.can_confirm():
        r = await uc.step(current.id, actor, current.version, current.state.next_moves()[0])
        assert r.ok and r.match is not None
        current = r.match
    confirmed = await uc.confirm(current.id, actor, current.version)
    assert confirmed.ok and confirmed.match is not None
    assert any(isinstance(e, TurnPlayed) and e.player == seat for e in confirmed.events)
    assert confirmed.match.state.turn_number >= 1
    record = await uc.match_record(view.id)
    assert record is not None and record.turns[0].player == seat


async def test_refusals_write_nothing(uc: UseCases) -> None:
    view = (await new_match(uc)).match
    assert view is not None
    other = actor_of(view, 1 - view.state.turn)
    wrong = await uc.confirm(view.id, other, view.version)
    assert wrong.outcome == Outcome.REFUSED and wrong.code == "not_your_turn"
    stranger = await uc.confirm(view.id, CAROL, view.version)
    assert stranger.code == "not_a_player"
    mover = actor_of(view, view.state.turn)
    bad = await uc.play(view.id, mover, view.version, "24/1")
    assert bad.outcome == Outcome.REFUSED and bad.message
    incomplete = await uc.confirm(view.id, mover, view.version)
    assert incomplete.outcome == Outcome.REFUSED
    assert (await uc.undo(view.id, mover, view.version)).code == "invalid_action"
    after = await uc.load_match(view.id)
    assert after.match is not None and after.match.version == view.version
    assert (await uc.step(404, ALICE, 1, view.state.next_moves()[0])).outcome == Outcome.NOT_FOUND


async def test_forced_plays_are_played_for_the_players(uc: UseCases) -> None:
    """Across whole matches, whenever a player had exactly one legal play it was played
    automatically, and no player is ever left to act with a single legal play."""
    import random

    from tests.storage.helpers import play_random_turn

    view = (await new_match(uc, length=3, mix="forced")).match
    assert view is not None
    rng = random.Random(3)
    forced_seen = 0
    while view.to_act is not None:
        assert view.state.forced_play() is None
        result = await play_random_turn(uc, view, rng)
        forced_seen += sum(1 for e in result.events if isinstance(e, TurnPlayed) and e.forced)
        assert result.match is not None
        view = result.match
    assert forced_seen > 0


async def test_resignation_offer_accept_and_decline(uc: UseCases) -> None:
    view = (await new_match(uc, length=3)).match
    assert view is not None
    mover = view.state.turn
    offered = await uc.offer_resignation(view.id, actor_of(view, mover), view.version, 1)
    assert offered.ok and offered.match is not None and offered.match.to_act == 1 - mover
    v = offered.match
    assert (await uc.answer_resignation(v.id, actor_of(v, mover), v.version, accept=True)).code
    declined = await uc.answer_resignation(v.id, actor_of(v, 1 - mover), v.version, accept=False)
    assert declined.ok and declined.match is not None and declined.match.to_act == mover
    v = declined.match
    offered = await uc.offer_resignation(v.id, actor_of(v, mover), v.version, 2)
    assert offered.match is not None
    v = offered.match
    accepted = await uc.answer_resignation(v.id, actor_of(v, 1 - mover), v.version, accept=True)
    assert accepted.ok and accepted.match is not None
    assert accepted.match.state.score[1 - mover] == 2 and accepted.match.state.game == 2
    record = await uc.match_record(v.id)
    assert record is not None and record.games[0].resigned and record.games[0].points == 2


async def test_resign_match_reveals_the_seed(uc: UseCases) -> None:
    view = (await new_match(uc, length=5)).match
    assert view is not None
    assert view.seed_hex is None
    resigned = await uc.resign_match(view.id, BOB)  # no version: a typed command
    assert resigned.ok and resigned.match is not None
    assert resigned.match.status == MatchStatus.FINISHED and resigned.match.state.winner == 0
    assert isinstance(resigned.events[-1], MatchEnded)
    assert resigned.match.seed_hex is not None and resigned.match.finished_at is not None
    assert (await uc.resign_match(view.id, ALICE)).code == "game_over"
    fair = await uc.fairness(view.id)
    assert fair is not None and fair.dice is not None and len(fair.dice) == fair.dice_drawn
    assert fair.verify_command is not None and fair.seed_hex in fair.verify_command


async def test_cancel_match_before_any_play(uc: UseCases) -> None:
    view = (await new_match(uc)).match
    assert view is not None
    if view.state.plays_made:  # a forced opening was played: cannot cancel
        assert (await uc.cancel_match(view.id, ALICE)).code == "invalid_action"
        return
    cancelled = await uc.cancel_match(view.id, BOB, view.version)
    assert cancelled.ok and cancelled.match is not None
    assert cancelled.match.status == MatchStatus.CANCELLED


async def test_match_against_the_computer(uc: UseCases) -> None:
    await players(uc)
    created = await uc.create_challenge(ALICE, length=1, chat_id=ALICE, computer_level=2)
    assert created.challenge is not None and created.challenge.computer_level == 2
    cid = created.challenge.id
    assert (await uc.accept_challenge(cid, BOB, mix="x")).code == "not_for_you"
    started = await uc.accept_challenge(cid, ALICE, mix="start-tap")
    assert started.ok and started.match is not None
    view = started.match
    assert view.seats[1].is_computer and view.seats[1].player is None
    assert view.computer_level == 2
    if not view.computer_to_act:
        played = await uc.play(view.id, ALICE, view.version, view.state.legal_plays()[0])
        assert played.match is not None
        view = played.match
    if view.computer_to_act:
        assert await uc.unclaimed_computer_turns() == [view.id]
        assert view.turn_deadline is None  # the computer is never timed out
        assert (await uc.play(view.id, ALICE, view.version, "8/2")).code == "not_your_turn"
        played = await uc.play(view.id, COMPUTER, view.version, view.state.legal_plays()[0])
        assert played.ok
    other = (await new_match(uc)).match
    assert other is not None
    assert (await uc.confirm(other.id, COMPUTER, other.version)).code == "not_a_player"


async def test_list_active_matches(uc: UseCases, clock: FakeClock) -> None:
    first = (await new_match(uc, mix="a")).match
    clock.advance(timedelta(minutes=1))
    second = (await new_match(uc, mix="b")).match
    assert first is not None and second is not None
    await uc.create_challenge(ALICE, length=1)  # an open challenge is not listed
    listed = await uc.list_active_matches(ALICE)
    assert {s.id for s in listed} == {first.id, second.id}
    mine = [s for s in listed if s.my_turn]
    assert listed[: len(mine)] == mine  # waiting-for-me first
    summary = next(s for s in listed if s.id == first.id)
    assert summary.my_seat == 0 and summary.opponent is not None and summary.opponent.id == BOB
    assert await uc.list_active_matches(CAROL) == []


async def test_board_messages_are_superseded(uc: UseCases) -> None:
    # Given a group match whose players started the bot: the group shows it, and the mover
    # plays on a private board
    await players(uc)
    for who in (ALICE, BOB):
        await uc.set_can_message(who, True)
    view = (await new_match(uc)).match
    assert view is not None and view.to_act is not None
    mover = view.seats[view.to_act].player
    assert mover is not None
    assert await posted(uc, "-100", 10) == []
    assert await posted(uc, str(mover.id), 5) == []
    # When the group's board is posted again, the older one there is superseded, not the
    # private one
    played = await uc.play(view.id, mover.id, view.version, view.state.legal_plays()[0])
    assert played.ok, played
    old = await posted(uc, "-100", 11)
    assert [(b.chat_id, b.message_id) for b in old] == [(-100, 10)]
    live = await uc.board_messages(view.id)
    assert sorted((b.chat_id, b.message_id) for b in live) == sorted([(-100, 11), (mover.id, 5)])
    loaded = await uc.load_match(view.id)
    assert loaded.match is not None and len(loaded.match.board_messages) == 2
    await uc.forget_board_message(live[0].id)
    assert len(await uc.board_messages(view.id)) == 1
    assert await uc.migrate_chat(-100, -200) >= 2
    assert {b.chat_id for b in await uc.board_messages(view.id)} <= {-200, mover.id}


async def test_inline_challenge_card(uc: UseCases) -> None:
    await players(uc)
    created = await uc.create_challenge(ALICE, length=1, inline=True)
    assert created.challenge is not None
    assert await uc.get_challenge(inline_message_id="AgAAAB") is None  # no card yet
    carded = await uc.set_challenge_card(created.challenge.id, inline_message_id="AgAAAB")
    assert carded.challenge is not None and carded.challenge.card_inline_message_id == "AgAAAB"
    # the challenge behind an inline message, found by it (what a tap there may name)
    assert await uc.get_challenge(inline_message_id="AgAAAB") == carded.challenge
    assert await uc.get_challenge(inline_message_id="AgAAAC") is None
    accepted = await uc.accept_challenge(created.challenge.id, BOB, mix="q")
    assert accepted.match is not None and accepted.match.place.inline_message_id == "AgAAAB"
    assert accepted.match.place.is_inline
