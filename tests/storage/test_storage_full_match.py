"""A whole match through the use cases, reloaded from a fresh session and replayed from the log;
the stand-alone verifier reproduces its dice."""

from __future__ import annotations

import subprocess
import sys

from rules.common.dice import RecordedDice
from rules.common.fairdice import FairDice, verify_commitment
from rules.match import Phase
from storage.db import Database
from storage.replay import ReplayMismatch, replay
from storage.results import MatchStatus
from storage.usecases import UseCases
from tests.storage.conftest import FakeClock
from tests.storage.helpers import new_match, play_to_end


async def test_full_match_replays_from_the_log(uc: UseCases, db_url: str, clock: FakeClock) -> None:
    start = (await new_match(uc, length=3, mix="callback-5550123")).match
    assert start is not None
    final = await play_to_end(uc, start, seed=11)
    assert final.status == MatchStatus.FINISHED and final.state.phase == Phase.MATCH_OVER
    assert max(final.state.score) >= 3

    fresh_db = Database.from_url(db_url)  # a fresh engine and session: nothing cached
    try:
        fresh = UseCases(fresh_db, clock=clock)
        record = await fresh.match_record(final.id)
        assert record is not None
        assert record.match.state == final.state and record.match.version == final.version
        assert len(record.games) == len(final.state.results)
        assert all(g.winner is not None for g in record.games)
        assert [g.points for g in record.games] == [r.points for r in final.state.results]

        seed_hex = record.match.seed_hex
        assert seed_hex is not None and record.match.mix is not None
        assert verify_commitment(seed_hex, record.match.commitment)
        replayed = replay(record, FairDice(seed_hex, record.match.mix))
        assert replayed == final.state
        assert replayed.score == final.state.score and replayed.position == final.state.position

        # The stand-alone verifier (stdlib only, a separate process) reproduces every die.
        fair = await fresh.fairness(final.id)
        assert fair is not None and fair.dice is not None
        out = subprocess.run(
            [
                sys.executable,
                "-m",
                "rules.common.fairdice",
                "--seed",
                seed_hex,
                "--mix",
                record.match.mix,
                "--count",
                str(fair.dice_drawn),
                "--commitment",
                fair.commitment,
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        assert out.stdout.splitlines()[0].startswith("commitment OK")
        dice = tuple(int(d) for d in out.stdout.splitlines()[1].split())
        assert dice == fair.dice
        # ... and those dice alone replay the match from the log.
        assert replay(record, RecordedDice(dice)) == final.state

        # A tampered log is caught.
        first = record.turns[0]
        bad_turns = (first.__class__(**{**first.__dict__, "dice": first.dice[::-1]}),)
        tampered = record.__class__(record.match, record.games, bad_turns + record.turns[1:])
        if first.dice[0] != first.dice[1]:
            try:
                replay(tampered, FairDice(seed_hex, record.match.mix))
            except ReplayMismatch:
                pass
            else:
                raise AssertionError("a tampered log replayed cleanly")
    finally:
        await fresh_db.dispose()


async def test_match_with_resigned_games_replays(uc: UseCases) -> None:
    view = (await new_match(uc, length=5, mix="resign-mix")).match
    assert view is not None
    for _ in range(2):  # two games resigned for 2 points each
        mover = view.state.turn
        actor = view.seats[mover].player
        other = view.seats[1 - mover].player
        assert actor is not None and other is not None
        offered = await uc.offer_resignation(view.id, actor.id, view.version, 2)
        assert offered.match is not None
        answered = await uc.answer_resignation(
            view.id, other.id, offered.match.version, accept=True
        )
        assert answered.ok and answered.match is not None
        view = answered.match
    final = await play_to_end(uc, view, seed=5)
    record = await uc.match_record(final.id)
    assert record is not None and record.match.seed_hex and record.match.mix
    assert [g.resigned for g in record.games][:2] == [True, True]
    assert replay(record, FairDice(record.match.seed_hex, record.match.mix)) == final.state


async def test_resigned_match_replays(uc: UseCases) -> None:
    view = (await new_match(uc, length=3, mix="resign-match")).match
    assert view is not None
    resigned = await uc.resign_match(view.id, view.seats[1].player.id)  # type: ignore[union-attr]
    assert resigned.match is not None
    record = await uc.match_record(view.id)
    assert record is not None and record.match.seed_hex and record.match.mix
    assert replay(record, FairDice(record.match.seed_hex, record.match.mix)) == (
        resigned.match.state
    )
