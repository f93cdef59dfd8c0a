"""Competitions through the use cases: sign-up refusals, a league's results and forfeits, a
cup's byes and round deadline; each result recorded once, whatever ticks race."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from storage.results import Outcome
from storage.usecases import UseCases
from tests.storage.conftest import FakeClock

GROUP = -500
P = [2001, 2002, 2003, 2004, 2005]


async def _people(uc: UseCases) -> None:
    for i, pid in enumerate(P):
        await uc.upsert_player(pid, f"P{i + 1}", username=f"p{i + 1}")


async def _open_all(uc: UseCases) -> list[int]:
    """Open and start every pairing's match as the bot does; their ids."""
    tick = await uc.competition_tick()
    ids = []
    for m in tick.to_start:
        made = await uc.create_challenge(m.home, target_id=m.away, chat_id=m.chat_id, group=True,
                                         length=m.length, game_type=m.game_type,
                                         competition_game=m.pairing_id)
        assert made.ok and made.challenge is not None
        again = await uc.create_challenge(m.home, target_id=m.away, chat_id=m.chat_id,
                                          group=True, length=m.length,
                                          competition_game=m.pairing_id)
        assert again.code == "already_paired"
        started = await uc.accept_challenge(made.challenge.id, m.away,
                                            mix=f"mix-{m.pairing_id}")
        assert started.ok and started.match is not None
        ids.append(started.match.id)
    return ids


async def test_sign_up_refusals(uc: UseCases) -> None:
    await _people(uc)
    made = await uc.create_competition(P[0], GROUP, kind="league")
    assert made.ok and made.competition is not None
    cid = made.competition.id
    assert (await uc.create_competition(P[1], GROUP)).code == "one_open_here"
    assert (await uc.join_competition(cid, P[0])).code == "already_joined"
    assert (await uc.start_competition(cid, P[0])).code == "too_few"
    assert (await uc.join_competition(cid, P[1])).ok
    assert (await uc.start_competition(cid, P[1])).code == "not_organiser"
    assert (await uc.leave_competition(cid, P[2])).code == "not_joined"
    assert (await uc.join_competition(987654, P[1])).outcome == Outcome.NOT_FOUND
    for pid in range(3000, 3010):
        await uc.upsert_player(pid, str(pid))
        assert (await uc.join_competition(cid, pid)).ok
    full = await uc.join_competition(cid, P[2])
    assert full.code == "competition_full" and full.competition is not None
    assert len(full.competition.entrants) == 12
    v = full.competition.version
    stale = await uc.configure_competition(cid, P[0], v - 1, {"length": 5})
    assert stale.outcome == Outcome.STALE
    assert (await uc.configure_competition(cid, P[0], v, {"length": 4})).code == "bad_setting"
    started = await uc.start_competition(cid, P[0])
    assert started.ok and started.competition is not None
    assert len(started.competition.pairings) == 66
    assert (await uc.join_competition(cid, P[2])).code == "signup_closed"


async def test_a_league_records_each_result_once(uc: UseCases) -> None:
    await _people(uc)
    made = await uc.create_competition(P[0], GROUP, kind="league", length=1)
    cid = made.competition.id  # type: ignore[union-attr]
    for pid in P[1:3]:
        await uc.join_competition(cid, pid)
    await uc.start_competition(cid, P[0])
    ids = await _open_all(uc)
    assert len(ids) == 3 and (await uc.competition_tick()).to_start == ()
    view = await uc.get_competition(cid)
    assert view is not None
    [first, *_] = view.pairings
    res = await uc.resign_match(first.match_id, first.player1)
    assert res.ok
    # two instances' ticks at once: the result is recorded once, its card's row written once
    ticks = await asyncio.gather(uc.competition_tick(), uc.competition_tick())
    assert sorted(t.chat_keys for t in ticks) == [(), (str(GROUP),)]
    assert (await uc.competition_tick()).chat_keys == ()
    after = await uc.get_competition(cid)
    assert after is not None and after.version == view.version + 1
    view = await uc.get_competition(cid)
    table = view.table()  # type: ignore[union-attr]
    assert table[0].player == first.player0 and table[0].points == 1
    # P3 leaves the group: their matches are forfeits, the league ends
    for match_id, _ in await uc.member_left(GROUP, P[2]):
        assert (await uc.forfeit_left(match_id, P[2])).ok
    await uc.competition_tick()
    view = await uc.get_competition(cid)
    assert view is not None and view.status == "running"
    theirs = [p for p in view.pairings if P[2] in (p.player0, p.player1) and p.id != first.id]
    assert theirs and all(p.reason == "left" and p.winner != P[2] for p in theirs)
    for rest in [p for p in view.pairings if not p.decided]:
        assert (await uc.resign_match(rest.match_id, rest.player0)).ok
    await uc.competition_tick()
    view = await uc.get_competition(cid)
    assert view is not None and view.status == "finished" and view.winner_id is not None
    assert (await uc.titles_of(view.winner_id)) == {"league": 1}


async def test_a_cup_with_byes_and_a_round_deadline(uc: UseCases, clock: FakeClock) -> None:
    await _people(uc)
    made = await uc.create_competition(P[0], GROUP, kind="cup", length=1, round_seconds=3600)
    cid = made.competition.id  # type: ignore[union-attr]
    for pid in P[1:]:
        await uc.join_competition(cid, pid)
    clock.advance(timedelta(days=2))  # the sign-up's end starts it
    await uc.competition_tick()
    view = await uc.get_competition(cid)
    assert view is not None and view.status == "running"
    assert [p.reason for p in view.pairings if p.round == 0].count("bye") == 3
    ids = await _open_all(uc)
    assert len(ids) == 1  # seeds 4 and 5 play; 2 and 3 wait for the round
    # nobody still in a cup goes on vacation: its rounds have deadlines
    assert {(await uc.take_vacation(pid, 3)).code for pid in P} == {"cup_round"}
    clock.advance(timedelta(hours=2))
    await uc.competition_tick()  # the deadline: the player to move loses
    view = await uc.get_competition(cid)
    assert view is not None and view.round == 1
    [played] = [p for p in view.pairings if p.round == 0 and p.reason != "bye"]
    assert played.reason == "deadline" and played.winner is not None
    loser = next(pid for pid in (played.player0, played.player1) if pid != played.winner)
    assert loser is not None
    assert (await uc.take_vacation(loser, 3)).ok  # knocked out: free to go
    assert (await uc.take_vacation(played.winner, 3)).code == "cup_round"
    ids = await _open_all(uc)
    assert len(ids) == 2
    for mid in ids:
        mv = (await uc.load_match(mid)).match
        assert mv is not None
        await uc.resign_match(mid, mv.seats[1].player.id)  # type: ignore[union-attr]
    await uc.competition_tick()
    ids = await _open_all(uc)
    assert len(ids) == 1
    mv = (await uc.load_match(ids[0])).match
    await uc.resign_match(ids[0], mv.seats[0].player.id)  # type: ignore[union-attr]
    await uc.competition_tick()
    view = await uc.get_competition(cid)
    assert view is not None and view.status == "finished"
    assert view.winner_id == mv.seats[1].player.id  # type: ignore[union-attr]
    assert view.bracket().champion == view.winner_id


async def test_a_league_nobody_plays_ends_at_its_deadline(uc: UseCases, clock: FakeClock) -> None:
    await _people(uc)
    made = await uc.create_competition(P[0], GROUP, kind="league", round_seconds=86_400)
    cid = made.competition.id  # type: ignore[union-attr]
    for pid in P[1:4]:
        await uc.join_competition(cid, pid)
    await uc.start_competition(cid, P[0])
    ids = await _open_all(uc)
    assert len(ids) == 6
    first = (await uc.get_competition(cid)).pairings[0]  # type: ignore[union-attr]
    assert (await uc.resign_match(first.match_id, first.player0)).ok  # type: ignore[arg-type]
    await uc.competition_tick()
    clock.advance(timedelta(days=1, minutes=1))
    tick = await uc.competition_tick()
    assert tick.chat_keys == (str(GROUP),) and tick.to_start == ()
    view = await uc.get_competition(cid)
    assert view is not None and view.status == "finished"
    assert view.winner_id == first.player1  # the standings as they are: one result
    assert [p.reason for p in view.pairings].count("void") == 5
    for mid in ids[1:]:
        mv = (await uc.load_match(mid)).match
        assert mv is not None and mv.status == "cancelled"


async def test_a_winner_and_organiser_can_be_forgotten(uc: UseCases) -> None:
    await _people(uc)
    made = await uc.create_competition(P[0], GROUP, kind="cup", length=1)
    cid = made.competition.id  # type: ignore[union-attr]
    await uc.join_competition(cid, P[1])
    await uc.start_competition(cid, P[0])
    [mid] = await _open_all(uc)
    assert (await uc.resign_match(mid, P[1])).ok
    await uc.competition_tick()
    assert (await uc.titles_of(P[0])) == {"cup": 1}
    assert (await uc.forget_player(P[0])).value == "done"
    view = await uc.get_competition(cid)
    assert view is not None and view.status == "finished"
    assert view.winner_id is not None and view.winner_id < 0 and view.organiser_id < 0
    assert P[0] not in {e.player.id for e in view.entrants}
    assert (await uc.titles_of(P[0])) == {}
